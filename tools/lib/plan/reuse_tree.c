/* reuse_tree.c - the reuse tree: building it, counting a bucket's tasks, and
 * bucket plans (with the trivial none and naive algorithms). */
#include "plan/merge.h"
#include "core/err.h"
#include "core/hash.h"

#include <stdlib.h>
#include <string.h>

/* The tree is built one depth at a time. Pass 1 numbers the nodes of
 * each depth locally: the children of depth d-1's nodes are found by
 * (parent, key) in an open addressing table of local numbers (0: empty)
 * that keeps, per node, only its first instance (its parent and key are
 * that instance's). Node i's path holds local numbers meanwhile. A node
 * is new at instance i when i is its first instance, and an instance's
 * new nodes are the end of its path (below a new node all are new), so
 * counting them per instance gives each node its number in order of
 * first sight (pass 2), the numbers that creating them one by one would
 * give. The tables hold one level (about 13 bytes an instance) instead of
 * every node (the earlier table of all children took 20 bytes a node,
 * the tree's size again). */
typedef struct {
	uint32_t *slot;		/* local number + 1 of a node, or 0 */
	size_t mask;
	uint32_t *first;	/* first instance of local node j */
	size_t nlocal;
} level_table;

/* Numbers depth d's nodes locally into path[i*(m+1)+d]; new[i] counts
 * the nodes instance i is first to reach. */
static void
number_level(level_table *h, size_t n, size_t m, const uint64_t *key,
    uint32_t *path, size_t d, uint32_t *new)
{
	size_t w = m + 1, i, j, k;

	memset(h->slot, 0, (h->mask + 1) * sizeof *h->slot);
	h->nlocal = 0;
	for (i = 0; i < n; i++) {
		uint64_t pair[2] = { path[i * w + d - 1], key[i * m + d - 1] };
		k = (size_t)sr_hash_bytes(pair, sizeof pair) & h->mask;
		for (; h->slot[k]; k = (k + 1) & h->mask) {
			size_t f = h->first[h->slot[k] - 1];
			if (path[f * w + d - 1] == pair[0] &&
			    key[f * m + d - 1] == pair[1])
				break;
		}
		if (h->slot[k] == 0) {
			h->first[h->nlocal] = (uint32_t)i;
			h->slot[k] = (uint32_t)++h->nlocal;
			new[i]++;
		}
		j = h->slot[k] - 1;
		path[i * w + d] = (uint32_t)j;
	}
}

/* sr_rtree_build, freeing owned (the keys, or NULL) once pass 1 is done */
static sr_rtree *
build(size_t n, size_t m, const uint64_t *key, const double *task_cost,
    uint64_t *owned)
{
	sr_rtree *t = sr_calloc(1, sizeof *t);
	size_t w = m + 1, cap = 16, i, d, v, next;
	uint32_t *new = sr_calloc(n ? n : 1, sizeof *new);
	uint32_t *start, *map;
	level_table h;

	if (n > (UINT32_MAX - 2) / w)
		sr_die(SR_EXIT_DATA, "a reuse tree of %zu instances of %zu "
		    "tasks is beyond this build (2^32 nodes)", n, m);
	t->m = m;
	t->n = n;
	t->path = sr_calloc(n ? n : 1, w * sizeof *t->path);
	t->leaf = sr_calloc(n ? n : 1, sizeof *t->leaf);
	t->depth_cost = sr_calloc(w, sizeof *t->depth_cost);
	for (d = 1; d <= m; d++)
		t->depth_cost[d] = task_cost ? task_cost[d - 1] : 1.0;
	/* pass 1: local numbers, and the new nodes of each instance */
	while (cap < 2 * n)
		cap *= 2;
	h.slot = sr_calloc(cap, sizeof *h.slot);
	h.mask = cap - 1;
	h.first = sr_calloc(n ? n : 1, sizeof *h.first);
	for (d = 1; d <= m; d++)
		number_level(&h, n, m, key, t->path, d, new);
	free(h.slot);
	free(h.first);
	free(owned);
	/* pass 2: instance i's new nodes are numbered from start[i] on */
	start = sr_calloc(n ? n : 1, sizeof *start);
	for (i = 0, next = 1; i < n; i++) {
		start[i] = (uint32_t)next;
		next += new[i];
	}
	t->nnodes = next;
	map = sr_calloc(n ? n : 1, sizeof *map);
	for (d = 1; d <= m; d++) {
		memset(map, 0, (n ? n : 1) * sizeof *map);
		for (i = 0; i < n; i++) {
			uint32_t *p = &t->path[i * w + d];
			if (map[*p] == 0)	/* first sight: new at i, whose
						 * first new node is at depth
						 * m + 1 - new[i] */
				map[*p] = start[i] +
				    (uint32_t)(d - (m + 1 - new[i]));
			*p = map[*p];
		}
	}
	free(map);
	/* the nodes: parents, depths and leaf counts from the paths, then
	 * the children, in creation order (increasing number) */
	t->node = sr_calloc(t->nnodes, sizeof *t->node);
	t->node[0] = (sr_rnode){ sr_mklink(SR_NONE), sr_mklink(SR_NONE),
	    sr_mklink(SR_NONE), 0, (uint32_t)n };
	for (i = 0; i < n; i++) {
		const uint32_t *p = t->path + i * w;
		for (d = 1; d <= m; d++) {
			sr_rnode *x = &t->node[p[d]];
			if (p[d] >= start[i])	/* first sight */
				*x = (sr_rnode){ sr_mklink(p[d - 1]),
				    sr_mklink(SR_NONE), sr_mklink(SR_NONE),
				    (uint32_t)d, 0 };
			x->nleaves++;
		}
		t->leaf[i] = p[m];
	}
	for (v = t->nnodes; v-- > 1;) {
		sr_rnode *p = &t->node[sr_rparent(t, v)];
		t->node[v].next_sibling = p->first_child;
		p->first_child = sr_mklink(v);
	}
	free(start);
	free(new);
	return t;
}

sr_rtree *
sr_rtree_build(size_t n, size_t m, const uint64_t *key,
    const double *task_cost)
{
	return build(n, m, key, task_cost, NULL);
}

sr_rtree *
sr_rtree_build_take(size_t n, size_t m, uint64_t *key,
    const double *task_cost)
{
	return build(n, m, key, task_cost, key);
}

double *
sr_rtree_node_costs(sr_rtree *t)
{
	size_t v;

	if (t->cost == NULL) {
		t->cost = sr_calloc(t->nnodes, sizeof *t->cost);
		for (v = 0; v < t->nnodes; v++)
			t->cost[v] = t->depth_cost[t->node[v].depth];
	}
	return t->cost;
}

void
sr_rtree_free(sr_rtree *t)
{
	if (t == NULL)
		return;
	free(t->node);
	free(t->leaf);
	free(t->path);
	free(t->depth_cost);
	free(t->cost);
	free(t);
}

size_t
sr_rtree_shared(const sr_rtree *t, size_t a, size_t b)
{
	const uint32_t *pa = t->path + a * (t->m + 1);
	const uint32_t *pb = t->path + b * (t->m + 1);
	size_t d = 0;

	while (d < t->m && pa[d + 1] == pb[d + 1])
		d++;
	return d;
}

void
sr_nodeset_init(sr_nodeset *s, const sr_rtree *t)
{
	s->t = t;
	s->stamp = sr_calloc(t->nnodes, sizeof *s->stamp);
	s->epoch = 0;
}

void
sr_nodeset_free(sr_nodeset *s)
{
	free(s->stamp);
	s->stamp = NULL;
}

size_t
sr_rtree_bucket_tasks(sr_nodeset *s, const size_t *inst, size_t k,
    double *cost)
{
	const sr_rtree *t = s->t;
	size_t i, d, tasks = 0;
	double c = 0;

	if (++s->epoch == 0) {	/* wrapped: clear the stamps once */
		memset(s->stamp, 0, t->nnodes * sizeof *s->stamp);
		s->epoch = 1;
	}
	for (i = 0; i < k; i++)
		for (d = t->m; d >= 1; d--) {	/* leaf up, stop at a known node */
			size_t v = t->path[inst[i] * (t->m + 1) + d];
			if (s->stamp[v] == s->epoch)
				break;
			s->stamp[v] = s->epoch;
			tasks++;
			c += sr_rnode_cost(t, v);
		}
	if (cost)
		*cost = c;
	return tasks;
}

void
sr_bucket_push(sr_bucket *b, size_t i)
{
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 8;
		b->inst = sr_reallocarray(b->inst, b->cap, sizeof *b->inst);
	}
	b->inst[b->n++] = i;
}

void
sr_plan_add(sr_plan *p, const size_t *inst, size_t k)
{
	size_t i;

	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->b = sr_reallocarray(p->b, p->cap, sizeof *p->b);
	}
	memset(&p->b[p->n], 0, sizeof p->b[p->n]);
	for (i = 0; i < k; i++)
		sr_bucket_push(&p->b[p->n], inst[i]);
	p->n++;
}

void
sr_plan_free(sr_plan *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->b[i].inst);
	free(p->b);
	memset(p, 0, sizeof *p);
}

int
sr_cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

int
sr_plan_equal(const sr_plan *p, const sr_plan *q)
{
	size_t i;

	if (p->n != q->n)
		return 0;
	for (i = 0; i < p->n; i++)
		if (p->b[i].n != q->b[i].n || memcmp(p->b[i].inst, q->b[i].inst,
		    p->b[i].n * sizeof *p->b[i].inst) != 0)
			return 0;
	return 1;
}

void
sr_plan_sort(sr_plan *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		qsort(p->b[i].inst, p->b[i].n, sizeof *p->b[i].inst, sr_cmp_size);
}

void
sr_merge_none(const sr_rtree *t, sr_plan *out)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		sr_plan_add(out, &i, 1);
}

void
sr_merge_naive(const sr_rtree *t, size_t b, sr_plan *out)
{
	size_t i, *inst = sr_calloc(t->n, sizeof *inst);

	for (i = 0; i < t->n; i++)
		inst[i] = i;
	for (i = 0; i < t->n; i += b)
		sr_plan_add(out, inst + i, t->n - i < b ? t->n - i : b);
	free(inst);
}
