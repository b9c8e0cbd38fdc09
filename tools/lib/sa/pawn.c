/* pawn.c - PAWN indices (pawn.h). */
#include "sa/pawn.h"
#include "core/err.h"
#include "sa/sobol.h"

#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double
sr_pawn_ks(const double *a, size_t na, const double *b, size_t nb)
{
	size_t i = 0, j = 0;
	double d = 0, t, diff;

	while (i < na || j < nb) {
		t = j >= nb || (i < na && a[i] <= b[j]) ? a[i] : b[j];
		while (i < na && a[i] <= t)
			i++;
		while (j < nb && b[j] <= t)
			j++;
		diff = fabs((double)i / (double)na - (double)j / (double)nb);
		if (diff > d)
			d = diff;
	}
	return d;
}

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

int
sr_pawn_analyze(const double *x, const double *y, size_t n, size_t k,
    size_t s, sr_pawn_result *r, char *err)
{
	double *ys, *xs, *q, *sel, *d;
	size_t i, j, c, ns, nd;

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
	ys = sr_calloc(n, sizeof *ys);
	xs = sr_calloc(n, sizeof *xs);
	sel = sr_calloc(n, sizeof *sel);
	q = sr_calloc(s + 1, sizeof *q);
	d = sr_calloc(s, sizeof *d);
	memcpy(ys, y, n * sizeof *ys);
	gsl_sort(ys, 1, n);
	for (i = 0; i < k; i++) {
		for (j = 0; j < n; j++)
			xs[j] = x[j * k + i];
		gsl_sort(xs, 1, n);
		for (c = 0; c <= s; c++)	/* numpy.arange(0, 1 + 1/S, 1/S) */
			q[c] = sr_pawn_quantile(xs, n, (double)c * (1.0 / (double)s));
		for (c = 0, nd = 0; c < s; c++) {
			for (j = 0, ns = 0; j < n; j++)
				if (x[j * k + i] >= q[c] && x[j * k + i] < q[c + 1])
					sel[ns++] = y[j];
			if (ns == 0)
				continue;
			gsl_sort(sel, 1, ns);
			d[nd++] = sr_pawn_ks(sel, ns, ys, n);
		}
		summarize(r, i, d, nd);
	}
	free(d);
	free(q);
	free(sel);
	free(xs);
	free(ys);
	return 0;
}
