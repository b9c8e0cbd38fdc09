/* variogram.c - the experimental variogram, its nugget and sill
 * (variogram.h). GSL has no variogram; the pair loop is the definition. */
#include "sa/variogram.h"
#include "core/err.h"
#include "core/rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_fit.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_statistics_double.h>

/* The jobs whose pairs are taken: all, or a seeded subset. */
static size_t *
pick_jobs(size_t n, unsigned long seed, size_t *m)
{
	size_t *all = sr_calloc(n + 1, sizeof *all), *pick, i;
	gsl_rng *rng;

	for (i = 0; i < n; i++)
		all[i] = i;
	if (n <= SR_VARIOGRAM_MAX_JOBS) {
		*m = n;
		return all;
	}
	if ((rng = sr_rng_new(seed)) == NULL)
		sr_die(SR_EXIT_IO, "out of memory (random generator)");
	*m = SR_VARIOGRAM_MAX_JOBS;
	pick = sr_calloc(*m, sizeof *pick);
	gsl_ran_choose(rng, pick, *m, all, n, sizeof *all);
	gsl_rng_free(rng);
	free(all);
	return pick;
}

/* The lag of a distance d > 0: bins (b w, (b+1) w], a distance within a
 * relative 1e-9 of a bin's end counting as in it. */
static size_t
lag_of(double d, double w, size_t lags)
{
	double b = ceil(d / w - 1e-9) - 1;

	return b <= 0 ? 0 : b >= (double)lags ? lags - 1 : (size_t)b;
}

/* The largest distance between two of the jobs. */
static double
largest_distance(const sr_cube *c, const double *x, const size_t *job,
    size_t m)
{
	double dmax = 0;
	size_t a, b;

	for (a = 0; a < m; a++)
		for (b = a + 1; b < m; b++)
			dmax = fmax(dmax, sr_cube_dist2(c, x + job[a] * c->dim,
			    x + job[b] * c->dim));
	return sqrt(dmax);
}

/* Accumulates every pair into its lag, then means. */
static void
fill_lags(sr_variogram *v, const sr_cube *c, const double *x,
    const double *y, const size_t *job, size_t m)
{
	double w = v->dmax / (double)v->lags, d, dy;
	size_t a, b, l;

	for (a = 0; a < m; a++)
		for (b = a + 1; b < m; b++) {
			d = sqrt(sr_cube_dist2(c, x + job[a] * c->dim,
			    x + job[b] * c->dim));
			if (d == 0)
				continue;
			l = lag_of(d, w, v->lags);
			dy = y[job[a]] - y[job[b]];
			v->dist[l] += d;
			v->gamma[l] += dy * dy;
			v->pairs[l]++;
		}
	for (l = 0; l < v->lags; l++) {
		v->dist[l] = v->pairs[l] ? v->dist[l] / (double)v->pairs[l] : NAN;
		v->gamma[l] = v->pairs[l] ? v->gamma[l] / (2.0 *
		    (double)v->pairs[l]) : NAN;
	}
}

/* The least-squares line through the first three non-empty lags. */
static void
fit_nugget(sr_variogram *v)
{
	double lx[3], ly[3], c0, c1, cov00, cov01, cov11, sumsq;
	size_t l, n = 0;

	for (l = 0; l < v->lags && n < 3; l++)
		if (v->pairs[l]) {
			lx[n] = v->dist[l];
			ly[n++] = v->gamma[l];
		}
	v->intercept = v->nugget = NAN;
	if (n < 3)
		return;
	gsl_fit_linear(lx, 1, ly, 1, 3, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
	v->intercept = c0;
	v->nugget = c0 > 0 ? c0 : 0;
}

int
sr_variogram_compute(sr_variogram *v, const sr_cube *c, const double *x,
    const double *y, size_t n, size_t lags, unsigned long seed,
    char *errbuf)
{
	size_t m, *job;

	memset(v, 0, sizeof *v);
	if (n < 2) {
		sr_seterr(errbuf, "%zu job%s: no pairs", n, n == 1 ? "" : "s");
		return -1;
	}
	job = pick_jobs(n, seed, &m);
	v->lags = lags;
	v->used = m;
	v->sill = gsl_stats_variance(y, 1, n);
	if ((v->dmax = largest_distance(c, x, job, m)) == 0) {
		free(job);
		sr_seterr(errbuf, "every job is at the same point: no distances");
		return -1;
	}
	v->dist = sr_calloc(lags, sizeof *v->dist);
	v->gamma = sr_calloc(lags, sizeof *v->gamma);
	v->pairs = sr_calloc(lags, sizeof *v->pairs);
	fill_lags(v, c, x, y, job, m);
	fit_nugget(v);
	free(job);
	return 0;
}

void
sr_variogram_free(sr_variogram *v)
{
	free(v->dist);
	free(v->gamma);
	free(v->pairs);
	memset(v, 0, sizeof *v);
}
