/* spectrum.c - power spectra by FFTW's real transform (spectrum.h). */
#include "sa/spectrum.h"
#include "core/err.h"

#include <fftw3.h>
#include <stdlib.h>
#include <string.h>

struct sr_spectrum {
	size_t n;
	fftw_plan plan;
	double *in;		/* FFTW's arrays, aligned as it plans for */
	fftw_complex *out;
};

sr_spectrum *
sr_spectrum_new(size_t n)
{
	sr_spectrum *s = sr_calloc(1, sizeof *s);

	if (n > (size_t)0x7fffffff)
		sr_die(SR_EXIT_DATA, "an FFT of %zu points: too long", n);
	s->n = n;
	s->in = fftw_alloc_real(n);
	s->out = fftw_alloc_complex(n / 2 + 1);
	if (s->in == NULL || s->out == NULL)
		sr_die(SR_EXIT_DATA, "out of memory (FFT arrays of %zu)", n);
	/* FFTW_ESTIMATE: a plan from FFTW's model, not from timings, so that
	 * every run on a machine computes alike; planning overwrites in */
	s->plan = fftw_plan_dft_r2c_1d((int)n, s->in, s->out, FFTW_ESTIMATE);
	if (s->plan == NULL)
		sr_die(SR_EXIT_DATA, "no FFT plan for %zu points", n);
	return s;
}

void
sr_spectrum_free(sr_spectrum *s)
{
	if (s == NULL)
		return;
	fftw_destroy_plan(s->plan);
	fftw_free(s->in);
	fftw_free(s->out);
	free(s);
}

size_t
sr_spectrum_len(const sr_spectrum *s)
{
	return s->n;
}

void
sr_spectrum_power(sr_spectrum *s, const double *y, double *p)
{
	size_t n = s->n, f;

	memcpy(s->in, y, n * sizeof *s->in);
	fftw_execute(s->plan);
	for (f = 0; f <= n / 2; f++)
		p[f] = s->out[f][0] * s->out[f][0] + s->out[f][1] * s->out[f][1];
}
