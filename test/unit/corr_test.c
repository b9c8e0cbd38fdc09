/* corr_test.c - known-answer tests for sr_corr_analyze (tools/lib/sa/corr.c).
 *
 * Exit 0 when every check passes; otherwise print "FAIL: ..." lines and
 * exit 1.
 */
#include "sa/corr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

static int failures;

/* Record a failure unless |got - want| <= tol. */
static void
check_near(const char *what, double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol)) {
		printf("FAIL: %s: got %.17g, want %.17g (tol %g)\n", what, got,
		    want, tol);
		failures++;
	}
}

/* Record a failure unless cond holds. */
static void
check(const char *what, int cond)
{
	if (!cond) {
		printf("FAIL: %s\n", what);
		failures++;
	}
}

/* Whether every pointer of res is NULL. */
static int
result_is_empty(const sr_corr_result *res)
{
	int m;

	for (m = 0; m < SR_NCORR; m++)
		if (res->value[m] != NULL || res->pvalue[m] != NULL)
			return 0;
	return 1;
}

/* (a) y = 2 x1 - 3 x2 + 0 x3 + small noise on a fixed 50-run design:
 * SRC against b_i sd(x_i)/sd(y), R^2, p-values, and the identity
 * p(SRC_i) == p(PCC_i) (same t statistic). */
static void
test_linear(void)
{
	enum { N = 50, K = 3 };
	static const double b[K] = { 2.0, -3.0, 0.0 };
	double x[N * K], y[N], want, tol;
	char err[SR_ERRLEN], name[64];
	sr_corr_result res;
	size_t i, j;

	for (i = 0; i < N; i++) {
		x[i * K + 0] = ((i * 7) % N + 0.5) / N;
		x[i * K + 1] = ((i * 17 + 3) % N + 0.5) / N;
		x[i * K + 2] = ((i * 29 + 11) % N + 0.5) / N;
		y[i] = 0.01 * sin(1.3 * (double)i + 0.7);
		for (j = 0; j < K; j++)
			y[i] += b[j] * x[i * K + j];
	}
	if (sr_corr_analyze(x, y, N, K, &res, err) != 0) {
		printf("FAIL: linear: %s\n", err);
		failures++;
		return;
	}
	check("linear: k", res.k == K);
	for (j = 0; j < K; j++) {
		want = b[j] * gsl_stats_sd(x + j, K, N) / gsl_stats_sd(y, 1, N);
		snprintf(name, sizeof(name), "linear: src[%zu]", j);
		check_near(name, res.value[SR_SRC][j], want, 0.02);
		snprintf(name, sizeof(name), "linear: p(src[%zu]) == p(pcc)", j);
		tol = 1e-6 * res.pvalue[SR_PCC][j] + 1e-300;
		check_near(name, res.pvalue[SR_SRC][j], res.pvalue[SR_PCC][j],
		    tol);
	}
	check("linear: src signs", res.value[SR_SRC][0] > 0 &&
	    res.value[SR_SRC][1] < 0);
	check("linear: p(src x1, x2) tiny", res.pvalue[SR_SRC][0] < 1e-10 &&
	    res.pvalue[SR_SRC][1] < 1e-10);
	check("linear: p(src x3) large", res.pvalue[SR_SRC][2] > 0.01);
	check("linear: r2 near 1", res.r2 > 0.999 && res.r2 <= 1.0);
	check("linear: r2_rank in (0.9, 1]", res.r2_rank > 0.9 &&
	    res.r2_rank <= 1.0);
	check("linear: pcc x1, x2 near +-1", res.value[SR_PCC][0] > 0.99 &&
	    res.value[SR_PCC][1] < -0.99);
	sr_corr_result_free(&res);
	check("linear: free clears", result_is_empty(&res));
	sr_corr_result_free(&res);
}

/* (b) x = 1..5, y = {2,4,5,4,5}: hand-computed Pearson r = 6/sqrt(60),
 * Spearman rho = 7/sqrt(90) (average ranks for the ties); with one input
 * PCC equals Pearson and SRC equals r with the same p-value. */
static void
test_small(void)
{
	static const double x[5] = { 1, 2, 3, 4, 5 };
	static const double y[5] = { 2, 4, 5, 4, 5 };
	char err[SR_ERRLEN];
	sr_corr_result res;

	if (sr_corr_analyze(x, y, 5, 1, &res, err) != 0) {
		printf("FAIL: small: %s\n", err);
		failures++;
		return;
	}
	check_near("small: pearson", res.value[SR_PEARSON][0],
	    0.7745966692414834, 1e-9);
	check_near("small: pearson p", res.pvalue[SR_PEARSON][0], 0.12403,
	    1e-3);
	check_near("small: spearman", res.value[SR_SPEARMAN][0],
	    0.7378647873726218, 1e-9);
	check_near("small: spearman p", res.pvalue[SR_SPEARMAN][0], 0.15462,
	    1e-3);
	check_near("small: pcc", res.value[SR_PCC][0],
	    res.value[SR_PEARSON][0], 1e-9);
	check_near("small: pcc p", res.pvalue[SR_PCC][0],
	    res.pvalue[SR_PEARSON][0], 1e-9);
	check_near("small: prcc", res.value[SR_PRCC][0],
	    res.value[SR_SPEARMAN][0], 1e-9);
	check_near("small: src", res.value[SR_SRC][0],
	    res.value[SR_PEARSON][0], 1e-9);
	check_near("small: src p", res.pvalue[SR_SRC][0],
	    res.pvalue[SR_PEARSON][0], 1e-9);
	check_near("small: srrc", res.value[SR_SRRC][0],
	    res.value[SR_SPEARMAN][0], 1e-9);
	check_near("small: r2", res.r2, 0.6, 1e-9);
	check_near("small: r2_rank", res.r2_rank, 49.0 / 90.0, 1e-9);
	sr_corr_result_free(&res);
}

/* (c) y = exp(x1) with two inputs: Spearman = PRCC = SRRC = 1 for x1;
 * raw PCC against the two-variable partial correlation formula. */
static void
test_monotone(void)
{
	enum { N = 40, K = 2 };
	double x[N * K], y[N], r1y, r2y, r12, want;
	char err[SR_ERRLEN];
	sr_corr_result res;
	size_t i;

	for (i = 0; i < N; i++) {
		x[i * K + 0] = 4.0 * ((i * 11) % N) / N;
		x[i * K + 1] = ((i * 23 + 7) % N) / (double)N;
		y[i] = exp(x[i * K + 0]);
	}
	if (sr_corr_analyze(x, y, N, K, &res, err) != 0) {
		printf("FAIL: monotone: %s\n", err);
		failures++;
		return;
	}
	check_near("monotone: spearman x1", res.value[SR_SPEARMAN][0], 1.0,
	    1e-12);
	check_near("monotone: prcc x1", res.value[SR_PRCC][0], 1.0, 1e-12);
	check_near("monotone: srrc x1", res.value[SR_SRRC][0], 1.0, 1e-9);
	check_near("monotone: r2_rank", res.r2_rank, 1.0, 1e-12);
	check_near("monotone: p(prcc x1)", res.pvalue[SR_PRCC][0], 0.0,
	    1e-12);
	check("monotone: pearson x1 < 1", res.value[SR_PEARSON][0] < 0.99);
	check("monotone: prcc x2 finite", isfinite(res.value[SR_PRCC][1]) &&
	    isfinite(res.pvalue[SR_PRCC][1]));
	r1y = gsl_stats_correlation(x, K, y, 1, N);
	r2y = gsl_stats_correlation(x + 1, K, y, 1, N);
	r12 = gsl_stats_correlation(x, K, x + 1, K, N);
	want = (r1y - r12 * r2y) / sqrt((1 - r12 * r12) * (1 - r2y * r2y));
	check_near("monotone: pcc x1 formula", res.value[SR_PCC][0], want,
	    1e-9);
	want = (r2y - r12 * r1y) / sqrt((1 - r12 * r12) * (1 - r1y * r1y));
	check_near("monotone: pcc x2 formula", res.value[SR_PCC][1], want,
	    1e-9);
	sr_corr_result_free(&res);
}

/* Expect sr_corr_analyze to fail with a message and an empty result. */
static void
expect_error(const char *what, const double *x, const double *y, size_t n,
    size_t k)
{
	char err[SR_ERRLEN] = "";
	sr_corr_result res;

	memset(&res, 0xff, sizeof(res));
	if (sr_corr_analyze(x, y, n, k, &res, err) != -1) {
		printf("FAIL: %s: no error\n", what);
		failures++;
		sr_corr_result_free(&res);
		return;
	}
	check(what, err[0] != '\0' && result_is_empty(&res));
	sr_corr_result_free(&res);
}

/* (d) error cases. */
static void
test_errors(void)
{
	enum { N = 8, K = 2 };
	double x[N * K], y[N], bad[N * K];
	size_t i;

	for (i = 0; i < N; i++) {
		x[i * K + 0] = (double)i;
		x[i * K + 1] = (double)((i * 3) % N);
		y[i] = x[i * K + 0] + 0.5 * x[i * K + 1];
	}
	expect_error("error: n < k+3", x, y, K + 2, K);
	expect_error("error: k == 0", x, y, N, 0);
	memcpy(bad, x, sizeof(bad));
	for (i = 0; i < N; i++)
		bad[i * K + 1] = 3.0;
	expect_error("error: constant input", bad, y, N, K);
	memcpy(bad, x, sizeof(bad));
	bad[5] = NAN;
	expect_error("error: NaN input", bad, y, N, K);
	memcpy(bad, x, sizeof(bad));
	for (i = 0; i < N; i++)
		bad[i * K + 1] = 2.0 * bad[i * K + 0] + 1.0;
	expect_error("error: collinear inputs", bad, y, N, K);
	for (i = 0; i < N; i++)
		bad[i * K + 1] = exp(bad[i * K + 0]);
	expect_error("error: collinear input ranks", bad, y, N, K);
	for (i = 0; i < N; i++)
		bad[i] = 1.0;
	expect_error("error: constant output", x, bad, N, K);
	bad[2] = INFINITY;
	expect_error("error: infinite output", x, bad, N, K);
}

int
main(void)
{
	sr_corr_result zero;

	memset(&zero, 0, sizeof(zero));
	sr_corr_result_free(&zero);
	check("names", strcmp(sr_corr_names[SR_PEARSON], "pearson") == 0 &&
	    strcmp(sr_corr_names[SR_SRRC], "srrc") == 0);
	test_linear();
	test_small();
	test_monotone();
	test_errors();
	if (failures != 0)
		return 1;
	printf("corr_test: all checks passed\n");
	return 0;
}
