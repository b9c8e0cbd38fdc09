/* spectrum.c - power spectra by GSL's real FFT (spectrum.h). */
#include "sa/spectrum.h"
#include "core/err.h"

#include <gsl/gsl_fft_real.h>
#include <stdlib.h>
#include <string.h>

struct sr_spectrum {
	size_t n;
	gsl_fft_real_wavetable *wt;
	gsl_fft_real_workspace *ws;
	double *work;
};

sr_spectrum *
sr_spectrum_new(size_t n)
{
	sr_spectrum *s = sr_calloc(1, sizeof *s);

	s->n = n;
	s->wt = gsl_fft_real_wavetable_alloc(n);
	s->ws = gsl_fft_real_workspace_alloc(n);
	if (s->wt == NULL || s->ws == NULL)
		sr_die(SR_EXIT_DATA, "out of memory (FFT tables of %zu)", n);
	s->work = sr_calloc(n, sizeof *s->work);
	return s;
}

void
sr_spectrum_free(sr_spectrum *s)
{
	if (s == NULL)
		return;
	gsl_fft_real_wavetable_free(s->wt);
	gsl_fft_real_workspace_free(s->ws);
	free(s->work);
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
	double re, im;

	memcpy(s->work, y, n * sizeof *s->work);
	gsl_fft_real_transform(s->work, 1, n, s->wt, s->ws);
	/* half-complex: f at work[2f - 1] (real), work[2f] (imaginary; none
	 * at f = n / 2 of an even n) */
	p[0] = s->work[0] * s->work[0];
	for (f = 1; f <= n / 2; f++) {
		re = s->work[2 * f - 1];
		im = 2 * f < n ? s->work[2 * f] : 0;
		p[f] = re * re + im * im;
	}
}
