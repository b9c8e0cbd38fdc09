/* reuse_tree.c - the reuse tree: building it, counting a bucket's tasks, and
 * bucket plans (with the trivial none and naive algorithms). */
#include "plan/merge.h"
#include "core/err.h"
#include "core/hash.h"

#include <stdlib.h>
#include <string.h>

/* The child of parent under key, created (with cost) if missing: the
 * interner of (parent, key) gives the pairs dense ids in order of first
 * sight, so the child of pair id is node id + 1 (node 0 is the root). */
static size_t
child(sr_rtree *t, sr_interner *children, size_t *last_child, size_t parent,
    uint64_t key, double cost)
{
	uint64_t pair[2] = { parent, key };
	size_t c;
	sr_rnode *p;
	int added;

	c = sr_intern(children, pair, sizeof pair, &added) + 1;
	if (!added)
		return c;
	t->nnodes++;
	p = &t->node[parent];
	t->node[c] = (sr_rnode){ parent, p->depth + 1, SR_NONE, SR_NONE, 0,
	    cost };
	if (p->first_child == SR_NONE)
		p->first_child = c;
	else
		t->node[last_child[parent]].next_sibling = c;
	last_child[parent] = c;
	return c;
}

sr_rtree *
sr_rtree_build(size_t n, size_t m, const uint64_t *key,
    const double *task_cost)
{
	sr_rtree *t = sr_calloc(1, sizeof *t);
	size_t max = n * m + 1, i, d, cur;
	sr_interner children;
	size_t *last_child = sr_calloc(max, sizeof *last_child);

	t->m = m;
	t->n = n;
	t->node = sr_calloc(max, sizeof *t->node);
	t->leaf = sr_calloc(n, sizeof *t->leaf);
	t->path = sr_calloc(n, (m + 1) * sizeof *t->path);
	t->node[0] = (sr_rnode){ SR_NONE, 0, SR_NONE, SR_NONE, 0, 0 };
	t->nnodes = 1;
	sr_interner_init(&children);
	for (i = 0; i < n; i++) {
		t->path[i * (m + 1)] = cur = 0;
		t->node[0].nleaves++;
		for (d = 0; d < m; d++) {
			cur = child(t, &children, last_child, cur, key[i * m + d],
			    task_cost ? task_cost[d] : 1.0);
			t->node[cur].nleaves++;
			t->path[i * (m + 1) + d + 1] = cur;
		}
		t->leaf[i] = cur;
	}
	free(last_child);
	sr_interner_free(&children);
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
