/* analyze.h - sensitivity indices from a design and its outputs.
 *
 * Pure numerical code: no file I/O, no exits. Every function returns 0 on
 * success and -1 with a message in errbuf (size SR_ERRLEN) otherwise.
 * Bootstrap resampling uses GSL's mt19937 seeded with the given seed, so the
 * same inputs and seed give the same bytes.
 */
#ifndef SR_ANALYZE_H
#define SR_ANALYZE_H

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
} sr_sobol_result;

int sr_sobol_analyze(const double *y, size_t n, size_t k, int second_order,
    size_t resamples, double conf, int percentile, unsigned long seed,
    sr_sobol_result *out, char *errbuf);
void sr_sobol_result_free(sr_sobol_result *res);

/* ---- MOAT: Morris elementary effects -----------------------------------
 * u: r*(k+1) rows of k unit-cube coordinates (after snapping), y: r*(k+1)
 * outputs; consecutive rows of a trajectory differ in exactly one column.
 * keep[t] (may be NULL) says whether trajectory t is used. EE = dy / du
 * with du the signed actual step. sigma with ddof=1; mu_star_conf is the
 * z(conf)*sd bootstrap interval half-width of mu*. */
typedef struct {
	size_t k;
	double *mu, *mu_star, *sigma, *mu_star_conf;	/* k each */
} sr_morris_result;

int sr_morris_analyze(const double *u, const double *y, size_t r, size_t k,
    const int *keep, size_t resamples, double conf, unsigned long seed,
    sr_morris_result *out, char *errbuf);
void sr_morris_result_free(sr_morris_result *res);

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

/* ---- Morris trajectory selection (sa-sample --optimize) -----------------
 * traj: r trajectories of (k+1) points of k unit coordinates, row-major.
 * Picks the `want` trajectories that maximize the Campolongo 2007 spread
 * sqrt(sum over pairs of d(m,l)^2), d the sum of Euclidean distances
 * between the points of two trajectories; brute force over all subsets
 * when there are at most `brute_limit` of them, else the local search of
 * Ruano et al. 2012 as SALib implements it. chosen receives `want`
 * trajectory indices in increasing order. */
int sr_morris_select(const double *traj, size_t r, size_t k, size_t want,
    double brute_limit, size_t *chosen, char *errbuf);

#endif
