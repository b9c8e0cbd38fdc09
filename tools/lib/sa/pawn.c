/* pawn.c - PAWN indices (pawn.h). */
#include "sa/pawn.h"
#include "core/err.h"
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

int
sr_pawn_analyze(const double *x, const double *y, size_t n, size_t k,
    size_t s, sr_pawn_result *r, char *err)
{
	double *xs, *q, *d, *dd, *share;
	size_t i, j, c, nd, *yo, *xo, *ns, *cs, *seen, *touched;
	long *sl;

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
	r->k = k;
	r->min = sr_calloc(k + 1, sizeof *r->min);
	r->mean = sr_calloc(k + 1, sizeof *r->mean);
	r->median = sr_calloc(k + 1, sizeof *r->median);
	r->max = sr_calloc(k + 1, sizeof *r->max);
	r->cv = sr_calloc(k + 1, sizeof *r->cv);
	yo = sr_calloc(n, sizeof *yo);
	xo = sr_calloc(n, sizeof *xo);
	sl = sr_calloc(n, sizeof *sl);
	xs = sr_calloc(n, sizeof *xs);
	share = sr_calloc(n + 1, sizeof *share);
	for (j = 0; j <= n; j++)
		share[j] = (double)j / (double)n;
	q = sr_calloc(s + 1, sizeof *q);
	d = sr_calloc(s, sizeof *d);
	dd = sr_calloc(s, sizeof *dd);
	ns = sr_calloc(s, sizeof *ns);
	cs = sr_calloc(s, sizeof *cs);
	seen = sr_calloc(s, sizeof *seen);
	touched = sr_calloc(s, sizeof *touched);
	sr_order_runs(y, 1, n, yo);
	for (i = 0; i < k; i++) {
		sr_order_runs(x + i, k, n, xo);
		for (j = 0; j < n; j++)
			xs[j] = x[xo[j] * k + i];
		for (c = 0; c <= s; c++)	/* numpy.arange(0, 1 + 1/S, 1/S) */
			q[c] = sr_pawn_quantile(xs, n, (double)c * (1.0 / (double)s));
		slices_of(xo, xs, n, q, s, sl, ns);
		distances(y, yo, n, sl, ns, s, share, cs, seen, touched, d);
		for (c = 0, nd = 0; c < s; c++)
			if (ns[c])
				dd[nd++] = d[c];
		summarize(r, i, dd, nd);
	}
	free(touched);
	free(seen);
	free(cs);
	free(ns);
	free(dd);
	free(d);
	free(q);
	free(share);
	free(xs);
	free(sl);
	free(xo);
	free(yo);
	return 0;
}
