/* delta.c - the delta and first-order indices from given data
 * (delta.h). */
#include "sa/delta.h"
#include "core/err.h"
#include "sa/draws.h"
#include "sa/order.h"
#include "sa/sobol.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SQRT_2PI 2.50662827463100050242

size_t
sr_delta_classes(size_t n)
{
	double e = 2.0 / (7.0 + tanh((1500.0 - (double)n) / 500.0));

	return (size_t)fmin(ceil(pow((double)n, e)), 48);
}

/* One sample of runs (the runs themselves, or a bootstrap replicate):
 * its outputs, their density on the grid, the work space of a class. */
typedef struct {
	size_t n;
	double *y;		/* n outputs */
	double grid[SR_DELTA_GRID];
	double fy[SR_DELTA_GRID];	/* the density of all n */
	double fc[SR_DELTA_GRID];	/* a class's */
	double *yc;		/* n: the outputs in a parameter's order */
	double mean, var;	/* of y (variance of n) */
} sample;

/* The Gaussian kernel density estimate of v[0..len) (not all equal) at
 * the grid's points, Silverman's bandwidth as scipy.stats.gaussian_kde:
 * (3 len / 4)^(-1/5) times the sample standard deviation.
 *
 * Each kernel's values along the evenly spaced grid (step h) by
 * recurrence instead of one exp a point, hand-written because no library
 * does it: with e_j = exp(-(g_j - v)^2 / 2c), e_j+1 = e_j r_j and r_j+1 =
 * r_j q, q = exp(-h^2 / c), walking away from the grid point nearest v
 * (so r, like e, only shrinks, and underflow stays where the kernel is
 * below any double); three exps a value instead of 100, within 1e-13 of
 * the direct sum. */
static void
kde(const double *v, size_t len, const double *grid, double *f)
{
	double var = gsl_stats_variance(v, 1, len), factor, c, norm, h, q, d,
	    e, r, acc[SR_DELTA_GRID] = { 0 };
	size_t g, j, j0;

	factor = pow((double)len * 3.0 / 4.0, -1.0 / 5.0);
	c = var * factor * factor;
	norm = 1 / (SQRT_2PI * sqrt(c)) / (double)len;
	h = (grid[SR_DELTA_GRID - 1] - grid[0]) / (SR_DELTA_GRID - 1);
	q = exp(-h * h / c);
	for (j = 0; j < len; j++) {
		d = (v[j] - grid[0]) / h + 0.5;
		j0 = d <= 0 ? 0 : d >= SR_DELTA_GRID - 1 ? SR_DELTA_GRID - 1 :
		    (size_t)d;
		d = grid[j0] - v[j];
		acc[j0] += e = exp(-d * d / (2 * c));
		r = exp(-(2 * h * d + h * h) / (2 * c));	/* upwards */
		for (g = j0 + 1; g < SR_DELTA_GRID; g++, r *= q)
			acc[g] += e *= r;
		e = exp(-d * d / (2 * c));
		r = exp((2 * h * d - h * h) / (2 * c));		/* downwards */
		for (g = j0; g-- > 0; r *= q)
			acc[g] += e *= r;
	}
	for (g = 0; g < SR_DELTA_GRID; g++)
		f[g] = acc[g] * norm;
}

/* The trapezoid integral of |a - b| (b NULL: of |a|) over the grid. */
static double
trapezoid(const double *grid, const double *a, const double *b)
{
	double s = 0, lo, hi;
	size_t g;

	for (g = 0; g + 1 < SR_DELTA_GRID; g++) {
		lo = fabs(a[g] - (b ? b[g] : 0));
		hi = fabs(a[g + 1] - (b ? b[g + 1] : 0));
		s += (grid[g + 1] - grid[g]) * (lo + hi) / 2.0;
	}
	return s;
}

/* Sets up sample s of its n outputs y (the grid is the caller's):
 * their mean, variance and density. 0, or -1 when they are all equal. */
static int
sample_prepare(sample *s)
{
	size_t j;
	double lo = s->y[0], hi = s->y[0];

	for (j = 1; j < s->n; j++) {
		lo = fmin(lo, s->y[j]);
		hi = fmax(hi, s->y[j]);
	}
	if (lo == hi)
		return -1;
	s->mean = gsl_stats_mean(s->y, 1, s->n);
	s->var = gsl_stats_variance_m(s->y, 1, s->n, s->mean) *
	    (double)(s->n - 1) / (double)s->n;
	kde(s->y, s->n, s->grid, s->fy);
	return 0;
}

/* delta-hat and S1 of one parameter, with M classes: yo holds s's
 * outputs in the parameter's order (ties by run). */
static void
one(sample *s, size_t m, const double *yo, double *delta, double *s1)
{
	size_t n = s->n, c, r, lo, hi, len;
	double step = (double)n / (double)m, bound, cm, d = 0, v = 0, ymin,
	    ymax;

	for (c = 0, lo = 0; c < m; c++, lo = hi) {
		/* ranks r + 1 in (m_c, m_c+1]: positions lo .. hi - 1 */
		bound = c + 1 == m ? (double)n : (double)(c + 1) * step;
		for (hi = lo; hi < n && (double)(hi + 1) <= bound; hi++)
			;
		len = hi - lo;
		if (len == 0)
			continue;
		for (r = lo, ymin = ymax = yo[lo]; r < hi; r++) {
			ymin = fmin(ymin, yo[r]);
			ymax = fmax(ymax, yo[r]);
		}
		cm = gsl_stats_mean(yo + lo, 1, len);
		v += (double)len / (double)n * (cm - s->mean) * (cm - s->mean);
		if (ymin != ymax) {
			kde(yo + lo, len, s->grid, s->fc);
			d += (double)len / (2.0 * (double)n) * trapezoid(s->grid,
			    s->fy, s->fc);
		} else
			d += (double)len / (2.0 * (double)n) * trapezoid(s->grid,
			    s->fy, NULL);
	}
	*delta = d;
	*s1 = v / s->var;
}

static void
sample_init(sample *s, size_t n)
{
	memset(s, 0, sizeof *s);
	s->n = n;
	s->y = sr_calloc(n, sizeof *s->y);
	s->yc = sr_calloc(n, sizeof *s->yc);
}

static void
sample_free(sample *s)
{
	free(s->y);
	free(s->yc);
}

void
sr_delta_result_free(sr_delta_result *r)
{
	free(r->delta);
	free(r->delta_conf);
	free(r->S1);
	free(r->S1_conf);
	memset(r, 0, sizeof *r);
}

/* The bootstrap: replicates of n runs drawn with replacement, the same
 * draws for every parameter (ord: the runs in each one's order, k rows
 * of n); r's delta bias reduced and both intervals. */
static void
bootstrap(const size_t *ord, const double *y, size_t n, size_t k,
    size_t resamples, double z, unsigned long seed, sample *all,
    sr_delta_result *r)
{
	double *db = sr_calloc(resamples * k + 1, sizeof *db);
	double *sb = sr_calloc(resamples * k + 1, sizeof *sb);
	size_t *draw = sr_calloc(n, sizeof *draw), b, i, j, c, len, used = 0;
	unsigned *count = sr_calloc(n, sizeof *count);
	sr_draws *rng = sr_draws_new(seed);
	sample s;

	if (rng == NULL)
		sr_die(SR_EXIT_DATA, "out of memory");
	sample_init(&s, n);
	memcpy(s.grid, all->grid, sizeof s.grid);
	for (b = 0; b < resamples; b++) {
		sr_draws_fill(rng, n, draw, n);
		memset(count, 0, n * sizeof *count);
		for (j = 0; j < n; j++) {
			s.y[j] = y[draw[j]];
			count[draw[j]]++;
		}
		if (sample_prepare(&s))
			continue;	/* all one output: no density */
		for (i = 0; i < k; i++) {
			/* the replicate in the parameter's order without a
			 * sort: the runs in the order of all, each as often
			 * as drawn (ties by run) */
			for (j = 0, len = 0; j < n; j++)
				for (c = count[ord[i * n + j]]; c > 0; c--)
					s.yc[len++] = y[ord[i * n + j]];
			one(&s, sr_delta_classes(n), s.yc,
			    &db[i * resamples + used], &sb[i * resamples + used]);
			db[i * resamples + used] = 2 * r->delta[i] -
			    db[i * resamples + used];
		}
		used++;
	}
	for (i = 0; i < k && used; i++) {
		r->delta[i] = gsl_stats_mean(db + i * resamples, 1, used);
		r->delta_conf[i] = used > 1 ? z * gsl_stats_sd(db + i * resamples,
		    1, used) : NAN;
		r->S1_conf[i] = used > 1 ? z * gsl_stats_sd(sb + i * resamples, 1,
		    used) : NAN;
	}
	sample_free(&s);
	sr_draws_free(rng);
	free(count);
	free(draw);
	free(sb);
	free(db);
}

int
sr_delta_analyze(const double *x, const double *y, size_t n, size_t k,
    size_t resamples, double conf, unsigned long seed, sr_delta_result *r,
    char *err)
{
	size_t i, j, *ord;
	double lo, hi;
	sample all;

	memset(r, 0, sizeof *r);
	for (j = 0; j < n; j++)
		if (!isfinite(y[j])) {
			snprintf(err, SR_ERRLEN, "run %zu: no finite output", j);
			return -1;
		}
	if (n < 3) {
		snprintf(err, SR_ERRLEN, "delta needs at least 3 runs, not %zu", n);
		return -1;
	}
	sample_init(&all, n);
	memcpy(all.y, y, n * sizeof *y);
	gsl_stats_minmax(&lo, &hi, y, 1, n);
	for (j = 0; j < SR_DELTA_GRID; j++)	/* numpy.linspace(lo, hi, 100) */
		all.grid[j] = j + 1 == SR_DELTA_GRID ? hi :
		    (double)j * ((hi - lo) / (SR_DELTA_GRID - 1)) + lo;
	if (sample_prepare(&all)) {
		snprintf(err, SR_ERRLEN, "all %zu outputs are equal: no "
		    "distribution to compare", n);
		sample_free(&all);
		return -1;
	}
	r->k = k;
	r->delta = sr_calloc(k + 1, sizeof *r->delta);
	r->delta_conf = sr_calloc(k + 1, sizeof *r->delta_conf);
	r->S1 = sr_calloc(k + 1, sizeof *r->S1);
	r->S1_conf = sr_calloc(k + 1, sizeof *r->S1_conf);
	ord = sr_calloc(n * k + 1, sizeof *ord);
	for (i = 0; i < k; i++) {
		sr_order_runs(x + i, k, n, ord + i * n);
		for (j = 0; j < n; j++)
			all.yc[j] = y[ord[i * n + j]];
		one(&all, sr_delta_classes(n), all.yc, &r->delta[i], &r->S1[i]);
		r->delta_conf[i] = r->S1_conf[i] = NAN;
	}
	if (resamples)
		bootstrap(ord, y, n, k, resamples, gsl_cdf_ugaussian_Pinv(0.5 +
		    conf / 2), seed, &all, r);
	free(ord);
	sample_free(&all);
	return 0;
}
