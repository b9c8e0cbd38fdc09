/* spectrum.h - the power spectrum of a real series of any length, by
 * FFTW's real transform (as numpy.fft and scipy.signal compute it, to
 * rounding; three times as fast as GSL's mixed-radix one, which was a
 * third of the Fourier methods' time): the one transform of eFAST
 * (efast.h) and RBD-FAST (rbd.h). A spectrum's tables and arrays are
 * its own: one a thread; make them (sr_spectrum_new) in one thread, as
 * FFTW's planner is not thread-safe. */
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
