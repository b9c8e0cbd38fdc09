/* sca.c - Smart-Cut bucketing (Teodoro et al.): repeated Stoer-Wagner
 * minimum cuts of the complete graph of a stage's instances, the weight of
 * edge (i, j) being their pairwise reuse sr_rtree_shared(t, i, j).
 *
 * S starts as every instance. While S is not empty: G = S; while |G| > b,
 * cut G by a global minimum cut and keep the larger side (on equal sizes
 * the side holding the lowest instance index); then emit G (increasing) as
 * a bucket and remove it from S.
 *
 * Stoer-Wagner is the O(V^3) array version on a dense V x V matrix of
 * int64 weights (one n x n buffer, reused): each phase is a maximum
 * adjacency search with a linear scan. The active supervertices stay at
 * positions 0..nact-1 in label order (a merge drops the higher position),
 * so the scans run over contiguous rows. Ties are broken towards the
 * lowest index throughout, so results are deterministic:
 *  - a phase starts from the active supervertex with the lowest label, and
 *    among equally attached vertices the lowest label is added first;
 *  - a supervertex's label is its lowest member (merging keeps the lower
 *    of the two labels), and G's vertices are numbered by increasing
 *    instance index, so "lowest label" is "lowest instance index";
 *  - the first phase reaching the minimum gives the cut (later phases
 *    replace it only with a strictly smaller one). The cut-off side is the
 *    last vertex of that phase (all its members), the other side the rest.
 *
 * Two shortcuts give exactly the cut that the full search gives, faster:
 *  - Components. Reuse is positive iff two instances share task 1, so the
 *    components of G are its groups by depth-1 node. If there are several,
 *    every phase adds them in the order of their lowest instances (MA
 *    search exhausts a component before a zero key lets the lowest label
 *    start the next), so the phases merge inside the last component until
 *    it is one supervertex, whose phase then cuts 0. The cut is therefore
 *    that component against the rest, found in O(V).
 *  - Early stop. Since the first phase reaching the minimum wins, the
 *    search can stop there if the minimum value is known. Here it is: the
 *    reuse graph is a sum of unit cliques, one per non-root node u on the
 *    instances below it, so a cut taking k_u of u's n_u instances costs
 *    sum_u k_u (n_u - k_u), minimised exactly by a min-plus knapsack over
 *    the tree restricted to G in O(V^2 + V m).
 */
#include "plan/merge.h"
#include "core/err.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest weight matrix allowed: n * n * 8 bytes. */
#define SCA_MAX_BYTES	((uint64_t)4 << 30)

/* Scratch for the cuts, sized for the largest graph (n vertices). */
typedef struct {
	const sr_rtree *t;	/* NULL when a test fills w itself */
	int plain;		/* 1: no shortcuts, the full search every time */
	int64_t *w;		/* weights of the current graph, v x v, stride v */
	int64_t *key;		/* phase: attachment of each supervertex */
	size_t *lab;		/* label (lowest member) at each matrix position */
	size_t *next;		/* member lists: next member or SR_NONE */
	size_t *tail;		/* last member of each supervertex's list */
	unsigned char *side;	/* the best cut: 1 on the cut-off side */
	size_t *cnt;		/* per tree node: instances of G below it */
	size_t *off;		/* per tree node: its vector in pool, or SR_NONE */
	size_t *have;		/* per tree node: instances merged into it so far */
	size_t *nodes;		/* tree nodes met by G, deepest first */
	int64_t *pool;		/* min-plus vectors of the tree nodes */
	int64_t *tmp;		/* one convolution's result */
	double steps;		/* inner-loop steps, to calibrate sr_sca_work */
} sca_ctx;

/* Allocate the scratch for graphs of up to cap vertices (cap checked by
 * the caller against SCA_MAX_BYTES); t may be NULL (no tree scratch). */
static void
ctx_init(sca_ctx *c, const sr_rtree *t, size_t cap)
{
	size_t i, nn = t ? t->nnodes : 0, m = t ? t->m : 0;

	memset(c, 0, sizeof *c);
	c->t = t;
	c->w = sr_calloc(cap, cap * sizeof *c->w);
	c->key = sr_calloc(cap, sizeof *c->key);
	c->lab = sr_calloc(cap, sizeof *c->lab);
	c->next = sr_calloc(cap, sizeof *c->next);
	c->tail = sr_calloc(cap, sizeof *c->tail);
	c->side = sr_calloc(cap, sizeof *c->side);
	c->cnt = sr_calloc(nn, sizeof *c->cnt);
	c->off = sr_calloc(nn, sizeof *c->off);
	c->have = sr_calloc(nn, sizeof *c->have);
	c->nodes = sr_calloc(m + 1, cap * sizeof *c->nodes);
	c->pool = sr_calloc(2 * m + 2, (cap + 1) * sizeof *c->pool);
	c->tmp = sr_calloc(cap + 1, sizeof *c->tmp);
	for (i = 0; i < nn; i++)
		c->off[i] = SR_NONE;
}

static void
ctx_free(sca_ctx *c)
{
	free(c->w);
	free(c->key);
	free(c->lab);
	free(c->next);
	free(c->tail);
	free(c->side);
	free(c->cnt);
	free(c->off);
	free(c->have);
	free(c->nodes);
	free(c->pool);
	free(c->tmp);
}

/* ---- Stoer-Wagner --------------------------------------------------------- */

/* Key of a vertex already added in a phase: below any real attachment. */
#define SW_ADDED	(INT64_MIN / 2)

/* Fill the v x v weight matrix of the instances g[0..v) from their paths
 * (as sr_rtree_shared) and number them 0..v-1 as supervertices. */
static void
fill_weights(sca_ctx *c, const size_t *g, size_t v)
{
	const sr_rtree *t = c->t;
	const size_t m = t->m;
	const uint32_t *pi, *pj;
	size_t i, j, d;

	for (i = 0; i < v; i++) {
		pi = t->path + g[i] * (m + 1);
		c->w[i * v + i] = 0;
		for (j = i + 1; j < v; j++) {
			pj = t->path + g[j] * (m + 1);
			for (d = 0; d < m && pi[d + 1] == pj[d + 1]; d++)
				;
			c->w[i * v + j] = c->w[j * v + i] = (int64_t)d;
		}
	}
}

/* One maximum adjacency search over the nact active supervertices, which
 * sit at positions 0..nact-1 of the matrix in label order, from position
 * 0; sets *s and *t to the positions of the last two added and returns the
 * cut of the phase (t's weight to all the others). */
static int64_t
sw_phase(sca_ctx *c, size_t v, size_t nact, size_t *s, size_t *t)
{
	int64_t *key = c->key, best = 0, x;
	size_t k, step, prev = 0, bk = 0;

	memset(key, 0, nact * sizeof *key);
	key[0] = SW_ADDED;
	for (step = 1; step < nact; step++) {
		const int64_t *row = c->w + prev * v;

		best = -1;
		for (k = 0; k < nact; k++) {
			x = key[k] += row[k];
			if (x > best) {		/* strict: lowest label wins */
				best = x;
				bk = k;
			}
		}
		*s = prev;
		prev = bk;
		key[bk] = SW_ADDED;
	}
	c->steps += (double)nact * (double)(nact - 1);
	*t = prev;
	return best;
}

/* Record the members of the supervertex at position t as the cut-off
 * side of the best cut. */
static void
mark_side(sca_ctx *c, size_t v, size_t t)
{
	size_t u;

	memset(c->side, 0, v * sizeof *c->side);
	for (u = c->lab[t]; u != SR_NONE; u = c->next[u])
		c->side[u] = 1;
}

/* Remove position p from the nact x nact matrix (stride v) and the
 * labels, keeping the others in order. */
static void
drop_position(sca_ctx *c, size_t v, size_t nact, size_t p)
{
	size_t k, tail = nact - 1 - p;

	memmove(c->w + p * v, c->w + (p + 1) * v, tail * v * sizeof *c->w);
	for (k = 0; k + 1 < nact; k++)
		memmove(c->w + k * v + p, c->w + k * v + p + 1,
		    tail * sizeof *c->w);
	memmove(c->lab + p, c->lab + p + 1, tail * sizeof *c->lab);
}

/* Merge the supervertices at positions s and t into the lower position
 * (which has the lower label); returns the new number of them. */
static size_t
sw_merge(sca_ctx *c, size_t v, size_t nact, size_t s, size_t t)
{
	size_t lo = s < t ? s : t, hi = s < t ? t : s, k;
	size_t la = c->lab[lo], lb = c->lab[hi];
	int64_t *wlo = c->w + lo * v;
	const int64_t *whi = c->w + hi * v;

	for (k = 0; k < nact; k++) {
		wlo[k] += whi[k];
		c->w[k * v + lo] = wlo[k];
	}
	wlo[lo] = 0;
	c->next[c->tail[la]] = lb;
	c->tail[la] = c->tail[lb];
	drop_position(c, v, nact, hi);
	return nact - 1;
}

/* Stoer-Wagner global minimum cut of the v-vertex graph in c->w (v >= 2;
 * c->w is consumed), stopping at the first phase whose cut reaches bound,
 * a lower bound of the minimum (INT64_MIN: run every phase). Sets c->side
 * (1 on the cut-off side) and returns the cut's weight. */
static int64_t
sw_mincut(sca_ctx *c, size_t v, int64_t bound)
{
	size_t i, nact, s = 0, t = 0;
	int64_t best = INT64_MAX, cut;

	for (i = 0; i < v; i++) {
		c->lab[i] = c->tail[i] = i;
		c->next[i] = SR_NONE;
	}
	for (nact = v; nact > 1; ) {
		cut = sw_phase(c, v, nact, &s, &t);
		if (cut < best) {
			best = cut;
			mark_side(c, v, t);
			if (best <= bound)	/* nothing can beat it */
				break;
		}
		nact = sw_merge(c, v, nact, s, t);
	}
	return best;
}

/* ---- shortcuts from the reuse tree -------------------------------------- */

/* If the instances g[0..v) fall in several components (depth-1 nodes; with
 * no tasks every instance is one), mark the one whose lowest instance is
 * the highest as the cut-off side and return 1; else return 0. */
static int
component_cut(sca_ctx *c, const size_t *g, size_t v)
{
	const sr_rtree *t = c->t;
	size_t i, last = SR_NONE, ncomp = 0, u;

	if (t->m == 0) {
		memset(c->side, 0, v * sizeof *c->side);
		c->side[v - 1] = 1;
		return 1;
	}
	for (i = 0; i < v; i++) {
		u = t->path[g[i] * (t->m + 1) + 1];
		if (c->cnt[u]++ == 0) {
			last = u;
			ncomp++;
		}
	}
	for (i = 0; i < v; i++) {
		u = t->path[g[i] * (t->m + 1) + 1];
		c->cnt[u] = 0;
		c->side[i] = u == last;
	}
	return ncomp > 1;
}

/* List the tree nodes on the paths of g[0..v) deepest first (the root
 * last) with their instance counts and vectors in the pool; returns how
 * many. */
static size_t
list_nodes(sca_ctx *c, const size_t *g, size_t v)
{
	const sr_rtree *t = c->t;
	size_t i, d, u, k = 0, at = 0;

	for (d = t->m + 1; d-- > 0; )
		for (i = 0; i < v; i++) {
			u = t->path[g[i] * (t->m + 1) + d];
			if (c->cnt[u]++ == 0)
				c->nodes[k++] = u;
		}
	for (i = 0; i < k; i++) {
		u = c->nodes[i];
		c->off[u] = at;
		at += c->cnt[u] + 1;
	}
	return k;
}

/* Fold the min-plus vector a (sizes 0..na) of a child into its parent
 * p's vector: p[k] = min over i + j = k of p[i] + a[j]. */
static void
fold_into_parent(sca_ctx *c, size_t p, const int64_t *a, size_t na)
{
	int64_t *pv = c->pool + c->off[p], x;
	size_t np = c->have[p], i, j;

	if (np == 0) {
		memcpy(pv, a, (na + 1) * sizeof *pv);
		c->have[p] = na;
		return;
	}
	for (i = 0; i <= np + na; i++)
		c->tmp[i] = INT64_MAX;
	for (i = 0; i <= np; i++)
		for (j = 0; j <= na; j++) {
			x = pv[i] + a[j];
			if (x < c->tmp[i + j])
				c->tmp[i + j] = x;
		}
	memcpy(pv, c->tmp, (np + na + 1) * sizeof *pv);
	c->have[p] = np + na;
}

/* The exact minimum cut weight of the reuse graph on g[0..v) (v >= 2):
 * min over proper subsets of sum over nodes u of k_u (n_u - k_u). */
static int64_t
tree_mincut(sca_ctx *c, const size_t *g, size_t v)
{
	const sr_rtree *t = c->t;
	size_t nn = list_nodes(c, g, v), i, k, u, n;
	int64_t *vec, best = INT64_MAX;

	for (i = 0; i + 1 < nn; i++) {		/* every node but the root */
		u = c->nodes[i];
		n = c->cnt[u];
		vec = c->pool + c->off[u];
		if (c->have[u] == 0)		/* a leaf: choose any k */
			memset(vec, 0, (n + 1) * sizeof *vec);
		for (k = 0; k <= n; k++)
			vec[k] += (int64_t)(k * (n - k));
		fold_into_parent(c, sr_rparent(t, u), vec, n);
	}
	vec = c->pool + c->off[0];
	for (k = 1; k < v; k++)
		if (vec[k] < best)
			best = vec[k];
	for (i = 0; i < nn; i++) {
		u = c->nodes[i];
		c->cnt[u] = c->have[u] = 0;
		c->off[u] = SR_NONE;
	}
	return best;
}

/* Find the cut of g[0..v) (v >= 2) that the full search would: sets
 * c->side. */
static void
cut_graph(sca_ctx *c, const size_t *g, size_t v)
{
	int64_t bound = INT64_MIN;	/* plain: every phase */

	if (!c->plain) {
		if (component_cut(c, g, v))
			return;
		bound = tree_mincut(c, g, v);
	}
	fill_weights(c, g, v);
	sw_mincut(c, v, bound);
}

/* ---- Smart-Cut ---------------------------------------------------------- */

/* Keep the larger side of the cut in c->side among g[0..v) (equal sizes:
 * the side of g[0], the lowest instance), in order; returns its size. */
static size_t
keep_larger_side(const sca_ctx *c, size_t *g, size_t v)
{
	size_t i, ncut = 0, k = 0;
	unsigned char keep;

	for (i = 0; i < v; i++)
		ncut += c->side[i];
	if (2 * ncut != v)
		keep = 2 * ncut > v;
	else
		keep = c->side[0];
	for (i = 0; i < v; i++)
		if (c->side[i] == keep)
			g[k++] = g[i];
	return k;
}

/* Remove the increasing instances g[0..k) from the increasing set
 * s[0..ns); returns the new size. */
static size_t
remove_sorted(size_t *s, size_t ns, const size_t *g, size_t k)
{
	size_t i, j = 0, out = 0;

	for (i = 0; i < ns; i++) {
		if (j < k && s[i] == g[j]) {
			j++;
			continue;
		}
		s[out++] = s[i];
	}
	return out;
}

/* Check the arguments; 0 if a run is possible, else -1 with errbuf set. */
static int
check_args(const sr_rtree *t, size_t b, const sr_plan *out, char *errbuf)
{
	const uint64_t cells = SCA_MAX_BYTES / sizeof(int64_t);

	if (t == NULL || out == NULL) {
		sr_seterr(errbuf, "no reuse tree or no plan");
		return -1;
	}
	if (b == 0) {
		sr_seterr(errbuf, "bucket size must be at least 1");
		return -1;
	}
	if (t->n > 0 && (uint64_t)t->n > cells / t->n) {	/* n n > cells */
		sr_seterr(errbuf, "%zu instances are too many for Smart-Cut: its "
		    "weight matrix would take over 4 GiB", t->n);
		return -1;
	}
	return 0;
}

/* The whole Smart-Cut run (plain: without the shortcuts); adds the inner
 * steps done to *steps if steps is not NULL. */
static int
sca_run(const sr_rtree *t, size_t b, int plain, sr_plan *out,
    double *steps, char *errbuf)
{
	sca_ctx c;
	size_t *s, *g, ns, v = 0, i;

	if (check_args(t, b, out, errbuf) != 0)
		return -1;
	if (t->n == 0)
		return 0;
	ctx_init(&c, t, t->n);
	c.plain = plain;
	s = sr_calloc(t->n, sizeof *s);
	g = sr_calloc(t->n, sizeof *g);
	for (i = 0; i < t->n; i++)
		s[i] = i;
	for (ns = t->n; ns > 0; ns = remove_sorted(s, ns, g, v)) {
		memcpy(g, s, ns * sizeof *g);
		for (v = ns; v > b; v = keep_larger_side(&c, g, v))
			cut_graph(&c, g, v);
		sr_plan_add(out, g, v);
	}
	if (steps)
		*steps += c.steps;
	free(s);
	free(g);
	ctx_free(&c);
	return 0;
}

int
sr_merge_sca(const sr_rtree *t, size_t b, sr_plan *out, char *errbuf)
{
	return sca_run(t, b, 0, out, NULL, errbuf);
}

/* Inner-loop steps of the full Stoer-Wagner searches on b + 1, ..., s
 * vertices: a phase over a supervertices scans a (a - 1) keys, so one
 * search on v vertices takes sum over a = 2..v of a (a - 1) =
 * (v + 1) v (v - 1) / 3, and those summed over v = 1..x make
 * (x + 2) (x + 1) x (x - 1) / 12. */
static double
peel_steps(double s, double b)
{
	return ((s + 2) * (s + 1) * s * (s - 1)
	    - (b + 2) * (b + 1) * b * (b - 1)) / 12;
}

/* Inner-loop steps (one weight added and compared, about a nanosecond)
 * if every cut ran every phase and cut off a single vertex, the usual cut
 * of reuse graphs: for each bucket, with s instances left, cuts at
 * s, s - 1, ..., b + 1 vertices. About n^5 / (60 b) for b << n, and an
 * upper bound of the real count, the O(V^2 m) weight fills aside. Runs
 * whose instances share task 1 measure 0.2-0.3 of it (the early stop);
 * several task-1 groups cut it further (components cost nothing). */
double
sr_sca_work(size_t n, size_t b)
{
	double work = 0, s, bb = b ? (double)b : 1;

	for (s = (double)n; s > bb; s -= bb)
		work += peel_steps(s, bb);
	return work;
}
