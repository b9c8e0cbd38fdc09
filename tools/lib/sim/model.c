/* model.c - node seconds drawn from a cost model (model.h). */
#include "sim/model.h"
#include "plan/instances.h"
#include "core/err.h"
#include "core/rng.h"
#include "core/tsv.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void
sr_simmodel_init(sr_simmodel *m, const sr_workflow *w)
{
	size_t s, nt;

	memset(m, 0, sizeof *m);
	m->w = w;
	m->read = m->overhead = -1;
	m->mean = sr_calloc(w->nstage, sizeof *m->mean);
	m->spread = sr_calloc(w->nstage, sizeof *m->spread);
	m->n = sr_calloc(w->nstage, sizeof *m->n);
	for (s = 0; s < w->nstage; s++) {
		nt = w->stage[s].ntask;
		m->mean[s] = sr_calloc(nt, sizeof **m->mean);
		m->spread[s] = sr_calloc(nt, sizeof **m->spread);
		m->n[s] = sr_calloc(nt, sizeof **m->n);
	}
}

void
sr_simmodel_free(sr_simmodel *m)
{
	size_t s;

	if (m->w == NULL)
		return;
	for (s = 0; s < m->w->nstage; s++) {
		free(m->mean[s]);
		free(m->spread[s]);
		free(m->n[s]);
	}
	free(m->mean);
	free(m->spread);
	free(m->n);
	memset(m, 0, sizeof *m);
}

/* Takes a read or overhead row (seconds sec, spread 0) at most once;
 * line[] holds where each was seen. */
static void
take_special(sr_tsv *t, int ct, int cs, const char *name, double sec,
    double spread, size_t line[2], sr_simmodel *m)
{
	int overhead = name[0] == 'o';

	if (line[overhead])
		sr_tsv_die(t, ct, "%s repeats line %zu", name, line[overhead]);
	if (spread != 0)
		sr_tsv_die(t, cs, "the %s row takes spread 0", name);
	line[overhead] = t->lineno;
	if (overhead)
		m->overhead = sec;
	else {
		m->read = sec;
		m->nread = 1;
	}
}

void
sr_simmodel_check(const sr_simmodel *m, const char *skip, const char *path)
{
	const sr_workflow *w = m->w;
	size_t s, k;

	for (s = 0; s < w->nstage; s++)
		for (k = 0; k < w->stage[s].ntask; k++)
			if (!m->n[s][k] && !(skip && skip[s]))
				sr_die(SR_EXIT_DATA, "%s: no row for task %s (stage %s)",
				    path, w->stage[s].task[k].name, w->stage[s].name);
}

void
sr_simmodel_read(sr_simmodel *m, const char *path, const char *skip)
{
	const sr_workflow *w = m->w;
	sr_tsv *t = sr_tsv_open(path);
	int ct = sr_tsv_need(t, SR_MODEL_TASK), cs = sr_tsv_need(t, SR_MODEL_SECONDS);
	int cspread = sr_tsv_need(t, SR_MODEL_SPREAD);
	size_t s, k, special[2] = { 0 };
	const char *name;
	double sec, spread;

	while (sr_tsv_next(t)) {
		name = sr_tsv_str(t, ct);
		if ((sec = sr_tsv_double(t, cs)) < 0)
			sr_tsv_die(t, cs, "negative seconds");
		if ((spread = sr_tsv_double(t, cspread)) < 0)
			sr_tsv_die(t, cspread, "a negative spread");
		if (strcmp(name, "read") == 0 || strcmp(name, "overhead") == 0) {
			take_special(t, ct, cspread, name, sec, spread, special, m);
			continue;
		}
		if (!sr_workflow_task(w, name, &s, &k))
			sr_tsv_die(t, ct, "'%s' is not a task of %s (nor read or "
			    "overhead)", name, w->path);
		if (m->n[s][k])
			sr_tsv_die(t, ct, "task %s repeats line %zu", name,
			    m->n[s][k]);
		m->n[s][k] = t->lineno;
		m->mean[s][k] = sec;
		m->spread[s][k] = spread;
	}
	sr_simmodel_check(m, skip, t->path);
	sr_tsv_close(t);
}

/* A row of the model file. */
static void
write_row(FILE *fp, const char *name, double sec, double spread)
{
	fprintf(fp, "%s\t", name);
	sr_put_double(fp, sec);
	fputc('\t', fp);
	sr_put_double(fp, spread);
	fputc('\n', fp);
}

void
sr_simmodel_write(FILE *fp, const sr_simmodel *m)
{
	const sr_workflow *w = m->w;
	size_t s, k;

	fprintf(fp, "%s\t%s\t%s\n", SR_MODEL_TASK, SR_MODEL_SECONDS,
	    SR_MODEL_SPREAD);
	for (s = 0; s < w->nstage; s++)
		for (k = 0; k < w->stage[s].ntask; k++)
			if (m->n[s][k])
				write_row(fp, w->stage[s].task[k].name, m->mean[s][k],
				    m->spread[s][k]);
	if (m->read >= 0)
		write_row(fp, "read", m->read, 0);
	if (m->overhead >= 0)
		write_row(fp, "overhead", m->overhead, 0);
}

/* Seconds drawn from a lognormal of the given mean and coefficient of
 * variation. */
static double
draw(gsl_rng *r, double mean, double variation)
{
	double sigma;

	if (mean <= 0 || variation <= 0)
		return mean;
	sigma = sqrt(log1p(variation * variation));
	return gsl_ran_lognormal(r, log(mean) - sigma * sigma / 2, sigma);
}

/* Draws the seconds of every node of stage s on each of the T tiles. */
static void
draw_stage(sr_simcost *c, size_t s, const sr_simmodel *m, gsl_rng *r)
{
	sr_simstage *st = &c->st[s];
	size_t nn = st->tree->nnodes, T = c->tiles.n, v, k, d;

	st->measured = sr_calloc(nn, 1);
	st->cfirst = sr_calloc(nn + 1, sizeof *st->cfirst);
	st->taskmean = sr_calloc(c->in->w->stage[s].ntask * T + 1,
	    sizeof *st->taskmean);
	st->ctile = sr_calloc(nn * T + 1, sizeof *st->ctile);
	st->csec = sr_calloc(nn * T + 1, sizeof *st->csec);
	for (v = 1; v < nn; v++) {
		d = st->tree->node[v].depth - 1;
		st->cfirst[v + 1] = v * T;
		st->measured[v] = 1;
		for (k = 0; k < T && !st->skip; k++) {
			st->ctile[(v - 1) * T + k] = (uint32_t)k;
			st->csec[(v - 1) * T + k] = draw(r, m->mean[s][d],
			    m->spread[s][d]);
		}
	}
}

sr_simcost *
sr_simcost_model(const sr_simmodel *m, const sr_instances *in,
    const char *skip, sr_interner *tiles, unsigned long seed)
{
	sr_simcost *c = sr_simcost_new(in, skip);
	size_t s, k;
	gsl_rng *r;

	c->tiles = *tiles;
	sr_interner_init(tiles);
	c->nread = m->nread;
	if ((r = sr_rng_new(seed)) == NULL)
		sr_die(SR_EXIT_DATA, "out of memory");
	for (s = 0; s < c->nstage; s++)
		draw_stage(c, s, m, r);
	gsl_rng_free(r);
	c->read = sr_calloc(c->tiles.n + 1, sizeof *c->read);
	for (k = 0; k < c->tiles.n; k++)
		c->read[k] = m->read > 0 ? m->read : 0;
	sr_simcost_totals(c);
	return c;
}
