/* efast.h - the extended Fourier amplitude sensitivity test (eFAST):
 * its search-curve design and its first- and total-order indices, as
 * Saltelli, Tarantola and Chan (Technometrics 41(1):39-56, 1999) define
 * them and SALib computes them (SALib.sample.fast_sampler,
 * SALib.analyze.fast).
 *
 * The design has a block of n runs per varied parameter i: parameter i
 * oscillates at the high frequency omega_0 = floor((n - 1) / (2M)), the
 * others at the low frequencies of sr_efast_frequencies, each along
 * x = 1/2 + asin(sin(omega s + phi)) / pi, s = 2 pi t / n, t = 0..n-1,
 * with one random phase phi per block. Pure code: no I/O, no exits. */
#ifndef SR_EFAST_H
#define SR_EFAST_H

#include <stddef.h>

#include "sa/sobol.h"

#define SR_EFAST_M 4	/* the interference factor M by default */
#define SR_EFAST_PI 3.14159265358979323846

/* Whether n samples a block are enough for M harmonics: n > 4 M^2. */
int sr_efast_enough(size_t n, size_t m);

/* omega_0, the frequency of a block's own parameter. */
size_t sr_efast_omega0(size_t n, size_t m);

/* The k frequencies: omega[0] = omega_0, omega[1..k) the others' (the
 * low ones, cycled when there are more parameters than frequencies). */
void sr_efast_frequencies(size_t n, size_t m, size_t k, double *omega);

/* Block i's row t into u[0..k): parameter i at omega_0, the others at
 * omega[1..k) in order, all with phase phi (radians). */
void sr_efast_point(const double *omega, size_t n, size_t k, size_t i,
    size_t t, double phi, double *u);

/* The indices of y (n * k outputs, block by block, in design order; a
 * block with a non-finite one gives its parameter NaN indices):
 * S1 and ST per parameter into r (r->k = k; no S2), with normal-
 * approximation intervals at level conf from resamples bootstrap
 * replicates of each block (half of its runs, drawn with replacement, as
 * SALib), seeded by seed, analysed on up to threads threads (the same
 * results for any). 0, or -1 with a message in err (SR_ERRLEN). */
int sr_efast_analyze(const double *y, size_t n, size_t k, size_t m,
    size_t resamples, double conf, unsigned long seed, size_t threads,
    sr_sobol_result *r, char *err);

#endif
