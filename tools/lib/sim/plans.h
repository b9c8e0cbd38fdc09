/* plans.h - bucket plans costed: the timings' own plan, or any plan
 * BUCKETS.tsv (buckets(5)) of the same instances, each bucket costed
 * through the reuse trees (walk.h). */
#ifndef SR_PLANS_H
#define SR_PLANS_H

#include <stddef.h>

#include "plan/merge.h"
#include "sim/costs.h"

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

/* The plan of BUCKETS.tsv, costed: of the stage its #stage= metadata
 * names, else of the merged stage. Dies naming file, line and column
 * when it does not fit the instances. */
sr_simplan *sr_simplan_read(const char *path, const sr_simcost *c);
/* The timings' own plan, costed by its rows. */
sr_simplan *sr_simplan_baseline(const sr_simcost *c);
void sr_simplan_free(sr_simplan *p);

/* The work of each array task of `lines` consecutive buckets; *n gets
 * their number. */
double *sr_simplan_tasks(const sr_simplan *p, size_t lines, size_t *n);
/* The work of each array task of a bucket on a chunk of per_task of the
 * ntiles tiles (bucket b's chunk k is task b * chunks + k, the last chunk
 * smaller): the bucket's seconds split in proportion to the chunk's
 * tiles; *n gets their number. */
double *sr_simplan_chunk_tasks(const sr_simplan *p, size_t ntiles,
    size_t per_task, size_t *n);
/* The plan's work: its buckets' seconds, summed. */
double sr_simplan_work(const sr_simplan *p);

#endif
