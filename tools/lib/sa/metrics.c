/* metrics.c - reading metrics.tsv and aggregating it per run. */
#include "sa/metrics.h"
#include "core/err.h"
#include "core/hash.h"
#include "core/opt.h"
#include "core/tsv.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

typedef struct {
	long run;
	size_t seq;	/* row order, so sorting is deterministic */
	double v;
} obs;

const char *const sr_aggregate_names[SR_NAGG] = { "mean", "median", "sum" };

int
sr_aggregate_parse(const char *s)
{
	return sr_word_index(s, sr_aggregate_names, SR_NAGG);
}

/* Refuses a status that is not one of seg-run's (see metrics(5)). */
const char *const sr_run_status_name[SR_RUN_NSTATUS] = {
	"ok", "background", "background_likely", "no_candidates", "error",
	"cancelled"
};

int
sr_run_status_parse(const char *s)
{
	return sr_word_index(s, sr_run_status_name, SR_RUN_NSTATUS);
}

void
sr_run_status_die(const sr_tsv *t, int col)
{
	char list[128];

	sr_tsv_die_value(t, col, "is not %s",
	    sr_word_list(list, sizeof list, sr_run_status_name, SR_RUN_NSTATUS));
}

/* ---- a metrics file row by row ------------------------------------------ */

/* Whether column name is one of the format's own (not a metric). */
static int
own_column(const char *name)
{
	return strcmp(name, SR_METRICS_RUN) == 0 ||
	    strcmp(name, SR_METRICS_TILE) == 0 ||
	    strcmp(name, SR_METRICS_STATUS) == 0;
}

sr_metrics_rows *
sr_metrics_rows_open(const char *path)
{
	sr_metrics_rows *r = sr_calloc(1, sizeof *r);
	size_t i;

	r->tsv = sr_tsv_open(path);
	r->col_run = sr_tsv_col(r->tsv, SR_METRICS_RUN);
	r->col_tile = sr_tsv_col(r->tsv, SR_METRICS_TILE);
	r->col_status = sr_tsv_col(r->tsv, SR_METRICS_STATUS);
	r->metric = sr_calloc(r->tsv->ncol + 1, sizeof *r->metric);
	for (i = 0; i < r->tsv->ncol; i++)
		if (!own_column(r->tsv->header[i]))
			r->metric[r->nmetric++] = (int)i;
	r->run = -1;
	r->status = SR_RUN_OK;
	return r;
}

void
sr_metrics_rows_need(const sr_metrics_rows *r, unsigned need)
{
	sr_tsv_need(r->tsv, SR_METRICS_RUN);
	if (need & SR_METRICS_NEED_TILE)
		sr_tsv_need(r->tsv, SR_METRICS_TILE);
	if (need & SR_METRICS_NEED_STATUS)
		sr_tsv_need(r->tsv, SR_METRICS_STATUS);
}

int
sr_metrics_rows_metric(const sr_metrics_rows *r, const char *name)
{
	return own_column(name) ? -1 : sr_tsv_col(r->tsv, name);
}

int
sr_metrics_rows_need_metric(const sr_metrics_rows *r, const char *name)
{
	if (own_column(name))
		sr_die(SR_EXIT_DATA, "%s: column %s is not a metric", r->tsv->path,
		    name);
	return sr_tsv_need(r->tsv, name);
}

int
sr_metrics_rows_next(sr_metrics_rows *r)
{
	sr_tsv *t = r->tsv;

	if (!sr_tsv_next(t))
		return 0;
	if (r->col_run < 0)
		sr_metrics_rows_need(r, 0);
	r->run = sr_tsv_long(t, r->col_run);
	r->tile = r->col_tile >= 0 ? sr_tsv_str(t, r->col_tile) : NULL;
	r->status = SR_RUN_OK;
	if (r->col_status >= 0 &&
	    (r->status = sr_run_status_parse(sr_tsv_str(t, r->col_status))) < 0)
		sr_run_status_die(t, r->col_status);
	return 1;
}

double
sr_metrics_rows_value(const sr_metrics_rows *r, int col)
{
	if (r->status == SR_RUN_ERROR || r->status == SR_RUN_CANCELLED ||
	    *sr_tsv_str(r->tsv, col) == '\0')
		return NAN;
	return sr_tsv_double(r->tsv, col);
}

double
sr_metrics_rows_number(const sr_metrics_rows *r, int col)
{
	return sr_tsv_double(r->tsv, col);
}

void
sr_metrics_rows_close(sr_metrics_rows *r)
{
	if (r == NULL)
		return;
	sr_tsv_close(r->tsv);
	free(r->metric);
	free(r);
}

/* ---- a metrics file aggregated per run ----------------------------------- */

/* Picks the metric column: the named one, the only one, or dice. */
static int
metric_column(const sr_metrics_rows *r, const char *metric)
{
	if (metric)
		return sr_metrics_rows_need_metric(r, metric);
	if (r->nmetric == 1)
		return r->metric[0];
	if (r->nmetric == 0)
		sr_die(SR_EXIT_DATA, "%s: no metric column", r->tsv->path);
	if (sr_metrics_rows_metric(r, SR_METRICS_DEFAULT) >= 0)
		return sr_metrics_rows_metric(r, SR_METRICS_DEFAULT);
	sr_die(SR_EXIT_DATA, "%s: %zu metric columns and none is 'dice': "
	    "choose one with --metric", r->tsv->path, r->nmetric);
}

static int
by_run(const void *a, const void *b)
{
	const obs *x = a, *y = b;

	if (x->run != y->run)
		return (x->run > y->run) - (x->run < y->run);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Aggregates the sorted observations into m->value; a run with a failed
 * row (failed[run]) or fewer tiles than others is missing. */
static void
aggregate(sr_metrics *m, obs *o, size_t n, enum sr_aggregate agg,
    const unsigned char *failed)
{
	size_t i = 0, j, c, least = SIZE_MAX, most = 0, uneven = 0;
	double *tmp = sr_calloc(n ? n : 1, sizeof *tmp);

	for (c = 0; c < m->nrun; c++)
		m->value[c] = NAN;
	while (i < n) {
		for (j = i; j < n && o[j].run == o[i].run; j++)
			tmp[j - i] = o[j].v;
		least = j - i < least ? j - i : least;
		most = j - i > most ? j - i : most;
		if (agg == SR_AGG_MEDIAN) {
			gsl_sort(tmp, 1, j - i);
			m->value[o[i].run] = gsl_stats_median_from_sorted_data(tmp,
			    1, j - i);
		} else {
			double s = 0;
			for (c = 0; c < j - i; c++)
				s += tmp[c];
			m->value[o[i].run] = agg == SR_AGG_SUM ? s :
			    s / (double)(j - i);
		}
		i = j;
	}
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && o[j].run == o[i].run; j++)
			;
		if (j - i < most || failed[o[i].run]) {
			uneven += j - i < most && !failed[o[i].run];
			m->value[o[i].run] = NAN;
			m->npartial++;
		}
	}
	if (uneven)
		sr_warn("%s: %zu runs have results for fewer tiles (as few as "
		    "%zu) than others (%zu): counted as missing, as a run with a "
		    "failed tile is", m->metric, uneven, least, most);
	if (m->npartial > uneven)
		sr_warn("%s: %zu runs have a failed tile besides results: "
		    "counted as missing (an aggregate over the tiles that did "
		    "not fail would be biased by which did)", m->metric,
		    m->npartial - uneven);
	free(tmp);
}

/* Refuses a second row for the same run (and tile, when there is one):
 * a flag per run without tiles, the interned "run<TAB>tile" keys with
 * them. */
static void
check_unique(const sr_metrics_rows *r, sr_interner *seen,
    unsigned char *seen_run)
{
	size_t n;
	char *key;
	int added;

	if (r->tile == NULL) {
		if (seen_run[r->run]++)
			sr_tsv_die(r->tsv, 0, "run %ld appears twice (no tile column "
			    "to aggregate over)", r->run);
		return;
	}
	n = strlen(r->tile) + 32;
	key = sr_malloc(n);
	snprintf(key, n, "%ld\t%s", r->run, r->tile);
	sr_intern_str(seen, key, &added);
	free(key);
	if (!added)
		sr_tsv_die(r->tsv, r->col_tile, "run %ld and tile %s appear twice",
		    r->run, r->tile);
}

/* Adds observation (run, v) to o (*n of them, room for *cap). */
static obs *
add_obs(obs *o, size_t *n, size_t *cap, long run, double v)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 1024;
		o = sr_reallocarray(o, *cap, sizeof *o);
	}
	o[*n].run = run;
	o[*n].seq = *n;
	o[(*n)++].v = v;
	return o;
}

sr_metrics *
sr_metrics_read(const char *path, size_t nrun, const char *metric,
    enum sr_aggregate agg)
{
	sr_metrics_rows *r = sr_metrics_rows_open(path);
	sr_metrics *m = sr_calloc(1, sizeof *m);
	sr_interner seen;
	unsigned char *seen_run, *failed;
	obs *o = NULL;
	size_t n = 0, cap = 0, i;
	double v;
	int cm;

	sr_metrics_rows_need(r, 0);
	cm = metric_column(r, metric);
	m->metric = sr_strdup(r->tsv->header[cm]);
	m->nrun = nrun;
	m->value = sr_calloc(nrun, sizeof *m->value);
	seen_run = sr_calloc(nrun, 1);
	failed = sr_calloc(nrun, 1);
	sr_interner_init(&seen);
	while (sr_metrics_rows_next(r)) {
		if (r->run < 0 || (size_t)r->run >= nrun)
			sr_tsv_die(r->tsv, r->col_run, "run %ld is not in the design "
			    "(runs 0..%zu)", r->run, nrun - 1);
		check_unique(r, &seen, seen_run);
		if (r->status == SR_RUN_CANCELLED)
			m->ncancelled++;
		else if (isnan(v = sr_metrics_rows_value(r, cm))) {
			m->nfailed++;
			failed[r->run] = 1;
		} else
			o = add_obs(o, &n, &cap, r->run, v);
	}
	for (i = 1; i < n && o[i - 1].run <= o[i].run; i++)
		;
	if (i < n)
		qsort(o, n, sizeof *o, by_run);
	aggregate(m, o, n, agg, failed);
	m->nrows = n;
	free(o);
	free(failed);
	sr_interner_free(&seen);
	free(seen_run);
	sr_metrics_rows_close(r);
	return m;
}

void
sr_metrics_free(sr_metrics *m)
{
	if (m == NULL)
		return;
	free(m->metric);
	free(m->value);
	free(m);
}
