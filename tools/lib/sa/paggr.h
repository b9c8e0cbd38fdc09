/* paggr.h - sa-prune's aggressiveness: fixed, or chosen from an
 * experiment's values by their variogram (paggr = 1 - nugget / sill),
 * and when the values are not normal (Jarque-Bera) or not stationary
 * (the jobs split at each parameter's median: Welch's t on the means, an
 * F test on the variances) by the score of its best jobs (the top share
 * rule), or a fixed fallback.
 *
 * Pure numerical code: no file I/O, no exits. */
#ifndef SR_PAGGR_H
#define SR_PAGGR_H

#include <stddef.h>

#include "core/err.h"
#include "sa/knn.h"
#include "sa/variogram.h"

#define SR_PAGGR_NORMAL_ALPHA 0.05	/* Jarque-Bera */
#define SR_PAGGR_STATIONARY_ALPHA 0.01	/* each split's two tests */

enum sr_paggr_method {
	SR_PAGGR_FIXED,		/* --paggr P */
	SR_PAGGR_VARIOGRAM,	/* 1 - nugget / sill, capped */
	SR_PAGGR_TOP,		/* a test failed, or no variogram: the
				 * score its best top share of jobs reach
				 * over the best score, capped */
	SR_PAGGR_FALLBACK	/* the same with --paggr-fallback: fixed */
};

/* A test of normality: the Jarque-Bera statistic and its p-value (the
 * chi-squared distribution with 2 degrees of freedom). */
typedef struct {
	double statistic, p;	/* NaN: not computed (fewer than 3 values,
				 * or constant ones) */
} sr_jarque_bera;

/* One parameter's split at its median: the jobs at or below it against
 * those above (or below it against those at or above, when nothing lies
 * above); split = 0 when either side has fewer than 2 jobs. */
typedef struct {
	int split;
	double median;
	size_t nlow, nhigh;
	double t, t_df, t_p;	/* Welch's t on the means, its degrees of
				 * freedom, the two-sided p */
	double f, f_p;		/* variance ratio low / high, two-sided p */
} sr_split_test;

/* What paggr auto found. */
typedef struct {
	enum sr_paggr_method method;
	double paggr;
	char why[SR_ERRLEN];	/* why not the variogram; "" otherwise */
	double top_score;	/* SR_PAGGR_TOP: the score of the top share */
	sr_jarque_bera jb;
	size_t dim;
	sr_split_test *split;	/* dim, one per parameter */
	int have_variogram;
	sr_variogram vg;
} sr_paggr;

/* The Jarque-Bera test of y[0..n). */
sr_jarque_bera sr_jarque_bera_test(const double *y, size_t n);

/* The split test of the values y of n jobs at parameter values v[i *
 * stride] (the parameter's column of a row-major table). */
sr_split_test sr_split_test_at_median(const double *v, size_t stride,
    const double *y, size_t n);

/* How paggr auto works: the variogram's lags, the cap on paggr, the top
 * share and the top share rule's floor, the fixed fallback (NaN: the top
 * share rule), and the seed of the variogram's subset of jobs. */
typedef struct {
	size_t lags;
	double max, fallback;
	unsigned long seed;
	double top, min;
} sr_paggr_opts;

/* The top share rule: the score the best top share of the n values y
 * reach (their (1 - top) quantile, interpolated as R's type 7) over
 * their largest, within [min, max]; NaN when the largest is not
 * positive. The quantile is written to *score. */
double sr_paggr_top(const double *y, size_t n, double top, double min,
    double max, double *score);

/* Chooses paggr from the values y of n jobs of space s with parameter
 * values raw (n * s->n, row-major) at the points x (their coordinates in
 * cube c): when the values fail normality, or stationarity in any
 * parameter's split, or have no variogram (fewer than three non-empty
 * lags, constant values), the fixed fallback when o->fallback is a
 * number, else the top share rule; else 1 - nugget / sill, within
 * [0, max]. Every test is run and kept, whichever decides. */
void sr_paggr_auto(sr_paggr *a, const sr_space *s, const sr_cube *c,
    const double *raw, const double *x, const double *y, size_t n,
    const sr_paggr_opts *o);
void sr_paggr_free(sr_paggr *a);

#endif
