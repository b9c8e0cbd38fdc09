/* search.c - searches that learn from results (search.h). Written here:
 * GSL has no swarm, annealing schedule over batches or Parzen estimator,
 * and the rounds must be a pure function of the history (no state). */
#include "sa/search.h"
#include "core/err.h"
#include "core/hash.h"
#include "core/rng.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* What a generator is for: a set's start, its move, an acceptance, TPE's
 * candidates, an extra set of a larger round. */
enum { USE_START = 1, USE_MOVE, USE_ACCEPT, USE_CANDIDATES, USE_EXTRA,
    USE_RESAMPLE };

void
sr_search_opts_init(sr_search_opts *o, size_t rounds)
{
	o->rounds = rounds;
	o->inertia = 0.7298;
	o->c1 = o->c2 = 1.49618;
	o->vmax = 0.5;
	o->cooling = 0;
	o->step = 0.25;
	o->gamma = 0.1;
	o->gamma_max = 25;
	o->candidates = 24;
	o->multivariate = 1;
}

int
sr_search_parse(const char *name, enum sr_search_method *m)
{
	if (strcmp(name, "pso") == 0)
		*m = SR_SEARCH_PSO;
	else if (strcmp(name, "anneal") == 0)
		*m = SR_SEARCH_ANNEAL;
	else if (strcmp(name, "tpe") == 0)
		*m = SR_SEARCH_TPE;
	else
		return -1;
	return 0;
}

/* The generator of (seed, round, set, use). */
static gsl_rng *
stream(unsigned long seed, size_t round, size_t set, unsigned use)
{
	uint64_t h = sr_hash_u64((uint64_t)seed << 32 ^ (uint64_t)round);
	gsl_rng *r;

	h = sr_hash_u64(h ^ (uint64_t)set << 8 ^ use);
	r = sr_rng_new((unsigned long)(h % ((uint64_t)SR_SEED_MAX + 1)));
	if (r == NULL)
		sr_die(SR_EXIT_IO, "cannot allocate a random number generator");
	return r;
}

/* Whether parameter p moves: neither fixed nor of one value. */
static int
free_param(const sr_param *p)
{
	return !p->fixed && sr_param_count(p) != 1;
}

/* The unit coordinate of v, a value of p or not (a default off the grid,
 * a value a pruned space has not): the nearest one's. */
static double
to_unit(const sr_param *p, double v)
{
	double u = sr_param_unit_of(p, v), best = INFINITY;
	size_t m = sr_param_count(p), i, k = 0;

	if (!isnan(u))
		return u;
	if (m == 0)
		u = p->hi > p->lo ? (v - p->lo) / (p->hi - p->lo) : 0;
	else {
		for (i = 0; i < m; i++)
			if (fabs(sr_param_value(p, i) - v) < best) {
				best = fabs(sr_param_value(p, i) - v);
				k = i;
			}
		u = m > 1 ? (double)k / (double)(m - 1) : 0;
	}
	return u < 0 ? 0 : u > 1 ? 1 : u;
}

/* The value at unit coordinate u: the nearest (or the fixed one). */
static double
snap(const sr_param *p, double u)
{
	if (p->fixed)
		return p->fixed_value;
	return sr_param_at_level(p, u < 0 ? 0 : u > 1 ? 1 : u);
}

/* Writes the values of the unit point u into row. */
static void
put_row(const sr_space *s, const double *u, double *row)
{
	size_t j;

	for (j = 0; j < s->n; j++)
		row[j] = snap(&s->p[j], u[j]);
}

/* A uniform point into u (every coordinate drawn, moving or not). */
static void
uniform_point(const sr_space *s, gsl_rng *r, double *u)
{
	size_t j;

	for (j = 0; j < s->n; j++)
		u[j] = gsl_rng_uniform(r);
}

/* A score to compare: a failed set's the worst. */
static double
score(double y)
{
	return isnan(y) ? -INFINITY : y;
}

/* Where each round of h starts: first[1..round], first[round] = h->n;
 * NULL or why not. */
static const char *
round_starts(const sr_search_history *h, size_t round, size_t *first)
{
	size_t i, r = 1;

	first[1] = 0;
	for (i = 0; i < h->n; i++) {
		if (h->round[i] < r || h->round[i] >= round)
			return "the history's rounds are not those before the "
			    "round drawn, in order";
		if (h->round[i] > r + 1)
			return "the history lacks a round before the round "
			    "drawn";
		if (h->round[i] == r + 1)
			first[++r] = i;
	}
	if (round > 1 && r != round - 1)
		return "the history lacks a round before the round drawn";
	first[round] = h->n;
	return NULL;
}

/* The sets of the chains or particles: round 1's; every later round
 * needs as many. */
static const char *
swarm_size(const size_t *first, size_t round, size_t q, size_t *n)
{
	size_t r;

	*n = round == 1 ? q : first[2] - first[1];
	for (r = 2; r < round; r++)
		if (first[r + 1] - first[r] < *n)
			return "a round before has fewer sets than round 1";
	return NULL;
}

/* Sets p.. of the round drawn uniformly (the extra ones of a round
 * larger than the swarm). */
static void
extra_sets(const sr_space *s, size_t round, size_t from, size_t q,
    unsigned long seed, double *u, double *out)
{
	size_t i;

	for (i = from; i < q; i++) {
		gsl_rng *r = stream(seed, round, i, USE_EXTRA);
		uniform_point(s, r, u);
		gsl_rng_free(r);
		put_row(s, u, out + i * s->n);
	}
}

/* ---- particle swarm ---------------------------------------------------- */

static const char *
pso(const sr_search_opts *o, const sr_space *s, const sr_search_history *h,
    const size_t *first, size_t round, size_t q, unsigned long seed,
    double *out)
{
	size_t k = s->n, np, i, j, r;
	const char *why = swarm_size(first, round, q, &np);
	double *x, *v, *pb, *pby, *g, gy = -INFINITY, y, *u;
	int have_g = 0;
	gsl_rng *rng;

	if (why)
		return why;
	x = sr_calloc(np * k + 1, sizeof *x);
	v = sr_calloc(np * k + 1, sizeof *v);
	pb = sr_calloc(np * k + 1, sizeof *pb);
	pby = sr_calloc(np + 1, sizeof *pby);
	g = sr_calloc(k + 1, sizeof *g);
	u = sr_calloc(k + 1, sizeof *u);
	for (i = 0; i < np; i++) {	/* the swarm's start */
		rng = stream(seed, 1, i, USE_START);
		uniform_point(s, rng, x + i * k);
		for (j = 0; j < k; j++)
			v[i * k + j] = (gsl_rng_uniform(rng) - x[i * k + j]) / 2;
		gsl_rng_free(rng);
		pby[i] = -INFINITY;
	}
	for (r = 1; r < round; r++) {
		for (i = 0; i < np; i++) {	/* round r's scores */
			y = score(h->y[first[r] + i]);
			if (r == 1 || y > pby[i]) {
				pby[i] = y;
				memcpy(pb + i * k, x + i * k, k * sizeof *pb);
			}
			if (!have_g || y > gy) {
				gy = y;
				memcpy(g, x + i * k, k * sizeof *g);
				have_g = 1;
			}
		}
		for (i = 0; i < np; i++) {	/* the next generation */
			rng = stream(seed, r + 1, i, USE_MOVE);
			for (j = 0; j < k; j++) {
				double *xi = x + i * k + j, *vi = v + i * k + j;
				double r1 = gsl_rng_uniform(rng);
				double r2 = gsl_rng_uniform(rng);
				*vi = o->inertia * *vi + o->c1 * r1 * (pb[i * k +
				    j] - *xi) + o->c2 * r2 * (g[j] - *xi);
				*vi = fmax(-o->vmax, fmin(o->vmax, *vi));
				*xi += *vi;
				if (*xi < 0 || *xi > 1) {	/* a wall */
					*xi = *xi < 0 ? 0 : 1;
					*vi = 0;
				}
			}
			gsl_rng_free(rng);
		}
	}
	for (i = 0; i < np && i < q; i++)
		put_row(s, x + i * k, out + i * k);
	extra_sets(s, round, np, q, seed, u, out);
	free(x);
	free(v);
	free(pb);
	free(pby);
	free(g);
	free(u);
	return NULL;
}

/* ---- simulated annealing ----------------------------------------------- */

/* The start temperature: the median absolute difference of the scores
 * y[0..n) that are numbers, over ln 2; a tiny one without two. */
static double
start_temperature(const double *y, size_t n)
{
	double *d = sr_calloc(n * n / 2 + 1, sizeof *d), t;
	size_t i, j, m = 0;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (!isnan(y[i]) && !isnan(y[j]))
				d[m++] = fabs(y[i] - y[j]);
	gsl_sort(d, 1, m);
	t = m == 0 ? 0 : gsl_stats_median_from_sorted_data(d, 1, m);
	free(d);
	return t > 0 ? t / log(2) : 1e-12;
}

/* A neighbour of the chain's state u (unit coordinates, discrete ones on
 * their values) into to: each moving coordinate with probability 2/k,
 * at least one, by N(0, sd), reflected into [0, 1]; a discrete one at
 * least to the next value. */
static void
neighbour(const sr_space *s, const double *u, double sd, gsl_rng *r,
    double *to)
{
	size_t j, kf = 0, moved = 0, pick, m;
	double step, w;

	memcpy(to, u, s->n * sizeof *to);
	for (j = 0; j < s->n; j++)
		kf += free_param(&s->p[j]);
	if (kf == 0)
		return;
	pick = gsl_rng_uniform_int(r, kf);
	for (j = 0; j < s->n; j++) {
		if (!free_param(&s->p[j]))
			continue;
		w = gsl_rng_uniform(r);
		step = gsl_ran_gaussian(r, sd);
		if (!(w < 2.0 / (double)kf) && !(moved == 0 && pick-- == 0))
			continue;
		moved++;
		to[j] = u[j] + step;
		while (to[j] < 0 || to[j] > 1)	/* reflected */
			to[j] = to[j] < 0 ? -to[j] : 2 - to[j];
		if ((m = sr_param_count(&s->p[j])) > 1) {	/* on a value */
			double a = round(u[j] * (double)(m - 1));
			double b = round(to[j] * (double)(m - 1));
			if (b == a)
				b = step >= 0 ? (a + 1 < (double)m ? a + 1 : a - 1) :
				    (a > 0 ? a - 1 : a + 1);
			to[j] = b / (double)(m - 1);
		}
	}
}

/* Population annealing's resampling (Hukushima and Iba 2003): the nc
 * chains' states drawn again, systematically, with weights exp((y -
 * max y) / t), so that chains stuck in poor regions continue from good
 * states; the order of the chains kept where a state survives. */
static void
resample(double *x, double *ys, size_t nc, size_t k, double t,
    unsigned long seed, size_t r)
{
	double *w = sr_calloc(nc + 1, sizeof *w), *nx, *ny, top = -INFINITY;
	double sum = 0, u, acc;
	size_t c, i = 0;
	gsl_rng *rng;

	for (c = 0; c < nc; c++)
		top = fmax(top, ys[c]);
	if (!isfinite(top)) {	/* every chain failed: nothing to prefer */
		free(w);
		return;
	}
	for (c = 0; c < nc; c++)
		sum += w[c] = isfinite(ys[c]) ? exp((ys[c] - top) / t) : 0;
	nx = sr_calloc(nc * k + 1, sizeof *nx);
	ny = sr_calloc(nc + 1, sizeof *ny);
	rng = stream(seed, r, 0, USE_RESAMPLE);
	u = gsl_rng_uniform(rng) / (double)nc;
	gsl_rng_free(rng);
	for (c = 0, acc = w[0] / sum; c < nc; c++) {
		double at = u + (double)c / (double)nc;
		while (at > acc && i + 1 < nc)
			acc += w[++i] / sum;
		memcpy(nx + c * k, x + i * k, k * sizeof *nx);
		ny[c] = ys[i];
	}
	memcpy(x, nx, nc * k * sizeof *x);
	memcpy(ys, ny, nc * sizeof *ys);
	free(nx);
	free(ny);
	free(w);
}

static const char *
anneal(const sr_search_opts *o, const sr_space *s, const sr_search_history *h,
    const size_t *first, size_t round, size_t q, unsigned long seed,
    double *out)
{
	size_t k = s->n, nc, c, j, r;
	const char *why = swarm_size(first, round, q, &nc);
	double *x, *ys, *prop, t0 = 1, t, a, sd, y;
	gsl_rng *rng;

	if (why)
		return why;
	x = sr_calloc(nc * k + 1, sizeof *x);
	ys = sr_calloc(nc + 1, sizeof *ys);
	prop = sr_calloc(k + 1, sizeof *prop);
	for (c = 0; c < nc; c++) {	/* the chains' starts, on values */
		rng = stream(seed, 1, c, USE_START);
		uniform_point(s, rng, x + c * k);
		gsl_rng_free(rng);
		for (j = 0; j < k; j++)
			x[c * k + j] = to_unit(&s->p[j], snap(&s->p[j],
			    x[c * k + j]));
	}
	if (round > 1) {
		t0 = start_temperature(h->y + first[1], nc);
		for (c = 0; c < nc; c++)
			ys[c] = score(h->y[first[1] + c]);
	}
	a = o->cooling > 0 ? o->cooling : pow(0.05, 1.0 / (double)(o->rounds >
	    3 ? o->rounds - 2 : 1));
	for (r = 2; r <= round; r++) {
		t = t0 * pow(a, (double)(r - 2));
		sd = fmax(0.02, o->step * sqrt(t / t0));
		for (c = 0; c < nc; c++) {
			rng = stream(seed, r, c, USE_MOVE);
			neighbour(s, x + c * k, sd, rng, prop);
			gsl_rng_free(rng);
			if (r == round) {	/* the round drawn */
				if (c < q)
					put_row(s, prop, out + c * k);
				continue;
			}
			y = score(h->y[first[r] + c]);	/* Metropolis */
			rng = stream(seed, r, c, USE_ACCEPT);
			if (y >= ys[c] || gsl_rng_uniform(rng) < exp((y - ys[c]) /
			    t)) {
				memcpy(x + c * k, prop, k * sizeof *prop);
				ys[c] = y;
			}
			gsl_rng_free(rng);
		}
		if (r < round)
			resample(x, ys, nc, k, t, seed, r);
	}
	if (round == 1)
		for (c = 0; c < nc && c < q; c++)
			put_row(s, x + c * k, out + c * k);
	extra_sets(s, round, nc, q, seed, prop, out);
	free(x);
	free(ys);
	free(prop);
	return NULL;
}

/* ---- tree-structured Parzen estimator ---------------------------------- */

/* A Parzen estimator of one coordinate: truncated Gaussians on [0, 1]
 * (the prior N(0.5, 1) first), or, for an enum, a categorical one. */
typedef struct {
	size_t n;		/* components, the prior's included */
	double *mu, *sd, *z;	/* z: the mass of each inside [0, 1] */
	size_t m;		/* an enum's values (0: numeric) */
	double *p;		/* m probabilities */
} parzen;

static void
parzen_make(parzen *e, const sr_param *p, const double *u, size_t n)
{
	size_t i, m = p->type == SR_ENUM ? sr_param_count(p) : 0;
	double *v, lo, hi, sdmin = 1.0 / (double)(n + 1 < 100 ? n + 1 : 100);

	memset(e, 0, sizeof *e);
	if ((e->m = m) > 0) {	/* a prior of weight 1 spread evenly */
		e->p = sr_calloc(m, sizeof *e->p);
		for (i = 0; i < m; i++)
			e->p[i] = 1.0 / (double)m / (double)(n + 1);
		for (i = 0; i < n; i++)
			e->p[(size_t)round(u[i] * (double)(m - 1))] += 1.0 /
			    (double)(n + 1);
		return;
	}
	e->n = n + 1;
	e->mu = sr_calloc(n + 1, sizeof *e->mu);
	e->sd = sr_calloc(n + 1, sizeof *e->sd);
	e->z = sr_calloc(n + 1, sizeof *e->z);
	v = sr_calloc(n + 1, sizeof *v);
	memcpy(v, u, n * sizeof *v);
	gsl_sort(v, 1, n);
	e->mu[0] = 0.5;
	e->sd[0] = 1;
	for (i = 0; i < n; i++) {	/* as wide as the larger gap */
		lo = i > 0 ? v[i] - v[i - 1] : v[i];
		hi = i + 1 < n ? v[i + 1] - v[i] : 1 - v[i];
		e->mu[i + 1] = v[i];
		e->sd[i + 1] = fmin(1, fmax(sdmin, fmax(lo, hi)));
	}
	for (i = 0; i < e->n; i++)
		e->z[i] = gsl_cdf_ugaussian_P((1 - e->mu[i]) / e->sd[i]) -
		    gsl_cdf_ugaussian_P(-e->mu[i] / e->sd[i]);
	free(v);
}

static void
parzen_free(parzen *e)
{
	free(e->mu);
	free(e->sd);
	free(e->z);
	free(e->p);
}

/* The log density at u (an enum: its value's index). */
static double
parzen_log(const parzen *e, double u)
{
	double d = 0;
	size_t i;

	if (e->m > 0)
		return log(e->p[(size_t)round(u * (double)(e->m - 1))]);
	for (i = 0; i < e->n; i++)
		d += gsl_ran_gaussian_pdf(u - e->mu[i], e->sd[i]) / e->z[i];
	return log(d / (double)e->n);
}

/* A draw from the estimator. */
static double
parzen_draw(const parzen *e, gsl_rng *r)
{
	double w = gsl_rng_uniform(r), x = 0;
	size_t i, tries;

	if (e->m > 0) {
		for (i = 0; i + 1 < e->m && w >= e->p[i]; i++)
			w -= e->p[i];
		return e->m > 1 ? (double)i / (double)(e->m - 1) : 0;
	}
	i = gsl_rng_uniform_int(r, e->n);
	for (tries = 0; tries < 100; tries++)	/* truncated to [0, 1] */
		if ((x = e->mu[i] + gsl_ran_gaussian(r, e->sd[i])) >= 0 && x <= 1)
			return x;
	return x < 0 ? 0 : 1;
}

/* Whether row (k values) equals one of the n rows of x. */
static int
seen(const double *row, const double *x, size_t n, size_t k)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (memcmp(row, x + i * k, k * sizeof *row) == 0)
			return 1;
	return 0;
}

/* The history's sets with a score, best first, by their index. */
static const sr_search_history *sort_h;

static int
by_score(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	double x = sort_h->y[i], y = sort_h->y[j];

	return x > y ? -1 : x < y ? 1 : (i > j) - (i < j);
}

/* Multivariate TPE's estimator: a mixture of product kernels, one per
 * set (the prior, uniform, first), each numeric coordinate a truncated
 * Gaussian of one bandwidth around the set's, each enum half on the
 * set's value and half spread evenly (Falkner et al. 2018; Optuna's
 * multivariate TPE: bandwidth 0.2 n^(-1 / (d + 4)) of the unit range). */
typedef struct {
	const sr_space *s;
	size_t n, k;		/* components (the prior's included), dims */
	double *u;		/* (n - 1) * k unit coordinates */
	double sd;
} mparzen;

static void
mparzen_make(mparzen *e, const sr_space *s, const double *u, size_t n)
{
	size_t j, d = 0;

	for (j = 0; j < s->n; j++)
		d += free_param(&s->p[j]);
	e->s = s;
	e->k = s->n;
	e->n = n + 1;
	e->u = sr_calloc(n * s->n + 1, sizeof *e->u);
	memcpy(e->u, u, n * s->n * sizeof *u);
	e->sd = 0.2 * pow((double)(n > 0 ? n : 1), -1.0 / ((double)d + 4));
}

/* log k_ij(v): component i (0 the prior) at coordinate j. */
static double
mkernel_log(const mparzen *e, size_t i, size_t j, double v)
{
	const sr_param *p = &e->s->p[j];
	size_t m = p->type == SR_ENUM ? sr_param_count(p) : 0, a, b;
	double mu, z;

	if (i == 0)
		return m > 0 ? -log((double)m) : 0;
	mu = e->u[(i - 1) * e->k + j];
	if (m > 0) {
		a = (size_t)round(v * (double)(m - 1));
		b = (size_t)round(mu * (double)(m - 1));
		return log(0.5 * (a == b) + 0.5 / (double)m);
	}
	z = gsl_cdf_ugaussian_P((1 - mu) / e->sd) -
	    gsl_cdf_ugaussian_P(-mu / e->sd);
	return log(gsl_ran_gaussian_pdf(v - mu, e->sd) / z);
}

/* The log density at the unit point u, over the moving parameters. */
static double
mparzen_log(const mparzen *e, const double *u)
{
	double *c = sr_calloc(e->n, sizeof *c), top = -INFINITY, sum = 0;
	size_t i, j;

	for (i = 0; i < e->n; i++) {
		for (j = 0; j < e->k; j++)
			if (free_param(&e->s->p[j]))
				c[i] += mkernel_log(e, i, j, u[j]);
		top = fmax(top, c[i]);
	}
	for (i = 0; i < e->n; i++)
		sum += exp(c[i] - top);
	free(c);
	return top + log(sum / (double)e->n);
}

/* A draw: one component, every coordinate from its kernel. */
static void
mparzen_draw(const mparzen *e, gsl_rng *r, double *u)
{
	size_t i = gsl_rng_uniform_int(r, e->n), j, m, t;
	const sr_param *p;
	double mu, x = 0;

	for (j = 0; j < e->k; j++) {
		p = &e->s->p[j];
		m = p->type == SR_ENUM ? sr_param_count(p) : 0;
		if (i == 0) {
			u[j] = gsl_rng_uniform(r);
			continue;
		}
		mu = e->u[(i - 1) * e->k + j];
		if (m > 0) {
			u[j] = gsl_rng_uniform(r) < 0.5 ? mu : m > 1 ?
			    (double)gsl_rng_uniform_int(r, m) / (double)(m - 1) : 0;
			continue;
		}
		for (t = 0; t < 100; t++)
			if ((x = mu + gsl_ran_gaussian(r, e->sd)) >= 0 && x <= 1)
				break;
		u[j] = x < 0 ? 0 : x > 1 ? 1 : x;
	}
}

static const char *
tpe(const sr_search_opts *o, const sr_space *s, const sr_search_history *h,
    size_t round, size_t q, unsigned long seed, double *out)
{
	size_t k = s->n, i, j, c, n = 0, ngood;
	size_t *ix = sr_calloc(h->n + 1, sizeof *ix);
	double *ug = sr_calloc(h->n + 1, sizeof *ug), *ub, *u, *row, best, lr;
	double *brow;
	parzen *l = sr_calloc(k + 1, sizeof *l), *g = sr_calloc(k + 1, sizeof *g);
	mparzen ml, mg;
	gsl_rng *r;

	ub = sr_calloc(h->n + 1, sizeof *ub);
	u = sr_calloc(k + 1, sizeof *u);
	row = sr_calloc(k + 1, sizeof *row);
	brow = sr_calloc(k + 1, sizeof *brow);
	for (i = 0; i < h->n; i++)
		if (!isnan(h->y[i]))
			ix[n++] = i;
	sort_h = h;
	qsort(ix, n, sizeof *ix, by_score);
	ngood = (size_t)ceil(o->gamma * (double)n);
	ngood = ngood > o->gamma_max ? o->gamma_max : ngood < 1 ? 1 : ngood;
	for (j = 0; j < k && round > 1 && n > 0; j++) {
		for (i = 0; i < n; i++)
			*(i < ngood ? &ug[i] : &ub[i - ngood]) = to_unit(
			    &s->p[j], h->x[ix[i] * k + j]);
		parzen_make(&l[j], &s->p[j], ug, ngood < n ? ngood : n);
		parzen_make(&g[j], &s->p[j], ub, n > ngood ? n - ngood : 0);
	}
	if (o->multivariate && round > 1 && n > 0) {
		double *all = sr_calloc(n * k + 1, sizeof *all);
		for (i = 0; i < n; i++)
			for (j = 0; j < k; j++)
				all[i * k + j] = to_unit(&s->p[j], h->x[ix[i] * k + j]);
		mparzen_make(&ml, s, all, ngood < n ? ngood : n);
		mparzen_make(&mg, s, all + (ngood < n ? ngood : n) * k,
		    n > ngood ? n - ngood : 0);
		free(all);
	}
	for (i = 0; i < q; i++) {
		if (round == 1 || n == 0) {	/* the startup: uniform */
			r = stream(seed, round, i, USE_START);
			uniform_point(s, r, u);
			gsl_rng_free(r);
			put_row(s, u, out + i * k);
			continue;
		}
		r = stream(seed, round, i, USE_CANDIDATES);
		best = -INFINITY;
		int have = 0, fresh = 0;
		for (c = 0; c < o->candidates; c++) {
			if (o->multivariate) {
				mparzen_draw(&ml, r, u);
				lr = mparzen_log(&ml, u) - mparzen_log(&mg, u);
			} else for (j = 0, lr = 0; j < k; j++) {
				u[j] = parzen_draw(&l[j], r);
				if (free_param(&s->p[j]))
					lr += parzen_log(&l[j], u[j]) -
					    parzen_log(&g[j], u[j]);
			}
			put_row(s, u, row);
			int f = !seen(row, h->x, h->n, k) && !seen(row, out, i, k);
			if (!have || (f && !fresh) || (f == fresh && lr > best)) {
				best = lr;
				memcpy(brow, row, k * sizeof *row);
				have = 1;
				fresh = f;
			}
		}
		gsl_rng_free(r);
		memcpy(out + i * k, brow, k * sizeof *brow);
	}
	for (j = 0; j < k && round > 1 && n > 0; j++) {
		parzen_free(&l[j]);
		parzen_free(&g[j]);
	}
	if (o->multivariate && round > 1 && n > 0) {
		free(ml.u);
		free(mg.u);
	}
	free(l);
	free(g);
	free(ix);
	free(ug);
	free(ub);
	free(u);
	free(row);
	free(brow);
	return NULL;
}

const char *
sr_search_round(enum sr_search_method m, const sr_search_opts *o,
    const sr_space *s, const sr_search_history *h, size_t round, size_t q,
    unsigned long seed, double *out)
{
	size_t *first = sr_calloc(round + 2, sizeof *first);
	const char *why;

	if (round < 1)
		why = "rounds count from 1";
	else if ((why = round_starts(h, round, first)) != NULL)
		;
	else if (m == SR_SEARCH_PSO)
		why = pso(o, s, h, first, round, q, seed, out);
	else if (m == SR_SEARCH_ANNEAL)
		why = anneal(o, s, h, first, round, q, seed, out);
	else
		why = tpe(o, s, h, round, q, seed, out);
	free(first);
	return why;
}

double
sr_search_project(const sr_param *p, const sr_param *q, double v)
{
	double best = INFINITY, w = NAN, d, x;
	size_t i, m = sr_param_count(q);

	if (q->fixed)
		return q->fixed_value;
	if (!isnan(x = sr_param_recode(p, q, v)) && !isnan(sr_param_unit_of(q,
	    x)))	/* one of q's values (its default may not be) */
		return x;
	if (m == 0)
		return v < q->lo ? q->lo : v > q->hi ? q->hi : v;
	for (i = 0; i < m; i++) {
		x = sr_param_value(q, i);
		d = fabs((p->word ? sr_param_recode(q, p, x) : x) - v);
		if (d < best) {
			best = d;
			w = x;
		}
	}
	return p->word ? sr_param_recode(q, p, w) : w;
}

const char *
sr_search_within(const sr_space *s, const sr_space *within, size_t q,
    double *out)
{
	size_t i, j;
	int k;

	for (j = 0; j < s->n; j++) {
		if ((k = sr_space_find(within, s->p[j].name)) < 0)
			return s->p[j].name;
		for (i = 0; i < q; i++)
			out[i * s->n + j] = sr_search_project(&s->p[j],
			    &within->p[k], out[i * s->n + j]);
	}
	return NULL;
}

void
sr_search_history_free(sr_search_history *h)
{
	free((double *)h->x);
	free((double *)h->y);
	free((size_t *)h->round);
	memset(h, 0, sizeof *h);
}
