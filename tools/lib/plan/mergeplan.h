/* mergeplan.h - what reuse-merge does between reading and writing: the
 * algorithm by name, the reuse tree costed by the cost model, the plan
 * checked, and the plan written as buckets.tsv (buckets.h) or one
 * bucket's merged task tree. */
#ifndef SR_MERGEPLAN_H
#define SR_MERGEPLAN_H

#include <stddef.h>
#include <stdio.h>

#include "plan/merge.h"
#include "plan/stage_rule.h"
#include "plan/instances.h"

/* The algorithms, by the names of reuse-merge -a. */
enum sr_merge_algo {
	SR_ALGO_NONE, SR_ALGO_NAIVE, SR_ALGO_SCA, SR_ALGO_RTMA, SR_ALGO_TRTMA,
	SR_ALGO_N
};
extern const char *const sr_merge_algo_name[SR_ALGO_N];

/* An algorithm and its settings. */
typedef struct {
	int algo;		/* enum sr_merge_algo */
	size_t b;		/* naive, sca, rtma: instances per bucket */
	size_t maxb;		/* trtma: buckets */
	size_t max_tasks;	/* trtma: tasks per bucket at most (0: no cap) */
	int double_prune;	/* rtma */
	int force;		/* sca even when its work estimate is huge */
	const char *cost;	/* tasks, weights, or a timings file */
} sr_merge_conf;

/* The reuse tree of stage st, its node costs from the cost model: 1 per
 * task (tasks), the workflow's task costs (weights), or measured seconds
 * (a timings file; a warning counts the nodes not measured). With
 * drop_values, the instances' values are freed once the tree's keys are
 * made (sr_instances_drop_values), before the tree is built. */
sr_rtree *sr_merge_tree(sr_instances *in, size_t st, const char *cost,
    int drop_values);

/* Runs the algorithm into p; dies naming `instances` when it fails or
 * (sca without force) would take too long. Then dies unless every
 * instance is in exactly one bucket and none is empty. */
void sr_merge_plan(const sr_merge_conf *c, const sr_rtree *t, sr_plan *p,
    const char *instances);

/* Writes the metadata and #stats lines, the header and one row per
 * bucket; seconds is the algorithm's time. */
void sr_merge_write_buckets(FILE *fp, const sr_merge_conf *c,
    const sr_instances *in, size_t st, const sr_rtree *t, const sr_plan *p,
    double seconds);

/* Writes bucket's merged task tree: one row per executed task node, depth
 * first. */
void sr_merge_write_tree(FILE *fp, const sr_instances *in, size_t st,
    const sr_rtree *t, const sr_plan *p, size_t bucket);

#endif
