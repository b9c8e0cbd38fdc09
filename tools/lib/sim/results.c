/* results.c - a metric per run and tile from results.tsv or a tuning
 * campaign's ledger.tsv (results.h). */
#include "sim/results.h"
#include "core/err.h"
#include "core/text.h"
#include "core/tsv.h"
#include "plan/reuse_tree.h"
#include "sa/ledger.h"
#include "sa/metrics.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
	size_t run, tile, line;
	double x;
} resrow;

static int
cmp_resrow(const void *a, const void *b)
{
	const resrow *x = a, *y = b;

	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	if (x->tile != y->tile)
		return x->tile < y->tile ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

/* The rows of r, in file order, their values of metric column col;
 * *n gets their number. */
static resrow *
read_rows(sr_metrics_rows *r, int col, sr_interner *tiles, int add,
    size_t nruns, size_t *n)
{
	resrow *row = NULL;
	size_t cap = 0, tile;

	for (*n = 0; sr_metrics_rows_next(r); ++*n) {
		if (r->run < 0 || (size_t)r->run >= nruns)
			sr_tsv_die(r->tsv, r->col_run, "%ld is not a run of the "
			    "instances (0 to %zu)", r->run, nruns - 1);
		tile = add ? sr_intern_str(tiles, r->tile, NULL) :
		    sr_interner_find_str(tiles, r->tile);
		if (tile == SIZE_MAX)
			sr_tsv_die_value(r->tsv, r->col_tile, "is not a tile of the "
			    "timings");
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			row = sr_reallocarray(row, cap, sizeof *row);
		}
		row[*n] = (resrow){ (size_t)r->run, tile, r->tsv->lineno,
		    sr_metrics_rows_value(r, col) };
	}
	return row;
}

/* The result rows of ledger path (ledger(5)): its values, the first of
 * each run and tile (a repeat is a resumed bucket's, not an error). */
static resrow *
ledger_rows(const char *path, sr_interner *tiles, int add, size_t nruns,
    size_t *n)
{
	sr_ledger *l = sr_ledger_open(path);
	const sr_ledgerrow *x;
	resrow *row;
	size_t i, k = 0, tile;

	sr_ledger_update(l);
	row = sr_calloc(sr_ledger_nrows(l) + 1, sizeof *row);
	for (i = 0; i < sr_ledger_nrows(l); i++) {
		x = sr_ledger_row(l, i);
		if (x->kind != SR_LEDGER_RESULT)
			continue;
		if (x->run >= nruns)
			sr_die(SR_EXIT_DATA, "%s: run %zu is not a run of the "
			    "instances (0 to %zu)", path, x->run, nruns - 1);
		tile = add ? sr_intern_str(tiles, x->tile, NULL) :
		    sr_interner_find_str(tiles, x->tile);
		if (tile == SIZE_MAX)
			sr_die(SR_EXIT_DATA, "%s: run %zu: tile '%s' is not a tile "
			    "of the timings", path, x->run, SR_SHOW(x->tile));
		row[k] = (resrow){ x->run, tile, k + 1, x->value };
		k++;
	}
	sr_ledger_close(l);
	*n = k;
	return row;
}

/* The values of rows (taken) at v[run * ntiles + tile], NaN where there
 * is none; dies on a run and tile twice, or no value at all ("no values
 * WHAT"). */
static double *
values_of(const char *path, resrow *row, size_t n, const sr_interner *tiles,
    size_t nruns, const char *what)
{
	size_t i, values = 0, T = tiles->n;
	double *v;

	if (n > 1)	/* no rows: row is NULL, which qsort may not take */
		qsort(row, n, sizeof *row, cmp_resrow);
	v = sr_calloc(nruns * T + 1, sizeof *v);
	for (i = 0; i < nruns * T; i++)
		v[i] = NAN;
	for (i = 0; i < n; i++) {
		if (i > 0 && row[i].run == row[i - 1].run &&
		    row[i].tile == row[i - 1].tile)
			sr_die(SR_EXIT_DATA, "%s:%zu: run %zu on tile %s repeats "
			    "line %zu", path, row[i].line, row[i].run,
			    (const char *)sr_interner_key(tiles, row[i].tile, NULL),
			    row[i - 1].line);
		v[row[i].run * T + row[i].tile] = row[i].x;
		values += !isnan(row[i].x);
	}
	if (values == 0)
		sr_die(SR_EXIT_DATA, "%s: no values %s", path, what);
	free(row);
	return v;
}

double *
sr_simresults_read(const char *path, const char *metric, sr_interner *tiles,
    int add, size_t nruns)
{
	sr_metrics_rows *r = sr_metrics_rows_open(path);
	char what[128];
	resrow *row;
	size_t n;
	double *v;

	if (sr_tsv_col(r->tsv, SR_LEDGER_KIND) >= 0 &&
	    sr_tsv_col(r->tsv, SR_LEDGER_VALUE) >= 0) {	/* a ledger */
		sr_metrics_rows_close(r);
		row = ledger_rows(path, tiles, add, nruns, &n);
		return values_of(path, row, n, tiles, nruns, "in the ledger");
	}
	sr_metrics_rows_need(r, SR_METRICS_NEED_TILE);
	row = read_rows(r, sr_metrics_rows_need_metric(r, metric), tiles, add,
	    nruns, &n);
	snprintf(what, sizeof what, "of %s", metric);
	v = values_of(r->tsv->path, row, n, tiles, nruns, what);
	sr_metrics_rows_close(r);
	return v;
}

size_t
sr_simresults_best(const double *v, size_t nruns, size_t ntiles)
{
	size_t r, k, n, best = SR_NONE;
	double sum, top = 0;

	for (r = 0; r < nruns; r++) {
		for (k = n = 0, sum = 0; k < ntiles; k++)
			if (!isnan(v[r * ntiles + k])) {
				sum += v[r * ntiles + k];
				n++;
			}
		if (n > 0 && (best == SR_NONE || sum / (double)n > top)) {
			best = r;
			top = sum / (double)n;
		}
	}
	return best;
}
