/* morris_select_test.c - unit tests of sr_morris_select.
 *
 * Checks brute force against an exhaustive search written here, obvious
 * cases (far trajectories among a cluster), the local search against the
 * exhaustive optimum on random Morris trajectories, and argument errors.
 * Exits 0 on success; prints "FAIL: ..." and exits 1 otherwise.
 */
#include "sa/morris.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXR	64
#define MAXW	16

static int failures;

/* Report a failed check. */
static void
fail(const char *what, const char *detail)
{
	printf("FAIL: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	failures++;
}

/* ---- independent reference ------------------------------------------- */

/* Campolongo distance between trajectories m and l, 0 for identical
 * points (SALib's rule), written independently of the library. */
static double
ref_dist(const double *traj, size_t k, size_t np, size_t m, size_t l)
{
	const double *a = traj + m * np * k, *b = traj + l * np * k;
	double sum = 0.0;

	if (memcmp(a, b, np * k * sizeof *a) == 0)
		return 0.0;
	for (size_t i = 0; i < np; i++) {
		for (size_t j = 0; j < np; j++) {
			double s = 0.0;

			for (size_t c = 0; c < k; c++)
				s += pow(a[i * k + c] - b[j * k + c], 2);
			sum += sqrt(s);
		}
	}
	return sum;
}

/* Reference state: distance matrix and the best set found so far. */
struct ref {
	size_t r, want;
	double d[MAXR][MAXR];
	size_t cur[MAXW], best[MAXW];
	double bestf, target;	/* target > 0: stop at first set >= target */
	int found;
};

/* Objective sqrt(sum of d^2 over pairs) of n indices. */
static double
ref_obj(const struct ref *rf, const size_t *set, size_t n)
{
	double s = 0.0;

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			s += rf->d[set[i]][set[j]] * rf->d[set[i]][set[j]];
	return sqrt(s);
}

/* Recursively enumerate subsets in lexicographic order. */
static void
ref_enum(struct ref *rf, size_t depth, size_t start)
{
	if (rf->found)
		return;
	if (depth == rf->want) {
		double f = ref_obj(rf, rf->cur, rf->want);

		if (rf->target > 0 ? f >= rf->target : f > rf->bestf) {
			rf->bestf = f;
			memcpy(rf->best, rf->cur, sizeof rf->best);
			rf->found = rf->target > 0;
		}
		return;
	}
	for (size_t i = start; i + (rf->want - depth) <= rf->r; i++) {
		rf->cur[depth] = i;
		ref_enum(rf, depth + 1, i + 1);
	}
}

/* Exhaustive optimum: best gets the lexicographically first set within a
 * relative 1e-9 of the maximum; returns the maximum objective. */
static double
ref_optimum(struct ref *rf, const double *traj, size_t r, size_t k,
    size_t np, size_t want)
{
	double max;

	rf->r = r;
	rf->want = want;
	for (size_t m = 0; m < r; m++)
		for (size_t l = 0; l < r; l++)
			rf->d[m][l] = m == l ? 0.0 : ref_dist(traj, k, np, m, l);
	rf->bestf = -1.0;
	rf->target = 0.0;
	rf->found = 0;
	ref_enum(rf, 0, 0);
	max = rf->bestf;
	rf->target = max * (1 - 1e-9);
	ref_enum(rf, 0, 0);
	return max;
}

/* ---- helpers ---------------------------------------------------------- */

/* Whether chosen holds want distinct increasing indices below r. */
static int
valid_choice(const size_t *chosen, size_t want, size_t r)
{
	for (size_t i = 0; i < want; i++)
		if (chosen[i] >= r || (i > 0 && chosen[i] <= chosen[i - 1]))
			return 0;
	return 1;
}

/* Format n indices into buf. */
static char *
fmt_set(char *buf, size_t len, const size_t *set, size_t n)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%zu", i ? "," : "",
		    set[i]);
	return buf;
}

/* Run the selection; report and return -1 on an unexpected error. */
static int
select_ok(const char *what, const double *traj, size_t r, size_t k,
    size_t np, size_t want, double limit, size_t *chosen)
{
	char err[SR_ERRLEN] = "";

	if (sr_morris_select(traj, r, k, np, want, limit, chosen, err) != 0) {
		fail(what, err);
		return -1;
	}
	if (!valid_choice(chosen, want, r)) {
		fail(what, "chosen indices not distinct, sorted, in range");
		return -1;
	}
	return 0;
}

/* Check that chosen equals expect (both want long). */
static void
expect_set(const char *what, const size_t *chosen, const size_t *expect,
    size_t want)
{
	char a[256], b[256], msg[600];

	if (memcmp(chosen, expect, want * sizeof *chosen) == 0)
		return;
	snprintf(msg, sizeof msg, "got {%s}, want {%s}",
	    fmt_set(a, sizeof a, chosen, want),
	    fmt_set(b, sizeof b, expect, want));
	fail(what, msg);
}

/* xorshift64* generator for reproducible random designs. */
static uint64_t
rnd_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

/* r random Morris trajectories on 4 levels, step 2/3, k inputs: each
 * input a group of its own. */
static void random_grouped(double *traj, size_t r, size_t k, size_t g,
    uint64_t seed);

static void
random_morris(double *traj, size_t r, size_t k, uint64_t seed)
{
	random_grouped(traj, r, k, k, seed);
}

/* ---- (a) brute force vs reference ------------------------------------ */

static void
test_brute_small(void)
{
	/* 6 trajectories of 3 points in 2 dimensions, step 2/3 */
	static const double traj[6 * 3 * 2] = {
		0, 0,		2. / 3, 0,	2. / 3, 2. / 3,
		1. / 3, 1. / 3,	1. / 3, 1,	1, 1,
		1, 0,		1. / 3, 0,	1. / 3, 2. / 3,
		0, 1,		0, 1. / 3,	2. / 3, 1. / 3,
		2. / 3, 1. / 3,	0, 1. / 3,	0, 1,
		1. / 3, 2. / 3,	1, 2. / 3,	1, 0,
	};
	static struct ref rf;
	size_t chosen[6];

	ref_optimum(&rf, traj, 6, 2, 3, 3);
	if (select_ok("(a) brute r=6", traj, 6, 2, 3, 3, 1e6, chosen) == 0)
		expect_set("(a) brute r=6 vs exhaustive", chosen, rf.best, 3);
	/* want 2 and 4 as well, still brute force */
	for (size_t want = 2; want <= 5; want += 2) {
		ref_optimum(&rf, traj, 6, 2, 3, want);
		if (select_ok("(a) brute r=6", traj, 6, 2, 3, want, 20,
		    chosen) == 0)
			expect_set("(a) brute r=6 other want", chosen, rf.best,
			    want);
	}
}

/* ---- (b) obvious answers ---------------------------------------------- */

/* One trajectory of 4 points in 3 dimensions starting at (x,y,z), each
 * step moving one coordinate by delta. */
static void
put_traj(double *p, double x, double y, double z, double delta)
{
	double v[3] = { x, y, z };

	for (size_t i = 0; i <= 3; i++) {
		if (i > 0)
			v[i - 1] += delta;
		memcpy(p + i * 3, v, sizeof v);
	}
}

static void
test_obvious(void)
{
	double traj[12 * 4 * 3];
	static const size_t far[3] = { 2, 7, 11 };
	size_t chosen[3], dup[2] = { 0, 4 };

	/* 9 near-identical trajectories in the middle, 3 in far corners */
	for (size_t t = 0; t < 12; t++)
		put_traj(traj + t * 12, 0.4 + 0.01 * (double)(t % 3),
		    0.45, 0.4, 0.1);
	put_traj(traj + 2 * 12, 0.0, 0.0, 0.0, 0.1);
	put_traj(traj + 7 * 12, 1.0, 1.0, 0.0, -0.1);
	put_traj(traj + 11 * 12, 0.0, 1.0, 1.0, 0.1);
	if (select_ok("(b) obvious brute", traj, 12, 3, 4, 3, 1e6,
	    chosen) == 0)
		expect_set("(b) obvious brute", chosen, far, 3);
	if (select_ok("(b) obvious local", traj, 12, 3, 4, 3, 0, chosen) == 0)
		expect_set("(b) obvious local", chosen, far, 3);

	/* 4 identical copies and one other: the first copy and the other */
	for (size_t t = 0; t < 4; t++)
		put_traj(traj + t * 12, 0.2, 0.2, 0.2, 0.3);
	put_traj(traj + 4 * 12, 0.9, 0.9, 0.1, -0.3);
	if (select_ok("(b) duplicates brute", traj, 5, 3, 4, 2, 1e6,
	    chosen) == 0)
		expect_set("(b) duplicates brute", chosen, dup, 2);
	if (select_ok("(b) duplicates local", traj, 5, 3, 4, 2, 0,
	    chosen) == 0)
		expect_set("(b) duplicates local", chosen, dup, 2);
}

/* ---- (c) local search vs exhaustive optimum --------------------------- */

static void
test_local_random(double *worst)
{
	enum { R = 30, K = 4, W = 6 };
	static double traj[R * (K + 1) * K];
	static struct ref rf;
	size_t a[W], b[W];
	char msg[128];

	*worst = 1.0;
	for (uint64_t seed = 1; seed <= 4; seed++) {
		double opt, got;

		random_morris(traj, R, K, seed);
		opt = ref_optimum(&rf, traj, R, K, K + 1, W);
		if (select_ok("(c) brute r=30", traj, R, K, K + 1, W, 1e9, a) == 0)
			expect_set("(c) brute r=30 vs exhaustive", a, rf.best,
			    W);
		if (select_ok("(c) local r=30", traj, R, K, K + 1, W, 0, a) != 0 ||
		    select_ok("(c) local r=30 again", traj, R, K, K + 1, W, 0,
		    b) != 0)
			continue;
		if (memcmp(a, b, sizeof a) != 0)
			fail("(c) local search", "not deterministic");
		got = ref_obj(&rf, a, W);
		if (got / opt < *worst)
			*worst = got / opt;
		if (got < 0.95 * opt) {
			snprintf(msg, sizeof msg, "seed %llu: %.6g < 0.95 * %.6g",
			    (unsigned long long)seed, got, opt);
			fail("(c) local search quality", msg);
		}
	}
}

/* ---- (e) trajectories of groups -------------------------------------- */

/* r random trajectories of g groups of k / g inputs each (inputs
 * c / (k / g) in group c), on 4 levels: g + 1 points, each step moving
 * every input of one group by 2/3, the groups in a random order
 * (SALib's grouped trajectories). */
static void
random_grouped(double *traj, size_t r, size_t k, size_t g, uint64_t seed)
{
	uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 1;
	size_t order[64], per = k / g;

	for (size_t t = 0; t < r; t++) {
		double *p = traj + t * (g + 1) * k;

		for (size_t c = 0; c < k; c++)
			p[c] = (double)(rnd_next(&s) % 4) / 3.0;
		for (size_t c = 0; c < g; c++)
			order[c] = c;
		for (size_t c = g; c > 1; c--) {
			size_t j = rnd_next(&s) % c, tmp = order[c - 1];

			order[c - 1] = order[j];
			order[j] = tmp;
		}
		for (size_t i = 1; i <= g; i++) {
			memcpy(p + i * k, p + (i - 1) * k, k * sizeof *p);
			for (size_t c = 0; c < k; c++)
				if (c / per == order[i - 1])
					p[i * k + c] += p[i * k + c] + 2.0 / 3.0 <=
					    1.0 + 1e-12 ? 2.0 / 3.0 : -2.0 / 3.0;
		}
	}
}

/* Trajectories of 3 groups of 2 inputs (4 points of 6 coordinates):
 * brute force is the exhaustive optimum, the local search near it. */
static void
test_groups(void)
{
	enum { R = 20, K = 6, G = 3, W = 5 };
	static double traj[R * (G + 1) * K];
	static struct ref rf;
	size_t a[W];
	char msg[128];

	for (uint64_t seed = 1; seed <= 4; seed++) {
		double opt, got;

		random_grouped(traj, R, K, G, seed);
		opt = ref_optimum(&rf, traj, R, K, G + 1, W);
		if (select_ok("(e) groups brute", traj, R, K, G + 1, W, 1e9, a) == 0)
			expect_set("(e) groups brute vs exhaustive", a, rf.best, W);
		if (select_ok("(e) groups local", traj, R, K, G + 1, W, 0, a) != 0)
			continue;
		got = ref_obj(&rf, a, W);
		if (got < 0.95 * opt) {
			snprintf(msg, sizeof msg, "seed %llu: %.6g < 0.95 * %.6g",
			    (unsigned long long)seed, got, opt);
			fail("(e) groups local search quality", msg);
		}
	}
}

/* ---- (d) errors and edge cases ---------------------------------------- */

/* Expect failure with a message and chosen left alone. */
static void
expect_error(const char *what, const double *traj, size_t r, size_t k,
    size_t want)
{
	char err[SR_ERRLEN];
	size_t chosen[8];

	memset(err, 0, sizeof err);
	for (size_t i = 0; i < 8; i++)
		chosen[i] = 777;
	if (sr_morris_select(traj, r, k, k + 1, want, 1e6, chosen, err) != -1)
		fail(what, "did not fail");
	else if (err[0] == '\0')
		fail(what, "no message");
	for (size_t i = 0; i < 8; i++)
		if (chosen[i] != 777)
			fail(what, "chosen changed on error");
	if (sr_morris_select(traj, r, k, k + 1, want, 1e6, chosen, NULL) != -1)
		fail(what, "did not fail without errbuf");
}

static void
test_errors(void)
{
	double traj[5 * 3 * 2];
	size_t chosen[5], all[5] = { 0, 1, 2, 3, 4 };

	random_morris(traj, 5, 2, 9);
	expect_error("(d) want 0", traj, 5, 2, 0);
	expect_error("(d) want > r", traj, 5, 2, 6);
	expect_error("(d) r 0", traj, 0, 2, 1);
	expect_error("(d) k 0", traj, 5, 0, 2);
	expect_error("(d) no traj", NULL, 5, 2, 2);
	expect_error("(d) huge r*r", traj, SIZE_MAX / 4, 2, 2);
	traj[17] = NAN;
	expect_error("(d) NaN", traj, 5, 2, 2);
	traj[17] = -INFINITY;
	expect_error("(d) -inf", traj, 5, 2, 2);
	traj[17] = 0.5;
	if (sr_morris_select(traj, 5, 2, 3, 2, 1e6, NULL, NULL) != -1)
		fail("(d) no chosen", "did not fail");
	if (select_ok("(d) want == r", traj, 5, 2, 3, 5, 0, chosen) == 0)
		expect_set("(d) want == r", chosen, all, 5);
	if (select_ok("(d) want 1 brute", traj, 5, 2, 3, 1, 1e6,
	    chosen) == 0)
		expect_set("(d) want 1 brute", chosen, all, 1);
	if (select_ok("(d) want 1 local", traj, 5, 2, 3, 1, 0, chosen) == 0)
		expect_set("(d) want 1 local", chosen, all, 1);
	if (select_ok("(d) want r-1 local", traj, 5, 2, 3, 4, 0, chosen) != 0)
		return;
	if (select_ok("(d) NaN limit -> local", traj, 5, 2, 3, 3, NAN,
	    chosen) != 0)
		return;
	select_ok("(d) inf limit -> brute", traj, 5, 2, 3, 3, INFINITY, chosen);
}

int
main(void)
{
	double worst;

	test_brute_small();
	test_obvious();
	test_local_random(&worst);
	test_groups();
	test_errors();
	if (failures > 0)
		return 1;
	printf("morris_select_test: ok (local/optimum worst ratio %.4f)\n",
	    worst);
	return 0;
}
