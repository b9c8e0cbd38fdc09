/* spectrum.h - the power spectrum of a real series of any length, by
 * GSL's mixed-radix real FFT (as numpy.fft and scipy.signal compute it,
 * to rounding): the one transform of the Fourier methods, eFAST
 * (efast.h) and RBD-FAST (rbd.h). */
#ifndef SR_SPECTRUM_H
#define SR_SPECTRUM_H

#include <stddef.h>

typedef struct sr_spectrum sr_spectrum;

/* The tables for series of length n (>= 1); dies when out of memory. */
sr_spectrum *sr_spectrum_new(size_t n);
void sr_spectrum_free(sr_spectrum *s);
/* The length the tables are for. */
size_t sr_spectrum_len(const sr_spectrum *s);

/* |Y_f|^2 of the discrete Fourier transform Y of y[0..n), unscaled, for
 * f = 0 .. n / 2 into p[0 .. n / 2]. */
void sr_spectrum_power(sr_spectrum *s, const double *y, double *p);

#endif
