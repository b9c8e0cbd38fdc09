/* reuse_tree.h - the reuse tree of a stage's instances.
 *
 * The instances of one workflow stage are chains of m tasks. Two instances
 * share task t iff they share the upstream instance and the parameter
 * values of tasks 1..t (a prefix match). The reuse tree has one level per
 * task: the root (depth 0), then a node per distinct prefix; instance i is
 * the leaf at depth m. A bucket executes each node of the union of its
 * instances' root-to-leaf paths once, so its task count is the number of
 * distinct non-root nodes on those paths.
 *
 * Pure code: no I/O, no exits (allocation failures excepted, which die
 * through sr_calloc). Functions that can fail return -1 with a message in
 * errbuf (SR_ERRLEN bytes).
 */
#ifndef SR_REUSE_TREE_H
#define SR_REUSE_TREE_H

#include <stddef.h>
#include <stdint.h>

#define SR_NONE ((size_t)-1)
#ifndef SR_ERRLEN
#define SR_ERRLEN 256
#endif

typedef struct {
	size_t parent;		/* SR_NONE for the root */
	size_t depth;		/* 0 root; task t (from 1) is at depth t */
	size_t first_child;	/* SR_NONE if none; children in creation order */
	size_t next_sibling;	/* SR_NONE if last */
	size_t nleaves;		/* instances below (or at) this node */
	double cost;		/* cost of running this node's task */
} sr_rnode;

typedef struct {
	size_t m;		/* tasks per instance (depth of the leaves) */
	size_t n;		/* instances */
	size_t nnodes;
	sr_rnode *node;		/* node[0] is the root */
	size_t *leaf;		/* leaf node of instance i */
	size_t *path;		/* n * (m + 1): path[i*(m+1)+d] = node at depth d */
} sr_rtree;

/* Builds the tree from key[i*m + t], an identifier of instance i's prefix
 * step at task t (its upstream and task 1's values for t = 0, task t+1's
 * parameter values otherwise): children are looked up by (parent, key) in
 * a hash table, O(n m). Node costs are set from task_cost[t] (m values;
 * NULL: 1 each). */
sr_rtree *sr_rtree_build(size_t n, size_t m, const uint64_t *key,
    const double *task_cost);
void sr_rtree_free(sr_rtree *t);

/* Lowest common ancestor depth of instances a and b: the number of tasks
 * they share (their pairwise reuse). */
size_t sr_rtree_shared(const sr_rtree *t, size_t a, size_t b);

/* A set of distinct nodes, for counting a bucket's tasks: stamps per node,
 * so clearing is O(1). */
typedef struct {
	const sr_rtree *t;
	unsigned *stamp;
	unsigned epoch;
} sr_nodeset;

void sr_nodeset_init(sr_nodeset *s, const sr_rtree *t);
void sr_nodeset_free(sr_nodeset *s);
/* Tasks (distinct non-root nodes) and their summed cost for the instances
 * inst[0..k). */
size_t sr_rtree_bucket_tasks(sr_nodeset *s, const size_t *inst, size_t k,
    double *cost);

#endif
