/* cancel.h - early cancellation of parameter sets (sim-runtime --cancel,
 * the tuning ledger's rules).
 *
 * A canceller takes the values of every set as they come (a metric per
 * tile, and the seconds it took) and keeps what every rule needs: each
 * set's count, running mean and summed times, and the same over all
 * sets. After each value a rule (a method: a small interface, so that
 * rules can be added) decides whether the set is cancelled; a cancelled
 * set takes no more values.
 *
 * The rule there is, "converged": a set is cancelled after its k-th value
 * when it has converged and is poor or slow. With m_j its running mean
 * after j values and V_j the population variance of m_{j-w+1}, ..., m_j
 * (j >= w), it has converged when k >= 2w-1 and the least-squares slope
 * of V_{k-w+1}, ..., V_k against j is <= 0 (for w = 1, at once). Poor:
 * m_k < G - acc, G the mean of every value of every set so far, this one
 * included. Slow: the mean of its times > time x the mean of every time
 * so far. NaN turns a test off.
 *
 * Pure code but for sr_cancelrule_parse, which exits with a usage error.
 */
#ifndef SR_CANCEL_H
#define SR_CANCEL_H

#include <stddef.h>

typedef enum { SR_CANCEL_CONVERGED, SR_NCANCEL } sr_cancelkind;

/* A rule and its parameters (the kind last, so that { acc, time, window }
 * is the converged rule). */
typedef struct {
	double acc, time;	/* converged: the poor and slow margins */
	size_t window;		/* converged: w >= 1 */
	sr_cancelkind kind;
} sr_cancelrule;

/* The defaults of --cancel: acc=0.05,time=2,window=5. */
#define SR_CANCEL_ACC 0.05
#define SR_CANCEL_TIME 2.0
#define SR_CANCEL_WINDOW 5
#define SR_CANCEL_WINDOW_MAX 1000000

/* Parses "acc=A,time=T,window=W" (each optional, "off" turns acc or time
 * off) onto the defaults; a usage error naming opt otherwise. */
void sr_cancelrule_parse(sr_cancelrule *r, const char *opt, const char *s);

/* What a rule is told of set s when it takes a value: the set's count
 * (this value included), running mean and summed times, and the sums and
 * count of every value of every set so far. */
typedef struct {
	size_t count;
	double mean, tsum;
	double gsum, gtsum;
	size_t gcount;
} sr_cancelview;

/* A rule: its state for nsets sets, and the decision after each value
 * (1: cancel the set). */
typedef struct {
	const char *name;
	void *(*init)(const sr_cancelrule *r, size_t nsets);
	int (*decide)(void *state, const sr_cancelrule *r, size_t s,
	    const sr_cancelview *v);
	void (*free)(void *state);
} sr_cancelmethod;

/* The methods, indexed by sr_cancelkind. */
extern const sr_cancelmethod *const sr_cancel_methods[SR_NCANCEL];

typedef struct sr_canceller sr_canceller;

sr_canceller *sr_cancel_new(const sr_cancelrule *r, size_t nsets);
void sr_cancel_free(sr_canceller *c);
/* Adds set s's next value x and its time y; returns 1 when that cancels
 * s. A cancelled set takes no more values. */
int sr_cancel_add(sr_canceller *c, size_t s, double x, double y);
int sr_cancel_is(const sr_canceller *c, size_t s);
size_t sr_cancel_count(const sr_canceller *c);
/* Per set: 1 when cancelled (nsets bytes, owned by c). */
const unsigned char *sr_cancel_flags(const sr_canceller *c);

#endif
