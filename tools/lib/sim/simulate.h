/* simulate.h - predicting a campaign's makespan (sim-runtime(1)): an
 * event-driven replay of array tasks on slots, early cancellation of
 * parameter sets, and the cost of every bucket of any plan from measured
 * timings or from a cost model.
 *
 * The schedule: array tasks are dispatched in a given order, each to the
 * slot that can start it first (on a tie the lowest slot). Every slot
 * starts its first array task at time 0 and each later one `delay`
 * seconds after its previous one ended; an array task holds its slot for
 * `overhead` seconds of start-up, then for its work. A binary heap of the
 * slots' next events makes n array tasks on s slots O(n log s).
 *
 * The schedule and cancellation sections are pure code (no I/O, no
 * exits but allocation failures). The cost section reads files and dies
 * naming file, line and column on bad input.
 */
#ifndef SR_SIMULATE_H
#define SR_SIMULATE_H

#include <stddef.h>
#include <stdint.h>

#include "plan/merge.h"
#include "plan/workflow.h"

/* ---- the schedule ------------------------------------------------------- */

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

/* The indices 0..n-1 by cost, highest first, equal costs in index order
 * (longest processing time first). */
size_t *sr_sim_longest_first(const double *cost, size_t n);

/* ---- early cancellation ------------------------------------------------ */

/* A set is cancelled after its k-th value when it has converged and is
 * poor or slow. With m_j its running mean after j values and V_j the
 * population variance of m_{j-w+1}, ..., m_j (j >= w), it has converged
 * when k >= 2w-1 and the least-squares slope of V_{k-w+1}, ..., V_k
 * against j is <= 0 (for w = 1, at once). Poor: m_k < G - acc, G the
 * mean of every value of every set so far, this one included. Slow: the
 * mean of its times > time x the mean of every time so far. NaN turns a
 * test off. */
typedef struct {
	double acc, time;
	size_t window;		/* w >= 1 */
} sr_cancelrule;

typedef struct sr_canceller sr_canceller;

sr_canceller *sr_cancel_new(const sr_cancelrule *r, size_t nsets);
void sr_cancel_free(sr_canceller *c);
/* Adds set s's next value x and its time y; returns 1 when that cancels
 * s. A cancelled set takes no more values. */
int sr_cancel_add(sr_canceller *c, size_t s, double x, double y);
int sr_cancel_is(const sr_canceller *c, size_t s);
size_t sr_cancel_count(const sr_canceller *c);

/* ---- tiles -------------------------------------------------------------- */

/* Tile names, numbered in order of first appearance. */
typedef struct {
	char **name;
	size_t n;
	size_t *slot;		/* hash table: index + 1, 0 empty */
	size_t nslot;
} sr_simtiles;

/* The number of tile name; a new one is added when add is set, else
 * SR_NONE. */
size_t sr_simtiles_id(sr_simtiles *t, const char *name, int add);
void sr_simtiles_free(sr_simtiles *t);

/* ---- costs -------------------------------------------------------------- */

/* One stage of the workflow: its reuse tree (node costs: seconds on all
 * tiles) and the seconds of each node per tile. */
typedef struct {
	sr_rtree *tree;
	int skip;		/* the buckets do not run this stage */
	unsigned char *measured;	/* per node: has seconds of its own */
	size_t *cfirst;		/* per node: its tiles are [cfirst[v], cfirst[v+1]) */
	uint32_t *ctile;	/* of ctile (increasing) */
	double *csec;		/* with the mean seconds there */
	double *taskmean;	/* ntask x ntiles: mean seconds of a measurement
				 * of the task on the tile (unmeasured nodes) */
	size_t *runinst;	/* per run: the stage's instance that serves it */
	size_t *dfirst, *dinst;	/* the next stage's instances consuming
				 * instance i: dinst[dfirst[i]..dfirst[i+1]) */
} sr_simstage;

typedef struct {
	const sr_instances *in;	/* NULL: timings read without a workflow */
	sr_simtiles tiles;
	double *read;		/* per tile: mean seconds decoding it */
	size_t nread;		/* #read lines (or 1 for a model's read row) */
	size_t nstage, mstage;	/* mstage: the stage with most tasks */
	sr_simstage *st;
	/* the timings' own plan, by bucket number */
	size_t nbase;
	long *base_id;
	double *base_cost;	/* its rows' seconds plus its #read seconds */
	sr_plan base;		/* its instances of mstage (with a workflow) */
	size_t nrows;		/* timing rows read */
} sr_simcost;

/* Reads seg-run timings (timings(5)) from path: a file ("-" stdin) or a
 * directory whose *.tsv files are read in name order. in NULL: no
 * workflow, only each bucket's sum is kept. skip[s] set: rows of stage s
 * are left out. Dies naming file and line on a bad row, negative seconds,
 * no rows, a row that does not fit the instances, or a task of a stage
 * not skipped without any timing. */
sr_simcost *sr_simcost_timings(const char *path, const sr_instances *in,
    const char *skip);

/* A cost model (rows "task seconds spread", optional rows "read" and
 * "overhead"): every node of a stage not skipped on each of the tiles
 * (names of t, taken over) gets a time drawn from a lognormal of mean
 * seconds and coefficient of variation spread, seeded. *overhead gets the
 * overhead row's seconds, or -1 without one. */
sr_simcost *sr_simcost_model(const char *path, const sr_instances *in,
    const char *skip, sr_simtiles *t, unsigned long seed, double *overhead);
void sr_simcost_free(sr_simcost *c);

/* Seconds of node v of stage s's tree on tile k. */
double sr_simcost_node(const sr_simcost *c, size_t s, size_t v, size_t k);

/* ---- plans ---------------------------------------------------------------- */

typedef struct {
	char *name;
	size_t stage;		/* the stage its buckets hold instances of */
	sr_plan p;		/* the buckets' instances (empty without one) */
	size_t n;		/* buckets */
	double *cost;		/* per bucket: its seconds on all tiles */
	size_t tasks;		/* the stage's task nodes, over all buckets */
	size_t nodes;		/* distinct nodes the plan runs, all stages */
	size_t unmeasured;	/* of which never measured */
} sr_simplan;

/* The plan of BUCKETS.tsv (buckets(5)), costed. Dies naming file, line
 * and column when it does not fit the instances. */
sr_simplan *sr_simplan_read(const char *path, const sr_simcost *c);
/* The timings' own plan, costed by its rows. */
sr_simplan *sr_simplan_baseline(const sr_simcost *c);
void sr_simplan_free(sr_simplan *p);

/* The work of each array task of `lines` consecutive buckets; *n gets
 * their number. */
double *sr_simplan_tasks(const sr_simplan *p, size_t lines, size_t *n);

/* ---- results and cancellation ---------------------------------------------- */

/* Reads RESULTS.tsv (metrics(5): run, tile, optional status, the metric
 * column): the value of run r on tile k at v[r * ntiles + k], NaN where
 * there is none (no row, status error, empty field). Tiles not in t are
 * added when add is set, else an error. Dies naming file, line and
 * column on a bad row, a repeated run and tile, or no value at all. */
double *sr_simresults_read(const char *path, const char *metric,
    sr_simtiles *t, int add, size_t nruns);

/* The run of the highest mean value (lowest run on a tie), SR_NONE if no
 * run has a value. */
size_t sr_simresults_best(const double *v, size_t nruns, size_t ntiles);

/* Replays plan p tile by tile in array tasks of `lines` buckets (order
 * over array tasks as in sr_sim_steps), cancelling runs by rule from
 * their values v: a bucket computes, on each tile, what its runs not yet
 * cancelled need, and stops when none is left. cancelled (nruns bytes)
 * gets 1 for each run cancelled. */
void sr_sim_cancel(const sr_simconf *conf, const sr_simcost *c,
    const sr_simplan *p, size_t lines, const size_t *order, const double *v,
    const sr_cancelrule *rule, sr_simstats *st, unsigned char *cancelled);

#endif
