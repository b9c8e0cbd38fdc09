/* corr.h - correlation and regression sensitivity measures.
 *
 * Pure numerical code: no file I/O, no exits. Every function returns 0 on
 * success and -1 with a message in errbuf (size SR_ERRLEN) otherwise.
 * Bootstrap resampling uses GSL's mt19937 seeded with the given seed, so the
 * same inputs and seed give the same bytes.
 */
#ifndef SR_CORR_H
#define SR_CORR_H

#include <stddef.h>

#ifndef SR_ERRLEN
#define SR_ERRLEN 256
#endif

/* ---- correlation measures ----------------------------------------------
 * x: n rows of k inputs (row-major), y: n outputs. For each input: Pearson
 * and Spearman correlation, partial correlation (PCC) and its rank version
 * (PRCC), standardized regression coefficient (SRC) and its rank version
 * (SRRC), each with a two-sided p-value. */
enum sr_corr_measure {
	SR_PEARSON, SR_SPEARMAN, SR_PCC, SR_PRCC, SR_SRC, SR_SRRC, SR_NCORR
};
extern const char *const sr_corr_names[SR_NCORR];

typedef struct {
	size_t k;
	double *value[SR_NCORR];	/* k each */
	double *pvalue[SR_NCORR];	/* k each */
	double r2, r2_rank;		/* R^2 of the linear and rank regressions */
} sr_corr_result;

int sr_corr_analyze(const double *x, const double *y, size_t n, size_t k,
    sr_corr_result *out, char *errbuf);
void sr_corr_result_free(sr_corr_result *res);

#endif
