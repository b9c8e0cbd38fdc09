/* rtma.c - RTMA: reuse-tree merging into buckets of at most b instances,
 * pruning the tree bottom-up (Teodoro et al.), with the optional second
 * pruning of leftovers by first-fit-decreasing packing (double prune). */
#include "plan/merge.h"
#include "core/err.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One instance waiting at a node of the current level, in a group (the
 * leftover it moved up with; groups stay contiguous with double prune).
 * 32 bits each (node numbers fit, see sr_rtree_build): rtma holds five
 * arrays of them, one item per instance. */
typedef struct {
	uint32_t node;		/* where it waits */
	uint32_t group;		/* smallest instance of its group */
	uint32_t inst;
} item;

static int
by_node_inst(const void *a, const void *b)
{
	const item *x = a, *y = b;

	if (x->node != y->node)
		return (x->node > y->node) - (x->node < y->node);
	return (x->inst > y->inst) - (x->inst < y->inst);
}

static int
by_node_group_inst(const void *a, const void *b)
{
	const item *x = a, *y = b;

	if (x->node != y->node)
		return (x->node > y->node) - (x->node < y->node);
	if (x->group != y->group)
		return (x->group > y->group) - (x->group < y->group);
	return (x->inst > y->inst) - (x->inst < y->inst);
}

/* Emits buckets of exactly b from it[0..n) (one node's items, sorted);
 * returns how many items were emitted (the rest is the leftover). */
static size_t
emit_full(const item *it, size_t n, size_t b, sr_plan *out)
{
	size_t done = 0, i;

	for (; n - done >= b; done += b) {
		sr_plan_add(out, NULL, 0);
		for (i = 0; i < b; i++)
			sr_bucket_push(&out->b[out->n - 1], it[done + i].inst);
	}
	return done;
}

#define EMITTED (SR_NONE - 1)

/* A leftover group during double pruning. */
typedef struct {
	size_t start, n;	/* range in the level's item array */
	size_t bin;
} group;

static int
by_size_desc(const void *a, const void *b)
{
	const group *x = a, *y = b;

	if (x->n != y->n)
		return (x->n < y->n) - (x->n > y->n);
	return (x->start > y->start) - (x->start < y->start);
}

/* First-fit-decreasing of groups g[0..ng) into bins of capacity b; emits
 * the bins that come out exactly full (every bin when all is set) and
 * marks their groups' bin EMITTED. */
/* Leftmost bin with at least need room, in a segment tree of the bins'
 * free room (tree[1] is the root; leaves from size on): first fit in
 * O(log bins) instead of a scan, so packing n groups is O(n log n). */
static size_t
first_fit(const size_t *tree, size_t size, size_t need)
{
	size_t i = 1;

	if (tree[1] < need)
		return SR_NONE;
	while (i < size)
		i = tree[2 * i] >= need ? 2 * i : 2 * i + 1;
	return i - size;
}

static void
set_room(size_t *tree, size_t size, size_t bin, size_t room)
{
	size_t i = bin + size;

	tree[i] = room;
	for (i /= 2; i >= 1; i /= 2)
		tree[i] = tree[2 * i] > tree[2 * i + 1] ? tree[2 * i] : tree[2 * i + 1];
}

/* First-fit-decreasing of groups g[0..ng) into bins of capacity b; emits
 * the bins that come out exactly full (every bin when all is set) and
 * marks their groups' bin EMITTED. */
static void
pack_groups(const item *it, group *g, size_t ng, size_t b, int all,
    sr_plan *out)
{
	size_t size = 1, nbins = 0, i, j, k, *tree, *fill, *first, *next;

	while (size < ng)
		size *= 2;
	tree = sr_calloc(2 * size, sizeof *tree);
	fill = sr_calloc(size, sizeof *fill);
	qsort(g, ng, sizeof *g, by_size_desc);
	for (i = 0; i < ng; i++) {
		if ((j = first_fit(tree, size, g[i].n)) == SR_NONE)
			j = nbins++;	/* a new bin, empty until now */
		fill[j] += g[i].n;
		set_room(tree, size, j, b - fill[j]);
		g[i].bin = j;
	}
	first = sr_calloc(size, sizeof *first);	/* group lists per bin */
	next = sr_calloc(ng ? ng : 1, sizeof *next);
	for (j = 0; j < nbins; j++)
		first[j] = SR_NONE;
	for (i = ng; i-- > 0;) {
		next[i] = first[g[i].bin];
		first[g[i].bin] = i;
	}
	for (j = 0; j < nbins; j++) {
		if (!all && fill[j] != b)
			continue;
		sr_plan_add(out, NULL, 0);
		for (i = first[j]; i != SR_NONE; i = next[i]) {
			for (k = 0; k < g[i].n; k++)
				sr_bucket_push(&out->b[out->n - 1], it[g[i].start + k].inst);
			g[i].bin = EMITTED;
		}
	}
	free(first);
	free(next);
	free(tree);
	free(fill);
}

static int
by_start(const void *a, const void *b)
{
	const group *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

static int
by_parent(const void *a, const void *b)
{
	const group *x = a, *y = b;	/* bin holds the parent while grouping */

	if (x->bin != y->bin)
		return (x->bin > y->bin) - (x->bin < y->bin);
	return (x->start > y->start) - (x->start < y->start);
}

/* Double prune of one level: packs the leftovers of each set of sibling
 * leaf-parents into full buckets; returns the groups that move up. */
static void
prune_siblings(const sr_rtree *t, const item *it, group *left, size_t nl,
    size_t b, sr_plan *out)
{
	size_t i = 0, j;

	for (i = 0; i < nl; i++)	/* key the leftovers by their parent */
		left[i].bin = sr_link(t->node[it[left[i].start].node].parent);
	qsort(left, nl, sizeof *left, by_parent);
	for (i = 0; i < nl; i = j) {
		size_t parent = left[i].bin, k;
		for (j = i; j < nl && left[j].bin == parent; j++)
			;
		for (k = i; k < j; k++)
			left[k].bin = SR_NONE;
		pack_groups(it, left + i, j - i, b, 0, out);
	}
}

/* Items of the next level up: the leftovers not emitted, at the parent. */
static size_t
move_up(const sr_rtree *t, const item *it, const group *left, size_t nl,
    item *next)
{
	size_t i, k, n = 0;

	for (i = 0; i < nl; i++) {
		if (left[i].bin == EMITTED)
			continue;
		for (k = 0; k < left[i].n; k++) {
			next[n] = it[left[i].start + k];
			next[n].node = (uint32_t)sr_rparent(t, next[n].node);
			next[n].group = it[left[i].start].inst;
			n++;
		}
	}
	return n;
}

/* The root's leftovers: consecutive buckets of at most b, or with double
 * prune first-fit-decreasing bins of the groups. */
static void
finish_root(item *it, size_t n, size_t b, int double_prune, sr_plan *out)
{
	group *g;
	size_t i, ng = 0;

	if (!double_prune) {
		for (i = 0; i < n; i += b) {
			size_t k, end = n - i < b ? n : i + b;
			sr_plan_add(out, NULL, 0);
			for (k = i; k < end; k++)
				sr_bucket_push(&out->b[out->n - 1], it[k].inst);
		}
		return;
	}
	g = sr_calloc(n ? n : 1, sizeof *g);
	for (i = 0; i < n; i++) {
		if (i == 0 || it[i].group != it[i - 1].group)
			g[ng++] = (group){ i, 0, SR_NONE };
		g[ng - 1].n++;
	}
	pack_groups(it, g, ng, b, 1, out);
	free(g);
}

/* Double prune within one node: first-fit-decreasing of its groups into
 * exactly full buckets; the items left are moved, in order, to the front
 * of it[0..n). Returns how many are left. */
static size_t
pack_node(item *it, size_t n, size_t b, group *g, item *tmp, sr_plan *out)
{
	size_t i, ng = 0, k = 0;

	for (i = 0; i < n; i++) {
		if (i == 0 || it[i].group != it[i - 1].group)
			g[ng++] = (group){ i, 0, SR_NONE };
		g[ng - 1].n++;
	}
	pack_groups(it, g, ng, b, 0, out);
	for (i = 0; i < ng; i++)	/* keep the unemitted groups, in order */
		if (g[i].bin != EMITTED)
			g[i].bin = SR_NONE;
	qsort(g, ng, sizeof *g, by_start);
	for (i = 0; i < ng; i++)
		if (g[i].bin != EMITTED) {
			memcpy(tmp + k, it + g[i].start, g[i].n * sizeof *it);
			k += g[i].n;
		}
	memcpy(it, tmp, k * sizeof *it);
	return k;
}

void
sr_merge_rtma(const sr_rtree *t, size_t b, int double_prune, sr_plan *out)
{
	item *it = sr_calloc(t->n ? t->n : 1, sizeof *it);
	item *next = sr_calloc(t->n ? t->n : 1, sizeof *next);
	group *left = sr_calloc(t->n ? t->n : 1, sizeof *left);
	group *gbuf = NULL;
	item *tmp = NULL;
	size_t n = t->n, i, j, nl, d;

	if (double_prune) {	/* pack_node's room */
		gbuf = sr_calloc(t->n ? t->n : 1, sizeof *gbuf);
		tmp = sr_calloc(t->n ? t->n : 1, sizeof *tmp);
	}

	for (i = 0; i < n; i++)		/* the leaves wait at their parents */
		it[i] = (item){ (uint32_t)sr_rparent(t, t->leaf[i]),
		    (uint32_t)i, (uint32_t)i };
	for (d = t->m - 1; d >= 1 && n > 0; d--) {
		qsort(it, n, sizeof *it, double_prune ? by_node_group_inst :
		    by_node_inst);
		for (i = 0, nl = 0; i < n; i = j) {
			for (j = i; j < n && it[j].node == it[i].node; j++)
				;
			size_t keep = double_prune && d < t->m - 1 ?
			    pack_node(it + i, j - i, b, gbuf, tmp, out) : j - i;
			size_t done = emit_full(it + i, keep, b, out);
			if (done < keep)
				left[nl++] = (group){ i + done, keep - done, SR_NONE };
		}
		if (double_prune)
			prune_siblings(t, it, left, nl, b, out);
		n = move_up(t, it, left, nl, next);
		item *tmp = it;
		it = next;
		next = tmp;
	}
	qsort(it, n, sizeof *it, double_prune ? by_node_group_inst :
	    by_node_inst);
	finish_root(it, n, b, double_prune, out);
	sr_plan_sort(out);
	free(it);
	free(next);
	free(left);
	free(gbuf);
	free(tmp);
}
