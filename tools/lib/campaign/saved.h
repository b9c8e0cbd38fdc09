/* saved.h - the work a campaign's buckets saved: task nodes and seconds
 * of the merged stage, if every run computed every task on every tile,
 * after reuse (the plan), and as run (after cancellation and the paths a
 * task stopped), from buckets.tsv's #stats line and timings.tsv. */
#ifndef SR_CAMPAIGN_SAVED_H
#define SR_CAMPAIGN_SAVED_H

#include <stddef.h>

#include "plan/workflow.h"

typedef struct {
	double runs, tiles;	/* the plan's runs; the tiles */
	/* task nodes of the merged stage: every run computing every task
	 * on every tile; after stage-level reuse; the plan (merged into
	 * buckets): buckets.tsv's #stats per tile, times the tiles */
	double all, stage, planned;
	/* measured (timings.tsv's rows of the merged stage's tasks; NaN
	 * without a workflow): the nodes run, their seconds */
	double run, run_s;
	/* estimated from the measurements (NaN when they cannot be): all's
	 * seconds, each task at its mean measured seconds; the plan's, the
	 * nodes not run at the mean seconds of a node run */
	double all_s, planned_s;
} sr_saved;

/* The work of the buckets of directory dir (its buckets.tsv and
 * timings.tsv) on tiles tiles; w (NULL: none) names the merged stage's
 * tasks (buckets.tsv's stage=), whose rows timings.tsv's run are. Dies
 * naming the file on a bad one; without a #stats line, all is NaN. */
void sr_saved_read(sr_saved *s, const char *dir, size_t tiles,
    const sr_workflow *w);

/* Sets all_s and planned_s from s's counts and the merged stage's
 * ntask tasks, task k measured n[k] times for sec[k] seconds in all. */
void sr_saved_estimate(sr_saved *s, const double *sec, const size_t *n,
    size_t ntask);

/* to += from, field by field (NaN stays NaN). */
void sr_saved_add(sr_saved *to, const sr_saved *from);

#endif
