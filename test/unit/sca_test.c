/* sca_test.c - unit tests of Smart-Cut bucketing (tools/lib/plan/sca.c).
 *
 * Includes sca.c to reach its static functions (link rtree.c and err.c,
 * not sca.c). Checks the worked example exactly, the plan invariants on
 * random stages, the edge cases (b >= n, b = 1, no tasks, errors), the
 * Stoer-Wagner cut and the tree's exact minimum against brute force over
 * all bipartitions, that the shortcuts give the very plan of the full
 * search, and that sr_sca_work bounds the steps done.
 * Exits 0 on success; prints "FAIL: ..." and exits 1 otherwise.
 */
#include "../../tools/lib/plan/sca.c"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXV	12	/* largest graph checked by brute force */

static int failures;

/* Record a failure unless cond holds. */
static void
check(int cond, const char *fmt, ...)
{
	va_list ap;

	if (cond)
		return;
	printf("FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	failures++;
}

/* xorshift64: a fixed, portable stream for the random cases. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t
rnd(uint64_t bound)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state % bound;
}

/* A tree of n instances of m tasks, every instance under one upstream:
 * key[i*m + t] is p_{t+1} of instance i, drawn from alpha[t] values. */
static sr_rtree *
random_tree(size_t n, size_t m, const uint64_t *alpha)
{
	uint64_t *key = sr_calloc(n * m, sizeof *key);
	sr_rtree *t;
	size_t i;

	for (i = 0; i < n * m; i++)
		key[i] = rnd(alpha[i % m]);
	t = sr_rtree_build(n, m, key, NULL);
	free(key);
	return t;
}

/* Tasks the plan executes (sum of its buckets' distinct nodes). */
static size_t
plan_tasks(const sr_rtree *t, const sr_plan *p)
{
	sr_nodeset ns;
	size_t i, tasks = 0;

	sr_nodeset_init(&ns, t);
	for (i = 0; i < p->n; i++)
		tasks += sr_rtree_bucket_tasks(&ns, p->b[i].inst, p->b[i].n, NULL);
	sr_nodeset_free(&ns);
	return tasks;
}

/* Check that p partitions 0..n-1 into non-empty increasing buckets of at
 * most b instances. */
static void
check_partition(const sr_plan *p, size_t n, size_t b, const char *what)
{
	unsigned char *seen = sr_calloc(n, 1);
	size_t i, j, total = 0;

	for (i = 0; i < p->n; i++) {
		const sr_bucket *bk = &p->b[i];

		check(bk->n >= 1 && bk->n <= b, "%s: bucket %zu holds %zu (b %zu)",
		    what, i, bk->n, b);
		for (j = 0; j < bk->n; j++) {
			check(bk->inst[j] < n && !seen[bk->inst[j]],
			    "%s: instance %zu out of range or twice", what, bk->inst[j]);
			if (bk->inst[j] < n)
				seen[bk->inst[j]] = 1;
			check(j == 0 || bk->inst[j - 1] < bk->inst[j],
			    "%s: bucket %zu not increasing", what, i);
		}
		total += bk->n;
	}
	check(total == n, "%s: %zu instances placed of %zu", what, total, n);
	free(seen);
}

/* ---- the worked example ------------------------------------------------ */

/* a(1,1,1) b(1,1,2) c(1,2,1) d(2,1,1) e(2,1,2), b = 2: {a,b} {d,e} {c},
 * 11 tasks of 15, whether or not the shortcuts are used. */
static void
test_worked_example(void)
{
	static const uint64_t key[] = { 1, 1, 1, 1, 1, 2, 1, 2, 1, 2, 1, 1,
	    2, 1, 2 };
	static const size_t want[][2] = { { 0, 1 }, { 3, 4 }, { 2 } };
	static const size_t wantn[] = { 2, 2, 1 };
	sr_rtree *t = sr_rtree_build(5, 3, key, NULL);
	sr_plan p = { 0 }, q = { 0 };
	char err[SR_ERRLEN] = "";
	size_t i;

	check(sr_rtree_shared(t, 0, 1) == 2 && sr_rtree_shared(t, 0, 2) == 1
	    && sr_rtree_shared(t, 3, 4) == 2 && sr_rtree_shared(t, 2, 3) == 0,
	    "example: pairwise reuse");
	check(sr_merge_sca(t, 2, &p, err) == 0, "example: failed: %s", err);
	check(p.n == 3, "example: %zu buckets, want 3", p.n);
	for (i = 0; i < p.n && i < 3; i++)
		check(p.b[i].n == wantn[i] && memcmp(p.b[i].inst, want[i],
		    wantn[i] * sizeof *want[i]) == 0, "example: bucket %zu", i);
	check(plan_tasks(t, &p) == 11, "example: %zu tasks, want 11",
	    plan_tasks(t, &p));
	sca_run(t, 2, 1, &q, NULL, err);
	check(sr_plan_equal(&p, &q), "example: full search differs");
	sr_plan_free(&p);
	sr_plan_free(&q);
	sr_rtree_free(t);
}

/* Equal sides keep the lowest instance's: two components of two, and one
 * component whose unique minimum cut halves it. */
static void
test_equal_sides(void)
{
	static const uint64_t two[] = { 1, 1, 1, 2, 2, 1, 2, 2 };
	static const uint64_t one[] = { 1, 1, 1, 1, 1, 1, 1, 2, 1, 2, 1, 1,
	    1, 2, 1, 2 };
	static const size_t want[] = { 0, 1, 2, 3 };
	const uint64_t *keys[] = { two, one };
	size_t m[] = { 2, 4 }, k, i;
	char err[SR_ERRLEN];

	for (k = 0; k < 2; k++) {
		sr_rtree *t = sr_rtree_build(4, m[k], keys[k], NULL);
		sr_plan p = { 0 }, q = { 0 };

		sr_merge_sca(t, 2, &p, err);
		check(p.n == 2, "equal sides %zu: %zu buckets, want 2", k, p.n);
		for (i = 0; i < p.n && i < 2; i++)
			check(p.b[i].n == 2 && memcmp(p.b[i].inst, want + 2 * i,
			    2 * sizeof *want) == 0, "equal sides %zu: bucket %zu", k, i);
		sca_run(t, 2, 1, &q, NULL, err);
		check(sr_plan_equal(&p, &q), "equal sides %zu: full search differs", k);
		sr_plan_free(&p);
		sr_plan_free(&q);
		sr_rtree_free(t);
	}
}

/* ---- plans on random stages -------------------------------------------- */

/* n = 100, m = 7: a partition into buckets of at most b, for several b
 * and degrees of sharing; b >= n gives one bucket, b = 1 singletons. */
static void
test_random_plans(void)
{
	static const uint64_t alpha[][7] = { { 3, 3, 3, 3, 3, 3, 3 },
	    { 1, 2, 2, 2, 2, 2, 2 }, { 5, 4, 3, 2, 2, 3, 4 } };
	static const size_t bs[] = { 1, 2, 3, 7, 8, 16, 32, 99, 100, 150 };
	char what[64], err[SR_ERRLEN];
	size_t a, k, n = 100;

	for (a = 0; a < sizeof alpha / sizeof alpha[0]; a++) {
		sr_rtree *t = random_tree(n, 7, alpha[a]);

		for (k = 0; k < sizeof bs / sizeof bs[0]; k++) {
			sr_plan p = { 0 };

			snprintf(what, sizeof what, "random %zu, b %zu", a, bs[k]);
			check(sr_merge_sca(t, bs[k], &p, err) == 0, "%s: %s", what,
			    err);
			check_partition(&p, n, bs[k], what);
			if (bs[k] >= n)
				check(p.n == 1, "%s: %zu buckets, want 1", what, p.n);
			if (bs[k] == 1)
				check(p.n == n, "%s: %zu buckets, want %zu", what, p.n, n);
			sr_plan_free(&p);
		}
		sr_rtree_free(t);
	}
}

/* The shortcuts (components, early stop at the tree's minimum) give the
 * very plan of the full search, and the steps stay within sr_sca_work. */
static void
test_shortcuts_exact(void)
{
	static const uint64_t alpha[][6] = { { 3, 3, 3, 3, 3, 3 },
	    { 1, 3, 2, 3, 2, 3 }, { 2, 2, 2, 2, 2, 2 }, { 6, 1, 4, 1, 3, 2 } };
	static const size_t bs[] = { 1, 2, 3, 5, 8, 13 };
	char err[SR_ERRLEN];
	size_t a, k, n = 48;

	for (a = 0; a < sizeof alpha / sizeof alpha[0]; a++) {
		sr_rtree *t = random_tree(n, 6, alpha[a]);

		for (k = 0; k < sizeof bs / sizeof bs[0]; k++) {
			sr_plan p = { 0 }, q = { 0 };
			double fast = 0, full = 0;

			sca_run(t, bs[k], 0, &p, &fast, err);
			sca_run(t, bs[k], 1, &q, &full, err);
			check(sr_plan_equal(&p, &q), "shortcuts: alphabet %zu, b %zu: "
			    "plans differ", a, bs[k]);
			check(fast <= full && full <= sr_sca_work(n, bs[k]),
			    "shortcuts: alphabet %zu, b %zu: steps %g, full %g, "
			    "bound %g", a, bs[k], fast, full, sr_sca_work(n, bs[k]));
			sr_plan_free(&p);
			sr_plan_free(&q);
		}
		sr_rtree_free(t);
	}
}

/* Stages with no tasks (no reuse at all), no instances, and the errors. */
static void
test_edges(void)
{
	sr_rtree *t = sr_rtree_build(10, 0, NULL, NULL);
	sr_plan p = { 0 }, q = { 0 };
	char err[SR_ERRLEN] = "";

	check(sr_merge_sca(t, 3, &p, err) == 0, "no tasks: failed: %s", err);
	sr_merge_naive(t, 3, &q);
	check(sr_plan_equal(&p, &q), "no tasks: not consecutive groups of 3");
	sr_plan_free(&p);
	sca_run(t, 3, 1, &p, NULL, err);
	check(sr_plan_equal(&p, &q), "no tasks: full search differs");
	sr_plan_free(&p);
	sr_plan_free(&q);
	err[0] = '\0';
	check(sr_merge_sca(t, 0, &p, err) == -1 && err[0] != '\0' && p.n == 0,
	    "b = 0 accepted");
	sr_rtree_free(t);
	t = sr_rtree_build(0, 2, NULL, NULL);
	check(sr_merge_sca(t, 4, &p, err) == 0 && p.n == 0, "no instances");
	sr_rtree_free(t);
	t = sr_rtree_build(23171, 0, NULL, NULL);	/* 8 n^2 > 4 GiB */
	err[0] = '\0';
	check(sr_merge_sca(t, 4, &p, err) == -1 && err[0] != '\0' && p.n == 0,
	    "23171 instances accepted");
	sr_rtree_free(t);
	check(sr_sca_work(10, 10) == 0 && sr_sca_work(10, 20) == 0,
	    "work with b >= n");
	check(sr_sca_work(640, 8) > sr_sca_work(640, 32)
	    && sr_sca_work(1000, 8) > sr_sca_work(640, 8), "work not monotone");
}

/* ---- cuts against brute force ------------------------------------------ */

/* Weight of the cut of the v-vertex matrix w by side (1 / 0). */
static int64_t
cut_weight(const int64_t *w, size_t v, const unsigned char *side)
{
	int64_t sum = 0;
	size_t i, j;

	for (i = 0; i < v; i++)
		for (j = 0; j < v; j++)
			if (side[i] && !side[j])
				sum += w[i * v + j];
	return sum;
}

/* Minimum cut of w over all bipartitions into two non-empty sides. */
static int64_t
brute_mincut(const int64_t *w, size_t v)
{
	unsigned char side[MAXV];
	int64_t best = INT64_MAX, x;
	unsigned long mask, i;

	for (mask = 1; mask < (1UL << (v - 1)); mask++) {	/* v-1 out */
		for (i = 0; i < v; i++)
			side[i] = (mask >> i) & 1;
		x = cut_weight(w, v, side);
		if (x < best)
			best = x;
	}
	return best;
}

/* Check sw_mincut on the v-vertex matrix w (bound: as sw_mincut). */
static void
check_sw(sca_ctx *c, const int64_t *w, size_t v, int64_t bound,
    const char *what)
{
	int64_t want = brute_mincut(w, v), got;
	size_t i, nside = 0;

	memcpy(c->w, w, v * v * sizeof *w);
	got = sw_mincut(c, v, bound);
	for (i = 0; i < v; i++)
		nside += c->side[i];
	check(got == want, "%s: v %zu: cut %lld, brute force %lld", what, v,
	    (long long)got, (long long)want);
	check(nside >= 1 && nside < v && cut_weight(w, v, c->side) == want,
	    "%s: v %zu: side of %zu is not a minimum cut", what, v, nside);
}

/* Stoer-Wagner on small graphs: fixed ones (two triangles, a path, a
 * disconnected one) and random ones with zero and positive weights. */
static void
test_sw_brute(void)
{
	static const int64_t tri[36] = {
		0, 3, 3, 1, 0, 0,   3, 0, 3, 0, 0, 0,   3, 3, 0, 0, 0, 0,
		1, 0, 0, 0, 3, 3,   0, 0, 0, 3, 0, 3,   0, 0, 0, 3, 3, 0 };
	static const int64_t path[16] = {
		0, 5, 0, 0,   5, 0, 2, 0,   0, 2, 0, 4,   0, 0, 4, 0 };
	static const int64_t split[16] = {
		0, 2, 0, 0,   2, 0, 0, 0,   0, 0, 0, 1,   0, 0, 1, 0 };
	int64_t w[MAXV * MAXV];
	sca_ctx c;
	size_t v, i, j, r;

	ctx_init(&c, NULL, MAXV);
	check_sw(&c, tri, 6, INT64_MIN, "two triangles");
	check(c.side[3] && c.side[4] && c.side[5] && !c.side[0],
	    "two triangles: wrong side");
	check_sw(&c, path, 4, INT64_MIN, "path");
	check_sw(&c, split, 4, INT64_MIN, "two components");
	for (r = 0; r < 300; r++) {
		v = 2 + rnd(MAXV - 1);
		for (i = 0; i < v; i++) {
			w[i * v + i] = 0;
			for (j = i + 1; j < v; j++)
				w[i * v + j] = w[j * v + i] =
				    (int64_t)(rnd(3) ? rnd(6) : 0);
		}
		check_sw(&c, w, v, INT64_MIN, "random");
		check_sw(&c, w, v, brute_mincut(w, v), "random, early stop");
	}
	ctx_free(&c);
}

/* The tree's exact minimum (min-plus over the nodes) against brute force
 * on the reuse graphs of random subsets of small stages. */
static void
test_tree_mincut(void)
{
	static const uint64_t alpha[] = { 1, 1, 2, 3, 2, 2, 3 };
	int64_t w[MAXV * MAXV];
	size_t g[MAXV], r, i, j, v, n = 16;

	for (r = 0; r < 60; r++) {
		sr_rtree *t = random_tree(n, 1 + rnd(5), alpha + rnd(3));
		sca_ctx c;

		ctx_init(&c, t, n);
		for (v = 0, i = 0; i < n && v < MAXV; i++)
			if (rnd(3))
				g[v++] = i;
		if (v >= 2) {
			for (i = 0; i < v; i++)
				for (j = 0; j < v; j++)
					w[i * v + j] = i == j ? 0
					    : (int64_t)sr_rtree_shared(t, g[i], g[j]);
			check(tree_mincut(&c, g, v) == brute_mincut(w, v),
			    "tree minimum: round %zu, v %zu", r, v);
			for (i = 0; i < t->nnodes; i++)
				check(c.cnt[i] == 0 && c.have[i] == 0
				    && c.off[i] == SR_NONE, "tree minimum: scratch left");
		}
		ctx_free(&c);
		sr_rtree_free(t);
	}
}

int
main(void)
{
	test_worked_example();
	test_equal_sides();
	test_random_plans();
	test_shortcuts_exact();
	test_edges();
	test_sw_brute();
	test_tree_mincut();
	if (failures) {
		printf("%d check(s) failed\n", failures);
		return 1;
	}
	return 0;
}
