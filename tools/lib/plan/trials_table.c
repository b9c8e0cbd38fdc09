/* trials_table.c - trials.tsv read back: each set's mean and parameters
 * (trials.h), for sa-prune's experiments, and the file as written, for
 * sa-report. */
#include "plan/trials.h"
#include "core/err.h"
#include "core/hash.h"
#include "core/opt.h"
#include "core/tsv.h"
#include "sa/search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The columns of trials(5) that are not parameters, and their kinds. */
static const char *const own_columns[] = {
	SR_TRIALS_RUN, SR_TRIALS_STATUS, SR_TRIALS_TILES, SR_TRIALS_MEAN,
	SR_TRIALS_MEDIAN, SR_TRIALS_SD, SR_TRIALS_SECONDS,
	SR_TRIALS_CANCELLED_AT, SR_TRIALS_RULE, SR_TRIALS_BATCH
};
#define NOWN (sizeof own_columns / sizeof own_columns[0])
static const int own_kind[NOWN] = {
	SR_TRIALS_KIND_FIGURE, SR_TRIALS_KIND_FIGURE, SR_TRIALS_KIND_FIGURE,
	SR_TRIALS_KIND_FIGURE, SR_TRIALS_KIND_FIGURE, SR_TRIALS_KIND_FIGURE,
	SR_TRIALS_KIND_FIGURE, SR_TRIALS_KIND_CANCEL, SR_TRIALS_KIND_CANCEL,
	SR_TRIALS_KIND_BATCH
};

static const size_t *sort_runs;

static int
by_run(const void *a, const void *b)
{
	size_t x = sort_runs[*(const size_t *)a], y = sort_runs[*(const size_t *)b];

	return (x > y) - (x < y);
}

/* The columns of t into tt: every one with its kind, and the parameter
 * columns (their indices in col). */
static int *
parameter_columns(const sr_tsv *t, sr_trials_table *tt)
{
	int *col = sr_calloc(t->ncol + 1, sizeof *col), own;
	size_t i;

	tt->name = sr_calloc(t->ncol + 1, sizeof *tt->name);
	tt->nhead = t->ncol;
	tt->head = sr_calloc(t->ncol + 1, sizeof *tt->head);
	tt->kind = sr_calloc(t->ncol + 1, sizeof *tt->kind);
	for (i = 0; i < t->ncol; i++) {
		tt->head[i] = sr_strdup(t->header[i]);
		own = sr_word_index(t->header[i], own_columns, NOWN);
		tt->kind[i] = own >= 0 ? own_kind[own] : SR_TRIALS_KIND_PARAM;
		if (own < 0) {
			col[tt->ncol] = (int)i;
			tt->name[tt->ncol++] = sr_strdup(t->header[i]);
		}
	}
	return col;
}

/* The metadata line of t into tt. */
static void
read_meta(const sr_tsv *t, sr_trials_table *tt)
{
	size_t i;

	tt->metric = sr_tsv_meta(t, SR_TRIALS_META_METRIC);
	tt->tiles = sr_tsv_meta(t, SR_TRIALS_META_TILES);
	tt->sets = sr_tsv_meta(t, SR_TRIALS_META_SETS);
	for (i = 0; i < SR_NTRIAL; i++)
		tt->count[i] = sr_tsv_meta(t, sr_trial_status_name[i]);
}

/* Reads the current row of t into set i of tt. */
static void
read_set(sr_tsv *t, sr_trials_table *tt, size_t i, const int *col,
    int crun, int cstatus, int cmean)
{
	char list[64];
	size_t j;

	if (sr_word_index(sr_tsv_str(t, cstatus), sr_trial_status_name,
	    SR_NTRIAL) < 0)
		sr_tsv_die_value(t, cstatus, "is not %s", sr_word_list(list,
		    sizeof list, sr_trial_status_name, SR_NTRIAL));
	tt->field[i] = sr_calloc(t->ncol + 1, sizeof **tt->field);
	for (j = 0; j < t->ncol; j++)
		tt->field[i][j] = sr_strdup(t->field[j]);
	tt->run[i] = (size_t)sr_tsv_long(t, crun);
	tt->mean[i] = sr_tsv_str(t, cmean)[0] ? sr_tsv_double(t, cmean) : NAN;
	for (j = 0; j < tt->ncol; j++)
		tt->x[i * tt->ncol + j] = tt->cparam && tt->cparam[j] ?
		    sr_param_field(t, col[j], tt->cparam[j]) :
		    sr_tsv_double(t, col[j]);
}

/* The space of t's "#space" lines and each parameter column's in it. */
static void
read_space(const sr_tsv *t, sr_trials_table *tt)
{
	size_t j;
	int k;

	if ((tt->space = sr_space_from_comments(t)) == NULL)
		return;
	tt->cparam = sr_calloc(tt->ncol + 1, sizeof *tt->cparam);
	for (j = 0; j < tt->ncol; j++)
		if ((k = sr_space_find(tt->space, tt->name[j])) >= 0)
			tt->cparam[j] = &tt->space->p[k];
}

/* Puts the sets in run order (trials.tsv has them best first), so that
 * an experiment's jobs come in the same order from either source. */
static void
sort_by_run(sr_trials_table *tt)
{
	size_t *order = sr_calloc(tt->n + 1, sizeof *order), i, j;
	size_t *run = sr_calloc(tt->n + 1, sizeof *run);
	double *mean = sr_calloc(tt->n + 1, sizeof *mean);
	double *x = sr_calloc(tt->n * tt->ncol + 1, sizeof *x);

	for (i = 0; i < tt->n; i++)
		order[i] = i;
	sort_runs = tt->run;
	if (tt->n > 1)
		qsort(order, tt->n, sizeof *order, by_run);
	tt->row_set = sr_calloc(tt->n + 1, sizeof *tt->row_set);
	for (i = 0; i < tt->n; i++) {
		tt->row_set[order[i]] = i;
		run[i] = tt->run[order[i]];
		mean[i] = tt->mean[order[i]];
		for (j = 0; j < tt->ncol; j++)
			x[i * tt->ncol + j] = tt->x[order[i] * tt->ncol + j];
	}
	free(tt->run);
	free(tt->mean);
	free(tt->x);
	tt->run = run;
	tt->mean = mean;
	tt->x = x;
	free(order);
}

sr_trials_table *
sr_trials_table_read(const char *path)
{
	sr_tsv *t = sr_tsv_open(path);
	sr_trials_table *tt = sr_calloc(1, sizeof *tt);
	int crun = sr_tsv_need(t, SR_TRIALS_RUN);
	int cstatus = sr_tsv_need(t, SR_TRIALS_STATUS);
	int cmean = sr_tsv_need(t, SR_TRIALS_MEAN), added;
	int *col = parameter_columns(t, tt);
	size_t cap = 0;
	sr_imap runs;
	long run;

	tt->path = sr_strdup(t->path);
	read_meta(t, tt);
	read_space(t, tt);
	sr_imap_init(&runs);
	while (sr_tsv_next(t)) {
		if ((run = sr_tsv_long(t, crun)) < 0)
			sr_tsv_die_value(t, crun, "is not a run");
		*sr_imap_at(&runs, (uint64_t)run, &added) = t->lineno;
		if (!added)
			sr_tsv_die(t, crun, "run %ld repeats", run);
		if (tt->n == cap) {
			cap = cap ? 2 * cap : 256;
			tt->run = sr_reallocarray(tt->run, cap, sizeof *tt->run);
			tt->mean = sr_reallocarray(tt->mean, cap, sizeof *tt->mean);
			tt->x = sr_reallocarray(tt->x, cap, (tt->ncol + 1) *
			    sizeof *tt->x);
			tt->field = sr_reallocarray(tt->field, cap,
			    sizeof *tt->field);
		}
		read_set(t, tt, tt->n++, col, crun, cstatus, cmean);
	}
	sr_imap_free(&runs);
	free(col);
	sr_tsv_close(t);
	sort_by_run(tt);
	return tt;
}

void
sr_trials_table_free(sr_trials_table *tt)
{
	size_t i, j;

	if (tt == NULL)
		return;
	for (i = 0; i < tt->n; i++) {
		for (j = 0; j < tt->nhead; j++)
			free(tt->field[i][j]);
		free(tt->field[i]);
	}
	for (j = 0; j < tt->nhead; j++)
		free(tt->head[j]);
	for (j = 0; j < tt->ncol; j++)
		free(tt->name[j]);
	for (j = 0; j < SR_NTRIAL; j++)
		free(tt->count[j]);
	free(tt->field);
	free(tt->head);
	free(tt->kind);
	free(tt->row_set);
	free(tt->tiles);
	free(tt->sets);
	free(tt->name);
	free(tt->run);
	free(tt->mean);
	free(tt->x);
	free(tt->metric);
	free(tt->cparam);
	sr_space_free(tt->space);
	free(tt->path);
	free(tt);
}

/* The column of trials table t named name, or -1. */
static long
param_column(const sr_trials_table *t, const char *name)
{
	size_t c;

	for (c = 0; c < t->ncol; c++)
		if (strcmp(t->name[c], name) == 0)
			return (long)c;
	return -1;
}

void
sr_trials_search_history(const char *path, const sr_space *s,
    sr_search_history *h)
{
	sr_trials_table *t = sr_trials_table_read(path);
	double *x = sr_calloc(t->n * s->n + 1, sizeof *x);
	double *y = sr_calloc(t->n + 1, sizeof *y);
	size_t *rd = sr_calloc(t->n + 1, sizeof *rd), i, j, b;
	long c, bcol = -1;

	for (b = 0; b < t->nhead; b++)
		if (t->kind[b] == SR_TRIALS_KIND_BATCH)
			bcol = (long)b;
	for (i = 0; i < t->n; i++)
		rd[i] = 1;
	for (i = 0; bcol >= 0 && i < t->n; i++)	/* the file's rows */
		rd[t->row_set[i]] = (size_t)strtoul(t->field[i][bcol], NULL, 10);
	for (j = 0; j < s->n; j++) {
		if ((c = param_column(t, s->p[j].name)) < 0)
			sr_die(SR_EXIT_DATA, "%s: no column %s, a parameter of "
			    "the space", path, s->p[j].name);
		for (i = 0; i < t->n; i++) {
			double v = t->x[i * t->ncol + (size_t)c];
			if (t->cparam && t->cparam[c])
				v = sr_param_recode(t->cparam[c], &s->p[j], v);
			if (isnan(v))
				sr_die(SR_EXIT_DATA, "%s: run %zu: %s: a word the "
				    "space has not", path, t->run[i], s->p[j].name);
			x[i * s->n + j] = v;
		}
	}
	for (i = 0; i < t->n; i++)
		y[i] = t->mean[i];
	*h = (sr_search_history){ t->n, x, y, rd };
	sr_trials_table_free(t);
}

