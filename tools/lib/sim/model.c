/* model.c - node seconds drawn from a cost model (model.h). */
#include "sim/model.h"
#include "plan/instances.h"
#include "core/err.h"
#include "core/text.h"
#include "core/rng.h"
#include "core/tsv.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The key of a task's row on a tile (SR_NONE: every tile) in m->at. */
static uint64_t
row_key(size_t task, size_t tile)
{
	return ((uint64_t)task << 32) | (uint64_t)(tile == SR_NONE ? 0 : tile + 1);
}

void
sr_simmodel_init(sr_simmodel *m, const sr_workflow *w, const char *path)
{
	size_t s;

	memset(m, 0, sizeof *m);
	m->w = w;
	m->path = path;
	m->overhead = -1;
	m->first = sr_calloc(w->nstage + 1, sizeof *m->first);
	for (s = 0; s < w->nstage; s++)
		m->first[s + 1] = m->first[s] + w->stage[s].ntask;
	sr_interner_init(&m->tiles);
	sr_imap_init(&m->at);
}

void
sr_simmodel_free(sr_simmodel *m)
{
	free(m->first);
	free(m->row);
	sr_interner_free(&m->tiles);
	sr_imap_free(&m->at);
	memset(m, 0, sizeof *m);
}

size_t
sr_simmodel_task(const sr_simmodel *m, size_t s, size_t k)
{
	return m->first[s] + k;
}

size_t
sr_simmodel_read_task(const sr_simmodel *m)
{
	return m->first[m->w->nstage];
}

size_t
sr_simmodel_add(sr_simmodel *m, const sr_modelrow *r)
{
	int added;
	size_t *at = sr_imap_at(&m->at, row_key(r->task, r->tile), &added);

	if (!added)
		return m->row[*at].n ? m->row[*at].n : 1;
	*at = m->nrow;
	if (m->nrow == m->caprow) {
		m->caprow = m->caprow ? 2 * m->caprow : 32;
		m->row = sr_reallocarray(m->row, m->caprow, sizeof *m->row);
	}
	m->row[m->nrow++] = *r;
	return 0;
}

/* The row of task on exactly tile (SR_NONE: every tile), or NULL. */
static const sr_modelrow *
exact_row(const sr_simmodel *m, size_t task, size_t tile)
{
	const size_t *at = sr_imap_find(&m->at, row_key(task, tile));

	return at ? &m->row[*at] : NULL;
}

const sr_modelrow *
sr_simmodel_get(const sr_simmodel *m, size_t task, size_t tile)
{
	const sr_modelrow *r = tile == SR_NONE ? NULL : exact_row(m, task, tile);

	return r ? r : exact_row(m, task, SR_NONE);
}

/* ---- the file ---------------------------------------------------------------- */

/* The name of flat task number task (the read pseudo-task: "read"). */
static const char *
task_name(const sr_simmodel *m, size_t task)
{
	size_t s;

	for (s = 0; s < m->w->nstage; s++)
		if (task < m->first[s + 1])
			return m->w->stage[s].task[task - m->first[s]].name;
	return "read";
}

/* Dies when a task of a stage not skipped has no row at all. */
static void
check_rows(const sr_simmodel *m, const char *skip, const char *path)
{
	const sr_workflow *w = m->w;
	size_t s, k, i, task;

	for (s = 0; s < w->nstage; s++)
		for (k = 0; k < w->stage[s].ntask && !(skip && skip[s]); k++) {
			task = sr_simmodel_task(m, s, k);
			for (i = 0; i < m->nrow && m->row[i].task != task; i++)
				;
			if (i == m->nrow)
				sr_die(SR_EXIT_DATA, "%s: no row for task %s (stage %s)",
				    path, w->stage[s].task[k].name, w->stage[s].name);
		}
}

/* The tile of the current row (column col, -1: none): SR_NONE for every
 * tile, else one of m's tiles. */
static size_t
row_tile(sr_simmodel *m, sr_tsv *t, int col)
{
	const char *name = col < 0 ? SR_MODEL_ALL : sr_tsv_str(t, col);

	if (name[0] == '\0')
		sr_tsv_die(t, col, "no tile: a tile's name, or %s for every tile",
		    SR_MODEL_ALL);
	return strcmp(name, SR_MODEL_ALL) == 0 ? SR_NONE :
	    sr_intern_str(&m->tiles, name, NULL);
}

/* Takes the overhead row (every tile, spread 0) at most once. */
static void
take_overhead(sr_simmodel *m, sr_tsv *t, const int col[3], size_t tile,
    double sec, double spread, size_t *line)
{
	if (*line)
		sr_tsv_die(t, col[0], "overhead repeats line %zu", *line);
	if (tile != SR_NONE)
		sr_tsv_die(t, col[2], "the overhead row is for every tile (%s)",
		    SR_MODEL_ALL);
	if (spread != 0)
		sr_tsv_die(t, col[1], "the overhead row takes spread 0");
	*line = t->lineno;
	m->overhead = sec;
}

void
sr_simmodel_read(sr_simmodel *m, const char *skip)
{
	sr_tsv *t = sr_tsv_open(m->path);
	int ct = sr_tsv_need(t, SR_MODEL_TASK), cs = sr_tsv_need(t, SR_MODEL_SECONDS);
	int col[3] = { ct, sr_tsv_need(t, SR_MODEL_SPREAD),
	    sr_tsv_col(t, SR_MODEL_TILE) };
	size_t s, k, tile, prev, overhead = 0;
	sr_modelrow r;
	const char *name;

	while (sr_tsv_next(t)) {
		name = sr_tsv_str(t, ct);
		memset(&r, 0, sizeof r);
		if ((r.mean = sr_tsv_double(t, cs)) < 0)
			sr_tsv_die(t, cs, "negative seconds");
		if ((r.spread = sr_tsv_double(t, col[1])) < 0)
			sr_tsv_die(t, col[1], "a negative spread");
		r.tile = tile = row_tile(m, t, col[2]);
		r.n = t->lineno;
		if (strcmp(name, "overhead") == 0) {
			take_overhead(m, t, col, tile, r.mean, r.spread, &overhead);
			continue;
		}
		if (strcmp(name, "read") == 0) {
			if (r.spread != 0)
				sr_tsv_die(t, col[1], "the read row takes spread 0");
			r.task = sr_simmodel_read_task(m);
		} else if (sr_workflow_task(m->w, name, &s, &k))
			r.task = sr_simmodel_task(m, s, k);
		else
			sr_tsv_die(t, ct, "'%s' is not a task of %s (nor read or "
			    "overhead)", SR_SHOW(name), m->w->path);
		if ((prev = sr_simmodel_add(m, &r)) != 0)
			sr_tsv_die(t, ct, "%s%s%s repeats line %zu", r.task ==
			    sr_simmodel_read_task(m) ? "" : "task ", SR_SHOW(name),
			    tile ==
			    SR_NONE ? "" : " on this tile", prev);
	}
	check_rows(m, skip, t->path);
	sr_tsv_close(t);
}

/* A row of the model file, if there is one. */
static void
write_row(FILE *fp, const sr_simmodel *m, size_t task, size_t tile)
{
	const sr_modelrow *r = exact_row(m, task, tile);

	if (r == NULL)
		return;
	fprintf(fp, "%s\t%s\t", task_name(m, task), tile == SR_NONE ?
	    SR_MODEL_ALL : (const char *)sr_interner_key(&m->tiles, tile, NULL));
	sr_put_double(fp, r->mean);
	fputc('\t', fp);
	sr_put_double(fp, r->spread);
	fputc('\n', fp);
}

void
sr_simmodel_write(FILE *fp, const sr_simmodel *m)
{
	size_t task, tile;

	fprintf(fp, "%s\t%s\t%s\t%s\n", SR_MODEL_TASK, SR_MODEL_TILE,
	    SR_MODEL_SECONDS, SR_MODEL_SPREAD);
	for (task = 0; task <= sr_simmodel_read_task(m); task++) {
		write_row(fp, m, task, SR_NONE);
		for (tile = 0; tile < m->tiles.n; tile++)
			write_row(fp, m, task, tile);
	}
	if (m->overhead >= 0) {
		fprintf(fp, "overhead\t%s\t", SR_MODEL_ALL);
		sr_put_double(fp, m->overhead);
		fputs("\t0\n", fp);
	}
}

/* ---- the draws ----------------------------------------------------------------- */

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

/* The rows of stage s's tasks on the tiles (mtile: each one's tile of
 * the model, or SR_NONE), task by task; dies on a task without a row for
 * a tile. */
static const sr_modelrow **
stage_rows(const sr_simmodel *m, size_t s, const sr_simcost *c,
    const size_t *mtile)
{
	const sr_stage *st = &m->w->stage[s];
	size_t T = c->tiles.n, d, k;
	const sr_modelrow **rows = sr_calloc(st->ntask * T + 1, sizeof *rows);

	for (d = 0; d < st->ntask; d++)
		for (k = 0; k < T; k++) {
			rows[d * T + k] = sr_simmodel_get(m,
			    sr_simmodel_task(m, s, d), mtile[k]);
			if (rows[d * T + k] == NULL)
				sr_die(SR_EXIT_DATA, "%s: no row for task %s (stage "
				    "%s) on tile %s, nor one for every tile (%s)",
				    m->path, st->task[d].name, st->name,
				    (const char *)sr_interner_key(&c->tiles, k, NULL),
				    SR_MODEL_ALL);
		}
	return rows;
}

/* Draws the seconds of every node of stage s on each of the T tiles. */
static void
draw_stage(sr_simcost *c, size_t s, const sr_simmodel *m,
    const size_t *mtile, gsl_rng *r)
{
	sr_simstage *st = &c->st[s];
	size_t nn = st->tree->nnodes, T = c->tiles.n, v, k, d;
	const sr_modelrow **rows = st->skip ? NULL : stage_rows(m, s, c, mtile);

	st->measured = sr_calloc(nn, 1);
	st->cfirst = sr_calloc(nn + 1, sizeof *st->cfirst);
	st->taskmean = sr_calloc(m->w->stage[s].ntask * T + 1,
	    sizeof *st->taskmean);
	st->ctile = sr_calloc(nn * T + 1, sizeof *st->ctile);
	st->csec = sr_calloc(nn * T + 1, sizeof *st->csec);
	for (v = 1; v < nn; v++) {
		d = st->tree->node[v].depth - 1;
		st->cfirst[v + 1] = v * T;
		st->measured[v] = 1;
		for (k = 0; k < T && !st->skip; k++) {
			st->ctile[(v - 1) * T + k] = (uint32_t)k;
			st->csec[(v - 1) * T + k] = draw(r, rows[d * T + k]->mean,
			    rows[d * T + k]->spread);
		}
	}
	free(rows);
}

sr_simcost *
sr_simcost_model(const sr_simmodel *m, const sr_instances *in,
    const char *skip, sr_interner *tiles, unsigned long seed)
{
	sr_simcost *c = sr_simcost_new(in, skip);
	size_t s, k, *mtile;
	const sr_modelrow *rd;
	gsl_rng *r;

	c->tiles = *tiles;
	sr_interner_init(tiles);
	mtile = sr_calloc(c->tiles.n + 1, sizeof *mtile);
	for (k = 0; k < c->tiles.n; k++)	/* SIZE_MAX (SR_NONE): not one */
		mtile[k] = sr_interner_find_str(&m->tiles,
		    sr_interner_key(&c->tiles, k, NULL));
	if ((r = sr_rng_new(seed)) == NULL)
		sr_die(SR_EXIT_DATA, "out of memory");
	for (s = 0; s < c->nstage; s++)
		draw_stage(c, s, m, mtile, r);
	gsl_rng_free(r);
	c->read = sr_calloc(c->tiles.n + 1, sizeof *c->read);
	for (k = 0; k < c->tiles.n; k++) {
		rd = sr_simmodel_get(m, sr_simmodel_read_task(m), mtile[k]);
		c->read[k] = rd ? rd->mean : 0;
		c->nread |= rd != NULL;
	}
	free(mtile);
	sr_simcost_totals(c);
	return c;
}
