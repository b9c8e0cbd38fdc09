/* pawn.h - PAWN, the density-based indices of Pianosi and Wagener
 * (Environ. Model. Softw. 67:1-11, 2015; 108:197-207, 2018), from any
 * sample, as SALib.analyze.pawn computes them: each parameter's range
 * cut at its quantiles 0, 1/S, ..., 1 into S slices; in each slice the
 * Kolmogorov-Smirnov distance between the outputs of the runs in it
 * (lower quantile included, upper excluded) and all the outputs; the
 * minimum, mean, median, maximum and coefficient of variation of those
 * distances over the slices with runs. The median is the index. Pure
 * code: no I/O, no exits. */
#ifndef SR_PAWN_H
#define SR_PAWN_H

#include <stddef.h>

#define SR_PAWN_S 10	/* slices by default, as SALib */

/* The statistics of each parameter's distances (k each). */
typedef struct {
	size_t k;
	double *min, *mean, *median, *max, *cv;
} sr_pawn_result;

/* The indices of k parameters from n runs: x row by row (n rows of k),
 * y their outputs (finite); s slices (>= 2); the parameters on up to
 * threads threads (the same results for any). 0, or -1 with a message
 * in err (SR_ERRLEN). */
int sr_pawn_analyze(const double *x, const double *y, size_t n, size_t k,
    size_t s, size_t threads, sr_pawn_result *r, char *err);
void sr_pawn_result_free(sr_pawn_result *r);

/* The q-quantile of sorted[0..n) by linear interpolation between order
 * statistics (numpy.quantile's default), computed as numpy does. */
double sr_pawn_quantile(const double *sorted, size_t n, double q);

#endif
