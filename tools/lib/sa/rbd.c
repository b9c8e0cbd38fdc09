/* rbd.c - RBD-FAST designs and first-order indices (rbd.h). */
#include "sa/rbd.h"
#include "core/err.h"
#include "sa/boot.h"
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

/* A thread's scratch: count holds n, ys n + 2, yp n, p n / 2 + 1. */
typedef struct {
	unsigned *count;
	double *ys, *yp, *p;
	sr_spectrum *half;
} scratch;

/* An analysis: x, y, n, k, m as sr_rbd_analyze's; the parameter's order
 * (ord, yo, rank: the outputs in the parameter's order and each run's
 * place in it), its S1 (full, yp, p); each parameter's replicates. */
typedef struct {
	const double *x, *y;
	size_t n, k, m, h, resamples;
	size_t *ord, *rank;
	double *yo, *yp, *p, *s1, *rep;
	sr_spectrum *full;
	scratch *w;		/* a thread's each */
} analysis;

static void
parameter(void *ctx, size_t i)
{
	analysis *a = ctx;
	size_t j;

	sr_order_runs(a->x + i, a->k, a->n, a->ord);
	for (j = 0; j < a->n; j++) {
		a->yo[j] = a->y[a->ord[j]];
		a->rank[a->ord[j]] = j;
	}
	a->s1[i] = first_order(a->yo, a->n, a->m, a->full, a->yp, a->p);
}

/* Replicate b of parameter i: its h runs in the parameter's order
 * without a sort, each place's output as many times as its run was drawn
 * (ties thus by run). */
static void
replicate(void *ctx, size_t i, size_t b, const size_t *draw, size_t worker)
{
	const analysis *a = ctx;
	scratch *w = &a->w[worker];
	size_t j, len;
	unsigned c, e;

	memset(w->count, 0, a->n * sizeof *w->count);
	for (j = 0; j < a->h; j++)
		w->count[a->rank[draw[j]]]++;
	for (j = 0, len = 0; j < a->n; j++) {
		/* twice, kept as often as drawn: no branch that a random
		 * count mispredicts (ys has room for 2 more) */
		c = w->count[j];
		w->ys[len] = w->ys[len + 1] = a->yo[j];
		for (e = 2; e < c; e++)	/* rare */
			w->ys[len + e] = a->yo[j];
		len += c;
	}
	a->rep[i * a->resamples + b] = first_order(w->ys, a->h, a->m, w->half,
	    w->yp, w->p);
}

int
sr_rbd_analyze(const double *x, const double *y, size_t n, size_t k,
    size_t m, size_t resamples, double conf, unsigned long seed,
    size_t threads, double *s1, double *s1_conf, char *err)
{
	double z = gsl_cdf_ugaussian_Pinv(0.5 + conf / 2);
	size_t i, j, t, nt, *blocks;
	analysis a = { .x = x, .y = y, .n = n, .k = k, .m = m, .h = n / 2,
	    .resamples = resamples, .s1 = s1 };
	sr_boot b = { .n = n, .h = n / 2, .resamples = resamples,
	    .threads = threads, .seed = seed, .block = parameter,
	    .replicate = replicate, .ctx = &a };

	if (m == 0 || a.h <= 2 * m) {	/* the bootstrap's halves too */
		snprintf(err, SR_ERRLEN, "RBD-FAST with M = %zu harmonics needs "
		    "at least %zu runs, not %zu", m, SR_RBD_MIN_RUNS(m), n);
		return -1;
	}
	for (j = 0; j < n; j++)
		if (!isfinite(y[j])) {
			snprintf(err, SR_ERRLEN, "run %zu: no finite output", j);
			return -1;
		}
	a.full = sr_spectrum_new(n);
	a.ord = sr_calloc(n, sizeof *a.ord);
	a.rank = sr_calloc(n, sizeof *a.rank);
	a.yo = sr_calloc(n, sizeof *a.yo);
	a.yp = sr_calloc(n, sizeof *a.yp);
	a.p = sr_calloc(n / 2 + 1, sizeof *a.p);
	a.rep = sr_calloc(k * resamples + 1, sizeof *a.rep);
	nt = sr_boot_threads(&b);
	a.w = sr_calloc(nt, sizeof *a.w);
	for (t = 0; t < nt; t++) {
		a.w[t].count = sr_calloc(n, sizeof *a.w[t].count);
		a.w[t].ys = sr_calloc(n + 2, sizeof *a.w[t].ys);
		a.w[t].yp = sr_calloc(n, sizeof *a.w[t].yp);
		a.w[t].p = sr_calloc(n / 2 + 1, sizeof *a.w[t].p);
		a.w[t].half = sr_spectrum_new(a.h);
	}
	blocks = sr_calloc(k, sizeof *blocks);
	for (i = 0; i < k; i++)
		blocks[i] = i;
	sr_boot_run(&b, blocks, k);
	for (i = 0; i < k; i++)
		s1_conf[i] = resamples > 1 ? z * gsl_stats_sd(a.rep + i *
		    resamples, 1, resamples) : NAN;
	for (t = 0; t < nt; t++) {
		free(a.w[t].count);
		free(a.w[t].ys);
		free(a.w[t].yp);
		free(a.w[t].p);
		sr_spectrum_free(a.w[t].half);
	}
	free(blocks);
	free(a.w);
	free(a.rep);
	free(a.p);
	free(a.yp);
	free(a.yo);
	free(a.rank);
	free(a.ord);
	sr_spectrum_free(a.full);
	return 0;
}
