/* sobol.c - Sobol indices from Saltelli pick-and-freeze blocks, with
 * bootstrap confidence intervals (the estimators SALib uses). */
#include "sa/sobol.h"
#include "sa/draws.h"
#include "sa/method.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* Views of one design: block size and where each part of a block is. */
typedef struct {
	const double *y;
	size_t n, k, bs;
	int second_order;
	double mean, sd;	/* over all rows, for standardizing as SALib */
	/* per base sample j, precomputed so that a bootstrap replicate only
	 * adds rows: row j of t holds B(AB_i - A) for each i, (A - AB_i)^2
	 * for each i, A + B and A^2 + B^2 (2k + 2 values, one cache-friendly
	 * row per random draw) */
	double *t;
	double *acc;	/* 2k + 2 sums of rows of t */
} blocks;

/* Parts of base sample j's block in the standardized outputs. */
static double A(const blocks *b, size_t j) { return b->y[j * b->bs]; }
static double B(const blocks *b, size_t j) { return b->y[j * b->bs + b->bs - 1]; }
static double AB(const blocks *b, size_t j, size_t i) { return b->y[j * b->bs + 1 + i]; }
static double BA(const blocks *b, size_t j, size_t i) { return b->y[j * b->bs + 1 + b->k + i]; }

/* Rows of t a bootstrap sum reads ahead of the one it adds: they are
 * drawn at random from a table of some MiB. */
#define PREFETCH_AHEAD 16

/* Two doubles added at once (SSE2 on x86-64; GCC's and clang's vector
 * extension, plain C elsewhere) */
#if defined(__GNUC__)
typedef double pair __attribute__((vector_size(16)));
#else
typedef struct { double v[2]; } pair;
#endif

static pair
pair_load(const double *p)
{
	pair x;

	memcpy(&x, p, sizeof x);
	return x;
}

static pair
pair_add(pair a, pair b)
{
#if defined(__GNUC__)
	return a + b;
#else
	a.v[0] += b.v[0];
	a.v[1] += b.v[1];
	return a;
#endif
}

/* acc[0..m) = the sums of columns c..c+m of the rows idx[0..n) of t (w
 * columns; rows 0..n when idx is NULL), m 8 or 2, each column's sum in
 * the order of the rows (the bytes of the intervals depend on it). The
 * sums stay in registers: a column at a time over the rows spent most of
 * its time storing and reloading them. */
static void
sum_columns(const double *t, size_t w, const size_t *idx, size_t n, size_t c,
    size_t m, double *acc)
{
	pair a0 = { 0, 0 }, a1 = a0, a2 = a0, a3 = a0;
	size_t j;

	for (j = 0; j < n; j++) {
		const double *r = t + (idx ? idx[j] : j) * w + c;
		if (idx && j + PREFETCH_AHEAD < n)
			__builtin_prefetch(t + idx[j + PREFETCH_AHEAD] * w + c);
		a0 = pair_add(a0, pair_load(r));
		if (m == 8) {
			a1 = pair_add(a1, pair_load(r + 2));
			a2 = pair_add(a2, pair_load(r + 4));
			a3 = pair_add(a3, pair_load(r + 6));
		}
	}
	memcpy(acc, &a0, sizeof a0);
	if (m == 8) {
		memcpy(acc + 2, &a1, sizeof a1);
		memcpy(acc + 4, &a2, sizeof a2);
		memcpy(acc + 6, &a3, sizeof a3);
	}
}

/* First and total order (and second order when s2 != NULL) over the base
 * samples idx[0..n) (all of them when idx is NULL): S1 Saltelli 2010, ST
 * Jansen 1999, V = var([A; B]). */
static void
estimate(const blocks *b, const size_t *idx, double *s1, double *st, double *s2)
{
	size_t n = b->n, k = b->k, w = 2 * k + 2, j, i, l, c;
	double *acc = b->acc, sum, sumsq, v;

	for (c = 0; c < w; c += w - c >= 8 ? 8 : 2)	/* w is even */
		sum_columns(b->t, w, idx, n, c, w - c >= 8 ? 8 : 2, acc + c);
	if (s2)
		memset(s2, 0, k * k * sizeof *s2);
	for (j = 0; s2 && j < n; j++) {
		size_t s = idx ? idx[j] : j;
		for (i = 0; i < k; i++)
			for (l = i + 1; l < k; l++)
				s2[i * k + l] += BA(b, s, i) * AB(b, s, l) -
				    A(b, s) * B(b, s);
	}
	sum = acc[2 * k];
	sumsq = acc[2 * k + 1];
	v = sumsq / (2.0 * n) - (sum / (2.0 * n)) * (sum / (2.0 * n));
	for (i = 0; i < k; i++) {
		s1[i] = acc[i] / (n * v);
		st[i] = acc[k + i] / (2.0 * n * v);
	}
	for (i = 0; s2 && i < k; i++)
		for (l = i + 1; l < k; l++)
			s2[i * k + l] = s2[i * k + l] / (n * v) - s1[i] - s1[l];
}

/* Fills the per-sample terms of b; -1 when out of memory. */
static int
precompute(blocks *b)
{
	size_t j, i, n = b->n, k = b->k, w = 2 * k + 2;

	if ((b->t = malloc(n * w * sizeof *b->t)) == NULL ||
	    (b->acc = malloc(w * sizeof *b->acc)) == NULL)
		return -1;
	for (j = 0; j < n; j++) {
		double a = A(b, j), bb = B(b, j), *t = b->t + j * w;
		for (i = 0; i < k; i++) {
			double d = AB(b, j, i) - a;
			t[i] = bb * d;
			t[k + i] = d * d;
		}
		t[2 * k] = a + bb;
		t[2 * k + 1] = a * a + bb * bb;
	}
	return 0;
}

static void
blocks_free(blocks *b)
{
	free((double *)b->y);
	free(b->t);
	free(b->acc);
}

/* Fills conf (z * sd, ddof=1) and lo/hi (percentiles) of m replicates
 * stored with stride k*stride_k in rep. */
static void
summarize(double *rep, size_t m, size_t stride, double z, double conf,
    double *c, double *lo, double *hi)
{
	double *tmp = malloc(m * sizeof *tmp);
	size_t t;

	if (tmp == NULL) {
		*c = *lo = *hi = NAN;
		return;
	}
	for (t = 0; t < m; t++)
		tmp[t] = rep[t * stride];
	*c = m > 1 ? z * gsl_stats_sd(tmp, 1, m) : NAN;
	gsl_sort(tmp, 1, m);
	*lo = m ? gsl_stats_quantile_from_sorted_data(tmp, 1, m, (1 - conf) / 2) : NAN;
	*hi = m ? gsl_stats_quantile_from_sorted_data(tmp, 1, m, (1 + conf) / 2) : NAN;
	free(tmp);
}

/* The sum of the S1, and its half-width from the sums of each of the m
 * replicates' S1 (rows of k in r1). */
static void
summarize_sum(sr_sobol_result *r, double *r1, size_t m, size_t k, double z,
    double conf)
{
	double *sum = malloc((m + 1) * sizeof *sum), lo, hi;
	size_t t, i;

	r->S1_sum = 0;
	for (i = 0; i < k; i++)
		r->S1_sum += r->S1[i];
	r->S1_sum_conf = NAN;
	if (sum == NULL)
		return;
	for (t = 0; t < m; t++)
		for (sum[t] = 0, i = 0; i < k; i++)
			sum[t] += r1[t * k + i];
	summarize(sum, m, 1, z, conf, &r->S1_sum_conf, &lo, &hi);
	free(sum);
}

static int
alloc_result(sr_sobol_result *r, size_t k, int second_order)
{
	double **v[] = { &r->S1, &r->S1_conf, &r->S1_lo, &r->S1_hi, &r->ST,
	    &r->ST_conf, &r->ST_lo, &r->ST_hi, &r->S2, &r->S2_conf, &r->S2_lo,
	    &r->S2_hi };
	size_t i, nv = second_order ? 12 : 8;

	memset(r, 0, sizeof *r);
	r->k = k;
	for (i = 0; i < nv; i++)
		if ((*v[i] = calloc(i < 8 ? k : k * k, sizeof **v[i])) == NULL)
			return -1;
	return 0;
}

void
sr_sobol_result_free(sr_sobol_result *r)
{
	free(r->S1); free(r->S1_conf); free(r->S1_lo); free(r->S1_hi);
	free(r->ST); free(r->ST_conf); free(r->ST_lo); free(r->ST_hi);
	free(r->S2); free(r->S2_conf); free(r->S2_lo); free(r->S2_hi);
	memset(r, 0, sizeof *r);
}

/* Checks the outputs and fills b with a standardized copy (as SALib);
 * returns NULL or the reason. */
static const char *
check_blocks(blocks *b, const double *y, size_t n, size_t k, int second_order)
{
	size_t i, rows;
	double *z;

	memset(b, 0, sizeof *b);
	b->n = n;
	b->k = k;
	b->second_order = second_order;
	b->bs = sr_vbd_block_rows(k, second_order);
	if (k == 0)
		return "no varied parameters";
	if (n < 2)
		return "need at least 2 base samples";
	rows = n * b->bs;
	for (i = 0; i < rows; i++)
		if (!isfinite(y[i]))
			return "an output is not finite";
	b->mean = gsl_stats_mean(y, 1, rows);
	b->sd = gsl_stats_sd_with_fixed_mean(y, 1, rows, b->mean);
	if (!(b->sd > 0))
		return "the output is constant: no variance to apportion";
	if ((z = malloc(rows * sizeof *z)) == NULL)
		return "out of memory";
	for (i = 0; i < rows; i++)
		z[i] = (y[i] - b->mean) / b->sd;
	b->y = z;
	return precompute(b) ? "out of memory" : NULL;
}

int
sr_sobol_analyze(const double *y, size_t n, size_t k, int second_order,
    size_t resamples, double conf, int percentile, unsigned long seed,
    sr_sobol_result *out, char *errbuf)
{
	blocks b;
	const char *why = check_blocks(&b, y, n, k, second_order);
	double *r1 = NULL, *rt = NULL, *r2 = NULL, z;
	size_t *idx = NULL, t, j, i;
	sr_draws *draws = NULL;
	int rc = -1;

	(void)percentile;	/* the percentile bounds are always computed */
	memset(out, 0, sizeof *out);
	if (why || !(conf > 0 && conf < 1)) {
		snprintf(errbuf, SR_ERRLEN, "%s", why ? why :
		    "confidence level must be in (0, 1)");
		blocks_free(&b);
		return -1;
	}
	if (alloc_result(out, k, second_order) ||
	    (r1 = calloc(resamples + 1, k * sizeof *r1)) == NULL ||
	    (rt = calloc(resamples + 1, k * sizeof *rt)) == NULL ||
	    (second_order && (r2 = calloc(resamples + 1, k * k * sizeof *r2)) == NULL) ||
	    (idx = calloc(n, sizeof *idx)) == NULL ||
	    (draws = sr_draws_new(seed)) == NULL) {
		snprintf(errbuf, SR_ERRLEN, "out of memory");
		goto done;
	}
	estimate(&b, NULL, out->S1, out->ST, out->S2);
	for (t = 0; t < resamples; t++) {
		if (sr_draws_fill(draws, n, idx, n)) {
			snprintf(errbuf, SR_ERRLEN, "too many base samples to draw from");
			goto done;
		}
		estimate(&b, idx, r1 + t * k, rt + t * k, r2 ? r2 + t * k * k : NULL);
	}
	z = gsl_cdf_ugaussian_Pinv(0.5 + conf / 2);
	summarize_sum(out, r1, resamples, k, z, conf);
	for (i = 0; i < k; i++) {
		summarize(r1 + i, resamples, k, z, conf, &out->S1_conf[i],
		    &out->S1_lo[i], &out->S1_hi[i]);
		summarize(rt + i, resamples, k, z, conf, &out->ST_conf[i],
		    &out->ST_lo[i], &out->ST_hi[i]);
		for (j = i + 1; r2 && j < k; j++)
			summarize(r2 + i * k + j, resamples, k * k, z, conf,
			    &out->S2_conf[i * k + j], &out->S2_lo[i * k + j],
			    &out->S2_hi[i * k + j]);
	}
	rc = 0;
done:
	if (rc)
		sr_sobol_result_free(out);
	free(r1);
	free(rt);
	free(r2);
	free(idx);
	blocks_free(&b);
	sr_draws_free(draws);
	return rc;
}
