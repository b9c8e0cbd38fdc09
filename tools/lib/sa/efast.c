/* efast.c - eFAST designs and indices (efast.h). The spectrum is FFTW's
 * real FFT (any n; sa/spectrum), as numpy.fft.fft gives it. */
#include "sa/efast.h"
#include "core/err.h"
#include "sa/boot.h"
#include "sa/spectrum.h"

#include <gsl/gsl_cdf.h>
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
 * M omega, Dt below omega / 2; unscaled (SALib divides each by n^2,
 * which the ratios cancel). p holds n / 2 + 1 doubles. */
static void
orders(const double *y, size_t m, size_t omega, sr_spectrum *spec,
    double *p, double *s1, double *st)
{
	size_t n = sr_spectrum_len(spec), f, nf = (n + 1) / 2, h;
	double v = 0, d1 = 0, dt = 0;

	sr_spectrum_power(spec, y, p);
	for (f = 1; f < nf; f++) {
		v += p[f];
		if (f <= omega / 2)	/* Dt: V so far */
			dt = v;
	}
	for (h = 1; h <= m && h * omega < nf; h++)
		d1 += p[h * omega];
	*s1 = d1 / v;
	*st = 1 - dt / v;
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

/* A thread's scratch: ys holds h, p h / 2 + 1. */
typedef struct {
	double *ys, *p;
	sr_spectrum *half;
} scratch;

/* An analysis: y, n, m as sr_efast_analyze's; the blocks' S1 and ST
 * (full, work) into r; each block's replicates of h runs (r1, rt). */
typedef struct {
	const double *y;
	size_t n, m, h, resamples;
	sr_spectrum *full;
	double *work, *r1, *rt;
	sr_sobol_result *r;
	scratch *w;		/* a thread's each */
} analysis;

static void
block(void *ctx, size_t i)
{
	analysis *a = ctx;

	orders(a->y + i * a->n, a->m, sr_efast_omega0(a->n, a->m), a->full,
	    a->work, &a->r->S1[i], &a->r->ST[i]);
}

/* Replicate b of block i, analysed at its own omega_0. */
static void
replicate(void *ctx, size_t i, size_t b, const size_t *draw, size_t worker)
{
	const analysis *a = ctx;
	scratch *w = &a->w[worker];
	const double *y = a->y + i * a->n;
	size_t j;

	for (j = 0; j < a->h; j++)
		w->ys[j] = y[draw[j]];
	orders(w->ys, a->m, sr_efast_omega0(a->h, a->m), w->half, w->p,
	    &a->r1[i * a->resamples + b], &a->rt[i * a->resamples + b]);
}

/* Whether every output of a block is a finite number. */
static int
finite_block(const double *y, size_t n)
{
	size_t t;

	for (t = 0; t < n; t++)
		if (!isfinite(y[t]))
			return 0;
	return 1;
}

int
sr_efast_analyze(const double *y, size_t n, size_t k, size_t m,
    size_t resamples, double conf, unsigned long seed, size_t threads,
    sr_sobol_result *r, char *err)
{
	double z = gsl_cdf_ugaussian_Pinv(0.5 + conf / 2);
	size_t i, t, nt, nb = 0, *blocks;
	/* half of the runs, rounded up, as SALib's */
	analysis a = { .y = y, .n = n, .m = m, .h = (n + 1) / 2,
	    .resamples = resamples, .r = r };
	sr_boot b = { .n = n, .h = (n + 1) / 2, .resamples = resamples,
	    .threads = threads, .seed = seed, .block = block,
	    .replicate = replicate, .ctx = &a };

	memset(r, 0, sizeof *r);
	if (!sr_efast_enough(n, m)) {
		snprintf(err, SR_ERRLEN, "eFAST needs more than 4 M^2 = %zu runs "
		    "a parameter (M = %zu), not %zu", 4 * m * m, m, n);
		return -1;
	}
	r->k = k;
	r->S1 = sr_calloc(k, sizeof *r->S1);
	r->S1_conf = sr_calloc(k, sizeof *r->S1_conf);
	r->ST = sr_calloc(k, sizeof *r->ST);
	r->ST_conf = sr_calloc(k, sizeof *r->ST_conf);
	a.full = sr_spectrum_new(n);
	a.work = sr_calloc(n / 2 + 1, sizeof *a.work);
	a.r1 = sr_calloc(k * resamples + 1, sizeof *a.r1);
	a.rt = sr_calloc(k * resamples + 1, sizeof *a.rt);
	nt = sr_boot_threads(&b);
	a.w = sr_calloc(nt, sizeof *a.w);
	for (t = 0; t < nt; t++) {
		a.w[t].ys = sr_calloc(a.h, sizeof *a.w[t].ys);
		a.w[t].p = sr_calloc(a.h / 2 + 1, sizeof *a.w[t].p);
		a.w[t].half = sr_spectrum_new(a.h);
	}
	blocks = sr_calloc(k, sizeof *blocks);
	for (i = 0; i < k; i++)
		if (finite_block(y + i * n, n))
			blocks[nb++] = i;
		else	/* a run lacks a result */
			r->S1[i] = r->ST[i] = r->S1_conf[i] = r->ST_conf[i] = NAN;
	sr_boot_run(&b, blocks, nb);
	for (t = 0; t < nb; t++) {
		i = blocks[t];
		r->S1_conf[i] = resamples > 1 ? z * sd(a.r1 + i * resamples,
		    resamples) : NAN;
		r->ST_conf[i] = resamples > 1 ? z * sd(a.rt + i * resamples,
		    resamples) : NAN;
		r->S1_sum += r->S1[i];
	}
	r->S1_sum_conf = NAN;	/* the blocks' replicates are apart */
	for (t = 0; t < nt; t++) {
		free(a.w[t].ys);
		free(a.w[t].p);
		sr_spectrum_free(a.w[t].half);
	}
	free(blocks);
	free(a.w);
	free(a.rt);
	free(a.r1);
	free(a.work);
	sr_spectrum_free(a.full);
	return 0;
}
