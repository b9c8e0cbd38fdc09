/* efast.c - eFAST designs and indices (efast.h). The spectrum is GSL's
 * mixed-radix real FFT (any n), as numpy.fft.fft gives it. */
#include "sa/efast.h"
#include "core/err.h"
#include "sa/draws.h"
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
 * M omega, Dt below omega / 2. p holds n / 2 + 1 doubles. */
static void
orders(const double *y, size_t m, size_t omega, sr_spectrum *spec,
    double *p, double *s1, double *st)
{
	size_t n = sr_spectrum_len(spec), f, nf = (n + 1) / 2, h;
	double v = 0, d1 = 0, dt = 0, sp;

	sr_spectrum_power(spec, y, p);
	for (f = 1; f < nf; f++) {
		sp = p[f] / ((double)n * (double)n);
		v += sp;
		for (h = 1; h <= m; h++)
			if (f == h * omega)
				d1 += sp;
		if (f <= omega / 2)
			dt += sp;
	}
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

/* Block i's intervals: resamples replicates of half its runs, drawn
 * with replacement (the integers of gsl_rng_uniform_int on the seeded
 * generator, drawn in bulk: sa/draws.h), each analysed at its own
 * omega_0. */
static void
bootstrap(const double *y, size_t n, size_t m, size_t resamples,
    double z, sr_draws *rng, sr_spectrum *half, double *work,
    double *s1_conf, double *st_conf)
{
	size_t h = sr_spectrum_len(half), b, j, *idx = sr_calloc(h, sizeof *idx);
	double *r1 = sr_calloc(resamples ? resamples : 1, sizeof *r1);
	double *rt = sr_calloc(resamples ? resamples : 1, sizeof *rt);
	double *ys = sr_calloc(h, sizeof *ys);

	for (b = 0; b < resamples; b++) {
		sr_draws_fill(rng, n, idx, h);
		for (j = 0; j < h; j++)
			ys[j] = y[idx[j]];
		orders(ys, m, sr_efast_omega0(h, m), half, work, &r1[b],
		    &rt[b]);
	}
	*s1_conf = resamples > 1 ? z * sd(r1, resamples) : NAN;
	*st_conf = resamples > 1 ? z * sd(rt, resamples) : NAN;
	free(r1);
	free(rt);
	free(ys);
	free(idx);
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
    size_t resamples, double conf, unsigned long seed, sr_sobol_result *r,
    char *err)
{
	sr_spectrum *full, *half;
	sr_draws *rng;
	double *work, z = gsl_cdf_ugaussian_Pinv(0.5 + conf / 2);
	size_t i, w0 = sr_efast_omega0(n, m);

	memset(r, 0, sizeof *r);
	if (!sr_efast_enough(n, m)) {
		snprintf(err, SR_ERRLEN, "eFAST needs more than 4 M^2 = %zu runs "
		    "a parameter (M = %zu), not %zu", 4 * m * m, m, n);
		return -1;
	}
	if ((rng = sr_draws_new(seed)) == NULL)
		sr_die(SR_EXIT_DATA, "out of memory");
	full = sr_spectrum_new(n);
	half = sr_spectrum_new((n + 1) / 2);
	r->k = k;
	r->S1 = sr_calloc(k, sizeof *r->S1);
	r->S1_conf = sr_calloc(k, sizeof *r->S1_conf);
	r->ST = sr_calloc(k, sizeof *r->ST);
	r->ST_conf = sr_calloc(k, sizeof *r->ST_conf);
	work = sr_calloc(n / 2 + 1, sizeof *work);
	for (i = 0; i < k; i++) {
		if (!finite_block(y + i * n, n)) {	/* a run lacks a result */
			r->S1[i] = r->ST[i] = r->S1_conf[i] = r->ST_conf[i] = NAN;
			continue;
		}
		orders(y + i * n, m, w0, full, work, &r->S1[i], &r->ST[i]);
		bootstrap(y + i * n, n, m, resamples, z, rng, half, work,
		    &r->S1_conf[i], &r->ST_conf[i]);
		r->S1_sum += r->S1[i];
	}
	r->S1_sum_conf = NAN;	/* the blocks' replicates are apart */
	free(work);
	sr_draws_free(rng);
	sr_spectrum_free(full);
	sr_spectrum_free(half);
	return 0;
}
