/* efast.c - eFAST designs and indices (efast.h). The spectrum is GSL's
 * mixed-radix real FFT (any n), as numpy.fft.fft gives it. */
#include "sa/efast.h"
#include "core/err.h"
#include "sa/draws.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_fft_real.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
sr_efast_enough(size_t n, size_t m)
{
	return n > 4 * m * m;
}

size_t
sr_efast_omega0(size_t n, size_t m)
{
	return (n - 1) / (2 * m);
}

void
sr_efast_frequencies(size_t n, size_t m, size_t k, double *omega)
{
	size_t w0 = sr_efast_omega0(n, m), top = w0 / (2 * m), j;

	omega[0] = (double)w0;
	if (k < 2)
		return;
	for (j = 0; j + 1 < k; j++)
		if (top >= k - 1)	/* floor(linspace(1, top, k - 1)) */
			omega[j + 1] = k == 2 ? 1 : floor(1 + (double)j *
			    (double)(top - 1) / (double)(k - 2));
		else			/* cycled: arange(k - 1) % top + 1 */
			omega[j + 1] = (double)(j % (top ? top : 1) + 1);
}

void
sr_efast_point(const double *omega, size_t n, size_t k, size_t i,
    size_t t, double phi, double *u)
{
	double s = 2 * SR_EFAST_PI / (double)n * (double)t, w;
	size_t j, other = 1;

	for (j = 0; j < k; j++) {
		w = j == i ? omega[0] : omega[other++];
		u[j] = 0.5 + asin(sin(w * s + phi)) / SR_EFAST_PI;
	}
}

/* S1 and ST of one block's outputs y[0..n) at frequency omega, M
 * harmonics (SALib's compute_orders): the power spectrum of y at
 * frequencies 1 .. ceil(n/2) - 1, its sum V, D1 at omega, 2 omega, ...
 * M omega, Dt below omega / 2. work holds n doubles. */
static void
orders(const double *y, size_t n, size_t m, size_t omega, double *work,
    gsl_fft_real_wavetable *wt, gsl_fft_real_workspace *ws, double *s1,
    double *st)
{
	size_t f, nf = (n + 1) / 2, p;	/* ceil(n / 2) */
	double v = 0, d1 = 0, dt = 0, re, im, sp;

	memcpy(work, y, n * sizeof *work);
	gsl_fft_real_transform(work, 1, n, wt, ws);
	/* half-complex: frequency f at work[2f - 1] (real), work[2f] (imag) */
	for (f = 1; f < nf; f++) {
		re = work[2 * f - 1];
		im = 2 * f < n ? work[2 * f] : 0;
		sp = (re * re + im * im) / ((double)n * (double)n);
		v += sp;
		for (p = 1; p <= m; p++)
			if (f == p * omega)
				d1 += sp;
		if (f <= omega / 2)
			dt += sp;
	}
	*s1 = d1 / v;
	*st = 1 - dt / v;
}

/* The FFT tables for length n. */
typedef struct {
	size_t n;
	gsl_fft_real_wavetable *wt;
	gsl_fft_real_workspace *ws;
} fft_tables;

static int
tables(fft_tables *t, size_t n)
{
	t->n = n;
	t->wt = gsl_fft_real_wavetable_alloc(n);
	t->ws = gsl_fft_real_workspace_alloc(n);
	return t->wt && t->ws ? 0 : -1;
}

static void
tables_free(fft_tables *t)
{
	if (t->wt)
		gsl_fft_real_wavetable_free(t->wt);
	if (t->ws)
		gsl_fft_real_workspace_free(t->ws);
}

/* The sample standard deviation (n - 1) of x[0..n). */
static double
sd(const double *x, size_t n)
{
	double mean = 0, ss = 0;
	size_t i;

	for (i = 0; i < n; i++)
		mean += x[i];
	mean /= (double)n;
	for (i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
}

/* Block i's intervals: resamples replicates of half its runs, drawn
 * with replacement (the integers of gsl_rng_uniform_int on the seeded
 * generator, drawn in bulk: sa/draws.h), each analysed at its own
 * omega_0. */
static void
bootstrap(const double *y, size_t n, size_t m, size_t resamples,
    double z, sr_draws *rng, fft_tables *half, double *work,
    double *s1_conf, double *st_conf)
{
	size_t h = half->n, b, j, *idx = sr_calloc(h, sizeof *idx);
	double *r1 = sr_calloc(resamples ? resamples : 1, sizeof *r1);
	double *rt = sr_calloc(resamples ? resamples : 1, sizeof *rt);
	double *ys = sr_calloc(h, sizeof *ys);

	for (b = 0; b < resamples; b++) {
		sr_draws_fill(rng, n, idx, h);
		for (j = 0; j < h; j++)
			ys[j] = y[idx[j]];
		orders(ys, h, m, sr_efast_omega0(h, m), work, half->wt,
		    half->ws, &r1[b], &rt[b]);
	}
	*s1_conf = resamples > 1 ? z * sd(r1, resamples) : NAN;
	*st_conf = resamples > 1 ? z * sd(rt, resamples) : NAN;
	free(r1);
	free(rt);
	free(ys);
	free(idx);
}

int
sr_efast_analyze(const double *y, size_t n, size_t k, size_t m,
    size_t resamples, double conf, unsigned long seed, sr_sobol_result *r,
    char *err)
{
	fft_tables full = { 0 }, half = { 0 };
	sr_draws *rng;
	double *work, z = gsl_cdf_ugaussian_Pinv(0.5 + conf / 2);
	size_t i, w0 = sr_efast_omega0(n, m);

	memset(r, 0, sizeof *r);
	if (!sr_efast_enough(n, m)) {
		snprintf(err, SR_ERRLEN, "eFAST needs more than 4 M^2 = %zu runs "
		    "a parameter (M = %zu), not %zu", 4 * m * m, m, n);
		return -1;
	}
	for (i = 0; i < n * k; i++)
		if (!isfinite(y[i])) {
			snprintf(err, SR_ERRLEN, "run %zu: no finite output", i);
			return -1;
		}
	if (tables(&full, n) || tables(&half, (n + 1) / 2) ||
	    (rng = sr_draws_new(seed)) == NULL)
		sr_die(SR_EXIT_DATA, "out of memory (FFT tables)");
	r->k = k;
	r->S1 = sr_calloc(k, sizeof *r->S1);
	r->S1_conf = sr_calloc(k, sizeof *r->S1_conf);
	r->ST = sr_calloc(k, sizeof *r->ST);
	r->ST_conf = sr_calloc(k, sizeof *r->ST_conf);
	work = sr_calloc(n, sizeof *work);
	for (i = 0; i < k; i++) {
		orders(y + i * n, n, m, w0, work, full.wt, full.ws, &r->S1[i],
		    &r->ST[i]);
		bootstrap(y + i * n, n, m, resamples, z, rng, &half, work,
		    &r->S1_conf[i], &r->ST_conf[i]);
		r->S1_sum += r->S1[i];
	}
	r->S1_sum_conf = NAN;	/* the blocks' replicates are apart */
	free(work);
	sr_draws_free(rng);
	tables_free(&full);
	tables_free(&half);
	return 0;
}
