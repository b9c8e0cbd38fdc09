/* tune.c - a bucket of a tuning campaign against its ledger (tune.h). */
#include "exec/tune.h"
#include "core/err.h"
#include "core/text.h"
#include "core/hash.h"
#include "core/num.h"
#include "core/out.h"
#include "core/path.h"
#include "plan/instances.h"
#include "plan/results.h"
#include "sa/ledger.h"
#include "sa/metrics.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const sr_tune_score_name[SR_TUNE_NSCORE] = {
	SR_RESULTS_DICE, SR_RESULTS_JACCARD, SR_RESULTS_OBJECT_DICE,
	SR_RESULTS_AJI
};

/* A detail's size: the built-in part and the commands' metrics. */
#define DETAIL_LEN 1024

/* A result row's detail: every score, named as results.tsv's columns,
 * then " NAME=VALUE" for each metric of the commands, so that a resumed
 * bucket can write the results of pairs it does not recompute. */
#define DETAIL_FMT SR_RESULTS_STATUS "=%s " SR_RESULTS_DICE "=%s " \
	SR_RESULTS_JACCARD "=%s " SR_RESULTS_OBJECT_DICE "=%s " \
	SR_RESULTS_AJI "=%s " SR_RESULTS_OBJECTS "=%zu"
#define DETAIL_SCAN SR_RESULTS_STATUS "=%31s " SR_RESULTS_DICE "=%31s " \
	SR_RESULTS_JACCARD "=%31s " SR_RESULTS_OBJECT_DICE "=%31s " \
	SR_RESULTS_AJI "=%31s " SR_RESULTS_OBJECTS "=%zu%n"

struct sr_tune {
	sr_tuneopts o;
	int score;			/* the metric: a built-in score (0..3), or
					 * SR_TUNE_NSCORE + a command metric's
					 * index in the workflow */
	size_t nmetric;			/* the commands' metrics */
	const sr_segplan *p;
	const sr_tiles *tiles;
	char prov[2][256];		/* a new ledger's provenance lines */
	const char *provp[2];
	sr_ledger *ledger;
	size_t nread;			/* ledger rows taken */
	sr_canceller *cx;
	sr_interner tile_ids;		/* tile name -> index */
	size_t *slot;			/* run -> its slot (a run of the bucket), or SIZE_MAX */
	size_t *have;			/* [slot * ntiles + tile]: its ledger row + 1, or 0 */
	size_t nslots;
};

static const sr_instance *
instance(const sr_segplan *p, size_t k)
{
	return &p->in->inst[p->in->first[p->st] + p->inst[k]];
}

/* The chosen metric of instance i's result on tile k. */
static double
score(const sr_tune *t, const sr_runout *out, size_t i, size_t k)
{
	const sr_runresult *r = &out->result[i * t->tiles->n + k];

	if (r->status == SR_RUN_ERROR)
		return NAN;
	switch (t->score) {
	case 0: return r->dice;
	case 1: return r->jaccard;
	case 2: return r->object_dice;
	case 3: return r->aji;
	default: return out->metric[(i * t->tiles->n + k) * t->nmetric +
	    (size_t)t->score - SR_TUNE_NSCORE];
	}
}

/* Takes the ledger's rows read since the last call: values to the
 * canceller, cancels marked, this bucket's pairs remembered. */
static void
take_rows(sr_tune *t)
{
	const sr_ledgerrow *row;
	size_t tile, n;

	sr_ledger_update(t->ledger);
	if (sr_ledger_has_batch(t->ledger))	/* 6-column rows would follow */
		sr_die(SR_EXIT_DATA, "%s: a ledger of all batches (its batch "
		    "column): a batched campaign's buckets append to their "
		    "batch's ledger", t->o.ledger);
	n = sr_ledger_nrows(t->ledger);
	for (; t->nread < n; t->nread++) {
		row = sr_ledger_row(t->ledger, t->nread);
		if (row->run >= t->p->in->nruns)
			sr_die(SR_EXIT_DATA, "%s: run %zu is not in %s (runs 0..%zu)",
			    t->o.ledger, row->run, t->p->instances,
			    t->p->in->nruns - 1);
		if (row->kind == SR_LEDGER_CANCEL || isnan(row->value))
			sr_cancel_mark(t->cx, row->run);	/* or failed */
		else
			sr_cancel_push(t->cx, row->run, row->value, row->seconds);
		if (row->kind == SR_LEDGER_CANCEL)
			continue;
		if (t->slot[row->run] == SIZE_MAX)
			continue;
		tile = sr_interner_find_str(&t->tile_ids, row->tile);
		if (tile != SIZE_MAX)
			t->have[t->slot[row->run] * t->tiles->n + tile] = t->nread + 1;
	}
}

/* Dies: row's detail is not what tile_done writes. */
static _Noreturn void
bad_detail(const sr_tune *t, const sr_ledgerrow *row)
{
	sr_die(SR_EXIT_DATA, "%s: run %zu, tile %s: detail '%s' is not "
	    "seg-run's", t->o.ledger, row->run, SR_SHOW(row->tile),
	    SR_SHOW(row->detail));
}

/* Parses v ("NaN" or a number) into *to; 0, or -1. */
static int
detail_number(const char *v, double *to)
{
	if (strcmp(v, "NaN") == 0) {
		*to = NAN;
		return 0;
	}
	return sr_parse_double(v, to) ? -1 : 0;
}

/* Parses the commands' metrics of a detail (from s: " NAME=V" each, in
 * the workflow's order) into m. */
static void
detail_metrics(const sr_tune *t, const sr_ledgerrow *row, const char *s,
    double *m)
{
	char v[SR_NUMLEN];
	size_t j, len, n;

	for (j = 0; j < t->nmetric; j++) {
		len = strlen(t->p->w->metric[j]);
		if (s[0] != ' ' || strncmp(s + 1, t->p->w->metric[j], len) != 0 ||
		    s[len + 1] != '=')
			bad_detail(t, row);
		s += len + 2;
		n = strcspn(s, " ");
		if (n == 0 || n >= sizeof v)
			bad_detail(t, row);
		memcpy(v, s, n);
		v[n] = '\0';
		if (detail_number(v, &m[j]) < 0)
			bad_detail(t, row);
		s += n;
	}
	if (*s)
		bad_detail(t, row);
}

/* Parses a result row's detail into instance i's result on tile k; dies
 * naming the ledger when it is not what tile_done writes. */
static void
detail_result(const sr_tune *t, const sr_ledgerrow *row, sr_runout *out,
    size_t i, size_t k)
{
	sr_runresult *res = &out->result[i * t->tiles->n + k];
	char st[32], v[4][SR_NUMLEN];
	double *to[4] = { &res->dice, &res->jaccard, &res->object_dice,
	    &res->aji };
	size_t objects, j;
	int status, end = 0;

	if (sscanf(row->detail, DETAIL_SCAN, st, v[0], v[1], v[2], v[3],
	    &objects, &end) != 6 || (status = sr_run_status_parse(st)) < 0 ||
	    status > SR_RUN_ERROR)
		bad_detail(t, row);
	for (j = 0; j < 4; j++)
		if (detail_number(v[j], to[j]) < 0)
			bad_detail(t, row);
	detail_metrics(t, row, row->detail + end, out->metric +
	    (i * t->tiles->n + k) * t->nmetric);
	res->status = status;
	res->objects = objects;
	res->seconds = row->seconds;
}

/* The runner's gate: which instances run on tile k. */
static void
gate(void *ctx, size_t k, unsigned char *alive, sr_runout *out)
{
	sr_tune *t = ctx;
	const sr_instance *x;
	size_t i, r, run, row, from;

	take_rows(t);
	for (i = 0; i < t->p->n; i++) {
		x = instance(t->p, i);
		alive[i] = 0;
		from = 0;
		for (r = 0; r < x->nruns; r++) {
			run = x->runs[r];
			row = t->have[t->slot[run] * t->tiles->n + k];
			if (row)
				from = row;
			else if (!sr_cancel_is(t->cx, run))
				alive[i] = 1;
		}
		if (!alive[i] && from)	/* in the ledger: results from it */
			detail_result(t, sr_ledger_row(t->ledger, from - 1), out,
			    i, k);
	}
}

/* Formats a number for a detail ("NaN" when not finite). */
static const char *
num(char buf[SR_NUMLEN], double v)
{
	return isfinite(v) ? sr_fmt_double(buf, v) : "NaN";
}

/* Writes the detail of instance i's result on tile k into d. */
static void
make_detail(const sr_tune *t, const sr_runout *out, size_t i, size_t k,
    char d[DETAIL_LEN])
{
	const sr_runresult *res = &out->result[i * t->tiles->n + k];
	const double *m = out->metric + (i * t->tiles->n + k) * t->nmetric;
	char b[4][SR_NUMLEN];
	size_t j, n;

	n = (size_t)snprintf(d, DETAIL_LEN, DETAIL_FMT,
	    sr_run_status_name[res->status], num(b[0], res->dice),
	    num(b[1], res->jaccard), num(b[2], res->object_dice),
	    num(b[3], res->aji), res->objects);
	for (j = 0; j < t->nmetric && n < DETAIL_LEN; j++)
		n += (size_t)snprintf(d + n, DETAIL_LEN - n, " %s=%s",
		    t->p->w->metric[j], num(b[0], m[j]));
	if (n >= DETAIL_LEN)	/* names of at most 64 bytes: never */
		sr_die(SR_EXIT_DATA, "%s: the metrics' names are too long for "
		    "a ledger's detail", t->p->w->path);
}

/* The rows of the runs of instance i that ran on tile k into rows[*n]. */
static void
result_rows(sr_tune *t, size_t i, size_t k, const sr_runout *out,
    sr_ledgerrow *rows, char (*detail)[DETAIL_LEN], size_t *n)
{
	const sr_instance *x = instance(t->p, i);
	const sr_runresult *res = &out->result[i * t->tiles->n + k];
	size_t r, run;

	for (r = 0; r < x->nruns; r++) {
		run = x->runs[r];
		if (t->have[t->slot[run] * t->tiles->n + k] ||
		    sr_cancel_is(t->cx, run))
			continue;
		make_detail(t, out, i, k, detail[*n]);
		rows[*n] = (sr_ledgerrow){ SR_LEDGER_RESULT, run,
		    t->tiles->name[k], score(t, out, i, k), res->seconds,
		    detail[*n], 0 };
		(*n)++;
	}
}

/* The runner's tile_done: appends the bucket's new results of tile k,
 * reads the ledger, and decides for the runs that got a value now. */
static void
tile_done(void *ctx, size_t k, const sr_runout *out)
{
	sr_tune *t = ctx;
	size_t cap = t->p->runs ? t->p->runs : 1, n = 0, nc = 0, i;
	sr_ledgerrow *rows = sr_calloc(cap, sizeof *rows);
	sr_ledgerrow *cancels = sr_calloc(cap, sizeof *cancels);
	char (*detail)[DETAIL_LEN] = sr_calloc(cap, sizeof *detail);
	char (*why)[256] = sr_calloc(cap, sizeof *why);
	char (*seen)[24] = sr_calloc(cap, sizeof *seen);
	const sr_runresult *res;

	for (i = 0; i < t->p->n; i++) {
		res = &out->result[i * t->tiles->n + k];
		if (res->status != SR_RESULT_NOT_RUN)
			result_rows(t, i, k, out, rows, detail, &n);
	}
	if (n > 0)
		sr_ledger_append(t->o.ledger, t->provp, 2, rows, n,
		    t->o.grace);
	take_rows(t);
	/* after the last tile a cancellation saves nothing: none is decided */
	for (i = 0; i < n && k + 1 < t->tiles->n; i++) {
		if (sr_cancel_is(t->cx, rows[i].run) || isnan(rows[i].value) ||
		    !sr_cancel_decide(t->cx, rows[i].run, why[nc], sizeof why[nc]))
			continue;
		snprintf(seen[nc], sizeof seen[nc], "%zu",
		    sr_cancel_nvalues(t->cx, rows[i].run));
		cancels[nc] = (sr_ledgerrow){ SR_LEDGER_CANCEL, rows[i].run,
		    seen[nc], sr_cancel_mean(t->cx, rows[i].run), NAN, why[nc], 0 };
		nc++;
	}
	if (nc > 0)
		sr_ledger_append(t->o.ledger, t->provp, 2, cancels, nc,
		    t->o.grace);
	free(rows);
	free(cancels);
	free(detail);
	free(why);
	free(seen);
}

/* The index of a built-in score named m, or -1. */
static int
score_index(const char *m)
{
	int k;

	for (k = 0; k < SR_TUNE_NSCORE; k++)
		if (strcmp(m, sr_tune_score_name[k]) == 0)
			return k;
	return -1;
}

/* The metric m: a built-in score's index, or SR_TUNE_NSCORE + that of a
 * metric of w's commands; a usage error when it is neither. */
static int
metric_index(const char *m, const sr_workflow *w)
{
	int k = score_index(m);
	size_t j;

	if (k >= 0)
		return k;
	for (j = 0; j < w->nmetric; j++)
		if (strcmp(m, w->metric[j]) == 0)
			return SR_TUNE_NSCORE + (int)j;
	sr_usage_error("--metric '%s': not dice, jaccard, object_dice or aji, "
	    "nor a metric of %s's commands", m, w->path);
}

void
sr_tuneopts_init(sr_tuneopts *o)
{
	memset(o, 0, sizeof *o);
	sr_cancelrule_default(&o->rule, SR_CANCEL_NONE);
	o->metric = SR_RESULTS_DICE;
	o->grace = sr_ledger_grace();
}

void
sr_tune_check(const sr_tuneopts *o, int given, const sr_segout *u)
{
	if (given && !o->ledger)
		sr_usage_error("--cancel and --metric need --ledger");
	if (o->ledger && !u->ref && score_index(o->metric) >= 0)
		sr_usage_error("--ledger needs --ref for --metric %s (a set is "
		    "judged against reference masks)", o->metric);
	if (o->ledger && (strcmp(o->ledger, "-") == 0 ||
	    sr_path_same(o->ledger, u->results) ||
	    sr_path_same(o->ledger, u->timings)))
		sr_usage_error("--ledger must be a file of its own");
}

sr_tune *
sr_tune_start(sr_runjob *job, const sr_tuneopts *o, const sr_segplan *p,
    const sr_tiles *tiles)
{
	sr_tune *t = sr_calloc(1, sizeof *t);
	size_t nruns = p->in->nruns ? p->in->nruns : 1, i, r;
	char rule[SR_CANCEL_RULELEN];
	const sr_instance *x;

	t->o = *o;
	t->p = p;
	t->tiles = tiles;
	t->nmetric = p->w->nmetric;
	t->score = metric_index(o->metric, p->w);
	sr_cancelrule_format(&o->rule, rule, sizeof rule);
	snprintf(t->prov[0], sizeof t->prov[0], "#%s %s: ledger(5) of a tuning "
	    "campaign", sr_progname, SR_VERSION);
	snprintf(t->prov[1], sizeof t->prov[1], "#metric=%s rule=%s runs=%zu "
	    "tiles=%zu", o->metric, rule, p->in->nruns,
	    tiles->n);
	t->provp[0] = t->prov[0];
	t->provp[1] = t->prov[1];
	t->cx = sr_cancel_new(&o->rule, nruns);
	t->ledger = sr_ledger_open(o->ledger);
	sr_interner_init(&t->tile_ids);
	for (i = 0; i < tiles->n; i++)
		sr_intern_str(&t->tile_ids, tiles->name[i], NULL);
	t->slot = sr_calloc(nruns, sizeof *t->slot);
	for (r = 0; r < nruns; r++)
		t->slot[r] = SIZE_MAX;
	for (i = 0; i < p->n; i++) {
		x = instance(p, i);
		for (r = 0; r < x->nruns; r++)
			t->slot[x->runs[r]] = t->nslots++;
	}
	t->have = sr_calloc(t->nslots * tiles->n + 1, sizeof *t->have);
	job->gate = gate;
	job->tile_done = tile_done;
	job->ctx = t;
	return t;
}

void
sr_tune_free(sr_tune *t)
{
	if (t == NULL)
		return;
	sr_cancel_free(t->cx);
	sr_ledger_close(t->ledger);
	sr_interner_free(&t->tile_ids);
	free(t->slot);
	free(t->have);
	free(t);
}
