/* prune_test.c - sa-prune's library against hand computations and brute
 * force: ncorr, the kNN surrogate, Algorithm 1 on the study's worked
 * example, the variogram on fields of known nugget and sill, and paggr
 * auto's tests and fallbacks (tools/lib/sa/knn.c, variogram.c, paggr.c,
 * prune.c).
 *
 * Exit 0 when every check passes; otherwise "FAIL: ..." lines, exit 1. */
#include "core/err.h"
#include "core/rng.h"
#include "sa/knn.h"
#include "sa/paggr.h"
#include "sa/prune.h"
#include "sa/variogram.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>

#include "check.h"

static void
near(const char *what, double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail("%s: got %.17g, want %.17g (tol %g)", what, got, want, tol);
}

static void
check(const char *what, int cond)
{
	if (!cond)
		fail("%s", what);
}

/* A space from rows of "name type values default". */
static sr_space *
space_of(const char *const (*rows)[4], size_t n)
{
	sr_space *s = sr_calloc(1, sizeof *s);
	char err[SR_ERRLEN];
	int field;
	size_t i;

	s->p = sr_calloc(n, sizeof *s->p);
	for (i = 0; i < n; i++, s->n++)
		if (sr_param_parse(&s->p[i], rows[i][0], rows[i][1], rows[i][2],
		    rows[i][3], &field, err, sizeof err)) {
			fprintf(stderr, "prune_test: bad space row %zu: %s\n", i, err);
			exit(2);
		}
	return s;
}

/* An experiment of n jobs over dim parameters (raw row-major, y). */
static sr_experiment *
experiment_of(const char *name, const double *raw, const double *y,
    size_t n, size_t dim)
{
	sr_experiment *e = sr_calloc(1, sizeof *e);

	e->name = sr_strdup(name);
	e->source = sr_strdup("test");
	e->n = n;
	e->raw = sr_calloc(n * dim + 1, sizeof *e->raw);
	e->y = sr_calloc(n + 1, sizeof *e->y);
	memcpy(e->raw, raw, n * dim * sizeof *raw);
	memcpy(e->y, y, n * sizeof *y);
	return e;
}

/* ---- ncorr: the rank correlation -------------------------------------- */

static void
test_ncorr(void)
{
	/* p's ranks 2 1 4 3 5 against 1..5: sum d^2 = 4, so
	 * 1 - 6 * 4 / (5 * 24) = 0.8 */
	const double f[5] = { 1, 2, 3, 4, 5 }, p[5] = { 2, 1, 4, 3, 5 };
	/* ties at their mean rank: 1 2.5 2.5 4 against 1 2 3 4, Pearson's
	 * r of the ranks 4.5 / sqrt(4.5 * 5) */
	const double tf[4] = { 1, 2, 2, 3 }, tp[4] = { 1, 2, 3, 4 };
	const double neg[5] = { 8, 6, 4, 2, 0 }, flat[5] = { 3, 3, 3, 3, 3 };
	double e[5];
	size_t i;

	for (i = 0; i < 5; i++)
		e[i] = exp(3 * f[i]);
	near("ncorr of hand vectors", sr_rank_corr(f, p, 5), 0.8, 1e-15);
	near("ncorr symmetric", sr_rank_corr(p, f, 5), 0.8, 1e-15);
	near("ncorr with ties", sr_rank_corr(tf, tp, 4), 4.5 / sqrt(22.5),
	    1e-15);
	near("ncorr of a reversed line", sr_rank_corr(f, neg, 5), -1, 1e-15);
	near("ncorr of a monotone transform is 1", sr_rank_corr(f, e, 5), 1,
	    1e-15);
	check("ncorr of a constant is NaN", isnan(sr_rank_corr(f, flat, 5)));
	check("ncorr of one point is NaN", isnan(sr_rank_corr(f, p, 1)));
}

/* ---- kNN --------------------------------------------------------------- */

static const char *const mixed[][4] = {
	{ "g", "real", "0:0.25:1", "0.5" },	/* scaled by 1 */
	{ "r", "real", "2..6", "3" },		/* scaled by 4 */
	{ "l", "int", "4,8,16", "4" },		/* a category */
	{ "e", "enum", "4,8", "8" },		/* a category */
	{ "i", "int", "10..20", "15" },		/* scaled by 10 */
};

/* Brute force: every distance by the definition, a stable sort by
 * distance, the mean of the first min(k, n). */
static double
brute_knn(const sr_space *s, const double *raw, const double *y, size_t n,
    size_t k, const double *q)
{
	double *d = sr_calloc(n, sizeof *d), sum = 0, t, dd;
	size_t *idx = sr_calloc(n, sizeof *idx), i, j, m;
	const sr_param *p;

	for (i = 0; i < n; i++) {
		for (j = 0, dd = 0; j < s->n; j++) {
			p = &s->p[j];
			if (p->kind == SR_LIST)
				dd += raw[i * s->n + j] != q[j];
			else {
				t = (raw[i * s->n + j] - q[j]) / (p->hi - p->lo);
				dd += t * t;
			}
		}
		d[i] = sqrt(dd);
		idx[i] = i;
	}
	for (i = 1; i < n; i++)	/* insertion sort: stable */
		for (j = i; j > 0 && d[idx[j - 1]] > d[idx[j]]; j--) {
			m = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = m;
		}
	m = k < n ? k : n;
	for (i = 0; i < m; i++)
		sum += y[idx[i]];
	free(d);
	free(idx);
	return sum / (double)m;
}

/* A random parameter set of the mixed space (values on grids, so that
 * distances tie often). */
static void
random_set(const sr_space *s, double *v)
{
	size_t j;

	for (j = 0; j < s->n; j++)
		v[j] = s->p[j].kind == SR_RANGE && s->p[j].type == SR_REAL ?
		    2 + (double)rnd(9) * 0.5 : sr_param_value(&s->p[j],
		    rnd(sr_param_count(&s->p[j])));
}

static void
test_knn(void)
{
	const char *const line[][4] = { { "x", "real", "0..1", "0" } };
	sr_space *s = space_of(mixed, 5), *s1 = space_of(line, 1);
	double raw[60 * 5], y[60], q[5], u[5], *x;
	double lx[3] = { 0, 0.1, 0.2 }, ly[3] = { 1, 2, 3 }, lq = 0.16;
	size_t n = 60, i, t, k, bad = 0;
	sr_cube c, c1;
	sr_knn m;

	/* by hand: the 2 nearest of 0.16 are 0.2 (3) and 0.1 (2) */
	sr_cube_init(&c1, s1);
	m = (sr_knn){ &c1, 3, 2, lx, ly };
	near("kNN by hand, k = 2", sr_knn_predict(&m, &lq), 2.5, 1e-15);
	m.k = 9;
	near("kNN, k above n: the mean of all", sr_knn_predict(&m, &lq), 2, 1e-15);
	m.n = 0;
	check("kNN without jobs is NaN", isnan(sr_knn_predict(&m, &lq)));
	sr_cube_free(&c1);
	sr_cube_init(&c, s);
	check("cube: grid and ranges scaled, list and enum categories",
	    c.width[0] == 1 && c.width[1] == 4 && c.width[2] == 0 &&
	    c.width[3] == 0 && c.width[4] == 10);
	x = sr_calloc(n * 5, sizeof *x);
	for (t = 0; t < 200; t++) {
		for (i = 0; i < n; i++) {
			random_set(s, raw + i * 5);
			y[i] = (double)rnd(1000) / 7;
			sr_cube_point(&c, raw + i * 5, x + i * 5);
		}
		random_set(s, q);
		sr_cube_point(&c, q, u);
		k = 1 + rnd(t % 10 == 0 ? 80 : 8);
		m = (sr_knn){ &c, n, k, x, y };
		if (fabs(sr_knn_predict(&m, u) - brute_knn(s, raw, y, n, k, q)) >
		    1e-12)
			bad++;
	}
	if (bad)
		fail("kNN against brute force: %zu of 200 queries differ", bad);
	free(x);
	sr_cube_free(&c);
	sr_space_free(s);
	sr_space_free(s1);
}

/* ---- Algorithm 1 ------------------------------------------------------- */

/* The study's worked example: the best past job scored 0.4, paggr 75 %:
 * a value whose jobs all scored below 0.3 goes; exactly 0.3 stays. */
static void
test_worked_example(void)
{
	const char *const rows[][4] = {
		{ "G1", "int", "10:10:50", "30" },
		{ "T", "real", "0..1", "0.5" },
		{ "e", "enum", "4,8", "4" },
	};
	/* G1: 10 -> 0.4 (the max), 20 -> exactly 0.3, 30 -> 0.2999 (and a
	 * worse job), 40 -> 0.1, 50 untried; T: bins of 0.25 (bins = 4):
	 * [0,.25) 0.4, [.25,.5) 0.3, [.5,.75) 0.2999, [.75,1] 0.1 */
	const double raw[] = {
		10, 0.1, 8,   20, 0.3, 8,   30, 0.6, 8,   30, 0.55, 8,
		40, 0.9, 8,   20, 0.2, 4,
	};
	const double y[] = { 0.4, 0.3, 0.2999, 0.25, 0.1, 0.05 };
	sr_space *s = space_of(rows, 3);
	sr_experiment *e = experiment_of("past", raw, y, 6, 3);
	sr_cut cut;

	sr_prune_cut(&cut, s, e, 0.75, 4, NULL);
	near("max", cut.max, 0.4, 0);
	near("threshold 0.75 * 0.4", cut.threshold, 0.3, 1e-15);
	check("G1 = 10 (0.4) kept", cut.param[0].kept[0] && !cut.param[0].removed[0]);
	check("G1 = 20: exactly 0.3 is not below 0.3: kept",
	    cut.param[0].kept[1] && !cut.param[0].removed[1]);
	check("G1 = 30: 0.2999 is below: removed", cut.param[0].removed[2] &&
	    !cut.param[0].kept[2]);
	near("G1 = 30's best is its best job", cut.param[0].best[2], 0.2999, 0);
	check("G1 = 40 removed", cut.param[0].removed[3]);
	check("G1 = 50, untried, kept", isnan(cut.param[0].best[4]) &&
	    cut.param[0].kept[4]);
	check("G1 written as a list", cut.param[0].values &&
	    strcmp(cut.param[0].values, "10,20,50") == 0);
	near("G1 keeps 3 of 5", cut.param[0].kept_fraction, 0.6, 1e-15);
	/* T: bins 0 and 1 stay, 2 (0.2999) and 3 go: the hull 0..0.5 */
	check("T's bins 2, 3 removed", cut.param[1].removed[2] &&
	    cut.param[1].removed[3] && !cut.param[1].removed[1]);
	check("T shrinks to 0..0.5", cut.param[1].values &&
	    strcmp(cut.param[1].values, "0..0.5") == 0);
	near("T keeps half its width", cut.param[1].kept_fraction, 0.5, 1e-15);
	/* e: 4's only job scored 0.05, but 4 is the enum's default */
	check("e = 4 removed by the rule, kept as the default",
	    cut.param[2].removed[0] && cut.param[2].kept[0] &&
	    cut.param[2].kept_default && cut.param[2].values == NULL);
	near("removed fraction 1 - 0.6 * 0.5", cut.removed_fraction, 0.7, 1e-15);
	sr_cut_free(&cut);
	/* the current experiment's best set so far at G1 = 30, T = 0.6: both
	 * its values stay, T's hull grows to bin 2 */
	sr_prune_cut(&cut, s, e, 0.75, 4, (const double[]){ 30, 0.6, 4 });
	check("G1 = 30, the current best's, kept", cut.param[0].removed[2] &&
	    cut.param[0].kept[2] && cut.param[0].kept_current &&
	    cut.param[0].current_slot == 2);
	check("G1 written as a list with 30", cut.param[0].values &&
	    strcmp(cut.param[0].values, "10,20,30,50") == 0);
	check("T's bin 2, the current best's, kept: 0..0.75",
	    cut.param[1].kept[2] && cut.param[1].values &&
	    strcmp(cut.param[1].values, "0..0.75") == 0);
	check("a value kept anyway is not the current best's rescue",
	    !cut.param[2].kept_current && cut.param[2].current_slot == 0);
	sr_cut_free(&cut);
	sr_experiment_free(e);
	sr_space_free(s);
}

/* Grids that stay grids, gaps in a range's hull, int ranges, a
 * parameter that would lose every value. */
static void
test_cut_shapes(void)
{
	const char *const rows[][4] = {
		{ "g", "int", "2:2:12", "5" },		/* 2 4 6 8 10 12 */
		{ "r", "real", "0..1", "0" },
		{ "i", "int", "1..5", "3" },		/* 5 integers, 10 bins */
		{ "w", "int", "0..99", "0" },		/* 100 integers, 10 bins */
		{ "x", "int", "1:1:3", "7" },		/* the best job at 7 */
	};
	/* the jobs above the cut (1.0, 0.8) have x = 7, off the values:
	 * x's values 1..3 all score below it and the best of them (x = 1,
	 * 0.2) stays */
	const double raw[] = {
		4, 0.05, 2, 15, 7,	/* 1.0 */
		6, 0.95, 3, 25, 7,	/* 0.8 */
		8, 0.55, 5, 35, 1,	/* 0.2 */
		10, 0.15, 1, 45, 2,	/* 0.1 */
		2, 0.35, 4, 5, 3,	/* 0.05 */
		12, 0.75, 4, 95, 3,	/* 0.1 */
	};
	const double y[] = { 1.0, 0.8, 0.2, 0.1, 0.05, 0.1 };
	sr_space *s = space_of(rows, 5);
	sr_experiment *e = experiment_of("past", raw, y, 6, 5);
	sr_cut cut;

	sr_prune_cut(&cut, s, e, 0.75, 10, NULL);
	check("g: 4 and 6 survive, consecutive: a grid 4:2:6",
	    cut.param[0].values && strcmp(cut.param[0].values, "4:2:6") == 0);
	/* r: 10 bins; bins 0 (1.0) and 9 (0.8) stay, 5, 1, 3, 7 go, the
	 * others untried: the hull is all of it, the gaps kept */
	check("r: the hull of bins 0 and 9 is the whole range",
	    cut.param[1].values == NULL && cut.param[1].removed[5] &&
	    cut.param[1].kept[5]);
	/* i: each integer a bin: 2 (1.0), 3 (0.8) stay; 5, 1, 4 go */
	check("i: 5 integers in 5 bins", cut.param[2].nvalues == 5);
	check("i shrinks to 2..3", cut.param[2].values &&
	    strcmp(cut.param[2].values, "2..3") == 0);
	near("i keeps 2 of 5", cut.param[2].kept_fraction, 0.4, 1e-15);
	/* w: bins of 10 integers: 15 (bin 1), 25 (bin 2) stay, 35, 45, 5,
	 * 95 go, bins 6..8 untried: the hull 10..89 */
	check("w shrinks to 10..89", cut.param[3].values &&
	    strcmp(cut.param[3].values, "10..89") == 0);
	near("w keeps 80 of 100", cut.param[3].kept_fraction, 0.8, 1e-15);
	check("x lost all: its best value stays", cut.param[4].lost_all &&
	    cut.param[4].values && strcmp(cut.param[4].values, "1") == 0);
	sr_cut_free(&cut);
	sr_experiment_free(e);
	sr_space_free(s);
}

/* ---- the variogram ----------------------------------------------------- */

/* Four points on a line with lags of exactly one, two and three steps:
 * z = 0 1 0 2. gamma = (1+1+4)/6 = 1, (0+1)/4 = 1/4, 4/2 = 2 at 1/3,
 * 2/3, 1; the least-squares line has slope 3/2 and intercept 1/12; the
 * sill (variance, n - 1) is 11/12; paggr = 1 - 1/11 = 10/11. */
static void
test_variogram_by_hand(void)
{
	const char *const rows[][4] = { { "x", "real", "0..0.3", "0" } };
	sr_space *s = space_of(rows, 1);
	double raw[4] = { 0, 0.1, 0.2, 0.3 }, z[4] = { 0, 1, 0, 2 }, x[4];
	sr_paggr_opts o = { 3, 0.95, 0.6, 1, 0.1, 0 };
	char err[SR_ERRLEN];
	sr_variogram v;
	sr_paggr a;
	sr_cube c;
	size_t i;

	sr_cube_init(&c, s);
	for (i = 0; i < 4; i++)
		sr_cube_point(&c, raw + i, x + i);
	check("variogram computed", sr_variogram_compute(&v, &c, x, z, 4, 3, 1,
	    err) == 0);
	near("dmax", v.dmax, 1, 1e-12);
	check("pairs per lag 3 2 1", v.pairs[0] == 3 && v.pairs[1] == 2 &&
	    v.pairs[2] == 1);
	near("gamma 1", v.gamma[0], 1, 1e-12);
	near("gamma 2", v.gamma[1], 0.25, 1e-12);
	near("gamma 3", v.gamma[2], 2, 1e-12);
	near("distance 2", v.dist[1], 2.0 / 3, 1e-12);
	near("intercept 1/12", v.intercept, 1.0 / 12, 1e-12);
	near("nugget 1/12", v.nugget, 1.0 / 12, 1e-12);
	near("sill 11/12", v.sill, 11.0 / 12, 1e-12);
	sr_variogram_free(&v);
	sr_paggr_auto(&a, s, &c, raw, x, z, 4, &o);
	check("4 points pass both tests: the variogram decides",
	    a.method == SR_PAGGR_VARIOGRAM);
	near("paggr 10/11", a.paggr, 10.0 / 11, 1e-12);
	sr_paggr_free(&a);
	o.max = 0.9;
	sr_paggr_auto(&a, s, &c, raw, x, z, 4, &o);
	near("paggr capped at --paggr-max", a.paggr, 0.9, 0);
	sr_paggr_free(&a);
	/* z = x: gamma = d^2/2 = 1/18, 2/9, 1/2 at 1/3, 2/3, 1: slope 2/3,
	 * intercept 7/27 - (2/3)(2/3) = -5/27, clamped to 0 */
	z[1] = 1.0 / 3, z[2] = 2.0 / 3, z[3] = 1;
	sr_variogram_compute(&v, &c, x, z, 4, 3, 1, err);
	near("a trend: intercept -5/27", v.intercept, -5.0 / 27, 1e-12);
	near("a trend: nugget clamped at 0", v.nugget, 0, 0);
	sr_variogram_free(&v);
	sr_cube_free(&c);
	sr_space_free(s);
}

/* n random points of the unit square; z = signal + noise of variance
 * tau2. */
static void
field(gsl_rng *rng, size_t n, double *raw, double *z, double amp, double tau2)
{
	size_t i;

	for (i = 0; i < n; i++) {
		raw[2 * i] = gsl_rng_uniform(rng);
		raw[2 * i + 1] = gsl_rng_uniform(rng);
		z[i] = amp * sin(2 * 3.141592653589793 * raw[2 * i]) *
		    cos(3.141592653589793 * raw[2 * i + 1]) +
		    gsl_ran_gaussian(rng, sqrt(tau2));
	}
}

/* White noise: nugget = sill = its variance. A signal plus white noise
 * of variance tau2: the nugget and the sill rise by tau2 over the
 * signal's alone. */
static void
test_variogram_known(void)
{
	const char *const rows[][4] = {
		{ "x", "real", "0..1", "0" }, { "y", "real", "0..1", "0" },
	};
	enum { N = 4000 };
	sr_space *s = space_of(rows, 2);
	gsl_rng *rng = sr_rng_new(7);
	double *raw = sr_calloc(2 * N, sizeof *raw), *z = sr_calloc(N, sizeof *z);
	double *z0 = sr_calloc(N, sizeof *z0), tau2 = 0.09;
	char err[SR_ERRLEN];
	sr_variogram v, v0;
	sr_cube c;
	size_t i;

	sr_cube_init(&c, s);
	field(rng, N, raw, z, 0, 0.25);
	sr_variogram_compute(&v, &c, raw, z, N, 10, 1, err);
	near("white noise: sill 0.25", v.sill, 0.25, 0.02);
	near("white noise: nugget 0.25", v.nugget, 0.25, 0.02);
	for (i = 0; i < v.lags; i++)
		if (v.pairs[i] > 20000)	/* the far lags' few points vary */
			near("white noise: every lag at the sill", v.gamma[i], 0.25,
			    0.03);
	sr_variogram_free(&v);
	/* the same points, once without the noise */
	field(rng, N, raw, z, 0.5, tau2);
	for (i = 0; i < N; i++)
		z0[i] = 0.5 * sin(2 * 3.141592653589793 * raw[2 * i]) *
		    cos(3.141592653589793 * raw[2 * i + 1]);
	sr_variogram_compute(&v0, &c, raw, z0, N, 20, 1, err);
	sr_variogram_compute(&v, &c, raw, z, N, 20, 1, err);
	near("signal + noise: nugget = the signal's intercept + tau2",
	    v.nugget, v0.intercept + tau2, 0.1 * tau2);
	near("signal + noise: sill = the signal's sill + tau2", v.sill,
	    v0.sill + tau2, 0.1 * tau2);
	check("the smooth signal alone has next to no nugget",
	    fabs(v0.intercept) < 0.1 * tau2);
	sr_variogram_free(&v);
	sr_variogram_free(&v0);
	/* more jobs than SR_VARIOGRAM_MAX_JOBS: a subset, the same answer */
	free(raw);
	free(z);
	raw = sr_calloc(2 * 6000, sizeof *raw);
	z = sr_calloc(6000, sizeof *z);
	field(rng, 6000, raw, z, 0, 0.25);
	sr_variogram_compute(&v, &c, raw, z, 6000, 10, 3, err);
	check("6000 jobs: the pairs of 5000", v.used == SR_VARIOGRAM_MAX_JOBS);
	near("6000 jobs of white noise: nugget 0.25", v.nugget, 0.25, 0.02);
	sr_variogram_free(&v);
	check("one job: no variogram", sr_variogram_compute(&v, &c, raw, z, 1,
	    10, 1, err) == -1 && strstr(err, "no pairs"));
	free(z0);
	free(raw);
	free(z);
	gsl_rng_free(rng);
	sr_cube_free(&c);
	sr_space_free(s);
}

/* ---- paggr auto's tests ------------------------------------------------ */

/* Jarque-Bera by hand: moments over n, JB = n/6 (S^2 + (K-3)^2/4), and
 * the chi-squared survival with 2 degrees of freedom, exp(-JB/2). */
static void
test_jarque_bera(void)
{
	const double y[6] = { 1, 2, 3, 4, 10, 2 };
	double m = 22.0 / 6, m2 = 0, m3 = 0, m4 = 0, d, jb;
	sr_jarque_bera r = sr_jarque_bera_test(y, 6);
	size_t i;

	for (i = 0; i < 6; i++) {
		d = y[i] - m;
		m2 += d * d / 6;
		m3 += d * d * d / 6;
		m4 += d * d * d * d / 6;
	}
	jb = 1.0 * (m3 * m3 / (m2 * m2 * m2) + pow(m4 / (m2 * m2) - 3, 2) / 4);
	near("JB statistic by hand", r.statistic, jb, 1e-12);
	near("JB p = exp(-JB/2)", r.p, exp(-jb / 2), 1e-12);
	r = sr_jarque_bera_test((const double[]){ 5, 5, 5 }, 3);
	check("JB of constant values: not computed", isnan(r.p));
}

/* The two-sided p of |t| by Simpson's rule on the t density (brute
 * force, no GSL cdf). */
static double
t_two_sided(double t, double df)
{
	double c = exp(gsl_sf_lngamma((df + 1) / 2) - gsl_sf_lngamma(df / 2)) /
	    sqrt(df * 3.141592653589793), h, s = 0, x;
	size_t i, n = 200000;

	h = fabs(t) / (double)n;
	for (i = 0; i <= n; i++) {
		x = (double)i * h;
		s += (i == 0 || i == n ? 1 : i % 2 ? 4 : 2) * c *
		    pow(1 + x * x / df, -(df + 1) / 2);
	}
	return 1 - 2 * s * h / 3;
}

/* Welch's t by hand on two samples, its p against the integral; a shift
 * in the mean or the spread of one half is caught. */
static void
test_split(void)
{
	/* a = 1 2 3 4 (x = 0), b = 2 4 6 8 10 (x = 1): means 2.5, 6;
	 * variances 5/3, 10; se^2 = 5/12 + 2 */
	const double x[9] = { 0, 0, 0, 0, 1, 1, 1, 1, 1 };
	const double y[9] = { 1, 2, 3, 4, 2, 4, 6, 8, 10 };
	double se2 = 5.0 / 12 + 2, t = -3.5 / sqrt(se2);
	double df = se2 * se2 / (pow(5.0 / 12, 2) / 3 + 4.0 / 4);
	double xs[400], ys[400];
	gsl_rng *rng = sr_rng_new(3);
	sr_split_test r = sr_split_test_at_median(x, 1, y, 9);
	size_t i;

	check("split at the median 1: below it against at or above", r.split &&
	    r.nlow == 4 && r.nhigh == 5);
	near("Welch t", r.t, t, 1e-12);
	near("Welch df", r.t_df, df, 1e-12);
	near("Welch p against the integral", r.t_p, t_two_sided(t, df), 1e-7);
	near("F = (5/3) / 10", r.f, 1.0 / 6, 1e-12);
	for (i = 0; i < 400; i++) {
		xs[i] = (double)(i % 20);
		ys[i] = gsl_ran_gaussian(rng, 1);
	}
	r = sr_split_test_at_median(xs, 1, ys, 400);
	check("no trend: both p above 0.01", r.t_p > 0.01 && r.f_p > 0.01);
	for (i = 0; i < 400; i++)
		ys[i] += xs[i] >= 10 ? 0.8 : 0;
	r = sr_split_test_at_median(xs, 1, ys, 400);
	check("a shifted half: Welch p below 0.01", r.t_p < 0.01 && r.f_p > 0.01);
	for (i = 0; i < 400; i++)
		ys[i] = gsl_ran_gaussian(rng, xs[i] >= 10 ? 3 : 1);
	r = sr_split_test_at_median(xs, 1, ys, 400);
	check("a wider half: F p below 0.01", r.f_p < 0.01);
	for (i = 0; i < 400; i++)
		xs[i] = 5;
	r = sr_split_test_at_median(xs, 1, ys, 400);
	check("a constant parameter is not split", !r.split);
	gsl_rng_free(rng);
}

/* paggr auto on n jobs of the unit square: values from draw. */
static sr_paggr
auto_on(const sr_space *s, gsl_rng *rng, int kind, size_t n,
    double fallback)
{
	double *raw = sr_calloc(2 * n, sizeof *raw), *y = sr_calloc(n, sizeof *y);
	sr_paggr_opts o = { 10, 0.9, fallback, 1, 0.1, 0 };
	sr_paggr a;
	sr_cube c;
	size_t i;

	sr_cube_init(&c, s);
	for (i = 0; i < n; i++) {
		raw[2 * i] = gsl_rng_uniform(rng);
		raw[2 * i + 1] = gsl_rng_uniform(rng);
		y[i] = kind == 0 ? gsl_ran_gaussian(rng, 1) :
		    kind == 1 ? gsl_ran_exponential(rng, 1) :
		    gsl_ran_gaussian(rng, 1) + 1.2 * raw[2 * i + 1];
	}
	sr_paggr_auto(&a, s, &c, raw, raw, y, n, &o);
	sr_cube_free(&c);
	free(raw);
	free(y);
	return a;
}

static void
test_fallbacks(void)
{
	const char *const rows[][4] = {
		{ "x", "real", "0..1", "0" }, { "y", "real", "0..1", "0" },
	};
	sr_space *s = space_of(rows, 2);
	gsl_rng *rng = sr_rng_new(11);
	sr_paggr a;

	a = auto_on(s, rng, 0, 300, 0.6);	/* normal, stationary, nugget */
	check("normal white noise: the variogram decides",
	    a.method == SR_PAGGR_VARIOGRAM && a.jb.p > 0.05);
	near("white noise: paggr near 0", a.paggr, 0, 0.15);
	sr_paggr_free(&a);
	a = auto_on(s, rng, 1, 300, 0.6);	/* exponential: skewed */
	check("exponential values fail Jarque-Bera: the fallback",
	    a.method == SR_PAGGR_FALLBACK && a.jb.p < 0.05 &&
	    strncmp(a.why, "jarque_bera", 11) == 0);
	near("the fallback's paggr", a.paggr, 0.6, 0);
	sr_paggr_free(&a);
	a = auto_on(s, rng, 2, 300, 0.6);	/* a trend in y */
	check("a trend in y: normal, but y's split fails stationarity",
	    a.method == SR_PAGGR_FALLBACK && a.jb.p > 0.05 &&
	    strstr(a.why, "stationarity") && strstr(a.why, "median of y"));
	sr_paggr_free(&a);
	/* without a fixed fallback: the top share rule, capped at 0.9 */
	a = auto_on(s, rng, 1, 300, NAN);
	check("exponential values, no fixed fallback: the top share rule",
	    a.method == SR_PAGGR_TOP && strncmp(a.why, "jarque_bera", 11) == 0 &&
	    a.top_score > 0 && a.paggr > 0 && a.paggr <= 0.9);
	sr_paggr_free(&a);
	gsl_rng_free(rng);
	sr_space_free(s);
}

/* The top share rule by hand: 0.1, 0.2, ..., 1.0; the best 10 % score
 * their 0.9 quantile, 0.9 + 0.1 * (1.0 - 0.9) = 0.91 (R's type 7). */
static void
test_paggr_top(void)
{
	double y[10], q;
	size_t i;

	for (i = 0; i < 10; i++)
		y[9 - i] = 0.1 * (double)(i + 1);	/* unsorted */
	near("paggr 0.91", sr_paggr_top(y, 10, 0.1, 0, 1, &q), 0.91, 1e-12);
	near("its score", q, 0.91, 1e-12);
	near("the best 50 %: the median 0.55", sr_paggr_top(y, 10, 0.5, 0, 1,
	    &q), 0.55, 1e-12);
	near("capped at max", sr_paggr_top(y, 10, 0.1, 0, 0.9, &q), 0.9, 0);
	near("raised to min", sr_paggr_top(y, 10, 0.5, 0.6, 1, &q), 0.6, 0);
	for (i = 0; i < 10; i++)
		y[i] -= 2;
	check("a best score not positive: NaN",
	    isnan(sr_paggr_top(y, 10, 0.1, 0, 1, &q)));
}

/* ---- sa-prune's choice ------------------------------------------------- */

/* The current experiment and three past ones: the same landscape, its
 * reverse, a shifted copy. The same one is chosen; with --min-ncorr
 * above every ncorr, none. */
static void
test_choice(void)
{
	const char *const rows[][4] = { { "x", "int", "0:1:9", "0" } };
	double raw[10], y[10], rev[10], shift[10];
	sr_experiment *cur, *past[3];
	sr_prune_opts o = { 2, 0, 1, 0.5, 10, 0, 0.75, { 10, 0.9, 0.6, 1, 0.1, 0 } };
	sr_prune_result r;
	char err[SR_ERRLEN];
	sr_space *s = space_of(rows, 1);
	size_t i;

	for (i = 0; i < 10; i++) {
		raw[i] = (double)i;
		y[i] = 0.5 - 0.04 * fabs((double)i - 6);
		rev[i] = 1 - y[i];
		shift[i] = 0.5 - 0.04 * fabs((double)i - 2);
	}
	cur = experiment_of("cur", raw, y, 10, 1);
	past[0] = experiment_of("reverse", raw, rev, 10, 1);
	past[1] = experiment_of("shifted", raw, shift, 10, 1);
	past[2] = experiment_of("same", raw, y, 10, 1);
	check("sa-prune runs", sr_prune_run(&r, s, cur, past, 3, &o, err) == 0);
	check("the same landscape chosen", r.pruned && r.chosen == 2);
	check("every past experiment ran the current sets", r.shared[0] == 10 &&
	    r.shared[1] == 10 && r.shared[2] == 10);
	near("its ncorr", r.ncorr[2], 1, 1e-12);
	check("the reverse's ncorr is -1 and the shifted one's between",
	    fabs(r.ncorr[0] + 1) < 1e-12 && r.ncorr[1] > -1 && r.ncorr[1] < 1);
	/* 0.75 * 0.5 = 0.375: x from 3 to 9 (0.38 .. 0.5) stay */
	check("x pruned to 3:1:9", r.space && strcmp(r.space->p[0].values_text,
	    "3:1:9") == 0);
	sr_prune_result_free(&r);
	o.min_ncorr = 1;
	past[2]->y[0] += 0.1;	/* its ranks change */
	sr_prune_run(&r, s, cur, past, 3, &o, err);
	check("min-ncorr 1 above every ncorr: nothing pruned, and why",
	    !r.pruned && r.chosen < 0 && strstr(r.why, "below --min-ncorr"));
	sr_prune_result_free(&r);
	sr_prune_run(&r, s, NULL, past, 3, &o, err);
	check("no current experiment: nothing pruned, and why", !r.pruned &&
	    strstr(r.why, "no current experiment"));
	sr_prune_result_free(&r);
	for (i = 0; i < 3; i++)
		sr_experiment_free(past[i]);
	sr_experiment_free(cur);
	/* three points ranked 1 3 2 against 1 2 3: ncorr 1 - 6 * 2 / 24 =
	 * 0.5 exactly, which reaches --min-ncorr 0.5 (computed a hair
	 * below it) */
	cur = experiment_of("cur", raw, (const double[]){ 1, 3, 2 }, 3, 1);
	past[0] = experiment_of("p", raw, (const double[]){ 1, 2, 3 }, 3, 1);
	o.min_ncorr = 0.5;
	sr_prune_run(&r, s, cur, past, 1, &o, err);
	near("three points: ncorr 0.5", r.ncorr[0], 0.5, 1e-12);
	check("ncorr 0.5 reaches --min-ncorr 0.5", r.chosen == 0);
	sr_prune_result_free(&r);
	sr_experiment_free(past[0]);
	sr_experiment_free(cur);
	sr_space_free(s);
}

int
main(void)
{
	test_ncorr();
	test_knn();
	test_worked_example();
	test_cut_shapes();
	test_variogram_by_hand();
	test_variogram_known();
	test_jarque_bera();
	test_split();
	test_fallbacks();
	test_paggr_top();
	test_choice();
	if (failures)
		return 1;
	printf("prune_test: all checks passed\n");
	return 0;
}
