/* fit.c - a cost model fitted from measured timings (fit.h). The mean
 * and standard deviation are GSL's (gsl_stats, two passes over each
 * group of seconds, kept in memory: 24 bytes a row). */
#include "sim/fit.h"
#include "core/err.h"
#include "core/text.h"
#include "core/tsv.h"
#include "plan/stage_rule.h"
#include "plan/timings.h"
#include "sim/costs.h"

#include <gsl/gsl_statistics_double.h>
#include <stdlib.h>
#include <string.h>

/* One row's seconds: its task (flat, model.h) and tile (of the model's
 * tiles, or SR_NONE: a tile the timings do not have). */
typedef struct {
	size_t task, tile;
	double sec;
} obs;

/* What the rows of one source (the timings, or the reference step's)
 * give. */
typedef struct {
	obs *o;
	size_t n, cap;
	size_t rows, ignored;	/* task rows taken; left out */
	size_t norm;		/* the normalization stage, or SR_NONE */
} source;

/* Appends an observation. */
static void
add_obs(source *src, size_t task, size_t tile, double sec)
{
	if (src->n == src->cap) {
		src->cap = src->cap ? 2 * src->cap : 256;
		src->o = sr_reallocarray(src->o, src->cap, sizeof *src->o);
	}
	src->o[src->n++] = (obs){ task, tile, sec };
}

/* The tile of the current record: with own set (the timings), added to
 * m's tiles; else m's tile of that name, or SR_NONE. */
static size_t
record_tile(sr_simmodel *m, const char *name, int own)
{
	return own ? sr_intern_str(&m->tiles, name, NULL) :
	    sr_interner_find_str(&m->tiles, name);
}

/* Adds a #read line, or a #prefault line to the #read line before it of
 * the same tile (both are paid per bucket and tile). */
static void
add_read(source *src, const sr_simmodel *m, int prefault, size_t tile,
    double sec)
{
	size_t rt = sr_simmodel_read_task(m);
	obs *last = src->n ? &src->o[src->n - 1] : NULL;

	if (prefault && last && last->task == rt && last->tile == tile)
		last->sec += sec;
	else
		add_obs(src, rt, tile, sec);
}

/* Adds the rows (and, of the timings (own), the #read and #prefault
 * lines) of one timings file; rows of the normalization stage of a file
 * with a #normalize=no line are counted as left out. */
static void
add_file(source *src, sr_simmodel *m, const char *path, int own)
{
	sr_timings_in *r = sr_timings_open(path);
	enum sr_timings_kind kind;
	size_t s, k, tile;

	while ((kind = sr_timings_next(r)) != SR_TIMINGS_END) {
		tile = record_tile(m, r->tile, own);
		if (kind != SR_TIMINGS_ROW) {
			if (own)
				add_read(src, m, kind == SR_TIMINGS_PREFAULT, tile,
				    r->seconds);
			continue;
		}
		if (!sr_workflow_task(m->w, r->task, &s, &k))
			sr_tsv_die(r->t, r->ck, "'%s' is not a task of %s",
			    SR_SHOW(r->task),
			    m->w->path);
		if (r->no_normalize && s == src->norm) {
			src->ignored++;
			continue;
		}
		add_obs(src, sr_simmodel_task(m, s, k), tile, r->seconds);
		src->rows++;
	}
	sr_timings_close(r);
}

/* Adds path: a file, or the *.tsv files of a directory. */
static void
add_path(source *src, sr_simmodel *m, const char *path, int own)
{
	size_t i, n;
	char **files = sr_simcost_files(path, &n);

	for (i = 0; i < n; i++) {
		add_file(src, m, files[i], own);
		free(files[i]);
	}
	free(files);
}

static int
cmp_obs(const void *a, const void *b)
{
	const obs *x = a, *y = b;

	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	return (x->tile > y->tile) - (x->tile < y->tile);
}

/* Sorts src's observations by task and tile; v gets their seconds in
 * that order, first[t]..first[t + 1] each task's (tasks + 1 of them). */
static double *
group(source *src, size_t tasks, size_t *first)
{
	double *v = sr_calloc(src->n + 1, sizeof *v);
	size_t i, t = 0;

	if (src->n > 0)	/* no observations: o may be NULL */
		qsort(src->o, src->n, sizeof *src->o, cmp_obs);
	for (i = 0; i < src->n; i++) {
		v[i] = src->o[i].sec;
		while (t <= src->o[i].task)
			first[t++] = i;
	}
	while (t <= tasks)
		first[t++] = src->n;
	return v;
}

/* A row of the model from the n seconds at v; with spread unset, spread
 * 0. */
static void
add_row(sr_simfit *f, size_t task, size_t tile, const double *v, size_t n,
    int ref, int spread)
{
	double mean = gsl_stats_mean(v, 1, n);
	sr_modelrow r = { task, tile, mean, 0, n, ref };

	if (spread && mean > 0 && n > 1)
		r.spread = gsl_stats_sd_m(v, 1, n, mean) / mean;
	sr_simmodel_add(&f->m, &r);
}

/* Whether stage s has one instance whatever the design: no parameters in
 * it or the stages before it (the normalization). */
static int
one_instance(const sr_workflow *w, size_t s)
{
	size_t k, t;

	for (k = 0; k <= s; k++)
		for (t = 0; t < w->stage[k].ntask; t++)
			if (w->stage[k].task[t].nparam > 0)
				return 0;
	return 1;
}

/* The rows of a task (of stage s, or the read pseudo-task) from its
 * observations [a, b) of src (sorted, their seconds in v): over all of
 * them, and per tile of the timings. The read rows take spread 0, and so
 * do the tile rows of a stage of one instance: all the buckets that run
 * it share its node, one draw per tile, and its rows on a tile differ
 * only by the machine's noise, which that draw would turn into a bias. */
static void
take_task(sr_simfit *f, size_t s, const source *src, const double *v,
    size_t a, size_t b, int ref)
{
	int read = src->o[a].task == sr_simmodel_read_task(&f->m);
	int tile_spread = !read && !one_instance(f->m.w, s);
	size_t i, j;

	add_row(f, src->o[a].task, SR_NONE, v + a, b - a, ref, !read);
	for (i = a; i < b; i = j) {
		for (j = i; j < b && src->o[j].tile == src->o[i].tile; j++)
			;
		if (src->o[i].tile != SR_NONE)
			add_row(f, src->o[i].task, src->o[i].tile, v + i, j - i, ref,
			    tile_spread);
	}
	if (src->o[a].task != sr_simmodel_read_task(&f->m))
		f->rows += b - a;
}

/* Dies when task k of stage s, not skipped, has no rows anywhere. */
static void
missing_task(const sr_simfit *f, size_t s, size_t k, const char *path,
    size_t nref)
{
	const sr_stage *st = &f->m.w->stage[s];

	if (s == f->norm_stage && f->ignored > 0 && nref == 0)
		sr_die(SR_EXIT_DATA, "%s: no timings of task %s (stage %s): its "
		    "rows are of seg-run --no-normalize (#%s), which measures no "
		    "normalization; give the reference step's timings "
		    "(--ref-timings), or --skip-stage %s if the buckets do not run "
		    "it", path, st->task[k].name, st->name, SR_TIMINGS_NO_NORMALIZE,
		    st->name);
	sr_die(SR_EXIT_DATA, "%s: no timings of task %s (stage %s)%s; give "
	    "--skip-stage %s if the buckets do not run it", path,
	    st->task[k].name, st->name, nref ? " nor in --ref-timings" : "",
	    st->name);
}

/* Warns when task k of the normalization stage s, fitted from path's
 * rows, costs less than a hundredth of the reference step's rows
 * (rv[0..rn)): timings of seg-run --no-normalize written before it said
 * so (#normalize=no), whose normalization rows are microseconds. */
static void
check_against_ref(const sr_simfit *f, size_t s, size_t k, const double *rv,
    size_t rn, const char *path)
{
	const sr_modelrow *own = sr_simmodel_get(&f->m,
	    sr_simmodel_task(&f->m, s, k), SR_NONE);
	double ref;

	if (rn == 0 || s != f->norm_stage)
		return;
	ref = gsl_stats_mean(rv, 1, rn);
	if (own->mean < ref / 100)
		sr_warn("%s: task %s costs %.3g s, the reference step's %.3g "
		    "s: timings of seg-run --no-normalize without their "
		    "#%s line? They are taken as measurements; add the line to "
		    "take the reference step's", path,
		    f->m.w->stage[s].task[k].name, own->mean, ref,
		    SR_TIMINGS_NO_NORMALIZE);
}

/* Fits every task from own's rows, else from ref's; the read rows from
 * own's #read lines. */
static void
fit_tasks(sr_simfit *f, source *own, source *ref, const char *path,
    size_t nref, const char *skip)
{
	const sr_workflow *w = f->m.w;
	size_t nt = sr_simmodel_read_task(&f->m), s, k, t;
	size_t *fo = sr_calloc(nt + 2, sizeof *fo), *fr = sr_calloc(nt + 2, sizeof *fr);
	double *vo = group(own, nt + 1, fo), *vr = group(ref, nt + 1, fr);

	for (s = 0; s < w->nstage; s++)
		for (k = 0; k < w->stage[s].ntask; k++) {
			t = sr_simmodel_task(&f->m, s, k);
			if (fo[t] < fo[t + 1]) {
				take_task(f, s, own, vo, fo[t], fo[t + 1], 0);
				check_against_ref(f, s, k, vr + fr[t], fr[t + 1] - fr[t],
				    path);
			} else if (fr[t] < fr[t + 1])
				take_task(f, s, ref, vr, fr[t], fr[t + 1], 1);
			else if (!(skip && skip[s]))
				missing_task(f, s, k, path, nref);
		}
	if (fo[nt] < fo[nt + 1])
		take_task(f, SR_NONE, own, vo, fo[nt], fo[nt + 1], 0);
	free(fo);
	free(fr);
	free(vo);
	free(vr);
}

void
sr_simfit_timings(sr_simfit *f, const sr_workflow *w, const char *timings,
    char *const *ref, size_t nref, const char *skip)
{
	source own = { 0 }, refs = { 0 };
	size_t i, merged = sr_merge_stage(w);

	memset(f, 0, sizeof *f);
	sr_simmodel_init(&f->m, w, timings);
	f->norm_stage = merged > 0 ? merged - 1 : SR_NONE;
	own.norm = refs.norm = f->norm_stage;
	add_path(&own, &f->m, timings, 1);
	if (own.rows + own.ignored == 0)
		sr_die(SR_EXIT_DATA, "%s: no timings: the file has no rows", timings);
	f->ignored = own.ignored;
	for (i = 0; i < nref; i++)
		add_path(&refs, &f->m, ref[i], 0);
	fit_tasks(f, &own, &refs, timings, nref, skip);
	free(own.o);
	free(refs.o);
}

void
sr_simfit_free(sr_simfit *f)
{
	sr_simmodel_free(&f->m);
}
