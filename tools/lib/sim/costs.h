/* costs.h - the seconds of every task node of every stage on every tile,
 * from seg-run timings (timings(5)) or a cost model (model.h), through
 * each stage's reuse tree: what any bucket of any plan of the same
 * instances costs (plans.h).
 *
 * Timings are read through plan/timings.h, gathered, then indexed: per
 * node and tile the mean of its rows, per task and tile the mean of its
 * rows (the cost of a node never measured), and the timings' own
 * buckets. Functions that read files die naming file, line and column on
 * bad input.
 */
#ifndef SR_COSTS_H
#define SR_COSTS_H

#include <stddef.h>
#include <stdint.h>

#include "core/hash.h"
#include "plan/merge.h"
#include "plan/instances.h"

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
	sr_interner tiles;	/* tile names, numbered in order of first sight */
	double *read;		/* per tile: mean seconds decoding it */
	size_t nread;		/* #read lines (or 1 for a model's read row) */
	size_t nstage, mstage;	/* mstage: the merged stage (plan/stage_rule.h) */
	sr_simstage *st;
	/* the timings' own plan, by bucket number */
	size_t nbase;
	long *base_id;
	double *base_cost;	/* its rows' seconds plus its #read seconds */
	sr_plan base;		/* its instances of mstage (with a workflow) */
	size_t nrows;		/* timing rows read */
} sr_simcost;

/* Costs with no measurement yet: with instances in, each stage's reuse
 * tree, the instance serving each run and the next stage's instances of
 * each instance; skip[s] set (skip may be NULL): the buckets do not run
 * stage s. */
sr_simcost *sr_simcost_new(const sr_instances *in, const char *skip);
void sr_simcost_free(sr_simcost *c);

/* Reads seg-run timings (timings(5)) from path: a file ("-" stdin) or a
 * directory whose *.tsv files are read in name order. in NULL: no
 * workflow, only each bucket's sum is kept. skip[s] set: rows of stage s
 * are left out. Dies naming file and line on a bad row, negative seconds,
 * no rows, a row that does not fit the instances, or a task of a stage
 * not skipped without any timing. */
sr_simcost *sr_simcost_timings(const char *path, const sr_instances *in,
    const char *skip);

/* The timings files of path: path itself (a file, "-" stdin), or the
 * *.tsv files of the directory path in name order; *n gets their number
 * (to free, each and the array). Dies when the directory has none. */
char **sr_simcost_files(const char *path, size_t *n);

/* Sets every node's cost on all tiles from its per-tile seconds. */
void sr_simcost_totals(sr_simcost *c);

/* Seconds of node v of stage s's tree on tile k. */
double sr_simcost_node(const sr_simcost *c, size_t s, size_t v, size_t k);


#endif
