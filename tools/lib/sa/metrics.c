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

/* Picks the metric column: the named one, the only one, or dice. */
static int
metric_column(const sr_tsv *t, const char *metric)
{
	size_t i, n = 0;
	int last = -1;

	if (metric && (strcmp(metric, SR_METRICS_RUN) == 0 ||
	    strcmp(metric, SR_METRICS_TILE) == 0 ||
	    strcmp(metric, SR_METRICS_STATUS) == 0))
		sr_die(SR_EXIT_DATA, "%s: column %s is not a metric", t->path,
		    metric);
	if (metric)
		return sr_tsv_need(t, metric);
	for (i = 0; i < t->ncol; i++)
		if (strcmp(t->header[i], SR_METRICS_RUN) &&
		    strcmp(t->header[i], SR_METRICS_TILE) &&
		    strcmp(t->header[i], SR_METRICS_STATUS)) {
			n++;
			last = (int)i;
		}
	if (n == 1)
		return last;
	if (n == 0)
		sr_die(SR_EXIT_DATA, "%s: no metric column", t->path);
	if ((last = sr_tsv_col(t, SR_METRICS_DEFAULT)) >= 0)
		return last;
	sr_die(SR_EXIT_DATA, "%s: %zu metric columns and none is 'dice': "
	    "choose one with --metric", t->path, n);
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

static int
by_run(const void *a, const void *b)
{
	const obs *x = a, *y = b;

	if (x->run != y->run)
		return (x->run > y->run) - (x->run < y->run);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Aggregates the sorted observations into m->value. */
static void
aggregate(sr_metrics *m, obs *o, size_t n, enum sr_aggregate agg)
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
	for (i = 0; least < most && i < n; i = j) {
		for (j = i; j < n && o[j].run == o[i].run; j++)
			;
		uneven += j - i < most;
	}
	if (uneven)
		sr_warn("%s: %zu runs have results for fewer tiles (as few as "
		    "%zu) than others (%zu): aggregated over the tiles they have",
		    m->metric, uneven, least, most);
	free(tmp);
}

/* Refuses a second row for the same run (and tile, when there is one):
 * a flag per run without tiles, the interned "run<TAB>tile" keys with
 * them. */
static void
check_unique(sr_tsv *t, sr_interner *seen, unsigned char *seen_run, long run,
    int ctile)
{
	const char *tile;
	size_t n;
	char *key;
	int added;

	if (ctile < 0) {
		if (seen_run[run]++)
			sr_tsv_die(t, 0, "run %ld appears twice (no tile column to "
			    "aggregate over)", run);
		return;
	}
	tile = sr_tsv_str(t, ctile);
	n = strlen(tile) + 32;
	key = sr_malloc(n);
	snprintf(key, n, "%ld\t%s", run, tile);
	sr_intern_str(seen, key, &added);
	free(key);
	if (!added)
		sr_tsv_die(t, ctile, "run %ld and tile %s appear twice", run, tile);
}

sr_metrics *
sr_metrics_read(const char *path, size_t nrun, const char *metric,
    enum sr_aggregate agg)
{
	sr_tsv *t = sr_tsv_open(path);
	int crun = sr_tsv_need(t, SR_METRICS_RUN);
	int ctile = sr_tsv_col(t, SR_METRICS_TILE);
	int cstat = sr_tsv_col(t, SR_METRICS_STATUS);
	int cm = metric_column(t, metric);
	sr_metrics *m = sr_calloc(1, sizeof *m);
	sr_interner seen;
	unsigned char *seen_run;
	obs *o = NULL;
	size_t n = 0, cap = 0, i;
	long run;

	m->metric = sr_strdup(t->header[cm]);
	m->nrun = nrun;
	m->value = sr_calloc(nrun, sizeof *m->value);
	seen_run = sr_calloc(nrun, 1);
	sr_interner_init(&seen);
	while (sr_tsv_next(t)) {
		run = sr_tsv_long(t, crun);
		if (run < 0 || (size_t)run >= nrun)
			sr_tsv_die(t, crun, "run %ld is not in the design (runs 0..%zu)",
			    run, nrun - 1);
		check_unique(t, &seen, seen_run, run, ctile);
		if (cstat >= 0)
			if (sr_run_status_parse(sr_tsv_str(t, cstat)) < 0)
				sr_run_status_die(t, cstat);
		if ((cstat >= 0 && sr_run_status_parse(sr_tsv_str(t, cstat)) ==
		    SR_RUN_ERROR) ||
		    sr_tsv_str(t, cm)[0] == '\0') {
			m->nfailed++;
			continue;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			o = sr_reallocarray(o, cap, sizeof *o);
		}
		o[n].run = run;
		o[n].seq = n;
		o[n++].v = sr_tsv_double(t, cm);
	}
	for (i = 1; i < n && o[i - 1].run <= o[i].run; i++)
		;
	if (i < n)
		qsort(o, n, sizeof *o, by_run);
	aggregate(m, o, n, agg);
	m->nrows = n;
	free(o);
	sr_interner_free(&seen);
	free(seen_run);
	sr_tsv_close(t);
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
