/* rbd.h - RBD-FAST: first-order indices from the Fourier spectrum of the
 * outputs reordered along each parameter, and the random balance design
 * made for it.
 *
 * The design (Tarantola, Gatelli and Mara, Reliab. Eng. Syst. Saf.
 * 91(6):717-727, 2006): n points on one search curve, x(s) = 1/2 +
 * asin(sin s) / pi, s_t = -pi + 2 pi (t + delta) / n with one random shift
 * delta in [0, 1), each parameter taking the points in its own random
 * order. The analysis (SALib.analyze.rbd_fast) takes any sample: the
 * outputs ordered by one parameter, the odd places reversed behind the
 * even ones (Plischke's EASI, Reliab. Eng. Syst. Saf. 95(4):354-360,
 * 2010), the share of their periodogram's variance in the first M
 * frequencies, with the bias correction of Tissot and Prieur (Reliab.
 * Eng. Syst. Saf. 107:205-213, 2012). Pure code: no I/O, no exits. */
#ifndef SR_RBD_H
#define SR_RBD_H

#include <stddef.h>

#define SR_RBD_M 10	/* harmonics by default, as SALib */
/* The runs M harmonics need: more than 2 M, in the bootstrap's halves
 * too (the bias correction divides by 1 - 2M/n). */
#define SR_RBD_MIN_RUNS(m) (4 * (m) + 2)

/* The n points of the curve shifted by delta into x[0..n). */
void sr_rbd_curve(size_t n, double delta, double *x);

/* S1 of each of k parameters from n runs: x row by row (n rows of k),
 * y their outputs (finite), M harmonics (n >= SR_RBD_MIN_RUNS(M));
 * intervals at level conf from resamples bootstrap replicates of half the
 * runs, drawn with replacement (NaN with fewer than 2), analysed on up to
 * threads threads (the same results for any). s1 and s1_conf hold k. 0,
 * or -1 with a message in err (SR_ERRLEN). */
int sr_rbd_analyze(const double *x, const double *y, size_t n, size_t k,
    size_t m, size_t resamples, double conf, unsigned long seed,
    size_t threads, double *s1, double *s1_conf, char *err);

#endif
