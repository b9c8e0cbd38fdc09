/* delta.h - Borgonovo's moment-independent delta index and the first-
 * order index, both from any sample by the given-data estimators of
 * Plischke, Borgonovo and Smith (Eur. J. Oper. Res. 226(3):536-550,
 * 2013), as SALib.analyze.delta computes them:
 *
 * the runs ranked by one parameter (ties in run order) and cut into M
 * classes of equal counts, M = min(ceil(N^(2 / (7 + tanh((1500 - N) /
 * 500)))), 48); the output's density by a Gaussian kernel estimate
 * (Silverman's bandwidth) over 100 points from its minimum to its
 * maximum, for all runs and for each class; delta-hat = sum over classes
 * of n_m / (2N) times the trapezoid integral of the densities'
 * absolute difference (a class of one output value: the density of all
 * runs alone). Bias reduced with bootstrap replicates r_b of N runs drawn
 * with replacement: delta = mean of 2 delta-hat - r_b, its interval
 * half-width z sd(2 delta-hat - r_b). S1 = sum over classes of n_m / N
 * times (class mean - mean)^2 over the variance, its interval from the
 * same replicates.
 *
 * SALib computes delta-hat and S1 on a bootstrap resample of the runs
 * too; here they are of the runs themselves (sa-indices(1)). Pure
 * code: no I/O, no exits. */
#ifndef SR_DELTA_H
#define SR_DELTA_H

#include <stddef.h>

#define SR_DELTA_GRID 100	/* points of the density estimates */

typedef struct {
	size_t k;
	double *delta, *delta_conf, *S1, *S1_conf;	/* k each */
} sr_delta_result;

/* The indices of k parameters from n runs: x row by row (n rows of k),
 * y their outputs (finite); resamples bootstrap replicates (0: delta is
 * delta-hat, no bias reduction, no intervals; 1: no intervals) at level
 * conf. 0, or -1 with a message in err (SR_ERRLEN). */
int sr_delta_analyze(const double *x, const double *y, size_t n, size_t k,
    size_t resamples, double conf, unsigned long seed, sr_delta_result *r,
    char *err);
void sr_delta_result_free(sr_delta_result *r);

/* The classes of n runs: M (above). */
size_t sr_delta_classes(size_t n);

#endif
