/* paggr.c - paggr auto: normality, stationarity, variogram (paggr.h). */
#include "sa/paggr.h"
#include "core/err.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

sr_jarque_bera
sr_jarque_bera_test(const double *y, size_t n)
{
	sr_jarque_bera r = { NAN, NAN };
	double mean, sd, s, k;

	if (n < 3)
		return r;
	mean = gsl_stats_mean(y, 1, n);
	sd = gsl_stats_sd_with_fixed_mean(y, 1, n, mean);	/* over n */
	if (sd == 0)
		return r;
	/* with the sd over n these are the moment ratios m3 / m2^1.5 and
	 * m4 / m2^2 - 3 of the test */
	s = gsl_stats_skew_m_sd(y, 1, n, mean, sd);
	k = gsl_stats_kurtosis_m_sd(y, 1, n, mean, sd);
	r.statistic = (double)n / 6 * (s * s + k * k / 4);
	r.p = gsl_cdf_chisq_Q(r.statistic, 2);
	return r;
}

/* Welch's t test of two samples' means: t and the two-sided p. */
static void
welch(const double *a, size_t na, const double *b, size_t nb, double *t,
    double *df, double *p)
{
	double ma = gsl_stats_mean(a, 1, na), mb = gsl_stats_mean(b, 1, nb);
	double va = gsl_stats_variance(a, 1, na) / (double)na;
	double vb = gsl_stats_variance(b, 1, nb) / (double)nb;

	*df = NAN;
	if (va + vb == 0) {	/* two constant sides: equal or not */
		*t = ma == mb ? 0 : ma > mb ? INFINITY : -INFINITY;
		*p = ma == mb ? 1 : 0;
		return;
	}
	*t = (ma - mb) / sqrt(va + vb);
	*df = (va + vb) * (va + vb) / (va * va / (double)(na - 1) +
	    vb * vb / (double)(nb - 1));
	*p = fmin(1, 2 * gsl_cdf_tdist_Q(fabs(*t), *df));
}

/* The F test of two samples' variances: the ratio and the two-sided p. */
static void
ftest(const double *a, size_t na, const double *b, size_t nb, double *f,
    double *p)
{
	double va = gsl_stats_variance(a, 1, na), vb = gsl_stats_variance(b, 1, nb);
	double lower, upper;

	if (va == 0 || vb == 0) {
		*f = va == vb ? 1 : va == 0 ? 0 : INFINITY;
		*p = va == vb ? 1 : 0;
		return;
	}
	*f = va / vb;
	lower = gsl_cdf_fdist_P(*f, (double)(na - 1), (double)(nb - 1));
	upper = gsl_cdf_fdist_Q(*f, (double)(na - 1), (double)(nb - 1));
	*p = fmin(1, 2 * fmin(lower, upper));
}

/* Puts the values of the jobs on each side of the split into lo and hi;
 * at_or_below says where the median itself goes. */
static void
split_sides(sr_split_test *r, const double *v, size_t stride,
    const double *y, size_t n, int at_or_below, double *lo, double *hi)
{
	size_t i;
	int low;

	r->nlow = r->nhigh = 0;
	for (i = 0; i < n; i++) {
		low = at_or_below ? v[i * stride] <= r->median :
		    v[i * stride] < r->median;
		if (low)
			lo[r->nlow++] = y[i];
		else
			hi[r->nhigh++] = y[i];
	}
}

sr_split_test
sr_split_test_at_median(const double *v, size_t stride, const double *y,
    size_t n)
{
	sr_split_test r;
	double *col = sr_calloc(n + 1, sizeof *col);
	double *lo = sr_calloc(n + 1, sizeof *lo), *hi = sr_calloc(n + 1,
	    sizeof *hi);
	size_t i;

	memset(&r, 0, sizeof r);
	r.t = r.t_df = r.t_p = r.f = r.f_p = r.median = NAN;
	for (i = 0; i < n; i++)
		col[i] = v[i * stride];
	if (n > 0) {
		gsl_sort(col, 1, n);
		r.median = gsl_stats_median_from_sorted_data(col, 1, n);
		split_sides(&r, v, stride, y, n, 1, lo, hi);
		if (r.nhigh == 0)
			split_sides(&r, v, stride, y, n, 0, lo, hi);
	}
	if ((r.split = r.nlow >= 2 && r.nhigh >= 2)) {
		welch(lo, r.nlow, hi, r.nhigh, &r.t, &r.t_df, &r.t_p);
		ftest(lo, r.nlow, hi, r.nhigh, &r.f, &r.f_p);
	}
	free(col);
	free(lo);
	free(hi);
	return r;
}

/* The first split that fails stationarity, or -1. */
static long
first_nonstationary(const sr_paggr *a)
{
	size_t j;

	for (j = 0; j < a->dim; j++)
		if (a->split[j].split &&
		    (a->split[j].t_p < SR_PAGGR_STATIONARY_ALPHA ||
		    a->split[j].f_p < SR_PAGGR_STATIONARY_ALPHA))
			return (long)j;
	return -1;
}

/* Decides from the tests and the variogram; why says a fallback's
 * reason. */
static void
decide(sr_paggr *a, const sr_space *s, double max, const char *vg_err)
{
	long j = first_nonstationary(a);

	a->method = SR_PAGGR_FALLBACK;
	if (!isnan(a->jb.p) && a->jb.p < SR_PAGGR_NORMAL_ALPHA)
		snprintf(a->why, sizeof a->why, "jarque_bera: the values are not "
		    "normal (p = %.3g < %g)", a->jb.p, SR_PAGGR_NORMAL_ALPHA);
	else if (j >= 0)
		snprintf(a->why, sizeof a->why, "stationarity: the jobs split at "
		    "the median of %s differ (Welch p = %.3g, F p = %.3g; alpha "
		    "%g)", s->p[j].name, a->split[j].t_p, a->split[j].f_p,
		    SR_PAGGR_STATIONARY_ALPHA);
	else if (vg_err)
		snprintf(a->why, sizeof a->why, "no variogram: %.200s", vg_err);
	else if (!(a->vg.sill > 0))
		snprintf(a->why, sizeof a->why, "no variogram: the values are "
		    "constant");
	else if (isnan(a->vg.nugget))
		snprintf(a->why, sizeof a->why, "no variogram: fewer than three "
		    "lags hold pairs");
	else {
		a->method = SR_PAGGR_VARIOGRAM;
		a->paggr = fmin(max, fmax(0, 1 - a->vg.nugget / a->vg.sill));
	}
}

double
sr_paggr_top(const double *y, size_t n, double top, double min,
    double max, double *score)
{
	double *v, best;

	*score = NAN;
	if (n == 0)
		return NAN;
	v = sr_calloc(n, sizeof *v);
	memcpy(v, y, n * sizeof *v);
	gsl_sort(v, 1, n);
	best = v[n - 1];
	*score = gsl_stats_quantile_from_sorted_data(v, 1, n, 1 - top);
	free(v);
	if (!(best > 0))
		return NAN;
	return fmin(max, fmax(min, *score / best));
}

void
sr_paggr_auto(sr_paggr *a, const sr_space *s, const sr_cube *c,
    const double *raw, const double *x, const double *y, size_t n,
    const sr_paggr_opts *o)
{
	char err[SR_ERRLEN];
	size_t j;

	memset(a, 0, sizeof *a);
	a->paggr = o->fallback;
	a->top_score = NAN;
	a->dim = c->dim;
	a->jb = sr_jarque_bera_test(y, n);
	a->split = sr_calloc(c->dim + 1, sizeof *a->split);
	for (j = 0; j < c->dim; j++)
		a->split[j] = sr_split_test_at_median(raw + j, c->dim, y, n);
	a->have_variogram = sr_variogram_compute(&a->vg, c, x, y, n, o->lags,
	    o->seed, err) == 0;
	decide(a, s, o->max, a->have_variogram ? NULL : err);
	if (a->method == SR_PAGGR_FALLBACK && isnan(o->fallback)) {
		a->method = SR_PAGGR_TOP;
		a->paggr = sr_paggr_top(y, n, o->top, o->min, o->max,
		    &a->top_score);
	}
}

void
sr_paggr_free(sr_paggr *a)
{
	free(a->split);
	if (a->have_variogram)
		sr_variogram_free(&a->vg);
	memset(a, 0, sizeof *a);
}
