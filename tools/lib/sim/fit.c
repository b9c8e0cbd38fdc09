/* fit.c - a cost model fitted from measured timings (fit.h). The mean
 * and standard deviation are GSL's (gsl_stats, two passes over each
 * task's seconds, kept in memory: 8 bytes a row). */
#include "sim/fit.h"
#include "core/err.h"
#include "core/tsv.h"
#include "plan/stage_rule.h"
#include "plan/timings.h"
#include "sim/costs.h"

#include <gsl/gsl_statistics_double.h>
#include <stdlib.h>
#include <string.h>

/* The seconds of one task's rows. */
typedef struct {
	double *v;
	size_t n, cap;
} seconds;

/* What the rows of one source give: per stage and task, their seconds. */
typedef struct {
	const sr_workflow *w;
	seconds **acc;
	size_t rows, ignored;
	double read;		/* #read and #prefault seconds */
	size_t nread, nprefault;	/* their lines */
} source;

static void
source_init(source *src, const sr_workflow *w)
{
	size_t s;

	memset(src, 0, sizeof *src);
	src->w = w;
	src->acc = sr_calloc(w->nstage, sizeof *src->acc);
	for (s = 0; s < w->nstage; s++)
		src->acc[s] = sr_calloc(w->stage[s].ntask, sizeof **src->acc);
}

static void
source_free(source *src)
{
	size_t s, k;

	for (s = 0; s < src->w->nstage; s++) {
		for (k = 0; k < src->w->stage[s].ntask; k++)
			free(src->acc[s][k].v);
		free(src->acc[s]);
	}
	free(src->acc);
}

/* Appends x to a's seconds. */
static void
add_seconds(seconds *a, double x)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 64;
		a->v = sr_reallocarray(a->v, a->cap, sizeof *a->v);
	}
	a->v[a->n++] = x;
}

/* Adds the rows (and, with tiles, the #read and #prefault lines and the
 * tiles) of one timings file; rows of stage norm (SR_NONE: none) of a
 * file with a #normalize=no line are counted as left out. */
static void
add_file(source *src, const char *path, size_t norm, sr_interner *tiles)
{
	sr_timings_in *r = sr_timings_open(path);
	enum sr_timings_kind kind;
	size_t s, k;

	while ((kind = sr_timings_next(r)) != SR_TIMINGS_END) {
		if (tiles)
			sr_intern_str(tiles, r->tile, NULL);
		if (kind != SR_TIMINGS_ROW) {
			src->read += r->seconds;
			*(kind == SR_TIMINGS_READ ? &src->nread : &src->nprefault) += 1;
			continue;
		}
		if (!sr_workflow_task(src->w, r->task, &s, &k))
			sr_tsv_die(r->t, r->ck, "'%s' is not a task of %s", r->task,
			    src->w->path);
		if (r->no_normalize && s == norm) {
			src->ignored++;
			continue;
		}
		add_seconds(&src->acc[s][k], r->seconds);
		src->rows++;
	}
	sr_timings_close(r);
}

/* Adds path: a file, or the *.tsv files of a directory. */
static void
add_path(source *src, const char *path, size_t norm, sr_interner *tiles)
{
	size_t i, n;
	char **files = sr_simcost_files(path, &n);

	for (i = 0; i < n; i++) {
		add_file(src, files[i], norm, tiles);
		free(files[i]);
	}
	free(files);
}

/* Takes task k of stage s from src's statistics. */
static void
take_task(sr_simfit *f, const source *src, size_t s, size_t k, int ref)
{
	const seconds *a = &src->acc[s][k];
	double mean = gsl_stats_mean(a->v, 1, a->n);

	f->m.n[s][k] = a->n;
	f->m.mean[s][k] = mean;
	f->m.spread[s][k] = mean > 0 && a->n > 1 ?
	    gsl_stats_sd_m(a->v, 1, a->n, mean) / mean : 0;
	f->from_ref[s][k] = (unsigned char)ref;
	f->rows += f->m.n[s][k];
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

/* Warns when task k of stage s, fitted from path's rows, costs less than
 * a hundredth of the reference step's rows: timings of seg-run
 * --no-normalize written before it said so (#normalize=no), whose
 * normalization rows are microseconds. */
static void
check_against_ref(const sr_simfit *f, const source *refs, size_t s,
    size_t k, const char *path)
{
	const seconds *a = &refs->acc[s][k];
	double ref;

	if (a->n == 0 || s != f->norm_stage)
		return;
	ref = gsl_stats_mean(a->v, 1, a->n);
	if (f->m.mean[s][k] < ref / 100)
		sr_warn("%s: task %s costs %.3g s, the reference step's %.3g "
		    "s: timings of seg-run --no-normalize without their "
		    "#%s line? They are taken as measurements; add the line to "
		    "take the reference step's", path,
		    f->m.w->stage[s].task[k].name, f->m.mean[s][k], ref,
		    SR_TIMINGS_NO_NORMALIZE);
}

/* The read seconds: per #read line (or #prefault line, without any). */
static void
take_read(sr_simfit *f, const source *src)
{
	size_t n = src->nread ? src->nread : src->nprefault;

	if (n == 0)
		return;
	f->m.read = src->read / (double)n;
	f->m.nread = n;
}

void
sr_simfit_timings(sr_simfit *f, const sr_workflow *w, const char *timings,
    char *const *ref, size_t nref, const char *skip)
{
	source own, refs;
	size_t s, k, i, merged = sr_merge_stage(w);

	memset(f, 0, sizeof *f);
	sr_simmodel_init(&f->m, w);
	sr_interner_init(&f->tiles);
	f->norm_stage = merged > 0 ? merged - 1 : SR_NONE;
	f->from_ref = sr_calloc(w->nstage, sizeof *f->from_ref);
	for (s = 0; s < w->nstage; s++)
		f->from_ref[s] = sr_calloc(w->stage[s].ntask, 1);
	source_init(&own, w);
	source_init(&refs, w);
	add_path(&own, timings, f->norm_stage, &f->tiles);
	if (own.rows + own.ignored == 0)
		sr_die(SR_EXIT_DATA, "%s: no timings: the file has no rows", timings);
	f->ignored = own.ignored;
	for (i = 0; i < nref; i++)
		add_path(&refs, ref[i], f->norm_stage, NULL);
	for (s = 0; s < w->nstage; s++)
		for (k = 0; k < w->stage[s].ntask; k++) {
			if (own.acc[s][k].n > 0) {
				take_task(f, &own, s, k, 0);
				check_against_ref(f, &refs, s, k, timings);
			} else if (refs.acc[s][k].n > 0)
				take_task(f, &refs, s, k, 1);
			else if (!(skip && skip[s]))
				missing_task(f, s, k, timings, nref);
		}
	take_read(f, &own);
	source_free(&own);
	source_free(&refs);
}

void
sr_simfit_free(sr_simfit *f)
{
	size_t s;

	if (f->m.w == NULL)
		return;
	for (s = 0; s < f->m.w->nstage; s++)
		free(f->from_ref[s]);
	free(f->from_ref);
	sr_interner_free(&f->tiles);
	sr_simmodel_free(&f->m);
}
