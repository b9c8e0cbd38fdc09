/* cancel.h - early cancellation of parameter sets: the rules, their
 * text form, and the canceller that applies one (sim-runtime --cancel,
 * seg-run's tuning ledger).
 *
 * Every set walks the same tiles in the same order; a set's value on a
 * tile is its metric there (higher is better), with the seconds it took.
 * A canceller takes each set's values in that order (sr_cancel_push) and
 * decides (sr_cancel_decide) whether the set is cancelled; a cancelled
 * set takes no more values. With x_1, x_2, ... a set's values, its running
 * mean after k values is m_k = (x_1 + ... + x_k) / k. The rules:
 *
 * none: nothing is ever cancelled.
 *
 * stable (acc, time, window w): a set with k values is cancelled when it
 * has settled and is poor or slow. With V_j the population variance of
 * m_(j-w+1), ..., m_j (j >= w), it has settled when k >= 2w-1 and the
 * least-squares slope of V_(k-w+1), ..., V_k against j is <= 0 (w = 1: at
 * once). Poor: m_k < G - acc, G the mean of every value of every set
 * pushed so far. Slow: the mean of its seconds > time x the mean of every
 * second pushed so far. NaN turns a test off.
 *
 * median (warmup, startup): a set with k >= warmup values is cancelled
 * when m_k is strictly below the median of the m_k of the other sets with
 * at least k values (cancelled ones included, with their mean after k
 * values), once there are at least startup of them. The median of an
 * even count is the mean of the middle two. (Optuna's MedianPruner, with
 * n_warmup_steps and n_startup_trials, on running means.)
 *
 * wilcoxon (warmup, p): a set with k >= warmup values is compared with
 * the best set: of the other sets not cancelled with at least k values,
 * the one of the highest running mean over all its values, the lowest
 * index on a tie (none: no decision). The set is cancelled when its m_k
 * is below the best's running mean and the one-sided paired Wilcoxon
 * signed-rank test of its first k values against the best's first k
 * values (the i-th value of each a pair) gives p-value < p. (Optuna's
 * WilcoxonPruner, whose best trial is never a pruned one.)
 *
 * The test: with d_i = x_i - y_i, ranks of |d_i| averaged over ties
 * (zeros included), T the sum of the ranks of the positive d_i plus half
 * those of the zeros (scipy's zero_method="zsplit"), the p-value is
 * P(T' <= T) under the null hypothesis of a distribution symmetric about
 * 0. Up to 50 pairs it is exact: T' takes every one of the 2^m sign
 * assignments of the m non-zero differences with their ranks as they are,
 * the zeros' half ranks fixed (the permutation distribution; with no ties
 * and no zeros Wilcoxon's exact distribution, as scipy's method="exact"),
 * counted by dynamic programming on doubled ranks, which are whole numbers
 * even with ties. Beyond 50 pairs it is the normal approximation
 * z = (T - n(n+1)/4) / sqrt((n(n+1)(2n+1) - sum(t^3 - t)/2) / 24), t the
 * size of each group of tied |d_i|, zeros included, without continuity
 * correction (scipy's method="approx", correction=False).
 *
 * Pure code but for sr_cancelrule_parse, which exits with a usage error.
 */
#ifndef SR_CANCEL_H
#define SR_CANCEL_H

#include <stddef.h>

typedef enum {
	SR_CANCEL_NONE, SR_CANCEL_STABLE, SR_CANCEL_MEDIAN, SR_CANCEL_WILCOXON,
	SR_NCANCEL
} sr_cancelkind;

/* A rule and its parameters (those of the other kinds at their defaults). */
typedef struct {
	sr_cancelkind kind;
	double acc, time;	/* stable: poor and slow margins (NaN: off) */
	size_t window;		/* stable: w >= 1 */
	size_t warmup;		/* median, wilcoxon: decide from k >= warmup */
	size_t startup;		/* median: at least this many other sets */
	double p;		/* wilcoxon: cancel at p-value < p */
} sr_cancelrule;

/* The defaults. */
#define SR_CANCEL_ACC 0.05
#define SR_CANCEL_TIME 2.0
#define SR_CANCEL_WINDOW 5
#define SR_CANCEL_WINDOW_MAX 1000000
#define SR_CANCEL_WARMUP 2
#define SR_CANCEL_STARTUP 5
#define SR_CANCEL_P 0.1
/* Enough for any rule sr_cancelrule_format writes. */
#define SR_CANCEL_RULELEN 128

/* Rule k with every parameter at its default. */
void sr_cancelrule_default(sr_cancelrule *r, sr_cancelkind k);
/* Parses "none", "stable[:acc=A,time=T,window=W]" (A >= 0, T > 0, or
 * off; 1 <= W <= 10^6), "median[:warmup=N,startup=N]" (N >= 1),
 * "wilcoxon[:warmup=N,p=P]" (N >= 1, 0 < P < 1), each key optional, and
 * the bare "acc=A,time=T,window=W" as stable; a usage error naming opt
 * otherwise (the empty string included). */
void sr_cancelrule_parse(sr_cancelrule *r, const char *opt, const char *s);
/* The rule in the parse form with every parameter of its kind, such as
 * "stable:acc=0.05,time=2,window=5" (off for NaN), "median:warmup=2,
 * startup=5", "wilcoxon:warmup=2,p=0.1" or "none", into buf (len bytes,
 * truncated). */
void sr_cancelrule_format(const sr_cancelrule *r, char *buf, size_t len);
/* "none", "stable", "median" or "wilcoxon". */
const char *sr_cancel_kind_name(sr_cancelkind k);

typedef struct sr_canceller sr_canceller;

/* A canceller of rule r (copied) for sets 0..nsets-1. */
sr_canceller *sr_cancel_new(const sr_cancelrule *r, size_t nsets);
void sr_cancel_free(sr_canceller *c);
/* Records set s's next value x (its metric on its next tile) and the
 * seconds y it took; decides nothing. Ignored for a cancelled set. */
void sr_cancel_push(sr_canceller *c, size_t s, double x, double y);
/* Decides for set s on the values every set has now: 1 cancels it (and
 * marks it), 0 not (a cancelled set: 0). detail (len bytes, may be NULL)
 * gets the rule and the figures it compared, one line without tabs, such
 * as "median: mean 0.612 < median 0.701 of 7 sets after 3 tiles", or ""
 * when it cancels nothing. */
int sr_cancel_decide(sr_canceller *c, size_t s, char *detail, size_t len);
/* Push, then decide: the replay's form. */
int sr_cancel_add(sr_canceller *c, size_t s, double x, double y);
/* Marks s cancelled (a decision taken elsewhere). */
void sr_cancel_mark(sr_canceller *c, size_t s);
int sr_cancel_is(const sr_canceller *c, size_t s);
/* The sets cancelled. */
size_t sr_cancel_count(const sr_canceller *c);
/* Per set: 1 when cancelled (nsets bytes, owned by c). */
const unsigned char *sr_cancel_flags(const sr_canceller *c);
/* Set s's values so far, and its running mean (NaN with none). */
size_t sr_cancel_nvalues(const sr_canceller *c, size_t s);
double sr_cancel_mean(const sr_canceller *c, size_t s);

/* The one-sided paired Wilcoxon signed-rank p-value above for H1 "x tends
 * to be smaller than y" on the n pairs (x[i], y[i]); 1 for n = 0, NaN
 * when a difference x[i] - y[i] is NaN. */
double sr_wilcoxon_less(const double *x, const double *y, size_t n);
/* The two-sided p-value of the same test: twice the smaller one-sided
 * one, at most 1 (scipy's exact two-sided test, zeros split). */
double sr_wilcoxon_two_sided(const double *x, const double *y, size_t n);

#endif
