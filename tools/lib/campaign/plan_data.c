/* plan_data.c - a campaign's plan and search read for the driver
 * (plan_data.h). */
#include "campaign/plan_data.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/data.h"
#include "campaign/makespan.h"
#include "campaign/tiles_data.h"
#include "core/err.h"
#include "core/path.h"
#include "core/tsv.h"
#include "image/tiles.h"
#include "plan/workflow.h"
#include "sa/space.h"
#include "sa/ledger.h"

/* ---- the plan's summary ------------------------------------------------ */

/* The digits at s (at least one), their end to *end; NULL without. */
static const char *
digits(const char *s, const char **end)
{
	size_t n = strspn(s, "0123456789");
	*end = s + n;
	return n ? s : NULL;
}

/* Of "#runs=R stages=S instances=N...", where N starts (and *end); NULL
 * when line is not one. */
static const char *
instances_of(const char *line, const char **end)
{
	static const char *const key[] = { "#runs=", " stages=", " instances=" };
	const char *s = line;
	for (size_t i = 0; i < 3; i++) {
		size_t n = strlen(key[i]);
		if (strncmp(s, key[i], n))
			return NULL;
		s += n;
		if (i < 2)
			s += strspn(s, "0123456789");
	}
	*end = s + strspn(s, "0123456789");
	return s;
}

void
sr_data_stats(const char *out, FILE *fp)
{
	char *b = sr_path_join(out, "buckets.tsv", "");
	char *in = sr_path_join(out, "instances.tsv", "");
	sr_datareader r;
	int words = 0;

	sr_data_open(&r, b);
	while (sr_data_next(&r))
		if (!strncmp(r.line, "#stats ", 7)) {
			fprintf(fp, "%s%s", words ? " " : "", r.line + 7);
			words = 1;
		}
	sr_data_close(&r);
	sr_data_open(&r, in);
	while (sr_data_next(&r) && r.line[0] == '#') {
		const char *e, *n = instances_of(r.line, &e);
		if (n && digits(n, &e)) {
			fprintf(fp, "%sstage_instances=%.*s", words ? " " : "",
			    (int)(e - n), n);
			break;
		}
	}
	sr_data_close(&r);
	fputc('\n', fp);
	free(in);
	free(b);
}

/* ---- the estimate ------------------------------------------------------- */

static int
cmp_task(const void *a, const void *b)
{
	size_t x = (*(const sr_task *const *)a)->line;
	size_t y = (*(const sr_task *const *)b)->line;
	return (x > y) - (x < y);
}

void
sr_data_model(const char *out, const char *workflow, FILE *fp)
{
	char *list = sr_path_join(out, "tiles.list", ""), err[SR_ERRLEN];
	sr_tiles *t = sr_tiles_read(list);
	double px = 0;
	size_t i, w, h, n = 0;

	for (i = 0; i < t->n; i++) {
		if (sr_tile_size(t, i, &w, &h, err) < 0)
			sr_die(SR_EXIT_DATA, "%s:%zu: %s", t->list, t->line[i],
			    err);
		px += (double)w * (double)h;
	}
	double scale = t->n ? px / (double)t->n / (4096.0 * 4096.0) : 0;
	sr_tiles_free(t);
	free(list);

	/* the tasks in the workflow's row order */
	sr_workflow *wf = sr_workflow_read(workflow);
	for (i = 0; i < wf->nstage; i++)
		n += wf->stage[i].ntask;
	const sr_task **task = sr_calloc(n ? n : 1, sizeof *task);
	n = 0;
	for (i = 0; i < wf->nstage; i++)
		for (size_t j = 0; j < wf->stage[i].ntask; j++)
			task[n++] = &wf->stage[i].task[j];
	qsort(task, n, sizeof *task, cmp_task);
	fprintf(fp, "%s\t%s\t%s\n", SR_COSTS_TASK, SR_COSTS_SECONDS,
	    SR_COSTS_SPREAD);
	for (i = 0; i < n; i++)
		fprintf(fp, "%s\t%.6g\t0\n", task[i]->name,
		    task[i]->cost * scale);
	free(task);
	sr_workflow_free(wf);
}

/* s seconds as H:MM:SS, rounded to the second. */
static void
put_hms(FILE *fp, double s)
{
	long long v = (long long)(s + 0.5);
	fprintf(fp, "%lld:%02lld:%02lld", v / 3600, v % 3600 / 60, v % 60);
}

void
sr_data_estimate(const char *how, const char *source, const char *path,
    FILE *fp)
{
	sr_tsv *t = sr_tsv_open(path);
	int cm = sr_tsv_need(t, SR_PREDICTED_MAKESPAN);
	int cs = sr_tsv_need(t, SR_PREDICTED_SLOTS);
	int cw = sr_tsv_need(t, SR_PREDICTED_WORK);

	while (sr_tsv_next(t)) {
		double m = sr_tsv_double(t, cm), w = sr_tsv_double(t, cw);
		long s = sr_tsv_long(t, cs);
		if (m < 0 || w < 0 || s < 1)
			sr_tsv_die(t, -1, "makespan and work must be >= 0, "
			    "slots >= 1");
		fputs("estimate: the buckets take ", fp);
		put_hms(fp, m);
		fprintf(fp, " (%.4g s) on %ld slot(s) (%s), %.4g core-hours; "
		    "%s\n", m, s, how, w / 3600, source);
	}
	sr_tsv_close(t);
}

/* ---- the search of a tune campaign ------------------------------------- */

/* A result of a ledger, its run shifted. */
typedef struct {
	size_t run;
	char *tile;
	double value;
	size_t seq;		/* in the order read */
} result;

static int
cmp_run_tile(const void *a, const void *b)
{
	const result *x = a, *y = b;
	int c = (x->run > y->run) - (x->run < y->run);
	if (!c)
		c = strcmp(x->tile, y->tile);
	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

static int
cmp_run_seq(const void *a, const void *b)
{
	const result *x = a, *y = b;
	int c = (x->run > y->run) - (x->run < y->run);
	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

static int
cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

/* Whether run is in the sorted cancels c[0..n). */
static int
cancelled(const size_t *c, size_t n, size_t run)
{
	return bsearch(&run, c, n, sizeof *c, cmp_size) != NULL;
}

void
sr_data_status(const char *out, const char *metric, long nsets,
    const sr_data_ledgerarg *led, size_t n, FILE *fp)
{
	char *list = sr_path_join(out, "tiles.list", "");
	long ntiles = sr_data_tiles_count(list);
	result *res = NULL;
	size_t *cancel = NULL, nres = 0, ncancel = 0, i, j;

	free(list);
	for (i = 0; i < n; i++) {
		sr_ledger *l = sr_ledger_open(led[i].path);
		sr_ledger_update(l);
		size_t rows = sr_ledger_nrows(l);
		res = sr_reallocarray(res, nres + rows + 1, sizeof *res);
		cancel = sr_reallocarray(cancel, ncancel + rows + 1,
		    sizeof *cancel);
		for (j = 0; j < rows; j++) {
			const sr_ledgerrow *r = sr_ledger_row(l, j);
			size_t run = r->run + (size_t)led[i].off;
			if (r->kind == SR_LEDGER_CANCEL)
				cancel[ncancel++] = run;
			else {
				res[nres] = (result){ run, sr_strdup(r->tile),
				    r->value, nres };
				nres++;
			}
		}
		sr_ledger_close(l);
	}
	if (ncancel)	/* qsort of NULL is undefined, even of nothing */
		qsort(cancel, ncancel, sizeof *cancel, cmp_size);
	for (i = j = 0; i < ncancel; i++)
		if (!j || cancel[i] != cancel[j - 1])
			cancel[j++] = cancel[i];
	ncancel = j;
	/* a (run, tile) counts once: its first result */
	if (nres)
		qsort(res, nres, sizeof *res, cmp_run_tile);
	for (i = j = 0; i < nres; i++)
		if (j && res[i].run == res[j - 1].run &&
		    !strcmp(res[i].tile, res[j - 1].tile))
			free(res[i].tile);
		else
			res[j++] = res[i];
	nres = j;
	if (nres)	/* sums in file order */
		qsort(res, nres, sizeof *res, cmp_run_seq);

	long done = 0, running = 0, x = 0, k;
	size_t best = 0;
	int have = 0;
	double top = 0;
	/* cancelled before its last tile; after it, complete */
	for (i = j = 0; i < ncancel; i++) {
		while (j < nres && res[j].run < cancel[i])
			j++;
		for (k = 0; j + (size_t)k < nres && res[j + k].run == cancel[i];)
			k++;
		x += k < ntiles;
	}
	for (i = 0; i < nres; i = j) {
		long nr = 0, nv = 0;
		double sum = 0;
		for (j = i; j < nres && res[j].run == res[i].run; j++) {
			nr++;
			if (!isnan(res[j].value)) {
				sum += res[j].value;
				nv++;
			}
		}
		if (nr < ntiles) {
			running += !cancelled(cancel, ncancel, res[i].run);
			continue;
		}
		done++;
		if (nv != ntiles || nv == 0)
			continue;
		double m = sum / (double)nv;
		if (!have || m > top) {	/* ascending runs: the lowest of ties */
			best = res[i].run;
			top = m;
			have = 1;
		}
	}
	fprintf(fp, "sets=%ld complete=%ld running=%ld cancelled=%ld "
	    "waiting=%ld best=", nsets, done, running, x,
	    nsets - done - running - x);
	if (have)
		fprintf(fp, "%zu %s=%.4f\n", best, metric, top);
	else
		fputs("none\n", fp);
	for (i = 0; i < nres; i++)
		free(res[i].tile);
	free(res);
	free(cancel);
}

/* The stage or task of w that first reads parameter name, or NULL. */
static const char *
reader_of(const sr_workflow *w, const char *name, int by_task)
{
	size_t st, t, j;

	for (st = 0; st < w->nstage; st++)
		for (t = 0; t < w->stage[st].ntask; t++)
			for (j = 0; j < w->stage[st].task[t].nparam; j++)
				if (strcmp(w->stage[st].task[t].param[j], name) == 0)
					return by_task ? w->stage[st].task[t].name :
					    w->stage[st].name;
	return NULL;
}

void
sr_data_groups(const char *space_path, const char *workflow, int by_task,
    FILE *fp)
{
	sr_space *s = sr_space_read(space_path);
	sr_workflow *w = sr_workflow_read(workflow);
	const char *g;
	size_t i, k;

	for (k = 0; k < s->nnote; k++)
		if (strcmp(s->note_name[k], SR_SPACE_GROUP) == 0)
			sr_die(SR_EXIT_DATA, "%s: a group column of its own: give "
			    "groups = no to analyse its groups, or drop the column",
			    space_path);
	s->note_name = sr_reallocarray(s->note_name, s->nnote + 1,
	    sizeof *s->note_name);
	s->note = sr_reallocarray(s->note, s->n * (s->nnote + 1) + 1,
	    sizeof *s->note);
	for (i = s->n; i-- > 0; ) {	/* each row one note wider */
		for (k = s->nnote; k-- > 0; )
			s->note[i * (s->nnote + 1) + k] = s->note[i * s->nnote + k];
		g = reader_of(w, s->p[i].name, by_task);
		s->note[i * (s->nnote + 1) + s->nnote] = sr_strdup(g ? g : "");
	}
	s->note_name[s->nnote++] = sr_strdup(SR_SPACE_GROUP);
	sr_space_write(fp, s);
	sr_workflow_free(w);
	sr_space_free(s);
}
