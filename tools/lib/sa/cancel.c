/* cancel.c - the canceller and its rules (cancel.h). The text form of a
 * rule is in cancel_rule.c, the Wilcoxon test in wilcoxon.c. */
#include "sa/cancel.h"
#include "core/err.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NO_SET ((size_t)-1)

/* What a canceller keeps of one set. */
typedef struct {
	double *x;		/* its values, in order */
	double *m;		/* m[j]: its running mean after j + 1 values */
	size_t n, cap;
	double tsum;		/* its summed seconds */
} cancelset;

struct sr_canceller {
	sr_cancelrule r;
	size_t nsets;
	cancelset *set;
	unsigned char *cancelled;
	size_t ncancelled;
	double gsum, gtsum;	/* every value and second pushed */
	size_t gcount;
	size_t *nvar;		/* stable: window variances per set */
	double *ring;		/* stable, per set: w running means, w variances */
	double *scratch;	/* median: the other sets' means */
};

/* ---- the stable rule ----------------------------------------------------- */

/* Population variance of x[0..w), shifted by x[0] so that equal values
 * give exactly 0. */
static double
window_variance(const double *x, size_t w)
{
	double s = 0, s2 = 0, d;
	size_t i;

	for (i = 0; i < w; i++) {
		d = x[i] - x[0];
		s += d;
		s2 += d * d;
	}
	d = (s2 - s * s / (double)w) / (double)w;
	return d > 0 ? d : 0;
}

/* Least-squares slope of the ring r[0..w) against time, oldest at r[at]. */
static double
ring_slope(const double *r, size_t w, size_t at)
{
	double mid = (double)(w - 1) / 2, num = 0, den = 0, d;
	size_t i;

	for (i = 0; i < w; i++) {
		d = (double)i - mid;
		num += d * r[(at + i) % w];
		den += d * d;
	}
	return den > 0 ? num / den : 0;
}

/* Set s took its k-th value: its running mean goes into its ring, and
 * from k = w on the ring's variance into the ring of variances. */
static void
stable_push(sr_canceller *c, size_t s)
{
	size_t w = c->r.window, k = c->set[s].n;
	double *m = c->ring + s * 2 * w, *var = m + w;

	m[(k - 1) % w] = c->set[s].m[k - 1];
	if (k >= w)
		var[c->nvar[s]++ % w] = window_variance(m, w);
}

/* Settled (the running means' window variance no longer rising) and poor
 * or slow. */
static int
stable_decide(sr_canceller *c, size_t s, char *detail, size_t len)
{
	const cancelset *t = &c->set[s];
	size_t w = c->r.window, k = t->n;
	double *var = c->ring + s * 2 * w + w, mean, g, gt;
	int poor, slow;

	if (c->nvar[s] < w || ring_slope(var, w, c->nvar[s] % w) > 0)
		return 0;
	mean = t->m[k - 1];
	g = c->gsum / (double)c->gcount;
	gt = c->gtsum / (double)c->gcount;
	poor = !isnan(c->r.acc) && mean < g - c->r.acc;
	slow = !isnan(c->r.time) && t->tsum / (double)k > c->r.time * gt;
	if (poor)
		snprintf(detail, len, "stable: settled, mean %.6g < mean of all "
		    "%.6g - acc %g after %zu tiles", mean, g, c->r.acc, k);
	else if (slow)
		snprintf(detail, len, "stable: settled, mean seconds %.6g > time %g "
		    "x mean of all %.6g after %zu tiles", t->tsum / (double)k,
		    c->r.time, gt, k);
	return poor || slow;
}

/* ---- the median rule ----------------------------------------------------- */

/* The k-th smallest of a[0..n) (from 0), a reordered (Wirth's selection;
 * it ends even on NaN). */
static double
kth_smallest(double *a, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, i, j, at = (ptrdiff_t)k;
	double pivot, tmp;

	while (lo < hi) {
		pivot = a[at];
		i = lo;
		j = hi;
		do {
			while (a[i] < pivot)
				i++;
			while (pivot < a[j])
				j--;
			if (i <= j) {
				tmp = a[i];
				a[i++] = a[j];
				a[j--] = tmp;
			}
		} while (i <= j);
		if (j < at)
			lo = i;
		if (at < i)
			hi = j;
	}
	return a[at];
}

/* The median of a[0..n), n >= 1: the mean of the middle two for even n. */
static double
median(double *a, size_t n)
{
	double lower;

	if (n % 2)
		return kth_smallest(a, n, n / 2);
	lower = kth_smallest(a, n, n / 2 - 1);
	return (lower + kth_smallest(a, n, n / 2)) / 2;
}

/* Below the median of the other sets' means after as many values. */
static int
median_decide(sr_canceller *c, size_t s, char *detail, size_t len)
{
	size_t k = c->set[s].n, n = 0, j;
	double mine, med;

	if (k < c->r.warmup)
		return 0;
	for (j = 0; j < c->nsets; j++)
		if (j != s && c->set[j].n >= k)
			c->scratch[n++] = c->set[j].m[k - 1];
	if (n == 0 || n < c->r.startup)
		return 0;
	mine = c->set[s].m[k - 1];
	med = median(c->scratch, n);
	if (!(mine < med))
		return 0;
	snprintf(detail, len, "median: mean %.6g < median %.6g of %zu sets after "
	    "%zu tiles", mine, med, n, k);
	return 1;
}

/* ---- the wilcoxon rule --------------------------------------------------- */

/* The best set against set s with k values: of the others not cancelled
 * with at least k values, the highest running mean, the lowest index on
 * a tie; NO_SET if none. */
static size_t
best_other(const sr_canceller *c, size_t s, size_t k)
{
	size_t j, best = NO_SET;
	double m, top = 0;

	for (j = 0; j < c->nsets; j++) {
		if (j == s || c->cancelled[j] || c->set[j].n < k)
			continue;
		m = c->set[j].m[c->set[j].n - 1];
		if (best == NO_SET || m > top) {
			best = j;
			top = m;
		}
	}
	return best;
}

/* Below the best set's mean, and worse than it on the pairs they share
 * by the Wilcoxon signed-rank test. */
static int
wilcoxon_decide(sr_canceller *c, size_t s, char *detail, size_t len)
{
	size_t k = c->set[s].n, b;
	double mine, theirs, p;

	if (k == 0 || k < c->r.warmup || (b = best_other(c, s, k)) == NO_SET)
		return 0;
	mine = c->set[s].m[k - 1];
	theirs = c->set[b].m[c->set[b].n - 1];
	if (!(mine < theirs))
		return 0;
	p = sr_wilcoxon_less(c->set[s].x, c->set[b].x, k);
	if (!(p < c->r.p))
		return 0;
	snprintf(detail, len, "wilcoxon: p %.6g < %g against set %zu (mean %.6g "
	    "< %.6g) on %zu tiles", p, c->r.p, b, mine, theirs, k);
	return 1;
}

/* ---- the canceller ------------------------------------------------------- */

static int
none_decide(sr_canceller *c, size_t s, char *detail, size_t len)
{
	(void)c;
	(void)s;
	(void)detail;
	(void)len;
	return 0;
}

/* The decision of each rule, by kind: 1 cancels set s (it has a value at
 * least), with what it compared in detail. */
static int (*const rule_decide[SR_NCANCEL])(sr_canceller *, size_t, char *,
    size_t) = { none_decide, stable_decide, median_decide, wilcoxon_decide };

sr_canceller *
sr_cancel_new(const sr_cancelrule *r, size_t nsets)
{
	sr_canceller *c = sr_calloc(1, sizeof *c);
	size_t n = nsets ? nsets : 1;

	c->r = *r;
	c->nsets = nsets;
	c->set = sr_calloc(n, sizeof *c->set);
	c->cancelled = sr_calloc(n, 1);
	if (r->kind == SR_CANCEL_STABLE) {
		c->nvar = sr_calloc(n, sizeof *c->nvar);
		c->ring = sr_calloc(n, 2 * r->window * sizeof *c->ring);
	}
	if (r->kind == SR_CANCEL_MEDIAN)
		c->scratch = sr_calloc(n, sizeof *c->scratch);
	return c;
}

void
sr_cancel_free(sr_canceller *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->nsets; i++) {
		free(c->set[i].x);
		free(c->set[i].m);
	}
	free(c->set);
	free(c->cancelled);
	free(c->nvar);
	free(c->ring);
	free(c->scratch);
	free(c);
}

void
sr_cancel_push(sr_canceller *c, size_t s, double x, double y)
{
	cancelset *t = &c->set[s];
	double mean;

	if (c->cancelled[s])
		return;
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->x = sr_reallocarray(t->x, t->cap, sizeof *t->x);
		t->m = sr_reallocarray(t->m, t->cap, sizeof *t->m);
	}
	/* incremental, so that equal values keep the mean exactly */
	mean = t->n ? t->m[t->n - 1] : 0;
	mean += (x - mean) / (double)(t->n + 1);
	t->x[t->n] = x;
	t->m[t->n++] = mean;
	t->tsum += y;
	c->gsum += x;
	c->gtsum += y;
	c->gcount++;
	if (c->r.kind == SR_CANCEL_STABLE)
		stable_push(c, s);
}

int
sr_cancel_decide(sr_canceller *c, size_t s, char *detail, size_t len)
{
	char buf[256] = "";

	if (detail && len)
		detail[0] = '\0';
	if (c->cancelled[s] || c->set[s].n == 0 ||
	    !rule_decide[c->r.kind](c, s, buf, sizeof buf))
		return 0;
	sr_cancel_mark(c, s);
	if (detail && len)
		snprintf(detail, len, "%s", buf);
	return 1;
}

int
sr_cancel_add(sr_canceller *c, size_t s, double x, double y)
{
	sr_cancel_push(c, s, x, y);
	return sr_cancel_decide(c, s, NULL, 0);
}

void
sr_cancel_mark(sr_canceller *c, size_t s)
{
	if (!c->cancelled[s]) {
		c->cancelled[s] = 1;
		c->ncancelled++;
	}
}

int
sr_cancel_is(const sr_canceller *c, size_t s)
{
	return c->cancelled[s];
}

size_t
sr_cancel_count(const sr_canceller *c)
{
	return c->ncancelled;
}

const unsigned char *
sr_cancel_flags(const sr_canceller *c)
{
	return c->cancelled;
}

size_t
sr_cancel_nvalues(const sr_canceller *c, size_t s)
{
	return c->set[s].n;
}

double
sr_cancel_mean(const sr_canceller *c, size_t s)
{
	return c->set[s].n ? c->set[s].m[c->set[s].n - 1] : NAN;
}
