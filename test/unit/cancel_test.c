/* cancel_test.c - unit tests of sa/cancel: the rules, the canceller, the
 * Wilcoxon test and the rule's text form.
 *
 * The stable rule on hand-made value streams (settling at 2w-1 values,
 * a slope that rises and then falls, the poor and slow margins at their
 * boundaries); the median rule's warmup and startup at their boundaries,
 * its strict comparison, even counts and cancelled sets; the wilcoxon
 * rule's best set (ties, cancelled sets, none), its mean guard and exact
 * p-values of 2^-k; sr_wilcoxon_less against all 2^n sign flips of
 * random differences with ties and zeros, and against scipy's p-values in
 * test/data/wilcoxon-fixtures.tsv (test/unit/wilcoxon_fixtures.py: exact
 * and permutation p-values to 1e-9 relative, the normal approximation to
 * 1e-6); the canceller's bookkeeping; parse and format round trips and
 * every usage error (in a child process).
 *
 * Usage: cancel_test [FIXTURES.tsv] (default test/data/...). Exits 0 on
 * success; prints "FAIL: ..." and exits 1 otherwise.
 */
#include "core/err.h"
#include "sa/cancel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define EXACT_TOL 1e-9		/* relative: exact and permutation p-values */
#define APPROX_TOL 1e-6		/* relative: the normal approximation */

static sr_cancelrule
rule(sr_cancelkind k)
{
	sr_cancelrule r;

	sr_cancelrule_default(&r, k);
	return r;
}

static sr_cancelrule
stable(double acc, double time, size_t window)
{
	sr_cancelrule r = rule(SR_CANCEL_STABLE);

	r.acc = acc;
	r.time = time;
	r.window = window;
	return r;
}

/* ---- the stable rule ----------------------------------------------------- */

/* Feeds set 0 the values x[0..n) with times t0 (NULL: 1 s), and before
 * each set 1 the value y[k] (when y is given) in 1 s; returns after which
 * value of set 0 it was cancelled (1-based), 0 if never. */
static size_t
cancel_after(const sr_cancelrule *r, const double *x, const double *y,
    size_t n, const double *t0)
{
	sr_canceller *c = sr_cancel_new(r, 2);
	size_t k, at = 0;

	for (k = 0; k < n && !at; k++) {
		if (y)
			sr_cancel_add(c, 1, y[k], 1);
		if (sr_cancel_add(c, 0, x[k], t0 ? t0[k] : 1))
			at = k + 1;
	}
	if (at && (!sr_cancel_is(c, 0) || sr_cancel_count(c) != 1))
		fail("cancelled set not reported");
	sr_cancel_free(c);
	return at;
}

static void
fill(double *x, size_t n, double v)
{
	size_t k;

	for (k = 0; k < n; k++)
		x[k] = v;
}

static void
expect_after(const char *what, size_t got, size_t want)
{
	if (got != want)
		fail("%s: cancelled after %zu values, expected %zu", what, got, want);
}

static void
stable_cases(void)
{
	sr_cancelrule r = stable(0.05, NAN, 3);
	double low[12], high[12], rising[12], slow[12];
	size_t k;

	fill(low, 12, 0.5);
	fill(high, 12, 0.9);
	fill(slow, 12, 3);
	/* the running mean moves more and more: never settles */
	for (k = 0; k < 12; k++)
		rising[k] = k % 2 ? 0.1 : 0.1 + 0.01 * (double)(k * k * k);
	/* w = 3: settled at the 2w-1 = 5th value (V_3, V_4, V_5 all 0) */
	expect_after("poor constant set", cancel_after(&r, low, high, 12, NULL), 5);
	expect_after("good set", cancel_after(&r, high, low, 12, NULL), 0);
	expect_after("unsettled set", cancel_after(&r, rising, high, 12, NULL), 0);
	/* 0.95 three times sums to 2.8499999999999996: the running mean
	 * must stay 0.95 for the set to settle */
	fill(low, 12, 0.95);
	fill(high, 12, 1.5);
	expect_after("poor set of 0.95", cancel_after(&r, low, high, 12, NULL), 5);
	fill(low, 12, 0.5);
	fill(high, 12, 0.9);
	r.window = 1;
	expect_after("w = 1", cancel_after(&r, low, high, 12, NULL), 1);
	/* alone, a set is never below the mean of everything */
	expect_after("a lone set", cancel_after(&r, low, NULL, 12, NULL), 0);
	/* time: 3 s a value against 1 s for the other set; the mean of every
	 * time after value k of both is 2, so 3 > 1.4 x 2 */
	r = stable(NAN, 1.4, 2);
	expect_after("slow set", cancel_after(&r, high, high, 12, slow), 3);
	r.time = 1.6;
	expect_after("slow set within 1.6 x", cancel_after(&r, high, high, 12,
	    slow), 0);
	/* at the boundary: 3 > 1.5 x 2 is false */
	r.time = 1.5;
	expect_after("slow set at 1.5 x", cancel_after(&r, high, high, 12, slow), 0);
	r = stable(NAN, NAN, 1);
	expect_after("rule off", cancel_after(&r, low, high, 12, slow), 0);
}

/* The margins at their boundaries, in eighths (exact), and the slope. */
static void
stable_boundaries(void)
{
	sr_cancelrule r = stable(0.25, NAN, 2);
	double low[8], high[8], dip[8] = { 1, 1, 0, 0, 0, 0, 0, 0 };

	fill(low, 8, 0.5);
	fill(high, 8, 1);
	/* G = 0.75 after k values of both: 0.5 < 0.75 - 0.25 is false */
	expect_after("mean at G - acc", cancel_after(&r, low, high, 8, NULL), 0);
	r.acc = 0.125;
	expect_after("mean below G - acc", cancel_after(&r, low, high, 8, NULL), 3);
	/* w = 2, means 1, 1, 2/3, 1/2: V_2 = 0, V_3 > 0 (slope up, not
	 * settled), V_4 < V_3 (slope down): cancelled at the 4th value, G =
	 * (4 + 2) / 8 = 0.75 > 1/2 + 1/8 */
	expect_after("slope up then down", cancel_after(&r, dip, high, 8, NULL), 4);
}

/* Set 1 takes 1 in 1 s, then set 0 0.5 in 3 s: whether rule r cancels
 * set 0, with its detail in d. */
static int
stable_pair(sr_cancelrule r, char *d, size_t len)
{
	sr_canceller *c = sr_cancel_new(&r, 2);
	int cancelled;

	sr_cancel_push(c, 1, 1, 1);
	sr_cancel_push(c, 0, 0.5, 3);
	cancelled = sr_cancel_decide(c, 0, d, len);
	sr_cancel_free(c);
	return cancelled;
}

static void
stable_detail(void)
{
	char d[256];

	if (!stable_pair(stable(0.125, NAN, 1), d, sizeof d) || strcmp(d,
	    "stable: settled, mean 0.5 < mean of all 0.75 - acc 0.125 after 1 "
	    "tiles"))
		fail("stable detail (poor): '%s'", d);
	if (!stable_pair(stable(NAN, 1.2, 1), d, sizeof d) || strcmp(d,
	    "stable: settled, mean seconds 3 > time 1.2 x mean of all 2 after 1 "
	    "tiles"))
		fail("stable detail (slow): '%s'", d);
}

/* ---- the median rule ----------------------------------------------------- */

/* Sets 1..3 with two values each (means after 1: 0.75, 1, 0.25; after
 * 2: 0.5, 1, 0.375), set 0 with x0 then x1, decided after each. Returns
 * after which value set 0 was cancelled (0: never); detail in d. */
static size_t
median_three(const sr_cancelrule *r, double x0, double x1, char *d, size_t len)
{
	static const double v[3][2] = { { 0.75, 0.25 }, { 1, 1 }, { 0.25, 0.5 } };
	sr_canceller *c = sr_cancel_new(r, 4);
	size_t s, at = 0;

	for (s = 1; s <= 3; s++) {
		sr_cancel_push(c, s, v[s - 1][0], 1);
		sr_cancel_push(c, s, v[s - 1][1], 1);
	}
	sr_cancel_push(c, 0, x0, 1);
	if (sr_cancel_decide(c, 0, d, len))
		at = 1;
	sr_cancel_push(c, 0, x1, 1);
	if (!at && sr_cancel_decide(c, 0, d, len))
		at = 2;
	sr_cancel_free(c);
	return at;
}

static void
median_cases(void)
{
	sr_cancelrule r = rule(SR_CANCEL_MEDIAN);
	char d[256];

	r.startup = 3;
	/* warmup 2: not at 0.25 < 0.75 after one value; 0.375 < 0.5 after two */
	expect_after("median warmup 2", median_three(&r, 0.25, 0.5, d, sizeof d), 2);
	if (strcmp(d, "median: mean 0.375 < median 0.5 of 3 sets after 2 tiles"))
		fail("median detail: '%s'", d);
	r.warmup = 1;
	expect_after("median warmup 1", median_three(&r, 0.25, 0.5, d, sizeof d), 1);
	r.warmup = 3;
	expect_after("median warmup 3", median_three(&r, 0.25, 0.5, d, sizeof d), 0);
	/* equal to the median: not below it */
	r.warmup = 2;
	expect_after("median equal", median_three(&r, 0.5, 0.5, d, sizeof d), 0);
	if (d[0] != '\0')
		fail("no cancellation, yet a detail '%s'", d);
	/* startup 4 with 3 other sets: no decision */
	r.startup = 4;
	expect_after("median startup 4", median_three(&r, 0, 0, d, sizeof d), 0);
}

/* Set 0 with two values of x, decided among sets 1..4 whose means after
 * 2 values are 0.5, 1, 0.375, 0.125 (set 4 cancelled: still counted; the
 * median of four (0.375 + 0.5) / 2 = 0.4375) and set 5 with one value
 * (not counted). */
static int
median_four(double x, char *d, size_t len)
{
	static const double v[4][2] = { { 0.5, 0.5 }, { 1, 1 }, { 0.5, 0.25 },
	    { 0.125, 0.125 } };
	sr_cancelrule r = rule(SR_CANCEL_MEDIAN);
	sr_canceller *c;
	size_t s;
	int cancelled;

	r.startup = 4;
	c = sr_cancel_new(&r, 6);
	for (s = 1; s <= 4; s++) {
		sr_cancel_push(c, s, v[s - 1][0], 1);
		sr_cancel_push(c, s, v[s - 1][1], 1);
	}
	sr_cancel_mark(c, 4);
	sr_cancel_push(c, 5, 0.9, 1);
	sr_cancel_push(c, 0, x, 1);
	sr_cancel_push(c, 0, x, 1);
	cancelled = sr_cancel_decide(c, 0, d, len);
	sr_cancel_free(c);
	return cancelled;
}

static void
median_counts(void)
{
	char d[256];

	if (median_four(0.4375, d, sizeof d))
		fail("median of four: cancelled at the median: %s", d);
	if (!median_four(0.375, d, sizeof d) || strcmp(d, "median: mean 0.375 < "
	    "median 0.4375 of 4 sets after 2 tiles"))
		fail("median of four: '%s'", d);
}

/* ---- the wilcoxon rule --------------------------------------------------- */

/* Sets 1 and 2 of value 0.8 on every tile, set 0 of 0.8 - 0.01 (k + 1)
 * on tile k (distinct differences, all below): cancelled once 2^-k < p.
 * Returns after which value (0: never); detail in d. */
static size_t
wilcoxon_after(const sr_cancelrule *r, int cancel1, size_t n, char *d,
    size_t len)
{
	sr_canceller *c = sr_cancel_new(r, 3);
	size_t k, at = 0;

	for (k = 0; k < n && !at; k++) {
		sr_cancel_push(c, 1, 0.8, 1);
		sr_cancel_push(c, 2, 0.8, 1);
		if (cancel1)
			sr_cancel_mark(c, 1);
		sr_cancel_push(c, 0, 0.8 - 0.01 * (double)(k + 1), 1);
		if (sr_cancel_decide(c, 0, d, len))
			at = k + 1;
	}
	sr_cancel_free(c);
	return at;
}

static void
wilcoxon_cases(void)
{
	sr_cancelrule r = rule(SR_CANCEL_WILCOXON);
	sr_canceller *c;
	char d[256];
	size_t k;

	/* p = 1/16 < 0.1 after 4 values; the best is set 1 (the tie's
	 * lowest), or set 2 once set 1 is cancelled */
	expect_after("wilcoxon p 0.1", wilcoxon_after(&r, 0, 10, d, sizeof d), 4);
	if (strcmp(d, "wilcoxon: p 0.0625 < 0.1 against set 1 (mean 0.775 < "
	    "0.8) on 4 tiles"))
		fail("wilcoxon detail: '%s'", d);
	expect_after("wilcoxon, set 1 cancelled", wilcoxon_after(&r, 1, 10, d,
	    sizeof d), 4);
	if (strstr(d, "against set 2 ") == NULL)
		fail("wilcoxon against a cancelled set: '%s'", d);
	r.p = 0.0625;	/* p < 0.0625: one more value */
	expect_after("wilcoxon p 0.0625", wilcoxon_after(&r, 0, 10, d, sizeof d), 5);
	r.p = 0.1;
	r.warmup = 6;
	expect_after("wilcoxon warmup 6", wilcoxon_after(&r, 0, 10, d, sizeof d), 6);
	/* alone: no best, no decision */
	r.warmup = 1;
	c = sr_cancel_new(&r, 2);
	for (k = 0; k < 10; k++)
		if (sr_cancel_add(c, 0, 0.1, 1))
			fail("wilcoxon without a best set cancelled");
	sr_cancel_free(c);
}

/* Nine values 0.01 below the best's and one 1 above: p = 43/1024 (the
 * positive rank 10: 43 of the 1024 subsets of 1..10 sum to at most 10),
 * but the mean is above the best's: never cancelled. */
static void
wilcoxon_guard(void)
{
	sr_cancelrule r = rule(SR_CANCEL_WILCOXON);
	sr_canceller *c = sr_cancel_new(&r, 2);
	double x[10], y[10];
	size_t k;

	for (k = 0; k < 10; k++) {
		y[k] = 0.5;
		x[k] = k == 9 ? 1.5 : 0.5 - 0.01 * (double)(k + 1);
	}
	if (fabs(sr_wilcoxon_less(x, y, 10) - 43.0 / 1024) > 1e-15)
		fail("wilcoxon of 9 below, 1 above: %.17g, expected 43/1024",
		    sr_wilcoxon_less(x, y, 10));
	for (k = 0; k < 10; k++) {
		sr_cancel_push(c, 1, y[k], 1);
		sr_cancel_push(c, 0, x[k], 1);
	}
	if (sr_cancel_decide(c, 0, NULL, 0))
		fail("wilcoxon cancelled a set of a higher mean");
	sr_cancel_free(c);
	if (sr_wilcoxon_less(x, y, 0) != 1)
		fail("wilcoxon of no pairs: not 1");
	x[3] = NAN;
	if (!isnan(sr_wilcoxon_less(x, y, 10)))
		fail("wilcoxon with a NaN: not NaN");
}

/* The two-sided test (sa-campaign evaluate) against scipy 1.10.1's
 * wilcoxon(x, y, alternative="two-sided", method="exact"): 0.25 for 3
 * pairs of one sign (its least value), 0.296875 for 7 pairs of distinct
 * magnitudes; symmetric in x and y; 1 with every difference zero. */
static void
wilcoxon_two_sided(void)
{
	const double x3[] = { 1, 2, 3 }, y3[] = { 2, 3, 4 };
	const double x7[] = { 10, 12, 7, 6, 15, 4, 3 };
	const double y7[] = { 11, 10, 10, 10, 10, 10, 10 };

	if (sr_wilcoxon_two_sided(x3, y3, 3) != 0.25 ||
	    sr_wilcoxon_two_sided(y3, x3, 3) != 0.25)
		fail("two-sided wilcoxon of 3 pairs of one sign: %.17g, "
		    "expected 0.25", sr_wilcoxon_two_sided(x3, y3, 3));
	if (fabs(sr_wilcoxon_two_sided(x7, y7, 7) - 0.296875) > 1e-15 ||
	    sr_wilcoxon_two_sided(x7, y7, 7) != sr_wilcoxon_two_sided(y7, x7,
	    7))
		fail("two-sided wilcoxon of 7 pairs: %.17g, expected 0.296875",
		    sr_wilcoxon_two_sided(x7, y7, 7));
	if (sr_wilcoxon_two_sided(x3, x3, 3) != 1)
		fail("two-sided wilcoxon of equal pairs: not 1");
}

/* The statistic of d[0..n) with the signs of mask (bit i set: d_i
 * flipped): positive mid-ranks of |d| plus half the zeros', by counting. */
static double
brute_statistic(const double *d, size_t n, unsigned mask)
{
	double t = 0, rank, di;
	size_t i, j, below, same;

	for (i = 0; i < n; i++) {
		for (j = 0, below = 0, same = 0; j < n; j++) {
			below += fabs(d[j]) < fabs(d[i]);
			same += fabs(d[j]) == fabs(d[i]);
		}
		rank = (double)below + ((double)same + 1) / 2;
		di = mask >> i & 1 ? -d[i] : d[i];
		t += di > 0 ? rank : di == 0 ? rank / 2 : 0;
	}
	return t;
}

/* Random differences in eighths from -3/8 to 3/8 (ties and zeros), n up
 * to 12: the exact p-value against all 2^n sign flips. */
static void
wilcoxon_brute(void)
{
	double x[12], y[12], d[12], obs, p;
	size_t n, i, below, iter;
	unsigned mask;

	for (iter = 0; iter < 300; iter++) {
		n = 1 + rnd(12);
		for (i = 0; i < n; i++) {
			y[i] = 0.5;
			x[i] = 0.5 + ((double)rnd(7) - 3) / 8;
			d[i] = x[i] - y[i];
		}
		obs = brute_statistic(d, n, 0);
		for (mask = 0, below = 0; mask < 1u << n; mask++)
			below += brute_statistic(d, n, mask) <= obs;
		p = (double)below / (double)(1u << n);
		if (fabs(sr_wilcoxon_less(x, y, n) - p) > 1e-15)
			fail("wilcoxon brute force, n %zu: %.17g, expected %.17g", n,
			    sr_wilcoxon_less(x, y, n), p);
	}
}

/* ---- the fixtures -------------------------------------------------------- */

/* Parses the comma list s into v[0..n); 0 on a count other than n. */
static int
parse_values(char *s, double *v, size_t n)
{
	size_t i = 0;
	char *end, *tok;

	for (tok = strtok(s, ","); tok && i < n; tok = strtok(NULL, ","))
		v[i++] = strtod(tok, &end);
	return i == n && tok == NULL;
}

/* One fixture line: case n method p x y. Returns 1 if checked. */
static int
fixture_line(char *line, double *x, double *y)
{
	char *f[6], *save = NULL;
	size_t n, i;
	double p, got, tol;

	for (i = 0; i < 6; i++)
		f[i] = strtok_r(i ? NULL : line, "\t\n", &save);
	if (f[5] == NULL || (n = strtoul(f[1], NULL, 10)) == 0 || n > 100) {
		fail("fixture line '%s': malformed", line);
		return 0;
	}
	p = strtod(f[3], NULL);
	if (!parse_values(f[4], x, n) || !parse_values(f[5], y, n)) {
		fail("fixture %s: not %zu values", f[0], n);
		return 0;
	}
	got = sr_wilcoxon_less(x, y, n);
	tol = strcmp(f[2], "approx") ? EXACT_TOL : APPROX_TOL;
	if (!(fabs(got - p) <= tol * p))
		fail("fixture %s (%s, n %zu): p %.17g, scipy %.17g", f[0], f[2], n,
		    got, p);
	return 1;
}

static void
fixture_cases(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, checked = 0;
	double x[100], y[100];

	if (fp == NULL) {
		fail("%s: cannot open", path);
		return;
	}
	while (getline(&line, &cap, fp) > 0)
		if (line[0] != '#' && strncmp(line, "case\t", 5) != 0)
			checked += (size_t)fixture_line(line, x, y);
	free(line);
	fclose(fp);
	if (checked < 100)
		fail("%s: %zu fixtures, expected at least 100", path, checked);
}

/* ---- the canceller ------------------------------------------------------- */

static void
canceller_cases(void)
{
	sr_cancelrule r = rule(SR_CANCEL_NONE);
	sr_canceller *c = sr_cancel_new(&r, 3);
	char d[64] = "x";
	size_t k;

	if (!isnan(sr_cancel_mean(c, 0)) || sr_cancel_nvalues(c, 0) != 0)
		fail("a set without values: mean or count");
	for (k = 0; k < 1000; k++)	/* past every growth */
		if (sr_cancel_add(c, 0, (double)(k % 2), 1))
			fail("rule none cancelled a set");
	if (sr_cancel_nvalues(c, 0) != 1000 || sr_cancel_mean(c, 0) != 0.5)
		fail("1000 values: %zu, mean %g", sr_cancel_nvalues(c, 0),
		    sr_cancel_mean(c, 0));
	if (sr_cancel_decide(c, 1, d, sizeof d) || d[0] != '\0')
		fail("a set without values decided");
	sr_cancel_mark(c, 2);
	sr_cancel_mark(c, 2);
	sr_cancel_push(c, 2, 1, 1);
	if (sr_cancel_count(c) != 1 || !sr_cancel_is(c, 2) ||
	    sr_cancel_flags(c)[2] != 1 || sr_cancel_flags(c)[0] != 0 ||
	    sr_cancel_nvalues(c, 2) != 0)
		fail("marking: count %zu", sr_cancel_count(c));
	sr_cancel_free(c);
}

/* ---- the text form ------------------------------------------------------- */

static void
parse_cancel(void *s)
{
	sr_cancelrule r;

	sr_cancelrule_parse(&r, "--cancel", s);
}

/* Whether s is a usage error whose message holds want. */
static void
expect_usage(const char *s, const char *want)
{
	char msg[512];
	int rc = child_error(parse_cancel, (void *)s, msg, sizeof msg);

	if (rc != SR_EXIT_USAGE || strstr(msg, want) == NULL)
		fail("'%s': exit %d, message '%s', expected 2 and '%s'", s, rc,
		    msg, want);
}

/* Whether s parses to the rule that formats as want, and back. */
static void
expect_format(const char *s, const char *want)
{
	sr_cancelrule r, back;
	char buf[SR_CANCEL_RULELEN], again[SR_CANCEL_RULELEN];

	sr_cancelrule_parse(&r, "--cancel", s);
	sr_cancelrule_format(&r, buf, sizeof buf);
	if (strcmp(buf, want))
		fail("--cancel %s: formats as '%s', expected '%s'", s, buf, want);
	sr_cancelrule_parse(&back, "--cancel", buf);
	sr_cancelrule_format(&back, again, sizeof again);
	if (strcmp(again, buf) || back.kind != r.kind)
		fail("--cancel %s: '%s' reads back as '%s'", s, buf, again);
}

static void
format_cases(void)
{
	sr_cancelrule r;

	expect_format("none", "none");
	expect_format("stable", "stable:acc=0.05,time=2,window=5");
	expect_format("median", "median:warmup=2,startup=5");
	expect_format("wilcoxon", "wilcoxon:warmup=2,p=0.1");
	expect_format("window=3", "stable:acc=0.05,time=2,window=3");
	expect_format("acc=off,time=0.5", "stable:acc=off,time=0.5,window=5");
	expect_format("acc=0,time=off", "stable:acc=0,time=off,window=5");
	expect_format("stable:time=off,window=1", "stable:acc=0.05,time=off,window=1");
	expect_format("median:startup=1", "median:warmup=2,startup=1");
	expect_format("median:warmup=7,startup=3", "median:warmup=7,startup=3");
	expect_format("wilcoxon:p=0.05", "wilcoxon:warmup=2,p=0.05");
	expect_format("wilcoxon:warmup=1,p=0.999", "wilcoxon:warmup=1,p=0.999");
	sr_cancelrule_parse(&r, "--cancel", "median:warmup=3");
	if (r.kind != SR_CANCEL_MEDIAN || r.warmup != 3 || r.startup != 5 ||
	    r.window != SR_CANCEL_WINDOW || r.p != SR_CANCEL_P)
		fail("median:warmup=3: not the defaults with warmup 3");
	if (strcmp(sr_cancel_kind_name(SR_CANCEL_WILCOXON), "wilcoxon") ||
	    strcmp(sr_cancel_kind_name(SR_CANCEL_NONE), "none"))
		fail("kind names");
}

static void
usage_cases(void)
{
	expect_usage("", "unknown rule '' (none, stable, median, wilcoxon; or "
	    "acc=A,time=T,window=W)");
	expect_usage("fast", "--cancel 'fast': unknown rule 'fast'");
	expect_usage("fast:p=1", "unknown rule 'fast'");
	expect_usage("acc,time", "'acc' is not KEY=VALUE");
	expect_usage("bad=1", "unknown key 'bad' of rule stable (acc, time, window)");
	expect_usage("median:p=0.1", "unknown key 'p' of rule median (warmup, "
	    "startup)");
	expect_usage("wilcoxon:startup=3", "unknown key 'startup' of rule wilcoxon "
	    "(warmup, p)");
	expect_usage("stable:warmup=2", "unknown key 'warmup' of rule stable");
	expect_usage("none:p=0.1", "rule none takes no keys");
	expect_usage("median:", "rule median takes a comma list of KEY=VALUE");
	expect_usage(",", "rule stable takes a comma list of KEY=VALUE (acc, time, "
	    "window)");
	expect_usage("time=0", "time '0': a number >= 0 (time: > 0) or off");
	expect_usage("stable:acc=-1", "acc '-1': a number >= 0 (time: > 0) or off");
	expect_usage("window=0", "--cancel window '0': a whole number from 1");
	expect_usage("window=1000001", "window above 1000000");
	expect_usage("median:warmup=0", "--cancel warmup '0': a whole number from 1");
	expect_usage("median:startup=0", "--cancel startup '0': a whole number "
	    "from 1");
	expect_usage("wilcoxon:warmup=x", "--cancel warmup 'x': a whole number");
	expect_usage("wilcoxon:p=0", "--cancel p '0': a number in (0, 1)");
	expect_usage("wilcoxon:p=1", "--cancel p '1': a number in (0, 1)");
	expect_usage("wilcoxon:p=nan", "--cancel p 'nan': a number in (0, 1)");
}

int
main(int argc, char **argv)
{
	sr_init("cancel_test");
	stable_cases();
	stable_boundaries();
	stable_detail();
	median_cases();
	median_counts();
	wilcoxon_cases();
	wilcoxon_guard();
	wilcoxon_two_sided();
	wilcoxon_brute();
	fixture_cases(argc > 1 ? argv[1] : "test/data/wilcoxon-fixtures.tsv");
	canceller_cases();
	format_cases();
	usage_cases();
	if (failures) {
		printf("%d failures\n", failures);
		return 1;
	}
	printf("ok\n");
	return 0;
}
