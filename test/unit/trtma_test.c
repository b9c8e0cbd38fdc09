/* trtma_test.c - unit tests of sr_merge_trtma.
 *
 * Includes trtma.c to reach Full-Merge + Fold-Merge alone (trtma_run with
 * do_balance = 0). Checks the worked examples exactly (a weighted one
 * too), partitions, bucket counts and order on random trees, that Balance
 * never raises the maximum cost, the max_tasks cap, singletons for
 * maxb >= n, argument errors, and Balance against a brute-force reference
 * written here (full recounts, no pruning); and the reuse tree's build
 * (one depth at a time) against one node by node.
 * Exits 0 on success; prints "FAIL: ..." and exits 1 otherwise.
 */
#include "plan/trtma.c"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define MAXN	256

static size_t balanced_cases;	/* random cases where Balance moved */

/* Cost (and tasks) of instances inst[0..k) by a full recount. */
static double
cost_of(const sr_rtree *t, const size_t *inst, size_t k, size_t *tasks)
{
	sr_nodeset s;
	double c;
	size_t n;

	sr_nodeset_init(&s, t);
	n = sr_rtree_bucket_tasks(&s, inst, k, &c);
	sr_nodeset_free(&s);
	if (tasks)
		*tasks = n;
	return c;
}

/* Largest bucket cost of plan p. */
static double
max_cost(const sr_rtree *t, const sr_plan *p)
{
	double mx = 0, c;
	size_t b;

	for (b = 0; b < p->n; b++)
		if ((c = cost_of(t, p->b[b].inst, p->b[b].n, NULL)) > mx)
			mx = c;
	return mx;
}

/* Every instance in exactly one bucket, none empty, instances increasing,
 * buckets by cost descending then smallest instance. */
static void
check_plan(const sr_rtree *t, const sr_plan *p, const char *what)
{
	unsigned char *seen = calloc(t->n ? t->n : 1, 1);
	size_t b, i, total = 0;
	double prev = 0, c;

	for (b = 0; b < p->n; b++) {
		const sr_bucket *bk = &p->b[b];

		if (bk->n == 0) {
			fail("%s: bucket %zu is empty", what, b);
			continue;
		}
		for (i = 0; i < bk->n; i++) {
			if (bk->inst[i] >= t->n || seen[bk->inst[i]]++)
				fail("%s: instance %zu misplaced", what,
				    bk->inst[i]);
			if (i > 0 && bk->inst[i] <= bk->inst[i - 1])
				fail("%s: bucket %zu not increasing", what, b);
		}
		total += bk->n;
		c = cost_of(t, bk->inst, bk->n, NULL);
		if (b > 0 && (c > prev || (c == prev &&
		    bk->inst[0] < p->b[b - 1].inst[0])))
			fail("%s: bucket %zu out of order", what, b);
		prev = c;
	}
	if (total != t->n)
		fail("%s: %zu of %zu instances placed", what, total, t->n);
	free(seen);
}

/* Whether bucket b of p holds exactly inst[0..k) at cost want. */
static void
expect_bucket(const sr_rtree *t, const sr_plan *p, size_t b,
    const size_t *inst, size_t k, double want, const char *what)
{
	double c;

	if (b >= p->n || p->b[b].n != k ||
	    memcmp(p->b[b].inst, inst, k * sizeof *inst) != 0) {
		fail("%s: bucket %zu has the wrong instances", what, b);
		return;
	}
	if ((c = cost_of(t, inst, k, NULL)) != want)
		fail("%s: bucket %zu costs %g, want %g", what, b, c, want);
}

/* Runs TRTMA (balance or not) on keys and returns the plan. */
static sr_plan
run(const sr_rtree *t, size_t maxb, size_t cap, int do_balance)
{
	sr_plan p = { 0 };
	char err[SR_ERRLEN];

	if (do_balance) {
		if (sr_merge_trtma(t, maxb, cap, &p, err) != 0)
			fail("sr_merge_trtma: %s", err);
	} else
		trtma_run(t, maxb, cap, 0, &p);
	return p;
}

/* ---- worked examples ---------------------------------------------------- */

/* a(1,1,1) b(1,2,1) c(1,3,1) d(1,4,1) e(2,1,1), maxb 2: Full-Merge 9
 * and 3; Balance moves a: 7 ({b,c,d}) and 6 ({a,e}). */
static void
test_example1(void)
{
	const uint64_t key[] = { 1, 1, 1, 1, 2, 1, 1, 3, 1, 1, 4, 1, 2, 1, 1 };
	const size_t b0[] = { 1, 2, 3 }, b1[] = { 0, 4 };
	const size_t f0[] = { 0, 1, 2, 3 }, f1[] = { 4 };
	sr_rtree *t = sr_rtree_build(5, 3, key, NULL);
	sr_plan p = run(t, 2, 0, 0);

	if (p.n != 2)
		fail("example 1: fold gave %zu buckets", p.n);
	expect_bucket(t, &p, 0, f0, 4, 9, "example 1 fold");
	expect_bucket(t, &p, 1, f1, 1, 3, "example 1 fold");
	sr_plan_free(&p);
	p = run(t, 2, 0, 1);
	if (p.n != 2)
		fail("example 1: %zu buckets", p.n);
	expect_bucket(t, &p, 0, b0, 3, 7, "example 1");
	expect_bucket(t, &p, 1, b1, 2, 6, "example 1");
	sr_plan_free(&p);
	sr_rtree_free(t);
}

/* a(1,1,1) b(1,1,2) c(1,2,1) d(1,3,1) e(2,1,1) f(3,1,1), maxb 2:
 * Full-Merge 8, 3, 3; Fold-Merge 8 and 6 ({e,f}); no move helps. */
static void
test_example2(void)
{
	const uint64_t key[] = { 1, 1, 1, 1, 1, 2, 1, 2, 1, 1, 3, 1, 2, 1, 1,
	    3, 1, 1 };
	const size_t b0[] = { 0, 1, 2, 3 }, b1[] = { 4, 5 };
	sr_rtree *t = sr_rtree_build(6, 3, key, NULL);
	sr_plan p = run(t, 2, 0, 0);

	expect_bucket(t, &p, 0, b0, 4, 8, "example 2 fold");
	expect_bucket(t, &p, 1, b1, 2, 6, "example 2 fold");
	sr_plan_free(&p);
	p = run(t, 2, 0, 1);
	if (p.n != 2)
		fail("example 2: %zu buckets", p.n);
	expect_bucket(t, &p, 0, b0, 4, 8, "example 2");
	expect_bucket(t, &p, 1, b1, 2, 6, "example 2");
	sr_plan_free(&p);
	sr_rtree_free(t);
}

/* Task costs 1, 1, 10: Full-Merge {a,b,c} 33 and {d} 12; Balance moves a
 * (leaf, |23 - 24| = 1, beating c's subtree at |22 - 24|), then stops. */
static void
test_weighted(void)
{
	const uint64_t key[] = { 1, 1, 1, 1, 1, 2, 1, 2, 1, 2, 1, 1 };
	const double cost[] = { 1, 1, 10 };
	const size_t b0[] = { 0, 3 }, b1[] = { 1, 2 };
	const size_t f0[] = { 0, 1, 2 }, f1[] = { 3 };
	sr_rtree *t = sr_rtree_build(4, 3, key, cost);
	sr_plan p = run(t, 2, 0, 0);

	expect_bucket(t, &p, 0, f0, 3, 33, "weighted fold");
	expect_bucket(t, &p, 1, f1, 1, 12, "weighted fold");
	sr_plan_free(&p);
	p = run(t, 2, 0, 1);
	if (p.n != 2)
		fail("weighted: %zu buckets", p.n);
	expect_bucket(t, &p, 0, b0, 2, 24, "weighted");
	expect_bucket(t, &p, 1, b1, 2, 23, "weighted");
	sr_plan_free(&p);
	sr_rtree_free(t);
}

/* ---- brute-force reference Balance -------------------------------------- */

typedef struct {
	size_t inst[MAXN][MAXN], n[MAXN], nb;
} refplan;

/* Whether instance i lies under node v. */
static int
under(const sr_rtree *t, size_t i, size_t v)
{
	return t->path[i * (t->m + 1) + t->node[v].depth] == v;
}

/* Nodes (depth >= 1) shared by buckets a and b of r. */
static size_t
ref_shared(const sr_rtree *t, const refplan *r, size_t a, size_t b)
{
	unsigned char *in = calloc(t->nnodes, 1);
	size_t i, d, k = 0;

	for (i = 0; i < r->n[a]; i++)
		for (d = 1; d <= t->m; d++)
			in[t->path[r->inst[a][i] * (t->m + 1) + d]] |= 1;
	for (i = 0; i < r->n[b]; i++)
		for (d = 1; d <= t->m; d++)
			in[t->path[r->inst[b][i] * (t->m + 1) + d]] |= 2;
	for (i = 0; i < t->nnodes; i++)
		k += in[i] == 3;
	free(in);
	return k;
}

/* Evaluates moving x's instances under v to y; returns 1 if allowed. */
static int
ref_eval(const sr_rtree *t, const refplan *r, size_t x, size_t y, size_t v,
    size_t cap, double *diff)
{
	size_t xs[MAXN], ys[MAXN], nx = 0, ny = r->n[y], i, ty;
	double cx = cost_of(t, r->inst[x], r->n[x], NULL), c1, c2;

	memcpy(ys, r->inst[y], ny * sizeof *ys);
	for (i = 0; i < r->n[x]; i++)
		if (under(t, r->inst[x][i], v))
			ys[ny++] = r->inst[x][i];
		else
			xs[nx++] = r->inst[x][i];
	if (nx == 0 || ny == r->n[y])
		return 0;
	c1 = cost_of(t, xs, nx, NULL);
	c2 = cost_of(t, ys, ny, &ty);
	if ((c1 > c2 ? c1 : c2) >= cx || (cap > 0 && ty > cap))
		return 0;
	*diff = c1 > c2 ? c1 - c2 : c2 - c1;
	return 1;
}

/* One reference Balance step; returns 0 when no move is allowed. */
static int
ref_step(const sr_rtree *t, refplan *r, size_t cap)
{
	size_t b, x = 0, y = SR_NONE, v, best = SR_NONE, sh, bestsh = 0, i;
	double c, cy = 0, diff, bestdiff = 0;

	for (b = 1; b < r->nb; b++)
		if (cost_of(t, r->inst[b], r->n[b], NULL) >
		    cost_of(t, r->inst[x], r->n[x], NULL))
			x = b;
	for (b = 0; b < r->nb; b++)
		if (b != x && (y == SR_NONE ||
		    cost_of(t, r->inst[b], r->n[b], NULL) < cy)) {
			cy = cost_of(t, r->inst[b], r->n[b], NULL);
			y = b;
		}
	if (y == SR_NONE)
		return 0;
	for (b = y; b < r->nb; b++) {
		c = cost_of(t, r->inst[b], r->n[b], NULL);
		if (b != x && c == cy &&
		    (sh = ref_shared(t, r, x, b)) > bestsh) {
			bestsh = sh;
			y = b;
		}
	}
	for (v = 1; v < t->nnodes; v++) {	/* all nodes, no pruning */
		for (i = 0; i < r->n[x] && !under(t, r->inst[x][i], v); i++)
			;
		if (i == r->n[x] || !ref_eval(t, r, x, y, v, cap, &diff))
			continue;
		if (best == SR_NONE || diff < bestdiff || (diff == bestdiff &&
		    t->node[v].depth < t->node[best].depth)) {
			best = v;
			bestdiff = diff;
		}
	}
	if (best == SR_NONE)
		return 0;
	for (i = 0, b = 0; i < r->n[x]; i++)
		if (under(t, r->inst[x][i], best))
			r->inst[y][r->n[y]++] = r->inst[x][i];
		else
			r->inst[x][b++] = r->inst[x][i];
	r->n[x] = b;
	return 1;
}

/* Reference Balance from the Fold-Merge plan f; writes the final plan
 * sorted like sr_merge_trtma's into out. */
static void
ref_balance(const sr_rtree *t, const sr_plan *f, size_t cap, sr_plan *out)
{
	refplan *r = calloc(1, sizeof *r);
	balance bl = { 0 };
	size_t b, i;

	r->nb = f->n;
	for (b = 0; b < f->n; b++) {
		r->n[b] = f->b[b].n;
		memcpy(r->inst[b], f->b[b].inst,
		    f->b[b].n * sizeof *f->b[b].inst);
	}
	while (ref_step(t, r, cap))
		;
	/* sort through balance_emit: build a bbucket array by hand */
	bl.t = t;
	bl.nb = r->nb;
	bl.b = sr_calloc(r->nb, sizeof *bl.b);
	for (b = 0; b < r->nb; b++) {
		for (i = 0; i < r->n[b]; i++)
			sr_bucket_push(&bl.b[b].in, r->inst[b][i]);
		bl.b[b].cost = cost_of(t, r->inst[b], r->n[b], NULL);
	}
	balance_emit(&bl, out);
	for (b = 0; b < r->nb; b++)
		free(bl.b[b].in.inst);
	free(bl.b);
	free(r);
}

/* ---- random trees ------------------------------------------------------- */

/* A random tree: n instances, m tasks, per-task alphabets of 1..4 values;
 * integral task costs 1..5 when weighted. */
static sr_rtree *
random_tree(size_t n, size_t m, int weighted)
{
	uint64_t *key = calloc(n * m, sizeof *key);
	size_t alpha[8], i, d;
	double cost[8];
	sr_rtree *t;

	for (d = 0; d < m; d++) {
		alpha[d] = 1 + rnd(4);
		cost[d] = weighted ? (double)(1 + rnd(5)) : 1;
	}
	for (i = 0; i < n; i++)
		for (d = 0; d < m; d++)
			key[i * m + d] = rnd(alpha[d]);
	t = sr_rtree_build(n, m, key, cost);
	free(key);
	return t;
}

/* Largest task count of the Full-Merge buckets for maxb. */
static size_t
full_merge_max_tasks(const sr_rtree *t, size_t maxb)
{
	fold f = { .t = t };
	size_t b, mx = 0;

	full_merge(&f, maxb, 0);
	for (b = 0; b < f.nb; b++)
		if (f.b[b].uptasks + f.b[b].lowtasks > mx)
			mx = f.b[b].uptasks + f.b[b].lowtasks;
	fold_free(&f);
	return mx;
}

/* Tasks of bucket b of p. */
static size_t
tasks_of(const sr_rtree *t, const sr_plan *p, size_t b)
{
	size_t k;

	cost_of(t, p->b[b].inst, p->b[b].n, &k);
	return k;
}

/* One random case: plan checks, bucket count, no raised maximum, the cap,
 * and Balance equal to the reference. */
static void
random_case(size_t round, int weighted, int capped)
{
	size_t n = 1 + rnd(120), m = 1 + rnd(5), maxb = 1 + rnd(24), cap = 0, b;
	sr_rtree *t = random_tree(n, m, weighted);
	sr_plan f, p, r = { 0 };
	char what[64];

	snprintf(what, sizeof what, "random %zu (n %zu m %zu maxb %zu)", round,
	    n, m, maxb);
	if (capped)
		cap = full_merge_max_tasks(t, maxb) + rnd(2 * m + 1);
	f = run(t, maxb, cap, 0);
	p = run(t, maxb, cap, 1);
	check_plan(t, &f, what);
	check_plan(t, &p, what);
	if (!capped && (p.n > maxb || f.n != p.n))
		fail("%s: %zu buckets (fold %zu)", what, p.n, f.n);
	if (max_cost(t, &p) > max_cost(t, &f))
		fail("%s: balance raised the maximum", what);
	for (b = 0; capped && b < p.n; b++)
		if (tasks_of(t, &p, b) > cap)
			fail("%s: bucket %zu exceeds the cap %zu", what, b,
			    cap);
	balanced_cases += !sr_plan_equal(&p, &f);
	ref_balance(t, &f, cap, &r);
	if (!sr_plan_equal(&p, &r))
		fail("%s: balance differs from the reference", what);
	sr_plan_free(&r);
	sr_plan_free(&f);
	sr_plan_free(&p);
	sr_rtree_free(t);
}

/* maxb >= n with distinct instances: n singletons. */
static void
test_singletons(void)
{
	size_t n = 37, m = 4, i, d, maxb;
	uint64_t *key = calloc(n * m, sizeof *key);
	sr_rtree *t;
	sr_plan p;

	for (i = 0; i < n; i++)
		for (d = 0; d < m; d++)
			key[i * m + d] = d + 1 < m ? rnd(2) : i;
	t = sr_rtree_build(n, m, key, NULL);
	for (maxb = n; maxb <= n + 5; maxb += 5) {
		p = run(t, maxb, 0, 1);
		check_plan(t, &p, "singletons");
		for (i = 0; i < p.n; i++)
			if (p.b[i].n != 1)
				fail("singletons: bucket %zu has %zu", i,
				    p.b[i].n);
		if (p.n != n)
			fail("singletons: %zu buckets for maxb %zu", p.n, maxb);
		sr_plan_free(&p);
	}
	sr_rtree_free(t);
	free(key);
}

/* A cap too tight for any fold keeps the Full-Merge buckets. */
static void
test_tight_cap(void)
{
	const uint64_t key[] = { 1, 1, 1, 1, 2, 1, 1, 3, 1, 1, 4, 1, 2, 1, 1,
	    3, 1, 1 };
	sr_rtree *t = sr_rtree_build(6, 3, key, NULL);
	sr_plan p = run(t, 2, 3, 1);

	size_t b;

	/* the level-1 group {a,b,c,d} needs 9 tasks: Full-Merge goes down to
	 * level 2, whose six subtrees need 3 each, and no fold fits */
	check_plan(t, &p, "tight cap");
	if (p.n != 6)
		fail("tight cap: %zu buckets, want 6", p.n);
	for (b = 0; b < p.n; b++)
		if (tasks_of(t, &p, b) > 3)
			fail("tight cap: bucket %zu has %zu tasks", b, tasks_of(t, &p, b));
	sr_plan_free(&p);
	sr_rtree_free(t);
}

/* maxb 0 fails; an empty tree and a tree without tasks. */
static void
test_errors(void)
{
	const uint64_t key[] = { 1, 2 };
	sr_rtree *t = sr_rtree_build(2, 1, key, NULL);
	sr_plan p = { 0 };
	char err[SR_ERRLEN] = "";

	if (sr_merge_trtma(t, 0, 0, &p, err) != -1 || err[0] == '\0')
		fail("maxb 0 accepted");
	if (p.n != 0)
		fail("maxb 0 produced buckets");
	sr_rtree_free(t);
	t = sr_rtree_build(0, 3, NULL, NULL);
	if (sr_merge_trtma(t, 4, 0, &p, err) != 0 || p.n != 0)
		fail("empty tree");
	sr_rtree_free(t);
	t = sr_rtree_build(3, 0, NULL, NULL);	/* no tasks: one bucket */
	if (sr_merge_trtma(t, 4, 0, &p, err) != 0 || p.n != 1 ||
	    p.b[0].n != 3)
		fail("tree without tasks");
	sr_plan_free(&p);
	sr_rtree_free(t);
}

/* The reuse tree built the straightforward way, node by node, children
 * found by a scan of the parent's list: the nodes' numbers, links, depths,
 * leaf counts, costs, paths and leaves of sr_rtree_build (one depth at a
 * time, numbered afterwards) must be these. */
static void
check_build_case(size_t n, size_t m, size_t alphabet, unsigned seed)
{
	uint64_t *key = calloc(n * m + 1, sizeof *key);
	double cost[8];
	size_t max = n * m + 1, nn = 1, i, d, c, cur;
	size_t *par = calloc(max, sizeof *par);
	size_t *first = calloc(max, sizeof *first);
	size_t *next = calloc(max, sizeof *next);
	size_t *dep = calloc(max, sizeof *dep);
	size_t *leaves = calloc(max, sizeof *leaves);
	size_t *kk = calloc(max, sizeof *kk);
	size_t *path = calloc(n * (m + 1) + 1, sizeof *path);
	sr_rtree *t;

	for (d = 0; d < m; d++)
		cost[d] = 0.5 + (double)d;
	for (i = 0; i < n * m; i++)	/* small alphabets: prefixes repeat */
		key[i] = rnd(alphabet) * 1000003u + seed;
	first[0] = next[0] = SR_NONE;
	for (i = 0; i < n; i++) {
		leaves[0]++;
		for (d = 0, cur = 0; d < m; d++) {
			size_t last = SR_NONE;
			for (c = first[cur]; c != SR_NONE; last = c, c = next[c])
				if (kk[c] == key[i * m + d])
					break;
			if (c == SR_NONE) {
				c = nn++;
				par[c] = cur, first[c] = next[c] = SR_NONE;
				dep[c] = d + 1, kk[c] = key[i * m + d];
				if (last == SR_NONE)
					first[cur] = c;
				else
					next[last] = c;
			}
			leaves[c]++;
			path[i * (m + 1) + d + 1] = cur = c;
		}
	}
	t = seed % 2 ? sr_rtree_build(n, m, key, cost) :
	    sr_rtree_build_take(n, m, key, cost);
	if (t->nnodes != nn)
		fail("build n=%zu m=%zu: %zu nodes, expected %zu", n, m,
		    t->nnodes, nn);
	for (c = 0; t->nnodes == nn && c < nn; c++)
		if (sr_rparent(t, c) != (c ? par[c] : SR_NONE) ||
		    sr_rchild(t, c) != first[c] || sr_rnext(t, c) != next[c] ||
		    t->node[c].depth != dep[c] ||
		    t->node[c].nleaves != leaves[c] ||
		    sr_rnode_cost(t, c) != (c ? cost[dep[c] - 1] : 0)) {
			fail("build n=%zu m=%zu: node %zu differs", n, m, c);
			break;
		}
	for (i = 0; i < n; i++) {
		for (d = 0; d <= m; d++)
			if (t->path[i * (m + 1) + d] != path[i * (m + 1) + d])
				fail("build n=%zu: path of %zu at %zu", n, i, d);
		if (t->leaf[i] != path[i * (m + 1) + m])
			fail("build n=%zu m=%zu: leaf of %zu", n, m, i);
	}
	if (seed % 2)
		free(key);
	sr_rtree_free(t);
	free(par), free(first), free(next), free(dep), free(leaves), free(kk);
	free(path);
}

static void
test_build(void)
{
	unsigned k;

	check_build_case(0, 3, 2, 0);
	check_build_case(1, 0, 2, 0);
	for (k = 0; k < 200; k++)
		check_build_case(1 + rnd(300), 1 + rnd(7), 1 + rnd(4), k);
}

int
main(void)
{
	size_t i;

	test_example1();
	test_example2();
	test_weighted();
	test_singletons();
	test_tight_cap();
	test_errors();
	test_build();
	for (i = 0; i < 300; i++)
		random_case(i, (int)(i % 3 == 1), (int)(i % 3 == 2));
	if (balanced_cases < 30)	/* the comparisons must bite */
		fail("Balance moved in only %zu random cases", balanced_cases);
	if (failures) {
		printf("FAIL: %d checks failed\n", failures);
		return 1;
	}
	printf("trtma_test: all passed (Balance moved in %zu of 300 random "
	    "cases)\n", balanced_cases);
	return 0;
}
