/* trials.c - a design's parameter sets from the results of their runs:
 * trials.tsv, best.tsv and the plot of the search (trials.h). */
#include "plan/trials.h"
#include "core/err.h"
#include "core/hash.h"
#include "core/num.h"
#include "core/out.h"
#include "core/tsv.h"
#include "plan/results.h"
#include "sa/metrics.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *const sr_trial_status_name[SR_NTRIAL] = {
	"complete", "cancelled", "failed"
};

/* One row of the results. */
typedef struct {
	size_t run, tile, line;	/* tile: its id, then its rank by name */
	int status;
	double value;		/* NaN: none */
	double seconds;
} row;

/* The columns read. */
typedef struct {
	int metric, seconds;
} cols;

static int
by_run_tile(const void *a, const void *b)
{
	const row *x = a, *y = b;

	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	if (x->tile != y->tile)
		return x->tile < y->tile ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

/* The columns of a results file; dies on another header, or one without
 * the metric. */
static cols
results_columns(const sr_metrics_rows *r, const char *metric)
{
	cols c;
	int ref;

	if (!sr_results_header(r->tsv, &ref))
		sr_die(SR_EXIT_DATA, "%s:%zu: not a header of seg-run's results "
		    "(see metrics(5))", r->tsv->path, r->tsv->lineno);
	if ((c.metric = sr_metrics_rows_metric(r, metric)) < 0)
		sr_die(SR_EXIT_DATA, "%s: no column %s%s", r->tsv->path, metric,
		    !ref && (!strcmp(metric, SR_RESULTS_DICE) || !strcmp(metric,
		    SR_RESULTS_JACCARD) || !strcmp(metric, SR_RESULTS_AJI) ||
		    !strcmp(metric, SR_RESULTS_OBJECT_DICE)) ? ": the runs were "
		    "compared with no reference masks" : "");
	sr_metrics_rows_need(r, SR_METRICS_NEED_TILE | SR_METRICS_NEED_STATUS);
	c.seconds = sr_metrics_rows_need_metric(r, SR_RESULTS_SECONDS);
	return c;
}

/* The current row of r. */
static row
read_row(const sr_metrics_rows *r, const cols *c, size_t nrun,
    sr_interner *tiles)
{
	row x;

	if (r->run < 0 || (size_t)r->run >= nrun)
		sr_tsv_die(r->tsv, r->col_run, "run %ld is not in the design (runs "
		    "0 to %zu)", r->run, nrun - 1);
	x.run = (size_t)r->run;
	x.tile = sr_intern_str(tiles, r->tile, NULL);
	x.line = r->tsv->lineno;
	x.status = r->status;
	x.value = sr_metrics_rows_value(r, c->metric);
	x.seconds = sr_metrics_rows_number(r, c->seconds);
	if (x.seconds < 0)
		sr_tsv_die_value(r->tsv, c->seconds, "is not a number of seconds");
	return x;
}

/* A tile's name and id, sorted by name. */
typedef struct {
	const char *name;
	size_t id;
} tilename;

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const tilename *)a)->name, ((const tilename *)b)->name);
}

/* Ranks of the tiles by name (rank[id]), so that a set's values are
 * taken in the same order whatever the order of the rows. */
static size_t *
tile_ranks(const sr_interner *tiles)
{
	size_t n = tiles->n, i, *rank = sr_calloc(n + 1, sizeof *rank);
	tilename *t = sr_calloc(n + 1, sizeof *t);

	for (i = 0; i < n; i++)
		t[i] = (tilename){ sr_interner_key(tiles, i, NULL), i };
	if (n > 1)
		qsort(t, n, sizeof *t, by_name);
	for (i = 0; i < n; i++)
		rank[t[i].id] = i;
	free(t);
	return rank;
}

/* The rows of the results, sorted by run and tile name; *n their number,
 * *ntiles the tiles. Dies on a run and tile that repeat. */
static row *
read_rows(const char *path, const char *metric, size_t nrun, size_t *n,
    size_t *ntiles)
{
	sr_metrics_rows *in = sr_metrics_rows_open(path);
	cols c = results_columns(in, metric);
	sr_interner tiles;
	row *r;
	size_t cap, i, *rank;

	sr_interner_init(&tiles);
	r = sr_calloc(1, sizeof *r);	/* never NULL, even without rows */
	cap = 1;
	for (*n = 0; sr_metrics_rows_next(in); ++*n) {
		if (*n == cap) {
			cap *= 2;
			r = sr_reallocarray(r, cap, sizeof *r);
		}
		r[*n] = read_row(in, &c, nrun, &tiles);
	}
	if (*n > 1)
		qsort(r, *n, sizeof *r, by_run_tile);
	for (i = 1; i < *n; i++)
		if (r[i].run == r[i - 1].run && r[i].tile == r[i - 1].tile)
			sr_die(SR_EXIT_DATA, "%s:%zu: run %zu on tile %s repeats "
			    "line %zu", in->tsv->path, r[i].line, r[i].run,
			    (const char *)sr_interner_key(&tiles, r[i].tile, NULL),
			    r[i - 1].line);
	rank = tile_ranks(&tiles);
	for (i = 0; i < *n; i++)
		r[i].tile = rank[r[i].tile];
	if (*n > 1)
		qsort(r, *n, sizeof *r, by_run_tile);
	*ntiles = tiles.n;
	free(rank);
	sr_interner_free(&tiles);
	sr_metrics_rows_close(in);
	return r;
}

static int
by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The mean, median and standard deviation (n - 1) of v[0..n), in place. */
static void
summarize(sr_trial *s, double *v, size_t n)
{
	double sum = 0, ss = 0;
	size_t i;

	s->tiles = n;
	s->mean = s->median = s->sd = NAN;
	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		sum += v[i];
	s->mean = sum / (double)n;
	for (i = 0; i < n; i++)
		ss += (v[i] - s->mean) * (v[i] - s->mean);
	if (n > 1)
		s->sd = sqrt(ss / (double)(n - 1));
	qsort(v, n, sizeof *v, by_value);
	s->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Set s from its rows r[0..n) (sorted by tile), on ntiles tiles. */
static void
make_set(sr_trial *s, const row *r, size_t n, size_t ntiles, double *buf)
{
	size_t i, nv = 0;
	int error = 0, cancelled = 0;

	s->seconds = 0;
	for (i = 0; i < n; i++) {
		error |= r[i].status == SR_RUN_ERROR;
		cancelled |= r[i].status == SR_RUN_CANCELLED;
		s->seconds += r[i].seconds;
		if (!isnan(r[i].value))
			buf[nv++] = r[i].value;
	}
	s->seconds = round(s->seconds * 1e6) / 1e6;	/* no 4.800000000000001 */
	summarize(s, buf, nv);
	s->status = error ? SR_TRIAL_FAILED : cancelled ? SR_TRIAL_CANCELLED :
	    nv == ntiles && nv > 0 ? SR_TRIAL_COMPLETE : SR_TRIAL_FAILED;
}

/* The order: status, then mean (highest first, none last), then run. */
static const sr_trials *sort_trials;

static int
by_rank(const void *a, const void *b)
{
	const sr_trial *x = &sort_trials->set[*(const size_t *)a];
	const sr_trial *y = &sort_trials->set[*(const size_t *)b];

	if (x->status != y->status)
		return x->status < y->status ? -1 : 1;
	if (isnan(x->mean) != isnan(y->mean))
		return isnan(x->mean) ? 1 : -1;
	if (!isnan(x->mean) && x->mean != y->mean)
		return x->mean > y->mean ? -1 : 1;
	return (x->run > y->run) - (x->run < y->run);
}

sr_trials *
sr_trials_read(const sr_design *d, const char *results, const char *metric)
{
	sr_trials *t = sr_calloc(1, sizeof *t);
	size_t n, i, j, r;
	row *rows = read_rows(results, metric, d->nrun, &n, &t->ntiles);
	double *buf = sr_calloc(t->ntiles + 1, sizeof *buf);

	t->metric = metric;
	t->n = d->nrun;
	t->set = sr_calloc(t->n + 1, sizeof *t->set);
	t->order = sr_calloc(t->n + 1, sizeof *t->order);
	for (r = 0, i = 0; r < t->n; r++, i = j) {
		for (j = i; j < n && rows[j].run == r; j++)
			;
		t->set[r].run = r;
		make_set(&t->set[r], rows + i, j - i, t->ntiles, buf);
		t->count[t->set[r].status]++;
		t->order[r] = r;
	}
	sort_trials = t;
	qsort(t->order, t->n, sizeof *t->order, by_rank);
	free(buf);
	free(rows);
	return t;
}

void
sr_trials_free(sr_trials *t)
{
	if (t == NULL)
		return;
	free(t->set);
	free(t->order);
	free(t);
}

size_t
sr_trials_best(const sr_trials *t)
{
	return t->n > 0 && t->set[t->order[0]].status == SR_TRIAL_COMPLETE ?
	    t->order[0] : SIZE_MAX;
}

/* A number field: a tab, then v, or nothing for NaN. */
static void
put_field(FILE *fp, double v)
{
	fputc('\t', fp);
	if (!isnan(v))
		sr_put_double(fp, v);
}

/* The batch of run (from 1) in a batched campaign's design. */
static size_t
batch_of(const sr_design *d, size_t run)
{
	size_t b, end = 0;

	for (b = 0; b < d->nbatch; b++)
		if (run < (end += d->batch_size[b]))
			break;
	return b + 1;
}

static void
write_row(FILE *fp, const sr_trial *s, const sr_design *d, const char *rule)
{
	int cancelled = s->status == SR_TRIAL_CANCELLED;
	size_t j;

	fprintf(fp, "%zu\t%s\t%zu", s->run, sr_trial_status_name[s->status],
	    s->tiles);
	put_field(fp, s->mean);
	put_field(fp, s->median);
	put_field(fp, s->sd);
	put_field(fp, s->seconds);
	put_field(fp, cancelled ? (double)s->tiles : NAN);
	fprintf(fp, "\t%s", cancelled && rule ? rule : "");
	if (d->nbatch)
		fprintf(fp, "\t%zu", batch_of(d, s->run));
	for (j = 0; j < d->ncol; j++) {
		char num[SR_NUMLEN];
		fprintf(fp, "\t%s", sr_design_text(d, j, d->x[s->run * d->ncol +
		    j], num));
	}
	fputc('\n', fp);
}

void
sr_trials_write(FILE *fp, const sr_trials *t, const sr_design *d,
    const char *rule, int argc, char **argv)
{
	static const char *const head[] = { SR_TRIALS_RUN, SR_TRIALS_STATUS,
	    SR_TRIALS_TILES, SR_TRIALS_MEAN, SR_TRIALS_MEDIAN, SR_TRIALS_SD,
	    SR_TRIALS_SECONDS, SR_TRIALS_CANCELLED_AT, SR_TRIALS_RULE };
	size_t i, best = sr_trials_best(t);

	sr_out_provenance(fp, argc, argv);
	fprintf(fp, "#" SR_TRIALS_META_METRIC "=%s " SR_TRIALS_META_TILES "=%zu "
	    SR_TRIALS_META_SETS "=%zu", t->metric, t->ntiles, t->n);
	for (i = 0; i < SR_NTRIAL; i++)
		fprintf(fp, " %s=%zu", sr_trial_status_name[i], t->count[i]);
	if (best != SIZE_MAX)
		fprintf(fp, " " SR_TRIALS_META_BEST "=%zu", best);
	fputc('\n', fp);
	if (d->space)
		sr_space_write_comments(fp, d->space);
	for (i = 0; i < sizeof head / sizeof head[0]; i++)
		fprintf(fp, "%s%s", i ? "\t" : "", head[i]);
	if (d->nbatch)
		fprintf(fp, "\t%s", SR_TRIALS_BATCH);
	for (i = 0; i < d->ncol; i++)
		fprintf(fp, "\t%s", d->name[i]);
	fputc('\n', fp);
	for (i = 0; i < t->n; i++)
		write_row(fp, &t->set[t->order[i]], d, rule);
}

void
sr_trials_write_best(FILE *fp, const sr_trials *t, const sr_design *d,
    sr_space *s, const char *space_path, int argc, char **argv)
{
	size_t best = sr_trials_best(t), j;
	char num[SR_NUMLEN];
	sr_param *p;
	double v;
	int k;

	if (best == SIZE_MAX)
		sr_die(SR_EXIT_DATA, "%s: no set is complete (%zu cancelled, %zu "
		    "failed): no best set", d->path, t->count[SR_TRIAL_CANCELLED],
		    t->count[SR_TRIAL_FAILED]);
	for (j = 0; j < d->ncol; j++) {
		v = d->x[best * d->ncol + j];
		if ((k = sr_space_find(s, d->name[j])) < 0)
			sr_die(SR_EXIT_DATA, "%s: no parameter %s, a column of %s",
			    space_path, d->name[j], d->path);
		p = &s->p[k];
		if (d->cparam)	/* a word enum's code in s */
			v = sr_param_recode(d->cparam[j], p, v);
		if (isnan(v) || !sr_param_valid(p, v))
			sr_die(SR_EXIT_DATA, "%s: the best set's %s=%s is not a value "
			    "of %s (%s %s, default %s)", space_path, p->name,
			    sr_design_text(d, j, d->x[best * d->ncol + j], num),
			    p->name, sr_ptype_name(p->type),
			    p->values_text, p->default_text);
		sr_param_set_default(p, v);
	}
	sr_out_provenance(fp, argc, argv);
	fprintf(fp, "#" SR_TRIALS_META_BEST " " SR_TRIALS_RUN "=%zu "
	    SR_TRIALS_META_METRIC "=%s " SR_TRIALS_MEAN "=%s " SR_TRIALS_META_TILES
	    "=%zu\n", best, t->metric, sr_fmt_double(num, t->set[best].mean),
	    t->set[best].tiles);
	sr_space_write(fp, s);
}
