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

/* Per stage and task: mean seconds and coefficient of variation. */
typedef struct {
	double **mean, **variation;
	double read, overhead;
} model;

/* Takes a read or overhead row (seconds sec, spread 0) at most once;
 * line[] holds where each was seen. */
static void
take_special(sr_tsv *t, int ct, int cs, const char *name, double sec,
    double spread, size_t line[2], model *m)
{
	int overhead = name[0] == 'o';

	if (line[overhead])
		sr_tsv_die(t, ct, "%s repeats line %zu", name, line[overhead]);
	if (spread != 0)
		sr_tsv_die(t, cs, "the %s row takes spread 0", name);
	line[overhead] = t->lineno;
	*(overhead ? &m->overhead : &m->read) = sec;
}

/* Dies when a task of a stage not skipped has no row. */
static void
check_rows(const sr_simcost *c, size_t **line, const char *path)
{
	const sr_workflow *w = c->in->w;
	size_t s, k;

	for (s = 0; s < c->nstage; s++)
		for (k = 0; k < w->stage[s].ntask; k++)
			if (!line[s][k] && !c->st[s].skip)
				sr_die(SR_EXIT_DATA, "%s: no row for task %s (stage %s)",
				    path, w->stage[s].task[k].name, w->stage[s].name);
}

/* Reads the model's rows into m: mean and spread per task (by stage),
 * and the read and overhead rows. */
static void
read_model(const char *path, sr_simcost *c, model *m)
{
	const sr_workflow *w = c->in->w;
	sr_tsv *t = sr_tsv_open(path);
	int ct = sr_tsv_need(t, SR_MODEL_TASK), cs = sr_tsv_need(t, SR_MODEL_SECONDS);
	int cspread = sr_tsv_need(t, SR_MODEL_SPREAD);
	size_t s, k, **line = sr_calloc(c->nstage, sizeof *line), special[2] = { 0 };
	const char *name;
	double sec, spread;

	for (s = 0; s < c->nstage; s++)
		line[s] = sr_calloc(w->stage[s].ntask, sizeof **line);
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
		if (line[s][k])
			sr_tsv_die(t, ct, "task %s repeats line %zu", name,
			    line[s][k]);
		line[s][k] = t->lineno;
		m->mean[s][k] = sec;
		m->variation[s][k] = spread;
	}
	check_rows(c, line, path);
	for (s = 0; s < c->nstage; s++)
		free(line[s]);
	free(line);
	c->nread = special[0] != 0;
	sr_tsv_close(t);
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
draw_stage(sr_simcost *c, size_t s, const model *m, gsl_rng *r)
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
			    m->variation[s][d]);
		}
	}
}

sr_simcost *
sr_simcost_model(const char *path, const sr_instances *in, const char *skip,
    sr_interner *tiles, unsigned long seed, double *overhead)
{
	sr_simcost *c = sr_simcost_new(in, skip);
	model m = { NULL, NULL, 0, -1 };
	size_t s, k;
	gsl_rng *r;

	c->tiles = *tiles;
	sr_interner_init(tiles);
	m.mean = sr_calloc(c->nstage, sizeof *m.mean);
	m.variation = sr_calloc(c->nstage, sizeof *m.variation);
	for (s = 0; s < c->nstage; s++) {
		m.mean[s] = sr_calloc(in->w->stage[s].ntask, sizeof **m.mean);
		m.variation[s] = sr_calloc(in->w->stage[s].ntask,
		    sizeof **m.variation);
	}
	read_model(path, c, &m);
	*overhead = m.overhead;
	if ((r = sr_rng_new(seed)) == NULL)
		sr_die(SR_EXIT_DATA, "out of memory");
	for (s = 0; s < c->nstage; s++) {
		draw_stage(c, s, &m, r);
		free(m.mean[s]);
		free(m.variation[s]);
	}
	gsl_rng_free(r);
	free(m.mean);
	free(m.variation);
	c->read = sr_calloc(c->tiles.n + 1, sizeof *c->read);
	for (k = 0; k < c->tiles.n; k++)
		c->read[k] = m.read;
	sr_simcost_totals(c);
	return c;
}
