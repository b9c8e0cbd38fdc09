/* wilcoxon.c - the paired Wilcoxon signed-rank test (cancel.h): one-sided
 * for the wilcoxon cancellation rule, two-sided for the comparison of
 * sets (campaign/evaluate.h); exact up to 50 pairs, the normal
 * approximation beyond. */
#include "sa/cancel.h"
#include "core/err.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

#define EXACT_MAX 50

/* A difference and its rank among the |d|, doubled so that an average
 * over ties is a whole number. */
typedef struct {
	double d;
	size_t rank2;
} signed_rank;

static int
by_magnitude(const void *a, const void *b)
{
	double x = fabs(((const signed_rank *)a)->d);
	double y = fabs(((const signed_rank *)b)->d);

	return (x > y) - (x < y);
}

/* Sorts v[0..n) by |d| and ranks it: tied magnitudes (zeros too) take
 * the mean of their positions. Returns sum(t^3 - t) over the groups of
 * t tied magnitudes. */
static double
rank_magnitudes(signed_rank *v, size_t n)
{
	size_t i = 0, j, k;
	double t, ties = 0;

	qsort(v, n, sizeof *v, by_magnitude);
	while (i < n) {
		for (j = i + 1; j < n && fabs(v[j].d) == fabs(v[i].d); j++)
			;
		for (k = i; k < j; k++)		/* positions i+1..j */
			v[k].rank2 = i + 1 + j;
		t = (double)(j - i);
		ties += t * t * t - t;
		i = j;
	}
	return ties;
}

/* Exact: the share of the 2^m sign assignments of the m non-zero
 * differences whose positive ranks sum to at most those observed (the
 * zeros' half ranks are the same in all). Counts by doubled rank sum; a
 * sum above the observed one never comes back down, so the table stops
 * there. Counts stay below 2^50, exact in a double. */
static double
exact_less(const signed_rank *v, size_t n)
{
	size_t obs = 0, i, s, m = 0;
	double *count, below = 0;

	for (i = 0; i < n; i++)
		if (v[i].d > 0)
			obs += v[i].rank2;
	count = sr_calloc(obs + 1, sizeof *count);
	count[0] = 1;
	for (i = 0; i < n; i++) {
		if (v[i].d == 0)
			continue;
		m++;
		for (s = obs + 1; s-- > v[i].rank2;)
			count[s] += count[s - v[i].rank2];
	}
	for (s = 0; s <= obs; s++)
		below += count[s];
	free(count);
	return ldexp(below, -(int)m);
}

/* The normal approximation with the tie correction, zeros ranked and
 * split, no continuity correction. */
static double
approx_less(const signed_rank *v, size_t n, double ties)
{
	double t = 0, nn = (double)n, mean, se;
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].d > 0)
			t += (double)v[i].rank2 / 2;
		else if (v[i].d == 0)
			t += (double)v[i].rank2 / 4;
	mean = nn * (nn + 1) / 4;
	se = sqrt((nn * (nn + 1) * (2 * nn + 1) - ties / 2) / 24);
	return gsl_cdf_ugaussian_P((t - mean) / se);
}

double
sr_wilcoxon_less(const double *x, const double *y, size_t n)
{
	signed_rank *v;
	double ties, p;
	size_t i;

	if (n == 0)
		return 1;
	v = sr_calloc(n, sizeof *v);
	for (i = 0; i < n; i++) {
		v[i].d = x[i] - y[i];
		if (isnan(v[i].d)) {
			free(v);
			return NAN;
		}
	}
	ties = rank_magnitudes(v, n);
	p = n <= EXACT_MAX ? exact_less(v, n) : approx_less(v, n, ties);
	free(v);
	return p;
}

double
sr_wilcoxon_two_sided(const double *x, const double *y, size_t n)
{
	double lo = sr_wilcoxon_less(x, y, n), hi = sr_wilcoxon_less(y, x, n);

	if (isnan(lo) || isnan(hi))
		return NAN;
	return fmin(1, 2 * fmin(lo, hi));
}
