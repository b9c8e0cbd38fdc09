/* rbd.c - RBD-FAST designs and first-order indices (rbd.h). */
#include "sa/rbd.h"
#include "core/err.h"
#include "sa/draws.h"
#include "sa/order.h"
#include "sa/sobol.h"
#include "sa/spectrum.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

void
sr_rbd_curve(size_t n, double delta, double *x)
{
	size_t t;

	for (t = 0; t < n; t++)
		x[t] = 0.5 + asin(sin(-PI + 2 * PI * ((double)t + delta) /
		    (double)n)) / PI;
}

/* S1 of len outputs ys[0..len) already in the order of the parameter:
 * those at even places first, then those at odd places backwards; the
 * periodogram of the result (mean removed, one-sided: every frequency
 * doubled but 0 and, of an even len, len / 2, as
 * scipy.signal.periodogram); the share of its sum in frequencies 1..M,
 * unskewed. yp holds len doubles, p len / 2 + 1. */
static double
first_order(const double *ys, size_t len, size_t m, sr_spectrum *spec,
    double *yp, double *p)
{
	size_t j, f, half = len / 2;
	double mean = 0, v = 0, d1 = 0, s1, lamb, w;

	for (j = 0; j < len; j += 2)
		yp[j / 2] = ys[j];
	for (j = 1; j < len; j += 2)
		yp[len - 1 - j / 2] = ys[j];
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

/* Parameter i's interval: resamples replicates of h runs drawn with
 * replacement, each in the parameter's order without a sort: with yo
 * the outputs in the parameter's order and rank[r] run r's place in it,
 * each place's output as many times as its run was drawn (ties thus by
 * run). count holds n, ys n + 2, yp n, p n / 2 + 1. */
static double
interval(const double *yo, const size_t *rank, size_t n, size_t h,
    size_t m, size_t resamples, double z, sr_draws *rng, sr_spectrum *half,
    size_t *draw, unsigned *count, double *ys, double *yp, double *p,
    double *rep)
{
	size_t b, j, len;
	unsigned c, e;

	for (b = 0; b < resamples; b++) {
		sr_draws_fill(rng, n, draw, h);
		memset(count, 0, n * sizeof *count);
		for (j = 0; j < h; j++)
			count[rank[draw[j]]]++;
		for (j = 0, len = 0; j < n; j++) {
			/* twice, kept as often as drawn: no branch that a
			 * random count mispredicts (ys has room for 2 more) */
			c = count[j];
			ys[len] = ys[len + 1] = yo[j];
			for (e = 2; e < c; e++)	/* rare */
				ys[len + e] = yo[j];
			len += c;
		}
		rep[b] = first_order(ys, h, m, half, yp, p);
	}
	return resamples > 1 ? z * gsl_stats_sd(rep, 1, resamples) : NAN;
}

int
sr_rbd_analyze(const double *x, const double *y, size_t n, size_t k,
    size_t m, size_t resamples, double conf, unsigned long seed,
    double *s1, double *s1_conf, char *err)
{
	size_t i, j, h = n / 2, *ord, *draw, *rank;
	unsigned *count;
	double *yo, *ys, *yp, *p, *rep, z = gsl_cdf_ugaussian_Pinv(0.5 + conf / 2);
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
	ord = sr_calloc(n, sizeof *ord);
	draw = sr_calloc(h, sizeof *draw);
	rank = sr_calloc(n, sizeof *rank);
	count = sr_calloc(n, sizeof *count);
	yo = sr_calloc(n, sizeof *yo);
	ys = sr_calloc(n + 2, sizeof *ys);
	yp = sr_calloc(n, sizeof *yp);
	p = sr_calloc(n / 2 + 1, sizeof *p);
	rep = sr_calloc(resamples + 1, sizeof *rep);
	for (i = 0; i < k; i++) {
		sr_order_runs(x + i, k, n, ord);
		for (j = 0; j < n; j++) {
			yo[j] = y[ord[j]];
			rank[ord[j]] = j;
		}
		s1[i] = first_order(yo, n, m, full, yp, p);
		s1_conf[i] = interval(yo, rank, n, h, m, resamples, z, rng, half,
		    draw, count, ys, yp, p, rep);
	}
	free(rep);
	free(p);
	free(yp);
	free(ys);
	free(yo);
	free(rank);
	free(count);
	free(draw);
	free(ord);
	sr_spectrum_free(half);
	sr_spectrum_free(full);
	sr_draws_free(rng);
	return 0;
}
