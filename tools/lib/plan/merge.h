/* merge.h - bucket plans and the algorithms that merge a stage's
 * instances into buckets over the reuse tree (reuse-merge -a).
 *
 * Pure code, as reuse_tree.h: functions that can fail return -1 with a
 * message in errbuf (SR_ERRLEN bytes).
 */
#ifndef SR_MERGE_H
#define SR_MERGE_H

#include <stddef.h>

#include "plan/reuse_tree.h"

/* ---- bucket plans -------------------------------------------------------- */

typedef struct {
	size_t *inst;		/* instance indices */
	size_t n, cap;
} sr_bucket;

typedef struct {
	sr_bucket *b;
	size_t n, cap;
} sr_plan;

/* Appends a bucket holding inst[0..k) (copied). */
void sr_plan_add(sr_plan *p, const size_t *inst, size_t k);
/* Appends instance i to bucket j. */
void sr_bucket_push(sr_bucket *b, size_t i);
void sr_plan_free(sr_plan *p);
/* Sorts each bucket's instances increasing (input order). */
void sr_plan_sort(sr_plan *p);
/* Whether two plans hold the same buckets, in the same order. */
int sr_plan_equal(const sr_plan *p, const sr_plan *q);
/* qsort comparator of size_t values, increasing. */
int sr_cmp_size(const void *a, const void *b);

/* ---- algorithms (reuse-merge -a) ---------------------------------------- */

/* none: one instance per bucket. naive: consecutive groups of b. */
void sr_merge_none(const sr_rtree *t, sr_plan *out);
void sr_merge_naive(const sr_rtree *t, size_t b, sr_plan *out);

/* RTMA with buckets of at most b instances; double_prune packs the
 * leftovers of sibling leaf-parents first-fit-decreasing into full
 * buckets. */
void sr_merge_rtma(const sr_rtree *t, size_t b, int double_prune,
    sr_plan *out);

/* Smart-Cut: repeated Stoer-Wagner minimum cuts of the complete graph
 * weighted by pairwise reuse; buckets of at most b instances. */
int sr_merge_sca(const sr_rtree *t, size_t b, sr_plan *out, char *errbuf);
/* Rough number of elementary operations sr_merge_sca needs for n
 * instances and buckets of b, to refuse hopeless runs up front. */
double sr_sca_work(size_t n, size_t b);

/* TRTMA: Full-Merge to the first level with at least maxb nodes,
 * Fold-Merge down to maxb buckets, then Balance on the node costs. A
 * bucket never executes more than max_tasks tasks through a fold or a
 * move (0: no cap). */
int sr_merge_trtma(const sr_rtree *t, size_t maxb, size_t max_tasks,
    sr_plan *out, char *errbuf);

#endif
