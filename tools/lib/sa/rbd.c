/* rbd.c - RBD-FAST designs and first-order indices (rbd.h). */
#include "sa/rbd.h"
#include "core/err.h"
#include "sa/draws.h"
#include "sa/sobol.h"
#include "sa/spectrum.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PI 3.14159265358979323846

void
sr_rbd_curve(size_t n, double delta, double *x)
{
	size_t t;

	for (t = 0; t < n; t++)
		x[t] = 0.5 + asin(sin(-PI + 2 * PI * ((double)t + delta) /
		    (double)n)) / PI;
}

/* The values being sorted (qsort has no argument for them). */
static const double *sort_key;

/* By value, ties by place: a stable order, the same on every platform. */
static int
by_key(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	if (sort_key[i] != sort_key[j])
		return sort_key[i] < sort_key[j] ? -1 : 1;
	return (i > j) - (i < j);
}

/* One parameter's S1 from len runs: xv and yv its values and outputs.
 * The runs in the order of xv, those at even places first, then those
 * at odd places backwards; the periodogram of their outputs (mean
 * removed, one-sided: every frequency doubled but 0 and, of an even
 * len, len / 2, as scipy.signal.periodogram); the share of its sum in
 * frequencies 1..M, unskewed. idx, yp and p hold len doubles. */
static double
first_order(const double *xv, const double *yv, size_t len, size_t m,
    sr_spectrum *spec, size_t *idx, double *yp, double *p)
{
	size_t j, f, half = len / 2;
	double mean = 0, v = 0, d1 = 0, s1, lamb, w;

	for (j = 0; j < len; j++)
		idx[j] = j;
	sort_key = xv;
	qsort(idx, len, sizeof *idx, by_key);
	for (j = 0; j < len; j += 2)
		yp[j / 2] = yv[idx[j]];
	for (j = 1; j < len; j += 2)
		yp[len - 1 - j / 2] = yv[idx[j]];
	for (j = 0; j < len; j++)
		mean += yp[j];
	mean /= (double)len;
	for (j = 0; j < len; j++)
		yp[j] -= mean;
	sr_spectrum_power(spec, yp, p);
	for (f = 1; f <= half; f++) {
		w = len % 2 == 0 && f == half ? p[f] : 2 * p[f];
		v += w;
		if (f <= m)
			d1 += w;
	}
	s1 = d1 / v;
	lamb = 2 * (double)m / (double)len;
	return s1 - lamb / (1 - lamb) * (1 - s1);
}

int
sr_rbd_analyze(const double *x, const double *y, size_t n, size_t k,
    size_t m, size_t resamples, double conf, unsigned long seed,
    double *s1, double *s1_conf, char *err)
{
	size_t i, j, b, h = n / 2, *idx, *draw;
	double *xv, *yv, *yp, *p, *rep, z = gsl_cdf_ugaussian_Pinv(0.5 + conf / 2);
	sr_spectrum *full, *half;
	sr_draws *rng;

	if (m == 0 || h <= 2 * m) {	/* the bootstrap's halves too */
		snprintf(err, SR_ERRLEN, "RBD-FAST with M = %zu harmonics needs "
		    "at least %zu runs, not %zu", m, SR_RBD_MIN_RUNS(m), n);
		return -1;
	}
	for (j = 0; j < n; j++)
		if (!isfinite(y[j])) {
			snprintf(err, SR_ERRLEN, "run %zu: no finite output", j);
			return -1;
		}
	if ((rng = sr_draws_new(seed)) == NULL)
		sr_die(SR_EXIT_DATA, "out of memory");
	full = sr_spectrum_new(n);
	half = sr_spectrum_new(h);
	idx = sr_calloc(n, sizeof *idx);
	draw = sr_calloc(h, sizeof *draw);
	xv = sr_calloc(n, sizeof *xv);
	yv = sr_calloc(n, sizeof *yv);
	yp = sr_calloc(n, sizeof *yp);
	p = sr_calloc(n / 2 + 1, sizeof *p);
	rep = sr_calloc(resamples + 1, sizeof *rep);
	for (i = 0; i < k; i++) {
		for (j = 0; j < n; j++)
			xv[j] = x[j * k + i];
		s1[i] = first_order(xv, y, n, m, full, idx, yp, p);
		for (b = 0; b < resamples; b++) {
			sr_draws_fill(rng, n, draw, h);
			for (j = 0; j < h; j++) {
				xv[j] = x[draw[j] * k + i];
				yv[j] = y[draw[j]];
			}
			rep[b] = first_order(xv, yv, h, m, half, idx, yp, p);
		}
		s1_conf[i] = resamples > 1 ? z * gsl_stats_sd(rep, 1, resamples) : NAN;
	}
	free(rep);
	free(p);
	free(yp);
	free(yv);
	free(xv);
	free(draw);
	free(idx);
	sr_spectrum_free(half);
	sr_spectrum_free(full);
	sr_draws_free(rng);
	return 0;
}
