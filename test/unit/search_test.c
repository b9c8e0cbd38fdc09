/* search_test - searches that learn (sa/search): on known functions of a
 * space of grids, integers, a range and an enum, each method's rounds stay
 * on the values, hold fixed parameters, are a pure function of the history
 * (a round drawn again is the same), and find a better best than uniform
 * draws at the same budget, averaged over seeds; refusals. */
#include "check.h"

#include <math.h>
#include <stdlib.h>

#include "core/err.h"
#include "sa/search.h"
#include "sa/space.h"

#define NSEED 30
#define ROUNDS 6
#define PER 8

/* A space of five parameters: two grids, an integer range, a real range
 * and an enum of words, one of them fixed when fix. */
static sr_space *
space(int fix)
{
	static const char *const row[][4] = {
		{ "a", "int", "0:1:40", "20" },
		{ "b", "real", "0:0.5:20", "10" },
		{ "c", "int", "0..100", "50" },
		{ "d", "real", "-1..1", "0" },
		{ "e", "enum", "x,y,z,w", "x" },
	};
	sr_space *s = sr_calloc(1, sizeof *s);
	char err[256];
	size_t j;
	int field;

	s->n = sizeof row / sizeof *row;
	s->p = sr_calloc(s->n, sizeof *s->p);
	for (j = 0; j < s->n; j++)
		if (sr_param_parse(&s->p[j], row[j][0], row[j][1], row[j][2],
		    row[j][3], &field, err, sizeof err))
			fail("parameter %s: %s", row[j][0], err);
	if (fix) {
		s->p[2].fixed = 1;
		s->p[2].fixed_value = 7;
	}
	return s;
}

/* The function to maximize: its best at a = 31, b = 4.5, c = 80, d =
 * -0.5, e = z (code 2); 0 there. */
static double
f(const double *x)
{
	return -(pow((x[0] - 31) / 40, 2) + pow((x[1] - 4.5) / 20, 2) +
	    pow((x[2] - 80) / 100, 2) + pow((x[3] + 0.5) / 2, 2) +
	    (x[4] == 2 ? 0 : 0.05));
}

/* Runs a search of ROUNDS rounds of PER sets; its best value. Checks
 * every set on the values and a round drawn twice the same. */
static double
run(enum sr_search_method m, const sr_space *s, unsigned long seed,
    int multivariate)
{
	size_t n = ROUNDS * PER, k = s->n, r, i, j;
	double *x = sr_calloc(n * k, sizeof *x), *y = sr_calloc(n, sizeof *y);
	double *again = sr_calloc(PER * k, sizeof *again), best = -INFINITY;
	size_t *rd = sr_calloc(n, sizeof *rd);
	sr_search_opts o;
	const char *why;

	sr_search_opts_init(&o, ROUNDS);
	o.multivariate = multivariate;
	for (r = 1; r <= ROUNDS; r++) {
		sr_search_history h = { (r - 1) * PER, x, y, rd };
		double *out = x + (r - 1) * PER * k;
		if ((why = sr_search_round(m, &o, s, &h, r, PER, seed, out)))
			fail("method %d round %zu: %s", m, r, why);
		sr_search_round(m, &o, s, &h, r, PER, seed, again);
		if (memcmp(again, out, PER * k * sizeof *out) != 0)
			fail("method %d seed %lu round %zu: drawn again, not the "
			    "same", m, seed, r);
		for (i = 0; i < PER; i++) {
			for (j = 0; j < k; j++)
				if (!sr_param_valid(&s->p[j], out[i * k + j]) ||
				    (s->p[j].fixed && out[i * k + j] !=
				    s->p[j].fixed_value))
					fail("method %d round %zu: %s = %g is not "
					    "one of its values", m, r, s->p[j].name,
					    out[i * k + j]);
			y[(r - 1) * PER + i] = f(out + i * k);
			rd[(r - 1) * PER + i] = r;
			if (y[(r - 1) * PER + i] > best)
				best = y[(r - 1) * PER + i];
		}
	}
	free(x);
	free(y);
	free(again);
	free(rd);
	return best;
}

/* The best of n uniform draws (on the values, as the rounds). */
static double
uniform_best(const sr_space *s, unsigned long seed)
{
	double x[5], best = -INFINITY;
	size_t i, j;

	rng_state = 0x9e3779b97f4a7c15ULL ^ seed;
	for (i = 0; i < ROUNDS * PER; i++) {
		for (j = 0; j < s->n; j++) {
			size_t m = sr_param_count(&s->p[j]);
			double u = (double)rnd(1000000) / 1e6;
			x[j] = m ? sr_param_value(&s->p[j], (size_t)(u * (double)m)) :
			    s->p[j].lo + u * (s->p[j].hi - s->p[j].lo);
		}
		if (f(x) > best)
			best = f(x);
	}
	return best;
}

static void
test_methods(void)
{
	/* the fourth: tpe with independent estimators */
	static const char *const name[] = { "pso", "anneal", "tpe",
	    "tpe --independent" };
	sr_space *s = space(0), *sf = space(1);
	double mean[4] = { 0, 0, 0, 0 }, uni = 0;
	unsigned long seed;
	int m;

	for (seed = 1; seed <= NSEED; seed++) {
		uni += uniform_best(s, seed) / NSEED;
		for (m = 0; m < 4; m++)
			mean[m] += run((enum sr_search_method)(m < 3 ? m : 2), s,
			    seed, m < 3) / NSEED;
	}
	for (m = 0; m < 4; m++) {
		printf("%s: mean best %.5f over %d seeds (uniform %.5f)\n",
		    name[m], mean[m], NSEED, uni);
		if (!(mean[m] > uni))
			fail("%s: mean best %.5f, not above uniform draws' %.5f",
			    name[m], mean[m], uni);
		run((enum sr_search_method)(m < 3 ? m : 2), sf, 3, m < 3);	/* c = 7 */
	}
	sr_space_free(s);
	sr_space_free(sf);
}

static void
test_refusals(void)
{
	sr_space *s = space(0);
	double x[3 * 5] = { 0 }, y[3] = { 0, 0, 0 }, out[4 * 5];
	size_t rd[3] = { 1, 1, 2 }, gap[3] = { 1, 1, 3 };
	sr_search_opts o;
	enum sr_search_method m;
	sr_search_history h = { 3, x, y, rd };

	sr_search_opts_init(&o, 3);
	for (int i = 0; i < 15; i++)
		x[i] = s->p[i % 5].def;
	/* round 2 of pso: round 1 had 2 sets, round 2 draws 4 (2 extra) */
	h.n = 2;
	if (sr_search_round(SR_SEARCH_PSO, &o, s, &h, 2, 4, 1, out))
		fail("pso: a larger round refused");
	/* round 3 after a round 2 smaller than round 1 */
	h.n = 3;
	rd[2] = 2;
	if (!sr_search_round(SR_SEARCH_ANNEAL, &o, s, &h, 3, 2, 1, out))
		fail("anneal: a round 2 of 1 set after a round 1 of 2 accepted");
	/* a history with a round not before the one drawn, or a gap */
	if (!sr_search_round(SR_SEARCH_TPE, &o, s, &h, 2, 2, 1, out))
		fail("tpe: round 2 from a history holding round 2 accepted");
	h.round = gap;
	if (!sr_search_round(SR_SEARCH_TPE, &o, s, &h, 4, 2, 1, out))
		fail("tpe: a history without round 2 accepted");
	if (sr_search_parse("tpe", &m) || m != SR_SEARCH_TPE ||
	    sr_search_parse("TPE", &m) == 0)
		fail("sr_search_parse");
	sr_space_free(s);
}

int
main(void)
{
	sr_init("search_test");
	test_methods();
	test_refusals();
	if (failures)
		printf("%d failures\n", failures);
	return failures != 0;
}
