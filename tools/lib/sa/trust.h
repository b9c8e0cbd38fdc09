/* trust.h - where sensitivity indices are not to be trusted: Sobol'
 * estimates that break what the indices must satisfy beyond their
 * bootstrap intervals, or whose intervals are wider than themselves,
 * with the base samples that would be needed; Morris measures of a
 * single trajectory. sa-indices prints the warnings and writes them
 * into indices.tsv (indices(5)); sa-report shows them.
 *
 * The rules (sa-indices(1), Warnings), with c the half-width of an
 * interval (taken as 0 where there is none: fewer than 2 resamples) and
 * SR_TRUST_NEGLIGIBLE the size below which an index, or an excess, is
 * negligible (it keeps the sampling excursions of a large n, about 1 in
 * 40 beyond a 95 % interval, from warning):
 *   S1 sum    sum S1 - 1 > max(c(sum), NEGLIGIBLE), c(sum) from the
 *             bootstrap replicates' sums;
 *   S1 > ST   S1 - ST > max(c(S1) + c(ST), NEGLIGIBLE): their intervals
 *             do not overlap (a conservative rule: S1 and ST are
 *             estimated from the same runs);
 *   S2 < 0    -S2 > max(c(S2), NEGLIGIBLE);
 *   wide      c > |X| >= NEGLIGIBLE, X an S1 or ST (needs an interval).
 * The base samples needed, from half-widths shrinking as 1/sqrt(n):
 * wide: n (2c / |X|)^2, the interval down to half the index; the others:
 * n (c / SR_TRUST_TARGET)^2, the intervals involved (the sum's; the
 * larger of S1's and ST's; S2's) down to SR_TRUST_TARGET, and at least
 * 2n; each rounded up to a power of two (as a Sobol' base needs); 0
 * (unknown) without an interval. */
#ifndef SR_TRUST_H
#define SR_TRUST_H

#include <stddef.h>

#include "sa/sobol.h"

#define SR_TRUST_NEGLIGIBLE	0.05
#define SR_TRUST_TARGET		0.05

enum sr_trust_kind {
	SR_TRUST_S1_SUM,	/* the S1 sum above 1 */
	SR_TRUST_S1_ABOVE_ST,	/* S1 above ST for parameter i */
	SR_TRUST_S2_NEGATIVE,	/* S2 of the pair i, j below 0 */
	SR_TRUST_OUT_OF_RANGE,	/* parameter i's S1 (j 0) or ST (j 1) below
				 * 0 or above 1 */
	SR_TRUST_WIDE_S1,	/* parameter i's S1 interval wider than S1 */
	SR_TRUST_WIDE_ST,	/* the same of ST */
	SR_TRUST_ONE_TRAJECTORY	/* moat: sigma undefined */
};

/* One warning: what, of which parameters, the base samples that would
 * do (0: unknown or none), the message (one line, no prefix). */
typedef struct {
	enum sr_trust_kind kind;
	size_t i, j;
	size_t n_needed;
	char *text;
} sr_trust_warning;

typedef struct {
	size_t n;
	sr_trust_warning *w;
	size_t samples;		/* vbd: the base samples of the indices */
} sr_trust;

/* The warnings of Sobol' indices r of n base samples, parameters named
 * names[0..r->k), appended to t (zeroed, or holding warnings). */
void sr_trust_sobol(const sr_sobol_result *r, size_t n, char *const *names,
    sr_trust *t);
/* The warning of Morris measures whose parameter with the fewest
 * elementary effects has this many (one: a single trajectory, or one
 * left of a parameter's after the missing runs). */
void sr_trust_morris(size_t effects, sr_trust *t);
/* Whether an estimate v of half-width c cannot be told from 0: c > |v|
 * >= SR_TRUST_NEGLIGIBLE (the "wide" rule; the S2 heatmap's marks). */
int sr_trust_uncertain(double v, double c);
/* n (c / target)^2, at least least, rounded up to a power of two; 0 when
 * c is not a finite number. */
size_t sr_trust_samples(size_t n, double c, double target, size_t least);
/* The largest n_needed of t's warnings (0: none). */
size_t sr_trust_max_needed(const sr_trust *t);
void sr_trust_free(sr_trust *t);

#endif
