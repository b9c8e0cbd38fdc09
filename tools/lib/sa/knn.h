/* knn.h - distances in the unit cube of a space, the k-nearest-neighbour
 * surrogate of an experiment, and the rank correlation of two
 * experiments (sa-prune, after the JobPruner study).
 *
 * Pure numerical code: no file I/O, no exits. */
#ifndef SR_KNN_H
#define SR_KNN_H

#include <stddef.h>

#include "sa/space.h"

/* How far apart two parameter sets of a space are. A grid of two or more
 * values and a range are scaled to [0,1] by their ends: coordinate
 * (v - lo) / (hi - lo), which may leave [0,1] for a value off the space
 * (a default, another experiment's value). A list, an enum and a single
 * value are categories: two different values are at distance 1. The
 * distance is the Euclidean one over the parameters. */
typedef struct {
	size_t dim;		/* parameters */
	double *lo;		/* dim: scaled coordinates' origin */
	double *width;		/* dim: hi - lo, or 0 for a category */
} sr_cube;

/* Sets up c for the parameters of s. */
void sr_cube_init(sr_cube *c, const sr_space *s);
void sr_cube_free(sr_cube *c);
/* Writes the coordinates of the parameter set v (s's order) to u: the
 * scaled coordinate, or the value itself for a category. */
void sr_cube_point(const sr_cube *c, const double *v, double *u);
/* The squared distance between the points a and b (coordinates). */
double sr_cube_dist2(const sr_cube *c, const double *a, const double *b);

/* The surrogate of an experiment: its n jobs at the points x (n * dim
 * coordinates) with the values y; the prediction at a point is the mean
 * value of its k nearest jobs (all n when k > n; of jobs at the same
 * distance the earlier ones first). */
typedef struct {
	const sr_cube *cube;
	size_t n, k;
	const double *x, *y;
} sr_knn;

/* The surrogate's prediction at the point u; NaN when it has no jobs. */
double sr_knn_predict(const sr_knn *m, const double *u);

/* The similarity of two experiments (sa-prune's ncorr): Spearman's rank
 * correlation of f and p over s points, Pearson's r of their ranks with
 * ties at their mean rank; NaN when s < 2 or either is constant. */
double sr_rank_corr(const double *f, const double *p, size_t s);

#endif
