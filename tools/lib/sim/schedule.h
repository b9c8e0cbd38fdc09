/* schedule.h - the event-driven replay of array tasks on slots
 * (sim-runtime(1)).
 *
 * Array tasks are dispatched in a given order, each to the slot that can
 * start it first (on a tie the lowest slot). Every slot starts its first
 * array task at time 0 and each later one `delay` seconds after its
 * previous one ended; an array task holds its slot for `overhead` seconds
 * of start-up, then for its work. A queue of the slots' next events (a
 * binary heap) makes n array tasks on s slots O(n log s).
 *
 * Pure code: no I/O, no exits but allocation failures.
 */
#ifndef SR_SCHEDULE_H
#define SR_SCHEDULE_H

#include <stddef.h>

typedef struct {
	size_t slots;		/* array tasks at once, >= 1 */
	double overhead;	/* start-up seconds of every array task (busy) */
	double delay;		/* seconds from an array task's end to the next
				 * start on its slot (idle) */
} sr_simconf;

typedef struct {
	double makespan;	/* time 0 to the end of the last array task */
	double busy;		/* overheads plus work, summed */
	double work;		/* the array tasks' work, summed */
	size_t tasks;		/* array tasks run */
} sr_simstats;

/* Replays n array tasks whose work is cost[order[k]] seconds, dispatched
 * in the order k = 0..n-1 (order NULL: the identity). */
void sr_sim_list(const sr_simconf *c, const double *cost, const size_t *order,
    size_t n, sr_simstats *st);

/* Array tasks whose work is a sequence of steps, each decided when it
 * starts (so that what happened elsewhere meanwhile, a cancellation, can
 * shorten it). At the same time, every step's end comes before any
 * start; ends, and starts, are taken slot by slot, lowest first. */
typedef struct {
	/* Task j's next step starts at time now: its seconds in *cost and 1,
	 * or 0 when task j has no work left (it ends at now). */
	int (*step)(void *ctx, size_t task, double now, double *cost);
	/* Task j's current step ended at time now. */
	void (*done)(void *ctx, size_t task, double now);
	void *ctx;
} sr_simsteps;

void sr_sim_steps(const sr_simconf *c, const sr_simsteps *ops,
    const size_t *order, size_t n, sr_simstats *st);

/* The dispatch orders of array tasks (sim-runtime --order). */
typedef enum { SR_ORDER_FILE, SR_ORDER_LONGEST_FIRST, SR_NORDER } sr_simorder;
/* Their names, indexed by sr_simorder: "file", "longest-first". */
extern const char *const sr_simorder_names[SR_NORDER];

/* The indices 0..n-1 by cost, highest first, equal costs in index order
 * (longest processing time first). */
size_t *sr_sim_longest_first(const double *cost, size_t n);

/* The dispatch order of n array tasks of the given costs: NULL (file
 * order, the identity) or an array to free. */
size_t *sr_sim_order(sr_simorder o, const double *cost, size_t n);

#endif
