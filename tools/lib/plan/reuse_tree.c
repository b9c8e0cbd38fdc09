/* reuse_tree.c - the reuse tree: building it, counting a bucket's tasks, and
 * bucket plans (with the trivial none and naive algorithms). */
#include "plan/merge.h"
#include "core/err.h"
#include "core/hash.h"

#include <stdlib.h>
#include <string.h>

/* The children of the nodes being built, by (parent, key): an open
 * addressing table of node ids (0: empty) over the nodes' own parents
 * and keys. The general interner kept a copy of every 16-byte pair, its
 * hash and offset in doubling arrays: some 60 bytes a node, half of
 * reuse-merge's peak on 10^6 runs; this is 16 at most (a key and two
 * slots), and the last child of each node 4 more. Node numbers fit 32
 * bits: a tree of 2^32 nodes would not fit the machine. */
typedef struct {
	uint32_t *slot;
	size_t mask;
	uint64_t *key;		/* key of node c (c >= 1) */
	uint32_t *last_child;	/* of node c, while it is built */
} child_table;

static void
child_table_init(child_table *h, size_t max)
{
	size_t cap = 16;

	if (max >= UINT32_MAX)
		sr_die(SR_EXIT_DATA, "a reuse tree of %zu nodes is beyond this "
		    "build (4294967294)", max);
	while (cap < 2 * max)
		cap *= 2;
	h->slot = sr_calloc(cap, sizeof *h->slot);
	h->mask = cap - 1;
	h->key = sr_calloc(max, sizeof *h->key);
	h->last_child = sr_calloc(max, sizeof *h->last_child);
}

static void
child_table_free(child_table *h)
{
	free(h->slot);
	free(h->key);
	free(h->last_child);
}

/* The child of parent under key, created (with cost) if missing; nodes
 * are numbered in order of first sight (node 0 is the root). */
static size_t
child(sr_rtree *t, child_table *h, size_t parent, uint64_t key, double cost)
{
	uint64_t pair[2] = { parent, key };
	size_t i = (size_t)sr_hash_bytes(pair, sizeof pair) & h->mask, c;
	sr_rnode *p;

	for (; h->slot[i]; i = (i + 1) & h->mask) {
		c = h->slot[i];
		if (t->node[c].parent == parent && h->key[c] == key)
			return c;
	}
	c = t->nnodes++;
	h->slot[i] = (uint32_t)c;
	h->key[c] = key;
	p = &t->node[parent];
	t->node[c] = (sr_rnode){ parent, p->depth + 1, SR_NONE, SR_NONE, 0,
	    cost };
	if (p->first_child == SR_NONE)
		p->first_child = c;
	else
		t->node[h->last_child[parent]].next_sibling = c;
	h->last_child[parent] = (uint32_t)c;
	return c;
}

sr_rtree *
sr_rtree_build(size_t n, size_t m, const uint64_t *key,
    const double *task_cost)
{
	sr_rtree *t = sr_calloc(1, sizeof *t);
	size_t max = n * m + 1, i, d, cur;
	child_table children;

	t->m = m;
	t->n = n;
	t->node = sr_calloc(max, sizeof *t->node);
	t->leaf = sr_calloc(n, sizeof *t->leaf);
	t->path = sr_calloc(n, (m + 1) * sizeof *t->path);
	t->node[0] = (sr_rnode){ SR_NONE, 0, SR_NONE, SR_NONE, 0, 0 };
	t->nnodes = 1;
	child_table_init(&children, max);
	for (i = 0; i < n; i++) {
		t->path[i * (m + 1)] = cur = 0;
		t->node[0].nleaves++;
		for (d = 0; d < m; d++) {
			cur = child(t, &children, cur, key[i * m + d],
			    task_cost ? task_cost[d] : 1.0);
			t->node[cur].nleaves++;
			t->path[i * (m + 1) + d + 1] = cur;
		}
		t->leaf[i] = cur;
	}
	child_table_free(&children);
	/* give back what the worst case reserved and the tree did not use */
	t->node = sr_reallocarray(t->node, t->nnodes, sizeof *t->node);
	return t;
}

void
sr_rtree_free(sr_rtree *t)
{
	if (t == NULL)
		return;
	free(t->node);
	free(t->leaf);
	free(t->path);
	free(t);
}

size_t
sr_rtree_shared(const sr_rtree *t, size_t a, size_t b)
{
	const size_t *pa = t->path + a * (t->m + 1), *pb = t->path + b * (t->m + 1);
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
			c += t->node[v].cost;
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
