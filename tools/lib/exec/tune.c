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

const char *const sr_tune_metric_name[SR_TUNE_NMETRIC] = {
	SR_RESULTS_DICE, SR_RESULTS_JACCARD, SR_RESULTS_OBJECT_DICE,
	SR_RESULTS_AJI
};

/* A result row's detail: every score, named as results.tsv's columns, so
 * that a resumed bucket can write the results of pairs it does not
 * recompute. */
#define DETAIL_FMT SR_RESULTS_STATUS "=%s " SR_RESULTS_DICE "=%s " \
	SR_RESULTS_JACCARD "=%s " SR_RESULTS_OBJECT_DICE "=%s " \
	SR_RESULTS_AJI "=%s " SR_RESULTS_OBJECTS "=%zu"
#define DETAIL_SCAN SR_RESULTS_STATUS "=%31s " SR_RESULTS_DICE "=%31s " \
	SR_RESULTS_JACCARD "=%31s " SR_RESULTS_OBJECT_DICE "=%31s " \
	SR_RESULTS_AJI "=%31s " SR_RESULTS_OBJECTS "=%zu"

struct sr_tune {
	sr_tuneopts o;
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

/* The chosen score of a result. */
static double
score(const sr_tune *t, const sr_runresult *r)
{
	switch (t->o.metric) {
	case SR_TUNE_JACCARD: return r->jaccard;
	case SR_TUNE_OBJECT_DICE: return r->object_dice;
	case SR_TUNE_AJI: return r->aji;
	default: return r->dice;
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
		if (row->kind == SR_LEDGER_CANCEL) {
			sr_cancel_mark(t->cx, row->run);
			continue;
		}
		sr_cancel_push(t->cx, row->run, row->value, row->seconds);
		if (t->slot[row->run] == SIZE_MAX)
			continue;
		tile = sr_interner_find_str(&t->tile_ids, row->tile);
		if (tile != SIZE_MAX)
			t->have[t->slot[row->run] * t->tiles->n + tile] = t->nread + 1;
	}
}

/* Parses a result row's detail into res; dies naming the ledger when it
 * is not what tile_done writes. */
static void
detail_result(const sr_tune *t, const sr_ledgerrow *row, sr_runresult *res)
{
	char st[32], v[4][SR_NUMLEN];
	double *to[4] = { &res->dice, &res->jaccard, &res->object_dice,
	    &res->aji };
	size_t objects, i;
	int status;

	if (sscanf(row->detail, DETAIL_SCAN, st, v[0], v[1], v[2], v[3],
	    &objects) != 6 || (status = sr_run_status_parse(st)) < 0 ||
	    status > SR_RUN_NO_CANDIDATES)
		sr_die(SR_EXIT_DATA, "%s: run %zu, tile %s: detail '%s' is not "
		    "seg-run's", t->o.ledger, row->run, SR_SHOW(row->tile),
		    SR_SHOW(row->detail));
	for (i = 0; i < 4; i++)
		if (strcmp(v[i], "NaN") == 0)
			*to[i] = NAN;
		else if (sr_parse_double(v[i], to[i]))
			sr_die(SR_EXIT_DATA, "%s: run %zu, tile %s: detail '%s' is "
			    "not seg-run's", t->o.ledger, row->run,
			    SR_SHOW(row->tile), SR_SHOW(row->detail));
	res->status = status;
	res->objects = objects;
	res->seconds = row->seconds;
}

/* The runner's gate: which instances run on tile k. */
static void
gate(void *ctx, size_t k, unsigned char *alive, sr_runresult *result)
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
			detail_result(t, sr_ledger_row(t->ledger, from - 1),
			    &result[i * t->tiles->n + k]);
	}
}

/* Formats a number for a detail ("NaN" when not finite). */
static const char *
num(char buf[SR_NUMLEN], double v)
{
	return isfinite(v) ? sr_fmt_double(buf, v) : "NaN";
}

/* The rows of the runs of instance i that ran on tile k into rows[*n]. */
static void
result_rows(sr_tune *t, size_t i, size_t k, const sr_runresult *res,
    sr_ledgerrow *rows, char (*detail)[256], size_t *n)
{
	const sr_instance *x = instance(t->p, i);
	char b[4][SR_NUMLEN];
	size_t r, run;

	for (r = 0; r < x->nruns; r++) {
		run = x->runs[r];
		if (t->have[t->slot[run] * t->tiles->n + k] ||
		    sr_cancel_is(t->cx, run))
			continue;
		snprintf(detail[*n], sizeof detail[*n], DETAIL_FMT,
		    sr_run_status_name[res->status], num(b[0], res->dice),
		    num(b[1], res->jaccard), num(b[2], res->object_dice),
		    num(b[3], res->aji), res->objects);
		rows[*n] = (sr_ledgerrow){ SR_LEDGER_RESULT, run,
		    t->tiles->name[k], score(t, res), res->seconds, detail[*n], 0 };
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
	char (*detail)[256] = sr_calloc(cap, sizeof *detail);
	char (*why)[256] = sr_calloc(cap, sizeof *why);
	char (*seen)[24] = sr_calloc(cap, sizeof *seen);
	const sr_runresult *res;

	for (i = 0; i < t->p->n; i++) {
		res = &out->result[i * t->tiles->n + k];
		if (res->status != SR_RESULT_NOT_RUN)
			result_rows(t, i, k, res, rows, detail, &n);
	}
	if (n > 0)
		sr_ledger_append(t->o.ledger, t->provp, 2, rows, n,
		    t->o.grace);
	take_rows(t);
	/* after the last tile a cancellation saves nothing: none is decided */
	for (i = 0; i < n && k + 1 < t->tiles->n; i++) {
		if (sr_cancel_is(t->cx, rows[i].run) ||
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

void
sr_tuneopts_init(sr_tuneopts *o)
{
	memset(o, 0, sizeof *o);
	sr_cancelrule_default(&o->rule, SR_CANCEL_NONE);
	o->metric = SR_TUNE_DICE;
	o->grace = sr_ledger_grace();
}

void
sr_tune_check(const sr_tuneopts *o, int given, const sr_segout *u)
{
	if (given && !o->ledger)
		sr_usage_error("--cancel and --metric need --ledger");
	if (o->ledger && !u->ref)
		sr_usage_error("--ledger needs --ref (a set is judged against "
		    "reference masks)");
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
	sr_cancelrule_format(&o->rule, rule, sizeof rule);
	snprintf(t->prov[0], sizeof t->prov[0], "#%s %s: ledger(5) of a tuning "
	    "campaign", sr_progname, SR_VERSION);
	snprintf(t->prov[1], sizeof t->prov[1], "#metric=%s rule=%s runs=%zu "
	    "tiles=%zu", sr_tune_metric_name[o->metric], rule, p->in->nruns,
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
