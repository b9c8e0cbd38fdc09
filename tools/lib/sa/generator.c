/* generator.c - design generators: unit-cube samplers, random search, full
 * grid, Morris (MOAT) trajectories and Saltelli (VBD) blocks. */
#include "sa/generator.h"
#include "core/parallel.h"
#include "sa/efast.h"
#include "sa/rbd.h"
#include "core/hash.h"
#include "core/rng.h"
#include "sa/morris.h"
#include "sa/rows.h"
#include "core/err.h"
#include "sa/sampler.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#define FAIL(...) do { snprintf(errbuf, errlen, __VA_ARGS__); \
	return errbuf; } while (0)

/* g's groups of its varied parameters (generator.h), in the order of
 * their first parameter. */
static void
init_groups(sr_generator *g)
{
	size_t j, c, any = 0;
	const char *name;

	g->group_name = sr_calloc(g->k + 1, sizeof *g->group_name);
	g->group_of = sr_calloc(g->k + 1, sizeof *g->group_of);
	for (j = 0; j < g->k; j++)
		any += sr_space_group(g->space, g->varied[j]) != NULL;
	if (!any)
		return;
	for (j = 0; j < g->k; j++) {
		name = sr_space_group(g->space, g->varied[j]);
		if (name == NULL)
			name = g->space->p[g->varied[j]].name;
		for (c = 0; c < g->ngroup && strcmp(g->group_name[c], name); c++)
			;
		if (c == g->ngroup)
			g->group_name[g->ngroup++] = name;
		g->group_of[j] = c;
	}
}

void
sr_generator_init(sr_generator *g, const sr_space *s, FILE *fp, unsigned long seed)
{
	size_t i;

	memset(g, 0, sizeof *g);
	g->space = s;
	g->fp = fp;
	g->seed = seed;
	g->mismatch = -1;
	g->varied = sr_calloc(s->n, sizeof *g->varied);
	g->row = sr_calloc(s->n, sizeof *g->row);
	g->writer = sr_calloc(1, sizeof *g->writer);
	sr_row_writer_init(g->writer, s->n, s);
	for (i = 0; i < s->n; i++) {
		const sr_param *p = &s->p[i];
		if (p->fixed)
			g->row[i] = p->fixed_value;
		else if (p->nlist == 1)
			g->row[i] = sr_param_value(p, 0);
		else
			g->varied[g->k++] = i;
	}
	init_groups(g);
}

void
sr_generator_free(sr_generator *g)
{
	free(g->varied);
	free(g->row);
	free(g->group_name);
	free(g->group_of);
	sr_row_writer_free(g->writer);
	free(g->writer);
}

void
sr_generator_flush(sr_generator *g)
{
	sr_row_writer_flush(g->writer);
}

static void
emit(sr_generator *g)
{
	if (g->before_rows) {
		g->before_rows(g->arg);
		g->before_rows = NULL;
	}
	if (g->run < g->nexpect && g->mismatch < 0 && memcmp(g->row,
	    g->expect + g->run * g->space->n, g->space->n * sizeof *g->row))
		g->mismatch = (long)g->run;
	sr_row_writer_put(g->writer, g->fp, g->run++, g->row);
}

/* Writes a row from k unit coordinates: strata (level = 0) or Morris
 * levels (level = 1). */
static void
emit_unit(sr_generator *g, const double *u, int level)
{
	size_t j;

	for (j = 0; j < g->k; j++) {
		const sr_param *p = &g->space->p[g->varied[j]];
		g->row[g->varied[j]] = level ? sr_param_at_level(p, u[j]) :
		    sr_param_from_unit(p, u[j]);
	}
	emit(g);
}

void
sr_generator_put(sr_generator *g, const double *row)
{
	size_t j;

	for (j = 0; j < g->k; j++)
		g->row[g->varied[j]] = row[g->varied[j]];
	emit(g);
}

void
sr_generator_reference(sr_generator *g)
{
	size_t i;

	for (i = 0; i < g->space->n; i++)
		g->row[i] = g->space->p[i].fixed ? g->space->p[i].fixed_value :
		    g->space->p[i].def;
	emit(g);
}

static gsl_rng *
new_rng(unsigned long seed)
{
	gsl_rng *r = sr_rng_new(seed);

	if (r == NULL)
		sr_die(SR_EXIT_DATA, "out of memory (random generator)");
	return r;
}

const char *
sr_generator_unit(sr_generator *g, int method, size_t n, char *errbuf, size_t errlen)
{
	gsl_rng *rng = new_rng(g->seed);
	sr_sampler *s = sr_sampler_new(method, n, g->k, rng, errbuf, errlen);
	double *u = sr_calloc(g->k, sizeof *u);
	size_t i;

	if (s == NULL) {
		free(u);
		gsl_rng_free(rng);
		return errbuf;
	}
	for (i = 0; i < n; i++) {
		sr_sampler_next(s, u);
		emit_unit(g, u, 0);
	}
	sr_sampler_free(s);
	free(u);
	gsl_rng_free(rng);
	return NULL;
}

/* Number of distinct parameter sets of the varied discrete parameters
 * (+inf when one is continuous). */
static double
combinations(const sr_generator *g)
{
	double c = 1;
	size_t j;

	for (j = 0; j < g->k; j++) {
		size_t m = sr_param_count(&g->space->p[g->varied[j]]);
		c *= m ? (double)m : INFINITY;
	}
	return c;
}

const char *
sr_generator_random(sr_generator *g, size_t n, char *errbuf, size_t errlen)
{
	double c = combinations(g);
	sr_interner drawn;	/* the rows so far, as raw bytes */
	gsl_rng *rng;
	double *v;
	size_t j, k = g->k ? g->k : 1;
	int added;

	if ((double)n > c)
		FAIL("random: %zu distinct parameter sets asked for, the space "
		    "has only %.0f", n, c);
	sr_interner_init(&drawn);
	v = sr_calloc(k, sizeof *v);
	rng = new_rng(g->seed);
	while (drawn.n < n) {
		for (j = 0; j < g->k; j++) {
			size_t i = g->varied[j];
			v[j] = g->row[i] = sr_param_from_unit(&g->space->p[i],
			    gsl_rng_uniform(rng));
		}
		sr_intern(&drawn, v, k * sizeof *v, &added);
		if (added)
			emit(g);
	}
	free(v);
	gsl_rng_free(rng);
	sr_interner_free(&drawn);
	return NULL;
}

double
sr_generator_grid_size(const sr_generator *g, size_t levels)
{
	double c = 1;
	size_t j;

	for (j = 0; j < g->k && c < 1e300; j++) {
		size_t m = sr_param_count(&g->space->p[g->varied[j]]);
		c *= m ? (double)m : (double)levels;
	}
	return c;
}

void
sr_generator_grid(sr_generator *g, size_t levels)
{
	size_t *idx, *count, j;

	idx = sr_calloc(g->k + 1, sizeof *idx);
	count = sr_calloc(g->k + 1, sizeof *count);
	for (j = 0; j < g->k; j++) {
		size_t m = sr_param_count(&g->space->p[g->varied[j]]);
		count[j] = m ? m : levels;
	}
	for (;;) {		/* odometer: the last parameter turns fastest */
		for (j = 0; j < g->k; j++) {
			const sr_param *p = &g->space->p[g->varied[j]];
			g->row[g->varied[j]] = sr_param_count(p) ?
			    sr_param_value(p, idx[j]) : sr_param_at_level(p,
			    (double)idx[j] / (double)(levels - 1));
		}
		emit(g);
		for (j = g->k; j-- > 0;) {
			if (++idx[j] < count[j])
				break;
			idx[j] = 0;
		}
		if (j == (size_t)-1)
			break;
	}
	free(idx);
	free(count);
}

/* Morris levels of each varied parameter: p, or its own count if fewer. */
static size_t *
morris_levels(const sr_generator *g, size_t levels)
{
	size_t *lv = sr_calloc(g->k ? g->k : 1, sizeof *lv), j, m;

	for (j = 0; j < g->k; j++) {
		m = sr_param_count(&g->space->p[g->varied[j]]);
		lv[j] = m && m < levels ? m : levels;
	}
	return lv;
}

const char *
sr_generator_moat(sr_generator *g, size_t r, size_t levels, size_t optimize,
    char *errbuf, size_t errlen)
{
	size_t pts = (g->ngroup ? g->ngroup : g->k) + 1, t, i;
	size_t want = optimize ? optimize : r;
	size_t *lv, *chosen;
	double *traj;
	gsl_rng *rng;

	if (g->k == 0)
		FAIL("moat: no parameter varies");
	if (want > r)
		FAIL("moat: --optimize %zu keeps more than the %zu trajectories "
		    "drawn (-r)", want, r);
	lv = morris_levels(g, levels);
	traj = sr_calloc(r * pts, g->k * sizeof *traj);
	chosen = sr_calloc(want, sizeof *chosen);
	rng = new_rng(g->seed);
	for (t = 0; t < r; t++)
		sr_morris_trajectory_groups(rng, g->k, lv, g->ngroup, g->group_of,
		    traj + t * pts * g->k);
	gsl_rng_free(rng);
	if (!optimize)
		for (t = 0; t < want; t++)
			chosen[t] = t;
	else if (sr_morris_select(traj, r, g->k, pts, want, 1e6, chosen,
	    errbuf)) {
		free(lv);
		free(traj);
		free(chosen);
		return errbuf;
	}
	for (t = 0; t < want; t++)
		for (i = 0; i < pts; i++)
			emit_unit(g, traj + (chosen[t] * pts + i) * g->k, 1);
	free(lv);
	free(traj);
	free(chosen);
	return NULL;
}

size_t
sr_vbd_sobol_skip(size_t n)
{
	size_t m = 16;

	while (m < n)
		m *= 2;
	return m;
}

/* ab: row a with factor f (parameter f, or the parameters of group f)
 * taken from row b, as SALib's Saltelli sampler crosses its matrices. */
static void
cross(const sr_generator *g, const double *a, const double *b, size_t f,
    double *ab)
{
	size_t j;

	memcpy(ab, a, g->k * sizeof *ab);
	for (j = 0; j < g->k; j++)
		if (g->ngroup ? g->group_of[j] == f : j == f)
			ab[j] = b[j];
}

const char *
sr_generator_vbd(sr_generator *g, int base, size_t n, int second_order, char *errbuf,
    size_t errlen)
{
	size_t k = g->k, nf = g->ngroup ? g->ngroup : g->k, i, j;
	double *u, *ab;
	gsl_rng *rng;
	sr_sampler *s;

	if (k == 0)
		FAIL("vbd: no parameter varies");
	if (base == SR_SOBOL && 2 * k > SR_SOBOL_MAX_DIM)
		FAIL("vbd: --base sobol needs dimension 2k = %zu, beyond GSL's "
		    "Sobol limit of %d (k <= %d); use --base halton or lhs",
		    2 * k, SR_SOBOL_MAX_DIM, SR_SOBOL_MAX_DIM / 2);
	rng = new_rng(g->seed);
	if ((s = sr_sampler_new(base, n, 2 * k, rng, errbuf, errlen)) == NULL) {
		gsl_rng_free(rng);
		return errbuf;
	}
	u = sr_calloc(2 * k, sizeof *u);
	ab = sr_calloc(k, sizeof *ab);
	if (base == SR_SOBOL)	/* as SALib: skip max(16, 2^ceil(log2 n)) points */
		for (i = 0; i < sr_vbd_sobol_skip(n); i++)
			sr_sampler_next(s, u);
	for (i = 0; i < n; i++) {
		sr_sampler_next(s, u);		/* A = u[0..k), B = u[k..2k) */
		emit_unit(g, u, 0);
		for (j = 0; j < nf; j++) {	/* AB_j: A with factor j of B */
			cross(g, u, u + k, j, ab);
			emit_unit(g, ab, 0);
		}
		for (j = 0; second_order && j < nf; j++) {	/* BA_j */
			cross(g, u + k, u, j, ab);
			emit_unit(g, ab, 0);
		}
		emit_unit(g, u + k, 0);
	}
	free(u);
	free(ab);
	sr_sampler_free(s);
	gsl_rng_free(rng);
	return NULL;
}

/* A block of eFAST points, made on threads (sin and asin were a third
 * of sa-sample's time): rows [t0, t0 + count) of block i into u. */
typedef struct {
	const double *omega;
	size_t n, k, i, t0, count;
	double phi, *u;
} efast_rows;

#define EFAST_PIECE 1024	/* rows a thread takes at a time */

static void
efast_piece(void *ctx, size_t piece, size_t worker)
{
	const efast_rows *e = ctx;
	size_t t = piece * EFAST_PIECE, end = t + EFAST_PIECE;

	(void)worker;
	if (end > e->count)
		end = e->count;
	for (; t < end; t++)
		sr_efast_point(e->omega, e->n, e->k, e->i, e->t0 + t, e->phi,
		    e->u + t * e->k);
}

const char *
sr_generator_efast(sr_generator *g, size_t n, size_t m, char *errbuf,
    size_t errlen)
{
	size_t k = g->k, i, t, b, block = 16 * EFAST_PIECE;
	double *omega;
	gsl_rng *rng;
	efast_rows e;

	if (k == 0)
		FAIL("efast: no parameter varies");
	if (!sr_efast_enough(n, m))
		FAIL("efast: -n %zu: a parameter's block needs more than 4 M^2 = "
		    "%zu runs (M = %zu)", n, 4 * m * m, m);
	rng = new_rng(g->seed);
	omega = sr_calloc(k, sizeof *omega);
	sr_efast_frequencies(n, m, k, omega);
	e = (efast_rows){ .omega = omega, .n = n, .k = k,
	    .u = sr_calloc(block * k, sizeof *e.u) };
	for (i = 0; i < k; i++) {
		e.i = i;
		e.phi = 2 * SR_EFAST_PI * gsl_rng_uniform(rng);	/* Saltelli 1999 */
		for (b = 0; b < n; b += block) {
			e.t0 = b;
			e.count = n - b < block ? n - b : block;
			sr_parallel((e.count + EFAST_PIECE - 1) / EFAST_PIECE,
			    sr_cpus(), efast_piece, &e);
			for (t = 0; t < e.count; t++)
				emit_unit(g, e.u + t * k, 0);
		}
	}
	free(e.u);
	free(omega);
	gsl_rng_free(rng);
	return NULL;
}

const char *
sr_generator_rbd(sr_generator *g, size_t n, char *errbuf, size_t errlen)
{
	size_t k = g->k, i, t, *perm;
	double *curve, *u;
	gsl_rng *rng;

	if (k == 0)
		FAIL("rbd_fast: no parameter varies");
	if (n < SR_RBD_MIN_RUNS(SR_RBD_M))
		FAIL("rbd_fast: -n %zu: its analysis needs at least %d runs "
		    "(M = %d harmonics, more than 2 M in half of the runs, a "
		    "bootstrap replicate)", n, SR_RBD_MIN_RUNS(SR_RBD_M), SR_RBD_M);
	rng = new_rng(g->seed);
	curve = sr_calloc(n, sizeof *curve);
	perm = sr_calloc(n * k, sizeof *perm);
	u = sr_calloc(k, sizeof *u);
	sr_rbd_curve(n, gsl_rng_uniform(rng), curve);
	for (i = 0; i < k; i++) {	/* each parameter's own order */
		for (t = 0; t < n; t++)
			perm[i * n + t] = t;
		gsl_ran_shuffle(rng, perm + i * n, n, sizeof *perm);
	}
	for (t = 0; t < n; t++) {
		for (i = 0; i < k; i++)
			u[i] = curve[perm[i * n + t]];
		emit_unit(g, u, 0);
	}
	free(u);
	free(perm);
	free(curve);
	gsl_rng_free(rng);
	return NULL;
}
