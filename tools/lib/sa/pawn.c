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

static int
by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The slice of each run (s of q[s] <= x < q[s + 1], else -1: the maximum
 * is in none, as in SALib) into sl, the runs of each into ns. */
static void
slices_of(const double *x, size_t n, size_t k, size_t i, const double *q,
    size_t s, long *sl, size_t *ns)
{
	size_t r, lo, hi, mid;
	double v;

	memset(ns, 0, s * sizeof *ns);
	for (r = 0; r < n; r++) {
		v = x[r * k + i];
		for (lo = 0, hi = s + 1; hi - lo > 1; ) {	/* last q <= v */
			mid = (lo + hi) / 2;
			if (q[mid] <= v)
				lo = mid;
			else
				hi = mid;
		}
		sl[r] = q[lo] <= v && lo < s && v < q[lo + 1] ? (long)lo : -1;
		if (sl[r] >= 0)
			ns[sl[r]]++;
	}
}

/* The Kolmogorov-Smirnov distance of each slice's outputs from all
 * outputs, in one walk of the outputs in order (yo: the runs by output):
 * at the end of each run of equal outputs, each slice's empirical
 * distribution against all's, as scipy's ks_2samp evaluates them (the
 * slice's outputs are among all's, so these are every point it
 * compares at). d holds s. */
static void
distances(const double *y, const size_t *yo, size_t n, const long *sl,
    const size_t *ns, size_t s, size_t *cs, double *d)
{
	size_t j, c, all;
	double v;

	memset(cs, 0, s * sizeof *cs);
	for (c = 0; c < s; c++)
		d[c] = 0;
	for (j = 0, all = 0; j < n; ) {
		for (v = y[yo[j]]; j < n && y[yo[j]] == v; j++, all++)
			if (sl[yo[j]] >= 0)
				cs[sl[yo[j]]]++;
		for (c = 0; c < s; c++)
			if (ns[c])
				d[c] = fmax(d[c], fabs((double)cs[c] / (double)ns[c] -
				    (double)all / (double)n));
	}
}

int
sr_pawn_analyze(const double *x, const double *y, size_t n, size_t k,
    size_t s, sr_pawn_result *r, char *err)
{
	double *xs, *q, *d, *dd;
	size_t i, j, c, nd, *yo, *ns, *cs;
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
	sl = sr_calloc(n, sizeof *sl);
	xs = sr_calloc(n, sizeof *xs);
	q = sr_calloc(s + 1, sizeof *q);
	d = sr_calloc(s, sizeof *d);
	dd = sr_calloc(s, sizeof *dd);
	ns = sr_calloc(s, sizeof *ns);
	cs = sr_calloc(s, sizeof *cs);
	sr_order_runs(y, 1, n, yo);
	for (i = 0; i < k; i++) {
		for (j = 0; j < n; j++)
			xs[j] = x[j * k + i];
		qsort(xs, n, sizeof *xs, by_value);
		for (c = 0; c <= s; c++)	/* numpy.arange(0, 1 + 1/S, 1/S) */
			q[c] = sr_pawn_quantile(xs, n, (double)c * (1.0 / (double)s));
		slices_of(x, n, k, i, q, s, sl, ns);
		distances(y, yo, n, sl, ns, s, cs, d);
		for (c = 0, nd = 0; c < s; c++)
			if (ns[c])
				dd[nd++] = d[c];
		summarize(r, i, dd, nd);
	}
	free(cs);
	free(ns);
	free(dd);
	free(d);
	free(q);
	free(xs);
	free(sl);
	free(yo);
	return 0;
}
