/* pawn.c - PAWN indices (pawn.h). */
#include "sa/pawn.h"
#include "core/err.h"
#include "core/parallel.h"
#include "sa/order.h"
#include "sa/sobol.h"

#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double
sr_pawn_quantile(const double *sorted, size_t n, double q)
{
	double v = (double)(n - 1) * q, lo = floor(v), g = v - lo, a, b;
	size_t i = lo < 0 ? 0 : (size_t)lo;

	if (i >= n - 1)
		return sorted[n - 1];
	a = sorted[i];
	b = sorted[i + 1];
	/* numpy's _lerp: from the nearer end */
	return g >= 0.5 ? b - (b - a) * (1 - g) : a + (b - a) * g;
}

void
sr_pawn_result_free(sr_pawn_result *r)
{
	free(r->min);
	free(r->mean);
	free(r->median);
	free(r->max);
	free(r->cv);
	memset(r, 0, sizeof *r);
}

/* The statistics of the distances d[0..n) into r's entries i. */
static void
summarize(sr_pawn_result *r, size_t i, double *d, size_t n)
{
	double mean = 0, ss = 0;
	size_t j;

	if (n == 0) {
		r->min[i] = r->mean[i] = r->median[i] = r->max[i] = r->cv[i] = NAN;
		return;
	}
	gsl_sort(d, 1, n);
	/* numpy's sum / n, not GSL's running mean: SALib's last digits */
	for (j = 0; j < n; j++)
		mean += d[j];
	mean /= (double)n;
	for (j = 0; j < n; j++)
		ss += (d[j] - mean) * (d[j] - mean);
	r->min[i] = d[0];
	r->max[i] = d[n - 1];
	r->mean[i] = mean;
	r->median[i] = gsl_stats_median_from_sorted_data(d, 1, n);
	r->cv[i] = sqrt(ss / (double)n) / mean;	/* numpy's std: ddof 0 */
}

/* The slice of each run (s of q[s] <= x < q[s + 1], else -1: the maximum
 * is in none, as in SALib) into sl, the runs of each into ns; xo: the
 * runs in the order of x, xs their values, q[0] the least, so that one
 * walk finds each run's slice. */
static void
slices_of(const size_t *xo, const double *xs, size_t n, const double *q,
    size_t s, long *sl, size_t *ns)
{
	size_t j, lo = 0;

	memset(ns, 0, s * sizeof *ns);
	for (j = 0; j < n; j++) {
		while (lo < s && q[lo + 1] <= xs[j])	/* the last q <= x */
			lo++;
		sl[xo[j]] = lo < s ? (long)lo : -1;
		if (lo < s)
			ns[lo]++;
	}
}

/* Slice c's distance so far, d[c], raised to its distance where the
 * outputs below and at the place at hold cnt of its runs; all[at]: the
 * share at / n of all runs. */
static void
reach(double *d, size_t c, size_t cnt, const size_t *ns, const double *all,
    size_t at)
{
	double e = fabs((double)cnt / (double)ns[c] - all[at]);

	if (e > d[c])
		d[c] = e;
}

/* The Kolmogorov-Smirnov distance of each slice's outputs from all
 * outputs, in one walk of the outputs in order (yo: the runs by output),
 * as scipy's ks_2samp evaluates them: at the end of each run of equal
 * outputs (the slice's outputs are among all's, so these are every
 * point it compares at). Between two runs that hold a slice's outputs
 * its distribution stays while all's grows, so its distance there is
 * largest at either end (rounding is monotone too): each slice is
 * evaluated where it grows, at the run before, and at the end, which
 * gives the same maximum in O(n) rather than O(n s). share holds n + 1
 * (j / n at j), d s, cs s, seen s, touched s. */
static void
distances(const double *y, const size_t *yo, size_t n, const long *sl,
    const size_t *ns, size_t s, const double *share, size_t *cs,
    size_t *seen, size_t *touched, double *d)
{
	size_t j, c, t, nt, all, prev, run;
	double v;
	long l;

	for (c = 0; c < s; c++) {
		d[c] = 0;
		cs[c] = 0;
		seen[c] = (size_t)-1;
	}
	for (j = 0, all = 0, run = 0; j < n; run++) {
		prev = all;
		nt = 0;
		for (v = y[yo[j]]; j < n && y[yo[j]] == v; j++, all++) {
			if ((l = sl[yo[j]]) < 0)
				continue;
			c = (size_t)l;
			if (seen[c] != run) {
				seen[c] = run;
				touched[nt++] = c;
				if (prev > 0)
					reach(d, c, cs[c], ns, share, prev);
			}
			cs[c]++;
		}
		for (t = 0; t < nt; t++)
			reach(d, touched[t], cs[touched[t]], ns, share, all);
	}
	for (c = 0; c < s; c++)
		if (ns[c])
			reach(d, c, cs[c], ns, share, n);
}

/* A thread's scratch: xo, sl and xs hold n; q s + 1; d, dd, ns, cs, seen
 * and touched s. */
typedef struct {
	size_t *xo, *ns, *cs, *seen, *touched;
	long *sl;
	double *xs, *q, *d, *dd;
} scratch;

/* An analysis: x, y, n, k, s as sr_pawn_analyze's; yo the runs by
 * output, share[j] = j / n; each parameter's statistics into r. */
typedef struct {
	const double *x, *y, *share;
	const size_t *yo;
	size_t n, k, s;
	sr_pawn_result *r;
	scratch *w;
} analysis;

static void
parameter(void *ctx, size_t i, size_t worker)
{
	const analysis *a = ctx;
	scratch *w = &a->w[worker];
	size_t j, c, nd, n = a->n, s = a->s;

	sr_order_runs(a->x + i, a->k, n, w->xo);
	for (j = 0; j < n; j++)
		w->xs[j] = a->x[w->xo[j] * a->k + i];
	for (c = 0; c <= s; c++)	/* numpy.arange(0, 1 + 1/S, 1/S) */
		w->q[c] = sr_pawn_quantile(w->xs, n, (double)c * (1.0 / (double)s));
	slices_of(w->xo, w->xs, n, w->q, s, w->sl, w->ns);
	distances(a->y, a->yo, n, w->sl, w->ns, s, a->share, w->cs, w->seen,
	    w->touched, w->d);
	for (c = 0, nd = 0; c < s; c++)
		if (w->ns[c])
			w->dd[nd++] = w->d[c];
	summarize(a->r, i, w->dd, nd);
}

int
sr_pawn_analyze(const double *x, const double *y, size_t n, size_t k,
    size_t s, size_t threads, sr_pawn_result *r, char *err)
{
	double *share;
	size_t j, t, *yo;
	scratch *w;
	analysis a;

	memset(r, 0, sizeof *r);
	if (s < 2 || n < 2) {
		snprintf(err, SR_ERRLEN, "PAWN needs at least 2 slices and 2 runs "
		    "(%zu slices, %zu runs)", s, n);
		return -1;
	}
	for (j = 0; j < n; j++)
		if (!isfinite(y[j])) {
			snprintf(err, SR_ERRLEN, "run %zu: no finite output", j);
			return -1;
		}
	if (threads < 1)
		threads = 1;
	if (threads > k)
		threads = k ? k : 1;
	r->k = k;
	r->min = sr_calloc(k + 1, sizeof *r->min);
	r->mean = sr_calloc(k + 1, sizeof *r->mean);
	r->median = sr_calloc(k + 1, sizeof *r->median);
	r->max = sr_calloc(k + 1, sizeof *r->max);
	r->cv = sr_calloc(k + 1, sizeof *r->cv);
	yo = sr_calloc(n, sizeof *yo);
	share = sr_calloc(n + 1, sizeof *share);
	for (j = 0; j <= n; j++)
		share[j] = (double)j / (double)n;
	w = sr_calloc(threads, sizeof *w);
	for (t = 0; t < threads; t++) {
		w[t].xo = sr_calloc(n, sizeof *w[t].xo);
		w[t].sl = sr_calloc(n, sizeof *w[t].sl);
		w[t].xs = sr_calloc(n, sizeof *w[t].xs);
		w[t].q = sr_calloc(s + 1, sizeof *w[t].q);
		w[t].d = sr_calloc(s, sizeof *w[t].d);
		w[t].dd = sr_calloc(s, sizeof *w[t].dd);
		w[t].ns = sr_calloc(s, sizeof *w[t].ns);
		w[t].cs = sr_calloc(s, sizeof *w[t].cs);
		w[t].seen = sr_calloc(s, sizeof *w[t].seen);
		w[t].touched = sr_calloc(s, sizeof *w[t].touched);
	}
	sr_order_runs(y, 1, n, yo);
	a = (analysis){ .x = x, .y = y, .share = share, .yo = yo, .n = n,
	    .k = k, .s = s, .r = r, .w = w };
	sr_parallel(k, threads, parameter, &a);
	for (t = 0; t < threads; t++) {
		free(w[t].xo);
		free(w[t].sl);
		free(w[t].xs);
		free(w[t].q);
		free(w[t].d);
		free(w[t].dd);
		free(w[t].ns);
		free(w[t].cs);
		free(w[t].seen);
		free(w[t].touched);
	}
	free(w);
	free(share);
	free(yo);
	return 0;
}
