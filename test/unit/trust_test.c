/* trust_test.c - the rules of sa/trust.h on made-up Sobol' results: each
 * warning where its bound is broken beyond the interval and the margin,
 * none just inside, the base samples needed, the single trajectory;
 * and the S1 sum's interval of sr_sobol_analyze.
 *
 * Exit 0 when every check passes; otherwise print "FAIL: ..." lines and
 * exit 1. */
#include "core/err.h"
#include "sa/sobol.h"
#include "sa/trust.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void
check(const char *what, int cond)
{
	if (!cond)
		fail("%s", what);
}

#define K 3

/* A result of K parameters, every index trusted: S1 0.3 0.2 0.1 (sum
 * 0.6), ST 0.4 0.3 0.2, S2 0.05, each ± 0.02. */
struct made {
	sr_sobol_result r;
	double S1[K], S1_conf[K], ST[K], ST_conf[K], S2[K * K], S2_conf[K * K];
};

static void
made_init(struct made *m, int second_order)
{
	size_t i;

	memset(m, 0, sizeof *m);
	for (i = 0; i < K; i++) {
		m->S1[i] = 0.3 - 0.1 * (double)i;
		m->ST[i] = m->S1[i] + 0.1;
		m->S1_conf[i] = m->ST_conf[i] = 0.02;
	}
	for (i = 0; i < K * K; i++) {
		m->S2[i] = 0.05;
		m->S2_conf[i] = 0.02;
	}
	m->r.k = K;
	m->r.S1 = m->S1;
	m->r.S1_conf = m->S1_conf;
	m->r.ST = m->ST;
	m->r.ST_conf = m->ST_conf;
	m->r.S2 = second_order ? m->S2 : NULL;
	m->r.S2_conf = second_order ? m->S2_conf : NULL;
	m->r.S1_sum = 0.6;
	m->r.S1_sum_conf = 0.02;
}

static char *const names[K] = { "a", "b", "c" };

/* The warnings of m with n base samples; t is freed first. */
static sr_trust *
warnings(struct made *m, size_t n, sr_trust *t)
{
	sr_trust_free(t);
	sr_trust_sobol(&m->r, n, names, t);
	return t;
}

/* Whether t is exactly one warning of kind, parameters i, j, n_needed,
 * with the text containing want. */
static int
one(const sr_trust *t, enum sr_trust_kind kind, size_t i, size_t j,
    size_t needed, const char *want)
{
	if (t->n != 1) {
		fail("%zu warnings, expected 1 (%s)", t->n, want);
		return 0;
	}
	if (t->w[0].kind != kind || t->w[0].i != i || t->w[0].j != j ||
	    t->w[0].n_needed != needed || strstr(t->w[0].text, want) == NULL) {
		fail("got kind %d (%zu, %zu) needing %zu: '%s'; expected kind %d "
		    "(%zu, %zu) needing %zu with '%s'", (int)t->w[0].kind,
		    t->w[0].i, t->w[0].j, t->w[0].n_needed, t->w[0].text,
		    (int)kind, i, j, needed, want);
		return 0;
	}
	return 1;
}

static void
test_samples(void)
{
	check("n (c/target)^2 up to a power of two: 32 (0.2/0.05)^2 = 512",
	    sr_trust_samples(32, 0.2, 0.05, 64) == 512);
	check("513 rounds up to 1024", sr_trust_samples(513, 0.05, 0.05, 0)
	    == 1024);
	check("at least least: 2n", sr_trust_samples(32, 0.01, 0.05, 64) == 64);
	check("no interval: unknown (0)", sr_trust_samples(32, NAN, 0.05, 64)
	    == 0);
	check("a huge ratio is capped", sr_trust_samples(1000, 1e9, 0.05, 0)
	    == (size_t)1 << 40);
	check("uncertain: c > |v| >= 0.05", sr_trust_uncertain(0.1, 0.11) &&
	    sr_trust_uncertain(-0.1, 0.11) && !sr_trust_uncertain(0.1, 0.1) &&
	    !sr_trust_uncertain(0.04, 1) && !sr_trust_uncertain(0.1, NAN));
}

static void
test_sobol(void)
{
	struct made m;
	sr_trust t = { 0, NULL, 0 };

	made_init(&m, 1);
	check("trusted indices: no warning", warnings(&m, 64, &t)->n == 0);
	m.r.S1_sum = 1.2;
	m.r.S1_sum_conf = 0.1;
	one(warnings(&m, 64, &t), SR_TRUST_S1_SUM, 0, 0, 256,
	    "S1 sums to 1.2 ± 0.1, above 1 beyond its interval: too few base "
	    "samples (n = 64); about n = 256 would narrow the intervals to "
	    "± 0.05");
	m.r.S1_sum_conf = 0.21;	/* impossible still: said, as noise */
	one(warnings(&m, 64, &t), SR_TRUST_S1_SUM, 0, 0, 2048,
	    "S1 sums to 1.2 ± 0.21, above 1 within its interval (sampling "
	    "noise: the interval is too wide to tell): too few base samples");
	m.r.S1_sum = 1.04;
	m.r.S1_sum_conf = NAN;
	check("a sum within the margin, no interval: none",
	    warnings(&m, 64, &t)->n == 0);
	m.r.S1_sum = 1.06;
	one(warnings(&m, 64, &t), SR_TRUST_S1_SUM, 0, 0, 0,
	    "S1 sums to 1.06 (no interval), above 1: too few base samples "
	    "(n = 64) or chance; without intervals");

	made_init(&m, 0);
	m.S1[1] = 0.5;	/* ST 0.3 ± 0.02: 0.5 - 0.3 > 0.04 + 0.02 */
	m.S1_conf[1] = 0.04;
	one(warnings(&m, 64, &t), SR_TRUST_S1_ABOVE_ST, 1, 1, 128,
	    "S1 > ST for b: 0.5 ± 0.04 against 0.3 ± 0.02, beyond their "
	    "intervals (ST bounds S1)");
	m.S1_conf[1] = 0.19;	/* 0.2 = 0.19 + 0.02 - 0.01: they overlap */
	m.S1[1] = 0.5 - 0.01;
	one(warnings(&m, 64, &t), SR_TRUST_S1_ABOVE_ST, 1, 1, 1024,
	    "S1 > ST for b: 0.49 ± 0.19 against 0.3 ± 0.02, within their "
	    "intervals (sampling noise: the intervals are too wide to tell) "
	    "(ST bounds S1)");
	m.S1_conf[1] = 0.001;
	m.S1[1] = 0.34;	/* beyond the intervals, within the margin */
	check("S1 > ST by less than 0.05: none", warnings(&m, 64, &t)->n == 0);

	/* S1 below 0, ST above 1, beyond their intervals: examples/vbd at
	 * n = 32 gave G2's S1 -0.209 +- 0.187 */
	made_init(&m, 0);
	m.S1[2] = -0.209;
	m.S1_conf[2] = 0.187;
	one(warnings(&m, 32, &t), SR_TRUST_OUT_OF_RANGE, 2, 0, 512,
	    "S1 of c is -0.209 ± 0.19, below 0 beyond its interval (an index "
	    "is a share of the variance, 0 to 1): too few base samples (n = "
	    "32); about n = 512 would narrow the intervals to ± 0.05");
	m.S1_conf[2] = 0.21;
	check("S1 < 0 within its interval: only its interval is too wide",
	    warnings(&m, 32, &t)->n == 1 && t.w[0].kind == SR_TRUST_WIDE_S1);
	made_init(&m, 0);
	m.ST[0] = 1.2;
	m.S1[0] = 1.1;
	m.ST_conf[0] = 0.1;
	m.S1_conf[0] = 0.2;	/* S1 1.1 +- 0.2: within */
	one(warnings(&m, 64, &t), SR_TRUST_OUT_OF_RANGE, 0, 1, 256,
	    "ST of a is 1.2 ± 0.1, above 1 beyond its interval");
	m.ST[0] = 1.04;
	m.ST_conf[0] = NAN;
	m.S1[0] = 1.0;
	check("ST above 1 by less than 0.05, no interval: none",
	    warnings(&m, 64, &t)->n == 0);

	made_init(&m, 1);
	m.S2[0 * K + 2] = -0.3;
	m.S2_conf[0 * K + 2] = 0.2;
	one(warnings(&m, 32, &t), SR_TRUST_S2_NEGATIVE, 0, 2, 512,
	    "S2 of a and c is -0.3 ± 0.2, below 0 beyond its interval: too "
	    "few base samples (n = 32); about n = 512");
	m.S2_conf[0 * K + 2] = 0.31;
	check("S2 < 0 within its interval: none", warnings(&m, 32, &t)->n == 0);
	m.S2[0 * K + 2] = -0.04;
	m.S2_conf[0 * K + 2] = 0.001;
	check("S2 < 0 by less than 0.05: none", warnings(&m, 32, &t)->n == 0);
	m.S2[2 * K + 0] = -5;	/* the lower triangle is not used */
	check("S2's lower triangle is ignored", warnings(&m, 32, &t)->n == 0);

	made_init(&m, 0);
	m.S1_conf[0] = 0.4;	/* S1 0.3: N (2 0.4 / 0.3)^2 = 455 -> 512 */
	one(warnings(&m, 64, &t), SR_TRUST_WIDE_S1, 0, 0, 512,
	    "S1 of a is 0.3 ± 0.4, an interval wider than the index: too few "
	    "base samples (n = 64); about n = 512 would narrow it to half "
	    "the index");
	made_init(&m, 0);
	m.ST_conf[2] = 0.25;	/* ST 0.2: 64 (0.5 / 0.2)^2 = 400 -> 512 */
	one(warnings(&m, 64, &t), SR_TRUST_WIDE_ST, 2, 2, 512,
	    "ST of c is 0.2 ± 0.25, an interval wider than the index");
	made_init(&m, 0);
	m.S1[2] = 0.049;	/* negligible: no matter its interval */
	m.S1_conf[2] = 0.5;
	check("a negligible index with a wide interval: none",
	    warnings(&m, 64, &t)->n == 0);
	sr_trust_free(&t);
}

/* The S1 sum and its interval from the analysis itself. */
static void
test_sum(void)
{
	size_t n = 64, k = 2, bs = k + 2, j, r;
	double *y = sr_calloc(n * bs, sizeof *y), sum;
	sr_sobol_result res;
	char err[SR_ERRLEN];

	for (j = 0; j < n * bs; j++)
		y[j] = (double)rnd(1000) / 1000;
	if (sr_sobol_analyze(y, n, k, 0, 50, 0.95, 0, 1, &res, err)) {
		fail("sr_sobol_analyze: %s", err);
		free(y);
		return;
	}
	for (sum = 0, r = 0; r < k; r++)
		sum += res.S1[r];
	check("S1_sum is the sum of the S1", fabs(res.S1_sum - sum) < 1e-12);
	check("S1_sum_conf is a positive half-width", res.S1_sum_conf > 0 &&
	    isfinite(res.S1_sum_conf));
	sr_sobol_result_free(&res);
	if (sr_sobol_analyze(y, n, k, 0, 1, 0.95, 0, 1, &res, err) == 0)
		check("one resample: no interval of the sum",
		    isnan(res.S1_sum_conf));
	sr_sobol_result_free(&res);
	free(y);
}

static void
test_morris(void)
{
	sr_trust t = { 0, NULL, 0 };

	sr_trust_morris(2, &t);
	check("two trajectories: no warning", t.n == 0);
	sr_trust_morris(1, &t);
	one(&t, SR_TRUST_ONE_TRAJECTORY, 0, 0, 0, "sigma is undefined with one "
	    "trajectory");
	sr_trust_free(&t);
	check("freed", t.n == 0 && t.w == NULL);
}

int
main(void)
{
	sr_init("trust_test");
	test_samples();
	test_sobol();
	test_sum();
	test_morris();
	if (failures)
		printf("%d failures\n", failures);
	return failures != 0;
}
