/* variogram.h - the experimental variogram of an experiment's values over
 * unit-cube distances (knn.h), its nugget and sill: how much of the
 * values' variance is noise at distance 0 (sa-prune's paggr auto).
 *
 * Pure numerical code: no file I/O, no exits. */
#ifndef SR_VARIOGRAM_H
#define SR_VARIOGRAM_H

#include <stddef.h>

#include "core/err.h"
#include "sa/knn.h"

/* Jobs beyond which the pairs are those of a random subset of this many
 * (12.5 million pairs). */
#define SR_VARIOGRAM_MAX_JOBS 5000

typedef struct {
	size_t lags;		/* lag bins: (0, w], (w, 2w], ..., w = dmax/lags */
	double dmax;		/* the largest distance between two jobs */
	double *dist;		/* lags: the mean distance of the lag's pairs */
	double *gamma;		/* lags: half their mean squared difference */
	size_t *pairs;		/* lags: pairs (0: an empty lag, NaN above) */
	size_t used;		/* jobs whose pairs were taken */
	double intercept;	/* of the least-squares line through the first
				 * three non-empty lags; NaN when fewer */
	double nugget;		/* the intercept clamped at 0 (NaN too) */
	double sill;		/* the variance (n - 1) of all the values */
} sr_variogram;

/* The variogram of the values y of n jobs at the points x (n * dim
 * coordinates of cube c), in lags equal lag bins from 0 to the largest
 * distance; pairs at distance 0 (the same point twice) are not counted.
 * Of more than SR_VARIOGRAM_MAX_JOBS jobs, a subset drawn with seed.
 * Returns 0, or -1 with the reason in errbuf (SR_ERRLEN bytes): fewer
 * than 2 jobs, or no two jobs apart. */
int sr_variogram_compute(sr_variogram *v, const sr_cube *c, const double *x,
    const double *y, size_t n, size_t lags, unsigned long seed,
    char *errbuf);
void sr_variogram_free(sr_variogram *v);

#endif
