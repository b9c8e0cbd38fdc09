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

/* A link between nodes: a node number in 32 bits, or none. A struct, so
 * that it cannot be compared with SR_NONE (64 bits) or used as an index
 * by mistake: read it with sr_link, make one with sr_mklink. Node numbers
 * fit 32 bits (sr_rtree_build refuses trees that would not). */
typedef struct {
	uint32_t v;
} sr_nlink;

#define SR_NONE32 UINT32_MAX

/* The node number of l, or SR_NONE. */
static inline size_t
sr_link(sr_nlink l)
{
	return l.v == SR_NONE32 ? SR_NONE : (size_t)l.v;
}

/* A link to node v (SR_NONE: none). */
static inline sr_nlink
sr_mklink(size_t v)
{
	return (sr_nlink){ v == SR_NONE ? SR_NONE32 : (uint32_t)v };
}

/* 20 bytes: reuse-merge holds millions (7 million for 10^6 runs of 7
 * tasks when no prefix repeats). */
typedef struct {
	sr_nlink parent;	/* none for the root */
	sr_nlink first_child;	/* none if none; children in creation order */
	sr_nlink next_sibling;	/* none if last */
	uint32_t depth;		/* 0 root; task t (from 1) is at depth t */
	uint32_t nleaves;	/* instances below (or at) this node */
} sr_rnode;

typedef struct {
	size_t m;		/* tasks per instance (depth of the leaves) */
	size_t n;		/* instances */
	size_t nnodes;
	sr_rnode *node;		/* node[0] is the root */
	uint32_t *leaf;		/* leaf node of instance i */
	uint32_t *path;		/* n * (m + 1): path[i*(m+1)+d] = node at
				 * depth d */
	double *depth_cost;	/* m + 1: the cost of a node at depth d */
	double *cost;		/* nnodes costs, or NULL: depth_cost applies */
} sr_rtree;

/* Node v's parent, first child and next sibling, or SR_NONE. */
#define sr_rparent(t, v) sr_link((t)->node[v].parent)
#define sr_rchild(t, v) sr_link((t)->node[v].first_child)
#define sr_rnext(t, v) sr_link((t)->node[v].next_sibling)

/* The cost of running node v's task. */
static inline double
sr_rnode_cost(const sr_rtree *t, size_t v)
{
	return t->cost ? t->cost[v] : t->depth_cost[t->node[v].depth];
}

/* The nodes' own costs, to be set one by one: allocated on first call
 * from the costs by depth. */
double *sr_rtree_node_costs(sr_rtree *t);

/* Builds the tree from key[i*m + t], an identifier of instance i's prefix
 * step at task t (its upstream and task 1's values for t = 0, task t+1's
 * parameter values otherwise): children are looked up by (parent, key) in
 * a hash table, O(n m). Node costs are set from task_cost[t] (m values;
 * NULL: 1 each). Nodes are numbered in order of first sight (instance by
 * instance, root to leaf), as if created one by one; the tree is built
 * one depth at a time, so the tables of the build hold one level. Dies
 * when the tree could have 2^32 nodes or more. */
sr_rtree *sr_rtree_build(size_t n, size_t m, const uint64_t *key,
    const double *task_cost);
/* The same, taking key (an allocated array) and freeing it as soon as the
 * nodes are numbered, before they are allocated. */
sr_rtree *sr_rtree_build_take(size_t n, size_t m, uint64_t *key,
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
