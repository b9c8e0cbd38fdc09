/* morris_select.c - pick the most spread-out Morris trajectories.
 *
 * Objective of Campolongo, Cariboni & Saltelli 2007: for a set of
 * trajectories, sqrt(sum over unordered pairs {m,l} of d(m,l)^2) with
 * d(m,l) the sum of the Euclidean distances between every point of m and
 * every point of l; as in SALib, two trajectories with identical points
 * are at distance 0. Small problems are solved by brute force over all
 * subsets (lexicographically first optimum). Larger ones use the local
 * search of Ruano, Ribes, Seco & Ferrer 2012 the way SALib's
 * LocalOptimisation does it (for each seed size, the best seed of a
 * trajectory and its farthest neighbours, grown greedily; best over seed
 * sizes), followed by Ruano's single-swap improvement step.
 *
 * Internally everything works on squared distances and on the squared
 * objective F2 = sum of d^2 over pairs, which orders sets the same way.
 * All scans run in increasing index order, so results are deterministic.
 */
#include "core/err.h"
#include "sa/morris.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Objectives closer than this fraction count as tied: the earlier
 * candidate (lower index, earlier combination) is kept. Also the least
 * relative gain a swap must bring. */
#define SEL_TIE_REL	1e-12

/* Whether objective cand beats best by more than the tie margin. */
static int
improves(double cand, double best)
{
	return cand > best + SEL_TIE_REL * fabs(best);
}

/* Check sizes and coordinates; 0 if usable, else -1 with errbuf set. */
static int
check_args(const double *traj, size_t r, size_t k, size_t pts, size_t want,
    const size_t *chosen, char *errbuf)
{
	if (traj == NULL || chosen == NULL) {
		sr_seterr(errbuf, "no trajectories or no output array");
		return -1;
	}
	if (r == 0 || k == 0 || pts < 2) {
		sr_seterr(errbuf, "need at least one trajectory of two points "
		    "and one input (got %zu trajectories of %zu points of %zu "
		    "inputs)", r, pts, k);
		return -1;
	}
	if (want == 0 || want > r) {
		sr_seterr(errbuf, "cannot choose %zu of %zu trajectories",
		    want, r);
		return -1;
	}
	if (pts > SIZE_MAX / k || r > SIZE_MAX / (pts * k) ||
	    r > SIZE_MAX / sizeof(double) / r) {
		sr_seterr(errbuf, "%zu trajectories of %zu points of %zu inputs "
		    "is too large", r, pts, k);
		return -1;
	}
	for (size_t n = r * pts * k, i = 0; i < n; i++) {
		if (!isfinite(traj[i])) {
			sr_seterr(errbuf, "coordinate %zu of point %zu of "
			    "trajectory %zu is not finite", i % k,
			    i / k % pts, i / k / pts);
			return -1;
		}
	}
	return 0;
}

/* Whether two trajectories of n values each have the same points. */
static int
traj_equal(const double *a, const double *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/* Campolongo distance: sum of Euclidean distances over all point pairs
 * of two trajectories of pts points in k dimensions. */
static double
traj_dist(const double *a, const double *b, size_t k, size_t pts)
{
	double sum = 0.0;

	for (size_t i = 0; i < pts; i++) {
		const double *p = a + i * k;

		for (size_t j = 0; j < pts; j++) {
			const double *q = b + j * k;
			double s = 0.0;

			for (size_t c = 0; c < k; c++) {
				double d = p[c] - q[c];
				s += d * d;
			}
			sum += sqrt(s);
		}
	}
	return sum;
}

/* r x r matrix of squared trajectory distances (zero diagonal), or NULL
 * when out of memory. */
static double *
build_d2(const double *traj, size_t r, size_t k, size_t pts)
{
	size_t len = pts * k;
	double *d2 = malloc(r * r * sizeof *d2);

	if (d2 == NULL)
		return NULL;
	for (size_t m = 0; m < r; m++) {
		const double *a = traj + m * len;

		d2[m * r + m] = 0.0;
		for (size_t l = m + 1; l < r; l++) {
			const double *b = traj + l * len;
			double d = traj_equal(a, b, len) ? 0.0 :
			    traj_dist(a, b, k, pts);

			d2[m * r + l] = d2[l * r + m] = d * d;
		}
	}
	return d2;
}

/* C(r, want) in double; stops early (returning a value above limit) once
 * it exceeds limit, so it never overflows for a finite limit. */
static double
count_subsets(size_t r, size_t want, double limit)
{
	size_t m = want < r - want ? want : r - want;
	double c = 1.0;

	for (size_t i = 1; i <= m; i++) {
		c = c * (double)(r - m + i) / (double)i;
		if (c > limit)
			break;
	}
	return c;
}

/* Squared objective of the n trajectories in set. */
static double
set_f2(const double *d2, size_t r, const size_t *set, size_t n)
{
	double f = 0.0;

	for (size_t p = 1; p < n; p++)
		for (size_t q = 0; q < p; q++)
			f += d2[set[p] * r + set[q]];
	return f;
}

/* ---- brute force ------------------------------------------------------ */

/* Recompute the prefix objectives pf[p] (of comb[0..p]) for p >= from. */
static void
prefix_update(const double *d2, size_t r, const size_t *comb, double *pf,
    size_t from, size_t want)
{
	for (size_t p = from; p < want; p++) {
		const double *row = d2 + comb[p] * r;
		double s = p > 0 ? pf[p - 1] : 0.0;

		for (size_t q = 0; q < p; q++)
			s += row[comb[q]];
		pf[p] = s;
	}
}

/* Advance comb to the next want-subset of 0..r-1 in lexicographic order;
 * returns the first position that changed, or want when done. */
static size_t
next_comb(size_t *comb, size_t r, size_t want)
{
	size_t p = want;

	while (p > 0 && comb[p - 1] == r - want + p - 1)
		p--;
	if (p == 0)
		return want;
	p--;
	comb[p]++;
	for (size_t q = p + 1; q < want; q++)
		comb[q] = comb[q - 1] + 1;
	return p;
}

/* Exhaustive search (Campolongo 2007); best receives the
 * lexicographically first optimal subset. 0, or -1 when out of memory. */
static int
brute_force(const double *d2, size_t r, size_t want, size_t *best)
{
	size_t *comb = malloc(want * sizeof *comb);
	double *pf = malloc(want * sizeof *pf);
	double bestf = -1.0;

	if (comb == NULL || pf == NULL) {
		free(comb);
		free(pf);
		return -1;
	}
	for (size_t i = 0; i < want; i++)
		comb[i] = i;
	for (size_t from = 0; from < want; from = next_comb(comb, r, want)) {
		prefix_update(d2, r, comb, pf, from, want);
		if (improves(pf[want - 1], bestf)) {
			bestf = pf[want - 1];
			memcpy(best, comb, want * sizeof *best);
		}
	}
	free(comb);
	free(pf);
	return 0;
}

/* ---- local search ----------------------------------------------------- */

/* Scratch space of the local search over r trajectories. */
struct lsws {
	size_t *nb;		/* r*m: farthest neighbours of each row */
	size_t *set;		/* want: set being built */
	double *seedf;		/* r: squared objective of each row's seed */
	double *c;		/* r: sum of d^2 to the current set */
	unsigned char *in;	/* r: membership in the current set */
};

/* Free everything in w; safe on a zeroed or partly allocated struct. */
static void
lsws_free(struct lsws *w)
{
	free(w->nb);
	free(w->set);
	free(w->seedf);
	free(w->c);
	free(w->in);
}

/* Allocate w for r trajectories, m neighbours, sets of want; 0 or -1. */
static int
lsws_alloc(struct lsws *w, size_t r, size_t m, size_t want)
{
	memset(w, 0, sizeof *w);
	w->nb = malloc(r * m * sizeof *w->nb);
	w->set = malloc(want * sizeof *w->set);
	w->seedf = calloc(r, sizeof *w->seedf);
	w->c = malloc(r * sizeof *w->c);
	w->in = malloc(r);
	if (w->nb && w->set && w->seedf && w->c && w->in)
		return 0;
	lsws_free(w);
	return -1;
}

/* nb[x*m ..]: the m trajectories farthest from x (x excluded), farthest
 * first, lower index first among equals. */
static void
top_neighbours(const double *d2, size_t r, size_t m, size_t *nb)
{
	for (size_t x = 0; x < r; x++) {
		const double *row = d2 + x * r;
		size_t *out = nb + x * m, n = 0;

		for (size_t y = 0; y < r; y++) {
			size_t pos;

			if (y == x || (n == m && !(row[y] > row[out[m - 1]])))
				continue;
			pos = n < m ? n++ : m - 1;
			while (pos > 0 && row[y] > row[out[pos - 1]]) {
				out[pos] = out[pos - 1];
				pos--;
			}
			out[pos] = y;
		}
	}
}

/* Grow every row's seed {x, nb[x][0..i-2]} by nb[x][i-1], updating its
 * squared objective seedf[x]. */
static void
grow_seeds(const double *d2, size_t r, size_t m, const size_t *nb,
    size_t i, double *seedf)
{
	for (size_t x = 0; x < r; x++) {
		const size_t *s = nb + x * m;
		const double *row = d2 + s[i - 1] * r;
		double add = row[x];

		for (size_t t = 0; t + 1 < i; t++)
			add += row[s[t]];
		seedf[x] += add;
	}
}

/* Put x into the current set: flag it, add its distances to c. */
static void
add_member(const double *d2, size_t r, size_t x, double *c,
    unsigned char *in)
{
	const double *row = d2 + x * r;

	in[x] = 1;
	for (size_t y = 0; y < r; y++)
		c[y] += row[y];
}

/* Reset c and in to describe the n members of set. */
static void
load_set(const double *d2, size_t r, const size_t *set, size_t n,
    double *c, unsigned char *in)
{
	memset(in, 0, r);
	for (size_t y = 0; y < r; y++)
		c[y] = 0.0;
	for (size_t p = 0; p < n; p++)
		add_member(d2, r, set[p], c, in);
}

/* Grow set from n to want members, each time adding the outsider that
 * raises the objective most (SALib's add_indices + get_max_sum_ind). */
static void
greedy_fill(const double *d2, size_t r, size_t *set, size_t n, size_t want,
    double *c, unsigned char *in)
{
	load_set(d2, r, set, n, c, in);
	while (n < want) {
		size_t best = r;

		for (size_t x = 0; x < r; x++)
			if (!in[x] && (best == r || improves(c[x], c[best])))
				best = x;
		set[n++] = best;
		add_member(d2, r, best, c, in);
	}
}

/* Order size_t values increasingly (for qsort). */
static int
cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* Ruano's improvement step: apply the best single swap of a member for an
 * outsider while one raises the objective by more than the tie margin. */
static void
swap_improve(const double *d2, size_t r, size_t *set, size_t want,
    double *c, unsigned char *in)
{
	for (;;) {
		size_t bp = want, bu = r;
		double gain = 0.0, f;

		qsort(set, want, sizeof *set, cmp_size);
		load_set(d2, r, set, want, c, in);
		f = set_f2(d2, r, set, want);
		for (size_t p = 0; p < want; p++) {
			const double *row = d2 + set[p] * r;

			for (size_t u = 0; u < r; u++) {
				double g = c[u] - row[u] - c[set[p]];

				if (!in[u] && g > gain) {
					gain = g;
					bp = p;
					bu = u;
				}
			}
		}
		if (bp == want || !(gain > SEL_TIE_REL * f))
			return;
		set[bp] = bu;
	}
}

/* Best seed for seed size i+1: the row whose seed has the largest
 * squared objective (lowest row among ties). */
static size_t
best_seed(const double *seedf, size_t r)
{
	size_t best = 0;

	for (size_t x = 1; x < r; x++)
		if (improves(seedf[x], seedf[best]))
			best = x;
	return best;
}

/* SALib's find_local_maximum (Ruano 2012) plus the swap step; best
 * receives want >= 2 indices. 0, or -1 when out of memory. */
static int
local_search(const double *d2, size_t r, size_t want, size_t *best)
{
	struct lsws w;
	size_t m = want - 1;
	double bestf = -1.0;

	if (lsws_alloc(&w, r, m, want) != 0)
		return -1;
	top_neighbours(d2, r, m, w.nb);
	for (size_t i = 1; i < want; i++) {
		size_t x;
		double f;

		grow_seeds(d2, r, m, w.nb, i, w.seedf);
		x = best_seed(w.seedf, r);
		w.set[0] = x;
		memcpy(w.set + 1, w.nb + x * m, i * sizeof *w.set);
		greedy_fill(d2, r, w.set, i + 1, want, w.c, w.in);
		f = set_f2(d2, r, w.set, want);
		if (improves(f, bestf)) {
			bestf = f;
			memcpy(best, w.set, want * sizeof *best);
		}
	}
	swap_improve(d2, r, best, want, w.c, w.in);
	lsws_free(&w);
	return 0;
}

/* ---- entry point ------------------------------------------------------ */

int
sr_morris_select(const double *traj, size_t r, size_t k, size_t pts,
    size_t want, double brute_limit, size_t *chosen, char *errbuf)
{
	double *d2, nsub;
	int rc;

	if (check_args(traj, r, k, pts, want, chosen, errbuf) != 0)
		return -1;
	/* All of them, or one: every single trajectory has objective 0,
	 * so the first is the lexicographically first optimum. */
	if (want == r || want == 1) {
		for (size_t i = 0; i < want; i++)
			chosen[i] = i;
		return 0;
	}
	if ((d2 = build_d2(traj, r, k, pts)) == NULL) {
		sr_seterr(errbuf, "out of memory");
		return -1;
	}
	nsub = count_subsets(r, want, brute_limit);
	if (isfinite(nsub) && nsub <= brute_limit)
		rc = brute_force(d2, r, want, chosen);
	else
		rc = local_search(d2, r, want, chosen);
	free(d2);
	if (rc != 0) {
		sr_seterr(errbuf, "out of memory");
		return -1;
	}
	qsort(chosen, want, sizeof *chosen, cmp_size);
	return 0;
}
