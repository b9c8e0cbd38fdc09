/* trtma.c - TRTMA, task-balanced reuse-tree merging (after Teodoro,
 * Barreiros et al.).
 *
 * The cost of a bucket is the summed node cost of the distinct non-root
 * nodes on its instances' paths (its task count with unit costs).
 *
 * 1. Full-Merge: the first level (depth 1..m) with at least maxb nodes
 *    gives a bucket per node, holding the instances below it; if no level
 *    has maxb nodes, the leaves (depth m) do.
 * 2. Fold-Merge: while more than maxb buckets remain, sort them by cost
 *    (descending, ties: smallest instance first) and fold the (M+j)-th
 *    onto the (M+1-j)-th, j = 1..M (M = maxb).
 * 3. Balance: take the costliest bucket X and, among the cheapest ones,
 *    the one Y sharing most nodes with X; move to Y the X-instances below
 *    one node v of X's part of the tree, the allowed move leaving the two
 *    costs closest; stop when X and Y admit no allowed move.
 *
 * Decisions the description leaves open:
 * - Full-Merge buckets are tree nodes, so duplicate instances (same leaf)
 *   always share a bucket and the level-m fallback gives one bucket per
 *   distinct leaf (one per instance when instances are distinct).
 * - With max_tasks > 0 the (M+j)-th bucket tries the targets in the
 *   cyclic order M+1-j, M-j, ..., 1, M, M-1, ..., M+2-j and stays if none
 *   has room; folding stops when a round folds nothing. Full-Merge goes
 *   down to the first level with maxb nodes whose subtrees all fit
 *   max_tasks (a cap below m tasks is an error), so no bucket exceeds it.
 * - Bucket indices (for the Balance ties) are the Fold-Merge order: cost
 *   descending, ties smallest instance first. The X of a round is the
 *   costliest bucket with the lowest index; "sharing most nodes" counts
 *   nodes, not their cost.
 * - Balance evaluates every node v (depth >= 1) of X but skips v when its
 *   parent holds the same X-instances (single-child pruning: the same
 *   move, which the parent wins on the depth tie-break). That is the only
 *   pruning: siblings of identical shape may still differ in what Y
 *   already has, so skipping them could change the result.
 * - Costs are doubles summed per bucket over its node map; with integral
 *   node costs all comparisons are exact. Node costs must be >= 0.
 * - A tree without tasks (m = 0) gives one bucket of all instances.
 * - Balance keeps per bucket a hash map node -> its instances under the
 *   node, so a move is evaluated from X's nodes alone (O(|X's nodes| m)
 *   per round, bottom-up subtree sums), and tournament trees for the
 *   costliest and cheapest buckets.
 * - Balance stops after 10 n + 10 moves at most. Every move replaces the
 *   maximum cost(X) and cost(Y) by two smaller values, so the sorted cost
 *   vector falls lexicographically and the loop ends anyway; the cap only
 *   bounds the time.
 */
#include "plan/merge.h"
#include "core/err.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------------ */

/* Starts a new, empty stamp set (clearing the stamps if epoch wraps). */
static void
nodeset_clear(sr_nodeset *s)
{
	if (++s->epoch == 0) {
		memset(s->stamp, 0, s->t->nnodes * sizeof *s->stamp);
		s->epoch = 1;
	}
}

static double
absdiff(double a, double b)
{
	return a > b ? a - b : b - a;
}

/* ---- node maps: node -> instances of one bucket under it ---------------- */

typedef struct {
	size_t *key;		/* node, SR_NONE for an empty slot */
	size_t *cnt;		/* the bucket's instances under key */
	size_t cap, len;	/* cap a power of two, len <= cap / 2 */
} nodemap;

static size_t
map_home(const nodemap *h, size_t v)
{
	uint64_t x = (uint64_t)v * 0x9e3779b97f4a7c15ULL;

	return (size_t)(x ^ (x >> 29)) & (h->cap - 1);
}

/* Slot of v in h, or of the empty slot where it would go. */
static size_t
map_slot(const nodemap *h, size_t v)
{
	size_t i = map_home(h, v);

	while (h->key[i] != SR_NONE && h->key[i] != v)
		i = (i + 1) & (h->cap - 1);
	return i;
}

/* Instances under v (0 if v is not in the map). */
static size_t
map_get(const nodemap *h, size_t v)
{
	size_t i;

	if (h->cap == 0)
		return 0;
	i = map_slot(h, v);
	return h->key[i] == v ? h->cnt[i] : 0;
}

/* Rehashes h into cap slots. */
static void
map_resize(nodemap *h, size_t cap)
{
	nodemap old = *h;
	size_t i, j;

	h->cap = cap;
	h->key = sr_calloc(cap, sizeof *h->key);
	h->cnt = sr_calloc(cap, sizeof *h->cnt);
	memset(h->key, 0xff, cap * sizeof *h->key);	/* SR_NONE */
	for (i = 0; i < old.cap; i++)
		if (old.key[i] != SR_NONE) {
			j = map_slot(h, old.key[i]);
			h->key[j] = old.key[i];
			h->cnt[j] = old.cnt[i];
		}
	free(old.key);
	free(old.cnt);
}

/* Adds one instance under v; returns the new count. */
static size_t
map_inc(nodemap *h, size_t v)
{
	size_t i;

	if (2 * (h->len + 1) > h->cap)
		map_resize(h, h->cap ? 2 * h->cap : 16);
	i = map_slot(h, v);
	if (h->key[i] != v) {
		h->key[i] = v;
		h->cnt[i] = 0;
		h->len++;
	}
	return ++h->cnt[i];
}

/* Removes one instance under v (which must be there); returns the new
 * count. An entry that drops to 0 leaves by backward-shift deletion. */
static size_t
map_dec(nodemap *h, size_t v)
{
	size_t i = map_slot(h, v), j, home, mask = h->cap - 1;

	if (--h->cnt[i] > 0)
		return h->cnt[i];
	for (j = (i + 1) & mask; h->key[j] != SR_NONE; j = (j + 1) & mask) {
		home = map_home(h, h->key[j]);
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;	/* j's entry may stay */
		h->key[i] = h->key[j];
		h->cnt[i] = h->cnt[j];
		i = j;
	}
	h->key[i] = SR_NONE;
	h->len--;
	return 0;
}

static void
map_free(nodemap *h)
{
	free(h->key);
	free(h->cnt);
	memset(h, 0, sizeof *h);
}

/* Summed cost of the nodes in h. */
static double
map_cost(const sr_rtree *t, const nodemap *h)
{
	double c = 0;
	size_t i;

	for (i = 0; i < h->cap; i++)
		if (h->key[i] != SR_NONE)
			c += sr_rnode_cost(t, h->key[i]);
	return c;
}

/* ---- Full-Merge and Fold-Merge ------------------------------------------ */

/* A bucket of Full-Merge groups (nodes at depth level). Its cost is the
 * union of the groups' paths above and at level plus, for each group, its
 * strict descendants (no other group shares those). */
typedef struct {
	size_t head, tail;	/* groups, linked through fold.gnext */
	size_t first;		/* smallest instance */
	double upcost, lowcost;
	size_t uptasks, lowtasks;
} fbucket;

typedef struct {
	const sr_rtree *t;
	size_t level;		/* depth of the groups */
	size_t ng;		/* groups */
	size_t *gnode;		/* group -> node */
	size_t *gid;		/* node -> group (nodes at depth level) */
	size_t *gnext;		/* next group in the bucket, or SR_NONE */
	sr_nodeset seen;
	fbucket *b;		/* sorted by cmp_fbucket between rounds */
	fbucket *tmp;		/* scratch for merging */
	size_t nb;
} fold;

/* The first depth with at least maxb nodes, else m. */
static size_t
full_merge_level(const sr_rtree *t, size_t maxb, size_t max_tasks)
{
	size_t *count = sr_calloc(t->m + 1, sizeof *count), v, d;
	size_t *size = sr_calloc(t->nnodes, sizeof *size);
	size_t *widest = sr_calloc(t->m + 1, sizeof *widest);

	/* tasks of a bucket holding all of v's subtree: its nodes plus v's
	 * ancestors (children come after their parents in node order) */
	for (v = t->nnodes; v-- > 1;) {
		size[v]++;
		size[sr_rparent(t, v)] += size[v];
	}
	for (v = 1; v < t->nnodes; v++) {
		d = t->node[v].depth;
		count[d]++;
		if (size[v] + d - 1 > widest[d])
			widest[d] = size[v] + d - 1;
	}
	for (d = 1; d < t->m && (count[d] < maxb ||
	    (max_tasks > 0 && widest[d] > max_tasks)); d++)
		;
	free(count);
	free(size);
	free(widest);
	return d;
}

/* Makes a group and a bucket per node at the Full-Merge level. */
static void
full_merge(fold *f, size_t maxb, size_t max_tasks)
{
	const sr_rtree *t = f->t;
	size_t v, g, i, d, m = t->m;

	f->level = full_merge_level(t, maxb, max_tasks);
	f->gid = sr_calloc(t->nnodes, sizeof *f->gid);
	f->gnode = sr_calloc(t->nnodes, sizeof *f->gnode);
	for (v = 1; v < t->nnodes; v++)
		if (t->node[v].depth == f->level) {
			f->gnode[f->ng] = v;
			f->gid[v] = f->ng++;
		}
	f->gnext = sr_calloc(f->ng, sizeof *f->gnext);
	f->b = sr_calloc(f->ng, sizeof *f->b);
	f->tmp = sr_calloc(f->ng, sizeof *f->tmp);
	f->nb = f->ng;
	for (g = 0; g < f->ng; g++) {
		f->gnext[g] = SR_NONE;
		f->b[g] = (fbucket){ g, g, SR_NONE, 0, 0, f->level, 0 };
		for (v = f->gnode[g]; v != 0; v = sr_rparent(t, v))
			f->b[g].upcost += sr_rnode_cost(t, v);
	}
	sr_nodeset_init(&f->seen, t);
	nodeset_clear(&f->seen);
	for (i = 0; i < t->n; i++) {
		const uint32_t *path = t->path + i * (m + 1);
		fbucket *b = &f->b[f->gid[path[f->level]]];

		if (b->first == SR_NONE)
			b->first = i;
		for (d = m; d > f->level && f->seen.stamp[path[d]] !=
		    f->seen.epoch; d--) {
			f->seen.stamp[path[d]] = f->seen.epoch;
			b->lowcost += sr_rnode_cost(t, path[d]);
			b->lowtasks++;
		}
	}
}

/* Stamps the not yet stamped nodes on the paths of b's groups, adding
 * their cost and count to *cost and *tasks. */
static void
stamp_upper(fold *f, const fbucket *b, double *cost, size_t *tasks)
{
	const sr_rtree *t = f->t;
	size_t g, v;

	for (g = b->head; g != SR_NONE; g = f->gnext[g])
		for (v = f->gnode[g]; v != 0 && f->seen.stamp[v] !=
		    f->seen.epoch; v = sr_rparent(t, v)) {
			f->seen.stamp[v] = f->seen.epoch;
			*cost += sr_rnode_cost(t, v);
			(*tasks)++;
		}
}

/* Folds bucket src onto dst unless the union would exceed max_tasks
 * (> 0); returns whether it did. */
static int
fold_into(fold *f, size_t dst, size_t src, size_t max_tasks)
{
	fbucket *a = &f->b[dst], *b = &f->b[src];
	double up = 0;
	size_t upt = 0;

	nodeset_clear(&f->seen);
	stamp_upper(f, a, &up, &upt);
	stamp_upper(f, b, &up, &upt);
	if (max_tasks > 0 && upt + a->lowtasks + b->lowtasks > max_tasks)
		return 0;
	f->gnext[a->tail] = b->head;
	a->tail = b->tail;
	a->upcost = up;
	a->uptasks = upt;
	a->lowcost += b->lowcost;
	a->lowtasks += b->lowtasks;
	if (b->first < a->first)
		a->first = b->first;
	return 1;
}

/* Cost descending, then smallest instance first. */
static int
cmp_fbucket(const void *pa, const void *pb)
{
	const fbucket *a = pa, *b = pb;
	double ca = a->upcost + a->lowcost, cb = b->upcost + b->lowcost;

	if (ca != cb)
		return ca > cb ? -1 : 1;
	return (a->first > b->first) - (a->first < b->first);
}

/* Restores the order after a round changed the first head buckets: sorts
 * them and merges them with the (still sorted) rest, O(head log head + nb)
 * instead of a full sort per round. */
static void
fold_resort(fold *f, size_t head)
{
	size_t i = 0, j = head, w = 0;

	qsort(f->b, head, sizeof *f->b, cmp_fbucket);
	if (head == f->nb)
		return;
	while (i < head || j < f->nb)
		if (j == f->nb || (i < head &&
		    cmp_fbucket(&f->b[i], &f->b[j]) <= 0))
			f->tmp[w++] = f->b[i++];
		else
			f->tmp[w++] = f->b[j++];
	memcpy(f->b, f->tmp, f->nb * sizeof *f->b);
}

/* One Fold-Merge round over the sorted buckets: the (M+j)-th goes onto
 * the (M+1-j)-th, or (max_tasks > 0) onto the next one with room in the
 * cyclic order M-j, ..., 1, M, ...; returns the buckets folded. */
static size_t
fold_round(fold *f, size_t M, size_t max_tasks)
{
	size_t k = f->nb - M < M ? f->nb - M : M, j, c, w, nf = 0;
	unsigned char *gone = sr_calloc(k, 1);

	for (j = 0; j < k; j++)
		for (c = 0; c < M && !gone[j]; c++)
			if (fold_into(f, (2 * M - 1 - j - c) % M, M + j,
			    max_tasks)) {
				gone[j] = 1;
				nf++;
			}
	for (w = M, j = 0; j < k; j++)	/* kept sources, then the tail */
		if (!gone[j])
			f->b[w++] = f->b[M + j];
	memmove(f->b + w, f->b + M + k, (f->nb - M - k) * sizeof *f->b);
	f->nb = w + (f->nb - M - k);
	fold_resort(f, w);
	free(gone);
	return nf;
}

/* Full-Merge, then Fold-Merge down to maxb buckets (or until no fold
 * fits max_tasks); leaves the buckets sorted by cost. */
static void
fold_merge(fold *f, size_t maxb, size_t max_tasks)
{
	full_merge(f, maxb, max_tasks);
	qsort(f->b, f->nb, sizeof *f->b, cmp_fbucket);
	while (f->nb > maxb && fold_round(f, maxb, max_tasks) > 0)
		;
}

static void
fold_free(fold *f)
{
	sr_nodeset_free(&f->seen);
	free(f->gnode);
	free(f->gid);
	free(f->gnext);
	free(f->b);
	free(f->tmp);
}

/* ---- Balance ------------------------------------------------------------ */

typedef struct {
	sr_bucket in;		/* instances */
	nodemap map;		/* node -> instances under it */
	double cost;
} bbucket;

typedef struct {
	const sr_rtree *t;
	size_t max_tasks;
	bbucket *b;
	size_t nb;
	unsigned *users;	/* node -> buckets using it */
	size_t *pos;		/* node of X -> its position in xs */
	size_t *dstart;		/* m + 2 counters for the depth sort */
	/* X's nodes deepest first, and per position: */
	size_t nx, xcap, *xs;
	size_t *cx;		/* X-instances under the node */
	size_t *txn;		/* X's nodes in its subtree that Y lacks */
	double *sx, *sxn;	/* cost of X's nodes in its subtree; Y lacks */
	unsigned char *iny;	/* Y has the node */
	size_t nmulti, *multi;	/* X's nodes that other buckets use too */
	/* tournament trees over the bucket indices (leaves from tsize):
	 * the costliest bucket of each range (hi; ties: lower index) and the
	 * cheapest (lo; ties: more nodes, then lower index); SR_NONE pads */
	size_t tsize, *hi, *lo;
} balance;

/* Whether bucket a ranks before b: dir 1, costlier first; dir -1,
 * cheaper first, then more nodes first; ties to the lower index. SR_NONE
 * ranks last. */
static int
ranks_before(const balance *bl, size_t a, size_t b, int dir)
{
	const bbucket *x, *y;

	if (a == SR_NONE || b == SR_NONE)
		return b == SR_NONE && a != SR_NONE;
	x = &bl->b[a];
	y = &bl->b[b];
	if (x->cost != y->cost)
		return dir > 0 ? x->cost > y->cost : x->cost < y->cost;
	if (dir < 0 && x->map.len != y->map.len)
		return x->map.len > y->map.len;
	return a < b;
}

/* Recomputes the tournament node i from its children. */
static void
tourney_fix(balance *bl, size_t i)
{
	size_t l = 2 * i, r = 2 * i + 1;

	bl->hi[i] = ranks_before(bl, bl->hi[r], bl->hi[l], 1) ? bl->hi[r] :
	    bl->hi[l];
	bl->lo[i] = ranks_before(bl, bl->lo[r], bl->lo[l], -1) ? bl->lo[r] :
	    bl->lo[l];
}

/* Builds the tournament trees over all buckets. */
static void
tourney_build(balance *bl)
{
	size_t i;

	for (bl->tsize = 1; bl->tsize < bl->nb; bl->tsize *= 2)
		;
	bl->hi = sr_calloc(2 * bl->tsize, sizeof *bl->hi);
	bl->lo = sr_calloc(2 * bl->tsize, sizeof *bl->lo);
	for (i = 0; i < bl->tsize; i++)
		bl->hi[bl->tsize + i] = bl->lo[bl->tsize + i] =
		    i < bl->nb ? i : SR_NONE;
	for (i = bl->tsize - 1; i >= 1; i--)
		tourney_fix(bl, i);
}

/* Updates the tournament trees after bucket b's cost changed. */
static void
tourney_update(balance *bl, size_t b)
{
	size_t i;

	for (i = (bl->tsize + b) / 2; i >= 1; i /= 2)
		tourney_fix(bl, i);
}

/* Turns the folded buckets (in their order) into instance lists and node
 * maps. */
static void
balance_init(balance *bl, const fold *f, size_t max_tasks)
{
	const sr_rtree *t = f->t;
	size_t *bof = sr_calloc(f->ng, sizeof *bof), b, g, i, d;

	bl->t = t;
	bl->max_tasks = max_tasks;
	bl->nb = f->nb;
	bl->b = sr_calloc(f->nb, sizeof *bl->b);
	bl->users = sr_calloc(t->nnodes, sizeof *bl->users);
	bl->pos = sr_calloc(t->nnodes, sizeof *bl->pos);
	bl->dstart = sr_calloc(t->m + 2, sizeof *bl->dstart);
	for (b = 0; b < f->nb; b++)
		for (g = f->b[b].head; g != SR_NONE; g = f->gnext[g])
			bof[g] = b;
	for (i = 0; i < t->n; i++) {
		const uint32_t *path = t->path + i * (t->m + 1);
		bbucket *bb = &bl->b[bof[f->gid[path[f->level]]]];

		sr_bucket_push(&bb->in, i);
		for (d = 1; d <= t->m; d++)
			if (map_inc(&bb->map, path[d]) == 1)
				bl->users[path[d]]++;
	}
	for (b = 0; b < bl->nb; b++)
		bl->b[b].cost = map_cost(t, &bl->b[b].map);
	tourney_build(bl);
	free(bof);
}

static void
balance_free(balance *bl)
{
	size_t b;

	for (b = 0; b < bl->nb; b++) {
		free(bl->b[b].in.inst);
		map_free(&bl->b[b].map);
	}
	free(bl->b);
	free(bl->users);
	free(bl->pos);
	free(bl->dstart);
	free(bl->xs);
	free(bl->cx);
	free(bl->txn);
	free(bl->sx);
	free(bl->sxn);
	free(bl->iny);
	free(bl->multi);
	free(bl->hi);
	free(bl->lo);
}

/* Grows the per-position arrays to hold k nodes. */
static void
balance_reserve(balance *bl, size_t k)
{
	if (k <= bl->xcap)
		return;
	bl->xcap = k > 2 * bl->xcap ? k : 2 * bl->xcap;
	bl->xs = sr_reallocarray(bl->xs, bl->xcap, sizeof *bl->xs);
	bl->cx = sr_reallocarray(bl->cx, bl->xcap, sizeof *bl->cx);
	bl->txn = sr_reallocarray(bl->txn, bl->xcap, sizeof *bl->txn);
	bl->sx = sr_reallocarray(bl->sx, bl->xcap, sizeof *bl->sx);
	bl->sxn = sr_reallocarray(bl->sxn, bl->xcap, sizeof *bl->sxn);
	bl->iny = sr_reallocarray(bl->iny, bl->xcap, sizeof *bl->iny);
	bl->multi = sr_reallocarray(bl->multi, bl->xcap, sizeof *bl->multi);
}

/* Lists bucket x's nodes deepest first (a counting sort by depth) with
 * their instance counts, and those other buckets use too. */
static void
gather(balance *bl, size_t x)
{
	const sr_rtree *t = bl->t;
	const nodemap *h = &bl->b[x].map;
	size_t *start = bl->dstart, m = t->m, i, d, p, v, sum = 0;

	balance_reserve(bl, h->len);
	memset(start, 0, (m + 2) * sizeof *start);
	for (i = 0; i < h->cap; i++)
		if (h->key[i] != SR_NONE)
			start[m - t->node[h->key[i]].depth]++;
	for (d = 0; d <= m; d++) {
		p = start[d];
		start[d] = sum;
		sum += p;
	}
	bl->nx = h->len;
	bl->nmulti = 0;
	for (i = 0; i < h->cap; i++) {
		if ((v = h->key[i]) == SR_NONE)
			continue;
		p = start[m - t->node[v].depth]++;
		bl->xs[p] = v;
		bl->cx[p] = h->cnt[i];
		bl->pos[v] = p;
		if (bl->users[v] >= 2)
			bl->multi[bl->nmulti++] = v;
	}
}

/* Nodes of X's multi list that bucket b has. */
static size_t
shared_nodes(const balance *bl, size_t b)
{
	size_t i, k = 0;

	for (i = 0; i < bl->nmulti; i++)
		k += map_get(&bl->b[b].map, bl->multi[i]) > 0;
	return k;
}

/* Scans tournament node i's buckets costing min in index order for the
 * one sharing most of X's nodes (kept in *y, *best); returns 1 once one
 * shares bound nodes, which no later one can beat. */
static int
scan_cheapest(const balance *bl, size_t i, double min, size_t bound,
    size_t *y, size_t *best)
{
	size_t b = bl->lo[i], k;

	if (b == SR_NONE || bl->b[b].cost != min)
		return 0;
	if (i < bl->tsize)
		return scan_cheapest(bl, 2 * i, min, bound, y, best) ||
		    scan_cheapest(bl, 2 * i + 1, min, bound, y, best);
	k = shared_nodes(bl, b);
	if (*y == SR_NONE || k > *best) {
		*y = b;
		*best = k;
	}
	return k >= bound;
}

/* Among the cheapest buckets other than x, the one sharing most nodes
 * with x (ties: lowest index). SR_NONE if none is cheaper than x: then
 * no move can lower the maximum (costs are non-negative, so a move never
 * makes Y cheaper). A bucket shares at most X's multi nodes and at most
 * its own nodes but a leaf (leaves are never split between buckets), so
 * the scan stops at the first one reaching that bound: with many tied
 * cheapest buckets (a tight max_tasks) this saves most of the scan.
 * Needs gather(x). */
static size_t
pick_partner(const balance *bl, size_t x)
{
	const bbucket *lo = &bl->b[bl->lo[1]];
	size_t y = SR_NONE, best = 0, bound = lo->map.len - 1;

	if (lo->cost >= bl->b[x].cost)
		return SR_NONE;
	if (bound > bl->nmulti)
		bound = bl->nmulti;
	scan_cheapest(bl, 1, lo->cost, bound, &y, &best);
	return y;
}

/* For each node v of X: the cost of X's nodes in v's subtree (sx) and the
 * cost and count of those y lacks (sxn, txn), bottom-up. Needs gather. */
static void
subtree_sums(balance *bl, size_t y)
{
	const sr_rtree *t = bl->t;
	const nodemap *ym = &bl->b[y].map;
	size_t p, q, v, par;

	for (p = 0; p < bl->nx; p++) {
		v = bl->xs[p];
		bl->iny[p] = map_get(ym, v) > 0;
		bl->sx[p] = sr_rnode_cost(t, v);
		bl->sxn[p] = bl->iny[p] ? 0 : sr_rnode_cost(t, v);
		bl->txn[p] = !bl->iny[p];
	}
	for (p = 0; p < bl->nx; p++) {	/* children come before parents */
		if ((par = sr_rparent(t, bl->xs[p])) == 0)
			continue;
		q = bl->pos[par];
		bl->sx[q] += bl->sx[p];
		bl->sxn[q] += bl->sxn[p];
		bl->txn[q] += bl->txn[p];
	}
}

/* Whether moving X's instances under xs[p] to y is allowed; sets the
 * resulting costs. Single-child pruning refuses the moves a parent makes
 * too. */
static int
eval_move(const balance *bl, size_t x, size_t y, size_t p, double *xc,
    double *yc)
{
	const sr_rtree *t = bl->t;
	const bbucket *X = &bl->b[x], *Y = &bl->b[y];
	size_t v = bl->xs[p], par = sr_rparent(t, v), a, addt;
	double add;

	if (bl->cx[p] == X->in.n)
		return 0;	/* would empty X */
	if (par != 0 && bl->cx[bl->pos[par]] == bl->cx[p])
		return 0;	/* the parent's move */
	add = bl->sxn[p];
	addt = bl->txn[p];
	for (a = par; a != 0 && !bl->iny[bl->pos[a]]; a = sr_rparent(t, a)) {
		add += sr_rnode_cost(t, a);
		addt++;
	}
	*xc = X->cost - bl->sx[p];	/* no ancestor leaves X (pruning) */
	*yc = Y->cost + add;
	if ((*xc > *yc ? *xc : *yc) >= X->cost)
		return 0;
	return bl->max_tasks == 0 || Y->map.len + addt <= bl->max_tasks;
}

/* The node whose move from x to y is allowed and leaves the two costs
 * closest (ties: shallower, then lower node index), or SR_NONE. */
static size_t
best_move(balance *bl, size_t x, size_t y)
{
	const sr_rtree *t = bl->t;
	size_t p, v, best = SR_NONE;
	double xc, yc, diff, bestdiff = 0;

	subtree_sums(bl, y);
	for (p = 0; p < bl->nx; p++) {
		if (!eval_move(bl, x, y, p, &xc, &yc))
			continue;
		v = bl->xs[p];
		diff = absdiff(xc, yc);
		if (best == SR_NONE || diff < bestdiff || (diff == bestdiff &&
		    (t->node[v].depth < t->node[best].depth ||
		    (t->node[v].depth == t->node[best].depth && v < best)))) {
			best = v;
			bestdiff = diff;
		}
	}
	return best;
}

/* Moves x's instances under v to y, updating maps, users and costs. */
static void
apply_move(balance *bl, size_t x, size_t y, size_t v)
{
	const sr_rtree *t = bl->t;
	bbucket *X = &bl->b[x], *Y = &bl->b[y];
	size_t m = t->m, dv = t->node[v].depth, i, d, w = 0;

	for (i = 0; i < X->in.n; i++) {
		size_t inst = X->in.inst[i];
		const uint32_t *path = t->path + inst * (m + 1);

		if (path[dv] != v) {
			X->in.inst[w++] = inst;
			continue;
		}
		sr_bucket_push(&Y->in, inst);
		for (d = 1; d <= m; d++) {
			if (map_dec(&X->map, path[d]) == 0)
				bl->users[path[d]]--;
			if (map_inc(&Y->map, path[d]) == 1)
				bl->users[path[d]]++;
		}
	}
	X->in.n = w;
	X->cost = map_cost(t, &X->map);
	Y->cost = map_cost(t, &Y->map);
	tourney_update(bl, x);
	tourney_update(bl, y);
}

/* Moves subtrees from the costliest bucket to a cheapest one while an
 * allowed move exists (at most 10 n + 10 moves). */
static void
balance_run(balance *bl)
{
	size_t iter, x, y, v, limit = 10 * bl->t->n + 10;

	for (iter = 0; iter < limit; iter++) {
		x = bl->hi[1];
		gather(bl, x);
		if ((y = pick_partner(bl, x)) == SR_NONE ||
		    (v = best_move(bl, x, y)) == SR_NONE)
			break;
		apply_move(bl, x, y, v);
	}
}

/* Cost descending, then smallest instance (instances sorted, none empty). */
static int
cmp_bbucket(const void *pa, const void *pb)
{
	const bbucket *a = pa, *b = pb;
	size_t x = a->in.inst[0], y = b->in.inst[0];

	if (a->cost != b->cost)
		return a->cost > b->cost ? -1 : 1;
	return (x > y) - (x < y);
}

/* Appends bl's buckets to out, instances increasing, buckets by cost. */
static void
balance_emit(balance *bl, sr_plan *out)
{
	size_t b;

	for (b = 0; b < bl->nb; b++)
		qsort(bl->b[b].in.inst, bl->b[b].in.n, sizeof *bl->b[b].in.inst,
		    sr_cmp_size);
	qsort(bl->b, bl->nb, sizeof *bl->b, cmp_bbucket);
	for (b = 0; b < bl->nb; b++)
		sr_plan_add(out, bl->b[b].in.inst, bl->b[b].in.n);
}

/* ---- entry point -------------------------------------------------------- */

/* TRTMA on a tree with n > 0 and m > 0; do_balance = 0 stops after
 * Fold-Merge (for tests). */
static void
trtma_run(const sr_rtree *t, size_t maxb, size_t max_tasks, int do_balance,
    sr_plan *out)
{
	fold f = { .t = t };
	balance bl = { 0 };

	fold_merge(&f, maxb, max_tasks);
	balance_init(&bl, &f, max_tasks);
	fold_free(&f);
	if (do_balance)
		balance_run(&bl);
	balance_emit(&bl, out);
	balance_free(&bl);
}

int
sr_merge_trtma(const sr_rtree *t, size_t maxb, size_t max_tasks,
    sr_plan *out, char *errbuf)
{
	size_t i;

	if (maxb == 0) {
		sr_seterr(errbuf, "the number of buckets must be positive");
		return -1;
	}
	if (t->n == 0)
		return 0;
	if (max_tasks > 0 && max_tasks < t->m) {
		sr_seterr(errbuf, "a bucket task cap of %zu is below the %zu tasks of "
		    "one instance", max_tasks, t->m);
		return -1;
	}
	if (t->m == 0) {	/* no tasks: nothing to share or balance */
		sr_plan_add(out, NULL, 0);
		for (i = 0; i < t->n; i++)
			sr_bucket_push(&out->b[out->n - 1], i);
		return 0;
	}
	trtma_run(t, maxb, max_tasks, 1, out);
	return 0;
}
