/* corr.c - correlation-based sensitivity measures.
 *
 * Pearson and Spearman correlation, partial (rank) correlation and
 * standardized (rank) regression coefficients of each input with the
 * output, each with a two-sided p-value. The rank versions apply the
 * linear ones to average ranks (ties share the mean of their positions).
 */
#include "core/err.h"
#include "sa/corr.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_vector.h>

/* Singular values below this fraction of the largest (after GSL's column
 * balancing) mark a design as collinear. */
#define CORR_RANK_TOL	1e-10
/* A residual sum of squares below this fraction of the total counts as an
 * exact fit. */
#define CORR_EXACT_TOL	1e-24

const char *const sr_corr_names[SR_NCORR] = {
	"pearson", "spearman", "pcc", "prcc", "src", "srrc"
};

/* Scratch space for least-squares fits of n rows on p regressors. */
struct fitws {
	gsl_matrix *X, *cov;
	gsl_vector *v, *c, *res1, *res2;
	gsl_multifit_linear_workspace *w;
};

/* Free everything in f; safe on a zeroed or partly allocated struct. */
static void
fitws_free(struct fitws *f)
{
	gsl_matrix_free(f->X);
	gsl_matrix_free(f->cov);
	gsl_vector_free(f->v);
	gsl_vector_free(f->c);
	gsl_vector_free(f->res1);
	gsl_vector_free(f->res2);
	gsl_multifit_linear_free(f->w);
	memset(f, 0, sizeof(*f));
}

/* Allocate f for n rows and p regressors; 0 on success, -1 (all freed)
 * on failure. */
static int
fitws_alloc(struct fitws *f, size_t n, size_t p)
{
	memset(f, 0, sizeof(*f));
	f->X = gsl_matrix_alloc(n, p);
	f->cov = gsl_matrix_alloc(p, p);
	f->v = gsl_vector_alloc(n);
	f->c = gsl_vector_alloc(p);
	f->res1 = gsl_vector_alloc(n);
	f->res2 = gsl_vector_alloc(n);
	f->w = gsl_multifit_linear_alloc(n, p);
	if (f->X == NULL || f->cov == NULL || f->v == NULL || f->c == NULL ||
	    f->res1 == NULL || f->res2 == NULL || f->w == NULL) {
		fitws_free(f);
		return -1;
	}
	return 0;
}

/* Fill X with an intercept column followed by the k columns of x except
 * column skip (skip >= k keeps them all). */
static void
fill_design(gsl_matrix *X, const double *x, size_t n, size_t k, size_t skip)
{
	size_t i, j, col;

	for (i = 0; i < n; i++) {
		gsl_matrix_set(X, i, 0, 1.0);
		for (j = 0, col = 1; j < k; j++)
			if (j != skip)
				gsl_matrix_set(X, i, col++, x[i * k + j]);
	}
}

/* Copy the strided column src[0], src[stride], ... (n values) into v. */
static void
load_vector(gsl_vector *v, const double *src, size_t stride, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		gsl_vector_set(v, i, src[i * stride]);
}

/* Least-squares fit of f->v on f->X into f->c, f->cov, *chisq; -1 when
 * GSL fails or the design is rank deficient. */
static int
fit(struct fitws *f, double *chisq)
{
	size_t rank;

	if (gsl_multifit_linear_tsvd(f->X, f->v, CORR_RANK_TOL, f->c, f->cov,
	    chisq, &rank, f->w) != GSL_SUCCESS)
		return -1;
	return rank == f->X->size2 ? 0 : -1;
}

/* Two-sided p-value of a correlation r with dof degrees of freedom. */
static double
corr_pvalue(double r, double dof)
{
	double t;

	if (fabs(r) >= 1.0)
		return 0.0;
	t = r * sqrt(dof / ((1.0 - r) * (1.0 + r)));
	return 2.0 * gsl_cdf_tdist_Q(fabs(t), dof);
}

/* Two-sided p-value of the t-test of coefficient b with standard error se. */
static double
coef_pvalue(double b, double se, double dof)
{
	if (se == 0.0)
		return b == 0.0 ? 1.0 : 0.0;
	return 2.0 * gsl_cdf_tdist_Q(fabs(b / se), dof);
}

/* Pearson correlation of two strided series, clamped to [-1, 1]. */
static double
correlation(const double *a, size_t sa, const double *b, size_t sb, size_t n)
{
	double r = gsl_stats_correlation(a, sa, b, sb, n);

	return r > 1.0 ? 1.0 : (r < -1.0 ? -1.0 : r);
}

/* Average ranks (1-based, ties averaged) of the strided series v into
 * out (contiguous); idx is scratch of n entries. */
static void
rank_average(const double *v, size_t stride, size_t n, size_t *idx,
    double *out)
{
	size_t i, j, t;

	gsl_sort_index(idx, v, stride, n);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && v[idx[j] * stride] ==
		    v[idx[i] * stride]; j++)
			;
		for (t = i; t < j; t++)
			out[idx[t]] = 0.5 * (double)(i + j + 1);
	}
}

/* Replace x (n x k) and y by the average ranks of each column in rx, ry;
 * -1 on allocation failure. */
static int
rank_data(const double *x, const double *y, size_t n, size_t k, double *rx,
    double *ry)
{
	size_t *idx;
	double *col;
	size_t i, j;

	idx = malloc(n * sizeof(*idx));
	col = malloc(n * sizeof(*col));
	if (idx == NULL || col == NULL) {
		free(idx);
		free(col);
		return -1;
	}
	for (j = 0; j < k; j++) {
		rank_average(x + j, k, n, idx, col);
		for (i = 0; i < n; i++)
			rx[i * k + j] = col[i];
	}
	rank_average(y, 1, n, idx, ry);
	free(idx);
	free(col);
	return 0;
}

/* Whether all n values of the strided series v are equal. */
static int
is_constant(const double *v, size_t stride, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i * stride] != v[0])
			return 0;
	return 1;
}

/* Validate sizes and values; 0 if analysable, else -1 with a message. */
static int
check_input(const double *x, const double *y, size_t n, size_t k,
    char *errbuf)
{
	size_t i;

	if (x == NULL || y == NULL) {
		sr_seterr(errbuf, "no data");
		return -1;
	}
	if (k == 0) {
		sr_seterr(errbuf, "need at least one input");
		return -1;
	}
	if (n < 3 || n - 3 < k) {
		sr_seterr(errbuf, "need at least %zu runs for partial "
		    "correlations, have %zu", k > SIZE_MAX - 3 ? k : k + 3, n);
		return -1;
	}
	if (n > SIZE_MAX / sizeof(double) / k) {
		sr_seterr(errbuf, "design of %zu x %zu is too large", n, k);
		return -1;
	}
	for (i = 0; i < n * k; i++)
		if (!isfinite(x[i])) {
			sr_seterr(errbuf, "input %zu of run %zu is not finite",
			    i % k, i / k);
			return -1;
		}
	for (i = 0; i < n; i++)
		if (!isfinite(y[i])) {
			sr_seterr(errbuf, "output of run %zu is not finite", i);
			return -1;
		}
	for (i = 0; i < k; i++)
		if (is_constant(x + i, k, n)) {
			sr_seterr(errbuf, "input %zu is constant", i);
			return -1;
		}
	if (is_constant(y, 1, n)) {
		sr_seterr(errbuf, "output is constant");
		return -1;
	}
	return 0;
}

/* Residuals of the strided series v regressed on f->X into res; -1 if
 * the fit fails. */
static int
residuals(struct fitws *f, const double *v, size_t stride, gsl_vector *res)
{
	double chisq;

	load_vector(f->v, v, stride, f->X->size1);
	if (fit(f, &chisq) != 0)
		return -1;
	return gsl_multifit_linear_residuals(f->X, f->v, f->c, res) ==
	    GSL_SUCCESS ? 0 : -1;
}

/* Partial correlation of input i with y given the other inputs into
 * *r, *p. When y is an exact linear function of the other inputs nothing
 * is left to correlate: r = 0, p = 1. -1 if input i is collinear. */
static int
partial_one(struct fitws *f, const double *x, const double *y, size_t k,
    size_t i, double *r, double *p)
{
	size_t n = f->X->size1;
	double rssx, rssy;

	fill_design(f->X, x, n, k, i);
	if (residuals(f, x + i, k, f->res1) != 0 ||
	    residuals(f, y, 1, f->res2) != 0)
		return -1;
	rssx = gsl_stats_tss_m(f->res1->data, 1, n, 0.0);
	rssy = gsl_stats_tss_m(f->res2->data, 1, n, 0.0);
	if (rssx <= CORR_EXACT_TOL * gsl_stats_tss(x + i, k, n))
		return -1;
	if (rssy <= CORR_EXACT_TOL * gsl_stats_tss(y, 1, n)) {
		*r = 0.0;
		*p = 1.0;
		return 0;
	}
	*r = correlation(f->res1->data, 1, f->res2->data, 1, n);
	*p = corr_pvalue(*r, (double)(n - 2 - (k - 1)));
	return 0;
}

/* Partial correlations (and p-values) of every input with y. */
static int
partial_corr(const double *x, const double *y, size_t n, size_t k,
    double *val, double *pv, const char *what, char *errbuf)
{
	struct fitws f;
	size_t i;

	if (fitws_alloc(&f, n, k) != 0) {
		sr_seterr(errbuf, "out of memory");
		return -1;
	}
	for (i = 0; i < k; i++)
		if (partial_one(&f, x, y, k, i, &val[i], &pv[i]) != 0) {
			sr_seterr(errbuf, "%s %zu is collinear with the other "
			    "inputs", what, i);
			fitws_free(&f);
			return -1;
		}
	fitws_free(&f);
	return 0;
}

/* Standardized coefficients of y = b0 + sum b_i x_i, their t-test
 * p-values and the fit's R^2. */
static int
regression(const double *x, const double *y, size_t n, size_t k,
    double *val, double *pv, double *r2, const char *what, char *errbuf)
{
	struct fitws f;
	double chisq, b, sdy;
	size_t i;

	if (fitws_alloc(&f, n, k + 1) != 0) {
		sr_seterr(errbuf, "out of memory");
		return -1;
	}
	fill_design(f.X, x, n, k, k);
	load_vector(f.v, y, 1, n);
	if (fit(&f, &chisq) != 0) {
		sr_seterr(errbuf, "%ss are collinear", what);
		fitws_free(&f);
		return -1;
	}
	sdy = gsl_stats_sd(y, 1, n);
	for (i = 0; i < k; i++) {
		b = gsl_vector_get(f.c, i + 1);
		val[i] = b * gsl_stats_sd(x + i, k, n) / sdy;
		pv[i] = coef_pvalue(b, sqrt(gsl_matrix_get(f.cov, i + 1,
		    i + 1)), (double)(n - k - 1));
	}
	*r2 = 1.0 - chisq / gsl_stats_tss(y, 1, n);
	fitws_free(&f);
	return 0;
}

/* All three measures on one version of the data: raw (ranked == 0) gives
 * Pearson, PCC, SRC and r2; ranked gives Spearman, PRCC, SRRC and r2_rank. */
static int
analyze_block(const double *x, const double *y, size_t n, size_t k,
    int ranked, sr_corr_result *out, char *errbuf)
{
	int lin = ranked ? SR_SPEARMAN : SR_PEARSON;
	int par = ranked ? SR_PRCC : SR_PCC;
	int reg = ranked ? SR_SRRC : SR_SRC;
	const char *what = ranked ? "input rank" : "input";
	size_t i;

	for (i = 0; i < k; i++) {
		out->value[lin][i] = correlation(x + i, k, y, 1, n);
		out->pvalue[lin][i] = corr_pvalue(out->value[lin][i],
		    (double)(n - 2));
	}
	if (regression(x, y, n, k, out->value[reg], out->pvalue[reg],
	    ranked ? &out->r2_rank : &out->r2, what, errbuf) != 0)
		return -1;
	return partial_corr(x, y, n, k, out->value[par], out->pvalue[par],
	    what, errbuf);
}

/* Allocate out's arrays and compute every measure; -1 on failure (the
 * caller frees out). */
static int
corr_run(const double *x, const double *y, size_t n, size_t k,
    sr_corr_result *out, char *errbuf)
{
	double *rx, *ry;
	int m, rc;

	for (m = 0; m < SR_NCORR; m++) {
		out->value[m] = malloc(k * sizeof(double));
		out->pvalue[m] = malloc(k * sizeof(double));
		if (out->value[m] == NULL || out->pvalue[m] == NULL) {
			sr_seterr(errbuf, "out of memory");
			return -1;
		}
	}
	rx = malloc(n * k * sizeof(*rx));
	ry = malloc(n * sizeof(*ry));
	if (rx == NULL || ry == NULL || rank_data(x, y, n, k, rx, ry) != 0) {
		sr_seterr(errbuf, "out of memory");
		rc = -1;
	} else if ((rc = analyze_block(x, y, n, k, 0, out, errbuf)) == 0)
		rc = analyze_block(rx, ry, n, k, 1, out, errbuf);
	free(rx);
	free(ry);
	return rc;
}

int
sr_corr_analyze(const double *x, const double *y, size_t n, size_t k,
    sr_corr_result *out, char *errbuf)
{
	gsl_error_handler_t *prev;
	int rc;

	if (out == NULL) {
		sr_seterr(errbuf, "no result struct");
		return -1;
	}
	memset(out, 0, sizeof(*out));
	if (check_input(x, y, n, k, errbuf) != 0)
		return -1;
	out->k = k;
	/* GSL aborts on errors by default; report them as return codes. */
	prev = gsl_set_error_handler_off();
	rc = corr_run(x, y, n, k, out, errbuf);
	gsl_set_error_handler(prev);
	if (rc != 0)
		sr_corr_result_free(out);
	return rc;
}

void
sr_corr_result_free(sr_corr_result *res)
{
	int m;

	if (res == NULL)
		return;
	for (m = 0; m < SR_NCORR; m++) {
		free(res->value[m]);
		free(res->pvalue[m]);
		res->value[m] = NULL;
		res->pvalue[m] = NULL;
	}
}
