/* trust.c - warnings where indices are not to be trusted (trust.h). */
#include "sa/trust.h"
#include "core/err.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NEEDED ((size_t)1 << 40)	/* beyond any design */

size_t
sr_trust_samples(size_t n, double c, double target, size_t least)
{
	double want;
	size_t p = 1;

	if (!isfinite(c) || !(target > 0))
		return 0;
	want = (double)n * (c / target) * (c / target);
	if (want < (double)least)
		want = (double)least;
	while ((double)p < want && p < MAX_NEEDED)
		p <<= 1;
	return p;
}

int
sr_trust_uncertain(double v, double c)
{
	return isfinite(c) && fabs(v) >= SR_TRUST_NEGLIGIBLE && c > fabs(v);
}

/* A half-width, 0 where there is none (NaN). */
static double
half(double c)
{
	return isfinite(c) ? c : 0;
}

/* "v ± c", or "v" without an interval, into buf (64 bytes). */
static const char *
with_conf(char *buf, double v, double c)
{
	if (isfinite(c))
		snprintf(buf, 64, "%.3g ± %.2g", v, c);
	else
		snprintf(buf, 64, "%.3g (no interval)", v);
	return buf;
}

/* Appends a warning of kind, parameters i and j, n_needed, and the
 * message fmt; then, with n base samples, what more would do. */
static void
add(sr_trust *t, enum sr_trust_kind kind, size_t i, size_t j, size_t n,
    size_t needed, const char *goal, const char *fmt, ...)
{
	char msg[1024];
	size_t len;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	len = strlen(msg);
	if (needed)
		snprintf(msg + len, sizeof msg - len, ": too few base samples "
		    "(n = %zu); about n = %zu would %s", n, needed, goal);
	else if (n)
		snprintf(msg + len, sizeof msg - len, ": too few base samples "
		    "(n = %zu) or chance; without intervals (fewer than 2 "
		    "resamples) there is no telling how many would do", n);
	t->w = sr_reallocarray(t->w, t->n + 1, sizeof *t->w);
	t->w[t->n++] = (sr_trust_warning){ kind, i, j, needed, sr_strdup(msg) };
}

#define TO_TARGET "narrow the intervals to ± 0.05"

/* ", beyond its interval", ", within its interval (...)" or nothing
 * without one: where an impossible excess d of half-width c lies. */
static const char *
where(double d, double c, int plural)
{
	if (!isfinite(c))
		return "";
	if (d > c)
		return plural ? ", beyond their intervals" :
		    " beyond its interval";
	return plural ? ", within their intervals (sampling noise: the "
	    "intervals are too wide to tell)" : " within its interval "
	    "(sampling noise: the interval is too wide to tell)";
}

/* The sum of the S1 above 1: impossible, said even within its
 * interval. */
static void
check_sum(const sr_sobol_result *r, size_t n, sr_trust *t)
{
	double c = r->S1_sum_conf;
	char a[64];

	if (r->S1_sum - 1 > SR_TRUST_NEGLIGIBLE)
		add(t, SR_TRUST_S1_SUM, 0, 0, n, sr_trust_samples(n, c,
		    SR_TRUST_TARGET, 2 * n), TO_TARGET, "S1 sums to %s, above 1%s",
		    with_conf(a, r->S1_sum, c), where(r->S1_sum - 1, c, 0));
}

/* S1 above ST (impossible, said even within the intervals), and the
 * wide intervals, of parameter i. */
static void
check_param(const sr_sobol_result *r, size_t n, char *const *names,
    size_t i, sr_trust *t)
{
	double c1 = r->S1_conf[i], ct = r->ST_conf[i];
	char a[64], b[64];

	if (r->S1[i] - r->ST[i] > SR_TRUST_NEGLIGIBLE)
		add(t, SR_TRUST_S1_ABOVE_ST, i, i, n, sr_trust_samples(n,
		    fmax(c1, ct), SR_TRUST_TARGET, 2 * n), TO_TARGET,
		    "S1 > ST for %s: %s against %s%s (ST bounds S1)", names[i],
		    with_conf(a, r->S1[i], c1), with_conf(b, r->ST[i], ct),
		    where(r->S1[i] - r->ST[i], isfinite(c1) && isfinite(ct) ?
		    half(c1) + half(ct) : NAN, 1));
	if (sr_trust_uncertain(r->S1[i], c1))
		add(t, SR_TRUST_WIDE_S1, i, i, n, sr_trust_samples(n, c1,
		    fabs(r->S1[i]) / 2, 2 * n), "narrow it to half the index",
		    "S1 of %s is %s, an interval wider than the index", names[i],
		    with_conf(a, r->S1[i], c1));
	if (sr_trust_uncertain(r->ST[i], ct))
		add(t, SR_TRUST_WIDE_ST, i, i, n, sr_trust_samples(n, ct,
		    fabs(r->ST[i]) / 2, 2 * n), "narrow it to half the index",
		    "ST of %s is %s, an interval wider than the index", names[i],
		    with_conf(a, r->ST[i], ct));
}

/* S1 and ST of parameter i below 0 or above 1, beyond their intervals:
 * no share of the variance is. */
static void
check_range(const sr_sobol_result *r, size_t n, char *const *names,
    size_t i, sr_trust *t)
{
	const double v[2] = { r->S1[i], r->ST[i] };
	const double c[2] = { r->S1_conf[i], r->ST_conf[i] };
	static const char *const index[2] = { "S1", "ST" };
	double margin;
	char a[64];
	size_t k;

	for (k = 0; k < 2; k++) {
		margin = fmax(half(c[k]), SR_TRUST_NEGLIGIBLE);
		if (-v[k] > margin || v[k] - 1 > margin)
			add(t, SR_TRUST_OUT_OF_RANGE, i, k, n,
			    sr_trust_samples(n, c[k], SR_TRUST_TARGET, 2 * n),
			    TO_TARGET, "%s of %s is %s, %s%s (an index is a "
			    "share of the variance, 0 to 1)", index[k],
			    names[i], with_conf(a, v[k], c[k]), v[k] < 0 ?
			    "below 0" : "above 1", isfinite(c[k]) ?
			    " beyond its interval" : "");
	}
}

/* S2 of the pair i < j below 0. */
static void
check_pair(const sr_sobol_result *r, size_t n, char *const *names,
    size_t i, size_t j, sr_trust *t)
{
	double v = r->S2[i * r->k + j], c = r->S2_conf[i * r->k + j];
	char a[64];

	if (-v > fmax(half(c), SR_TRUST_NEGLIGIBLE))
		add(t, SR_TRUST_S2_NEGATIVE, i, j, n, sr_trust_samples(n, c,
		    SR_TRUST_TARGET, 2 * n), TO_TARGET, "S2 of %s and %s is %s, "
		    "below 0%s", names[i], names[j], with_conf(a, v, c),
		    isfinite(c) ? " beyond its interval" : "");
}

void
sr_trust_sobol(const sr_sobol_result *r, size_t n, char *const *names,
    sr_trust *t)
{
	size_t i, j;

	t->samples = n;
	check_sum(r, n, t);
	for (i = 0; i < r->k; i++) {
		check_param(r, n, names, i, t);
		check_range(r, n, names, i, t);
	}
	for (i = 0; r->S2 && i < r->k; i++)
		for (j = i + 1; j < r->k; j++)
			check_pair(r, n, names, i, j, t);
}

void
sr_trust_morris(size_t effects, sr_trust *t)
{
	if (effects == 1)
		add(t, SR_TRUST_ONE_TRAJECTORY, 0, 0, 0, 0, "", "sigma is "
		    "undefined with one trajectory: mu* alone ranks the "
		    "parameters, without an interval; sample 2 trajectories or "
		    "more (10 or more is usual)");
}

size_t
sr_trust_max_needed(const sr_trust *t)
{
	size_t i, m = 0;

	for (i = 0; i < t->n; i++)
		if (t->w[i].n_needed > m)
			m = t->w[i].n_needed;
	return m;
}

void
sr_trust_free(sr_trust *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->w[i].text);
	free(t->w);
	t->w = NULL;
	t->n = 0;
}
