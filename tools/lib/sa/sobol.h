/* sobol.h - Sobol indices (VBD) from a Saltelli design's outputs.
 *
 * Pure numerical code: no file I/O, no exits. Every function returns 0 on
 * success and -1 with a message in errbuf (size SR_ERRLEN) otherwise.
 * Bootstrap resampling uses GSL's mt19937 seeded with the given seed, so the
 * same inputs and seed give the same bytes.
 */
#ifndef SR_SOBOL_H
#define SR_SOBOL_H

#include <stddef.h>

#ifndef SR_ERRLEN
#define SR_ERRLEN 256
#endif

/* ---- VBD: Saltelli/Sobol pick-and-freeze -------------------------------
 * y holds n blocks in SALib's order: A, AB_1..AB_k, [BA_1..BA_k], B, so a
 * block has k+2 rows, or 2k+2 with second order. S1 after Saltelli 2010,
 * ST after Jansen 1999, S2 as in SALib; variances over the A and B rows.
 * Confidence: z(conf) * sd of `resamples` bootstrap replicates; with
 * percentile != 0 also the percentile interval of the replicates. */
typedef struct {
	size_t k;
	double *S1, *S1_conf, *S1_lo, *S1_hi;	/* k each */
	double *ST, *ST_conf, *ST_lo, *ST_hi;	/* k each */
	double *S2, *S2_conf, *S2_lo, *S2_hi;	/* k*k row-major, i<j used; NULL without second order */
	double S1_sum, S1_sum_conf;	/* the sum of the S1, its half-width
					 * from the same replicates */
} sr_sobol_result;

int sr_sobol_analyze(const double *y, size_t n, size_t k, int second_order,
    size_t resamples, double conf, int percentile, unsigned long seed,
    sr_sobol_result *out, char *errbuf);
void sr_sobol_result_free(sr_sobol_result *res);

#endif
