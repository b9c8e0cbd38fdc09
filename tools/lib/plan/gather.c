/* gather.c - bucket tables gathered into one (gather.h). */
#include "plan/gather.h"
#include "core/err.h"
#include "core/hash.h"
#include "core/out.h"
#include "core/tsv.h"
#include "plan/results.h"
#include "plan/timings.h"
#include "sa/metrics.h"

#include <stdlib.h>
#include <string.h>

const char *const sr_gather_format_name[SR_GATHER_N] = { "results", "timings" };

/* The comment lines kept: "#unnormalized tile=... foreground=...". */
#define KEPT "unnormalized "

/* A file being gathered: a results file read through the metrics
 * reader, a timings file as a table. */
typedef struct {
	sr_metrics_rows *results;	/* NULL for timings */
	sr_tsv *t;			/* the file (results->tsv) */
} gfile;

/* Opens path into g and dies naming its header line unless the header is
 * of the format: a header of the other format is named as such. */
static void
open_checked(gfile *g, const char *path, int format)
{
	int ref, results, timings;

	if (strcmp(path, "-") == 0)
		sr_die(SR_EXIT_USAGE, "-: the files are read twice: stdin "
		    "cannot be one");
	g->results = format == SR_GATHER_RESULTS ? sr_metrics_rows_open(path) :
	    NULL;
	g->t = g->results ? g->results->tsv : sr_tsv_open(path);
	results = sr_results_header(g->t, &ref);
	timings = sr_timings_header(g->t);
	if (format == SR_GATHER_RESULTS ? results : timings)
		return;
	if (results || timings)
		sr_tsv_die(g->t, -1, "a %s header, not a %s one", results ?
		    "results" : "timings", sr_gather_format_name[format]);
	sr_tsv_die(g->t, -1, "not a %s header", sr_gather_format_name[format]);
}

static void
gfile_close(gfile *g)
{
	if (g->results)
		sr_metrics_rows_close(g->results);
	else
		sr_tsv_close(g->t);
}

/* Reads the next row of g, checked through the format's rules: 1, or 0
 * at the end. */
static int
next_checked(gfile *g)
{
	int col;

	if (g->results) {	/* a run and a status (sa/metrics.h) */
		if (!sr_metrics_rows_next(g->results))
			return 0;
		if (g->results->run < 0)
			sr_tsv_die(g->t, g->results->col_run, "negative run number");
		return 1;
	}
	if (!sr_tsv_next(g->t))
		return 0;
	col = sr_tsv_col(g->t, SR_TIMINGS_BUCKET);
	if (sr_tsv_long(g->t, col) < 0)
		sr_tsv_die(g->t, col, "negative bucket number");
	col = sr_tsv_col(g->t, SR_TIMINGS_SECONDS);
	if (sr_tsv_double(g->t, col) < 0)
		sr_tsv_die(g->t, col, "negative seconds");
	return 1;
}

/* Adds the file's kept comment lines to seen; returns whether it has a
 * #normalize=no line. */
static int
keep_comments(const sr_tsv *t, sr_interner *seen)
{
	size_t i;
	int no_normalize = 0;

	for (i = 0; i < t->ncomment; i++) {
		if (strncmp(t->comment[i], KEPT, strlen(KEPT)) == 0)
			sr_intern_str(seen, t->comment[i], NULL);
		no_normalize |= strcmp(t->comment[i], SR_TIMINGS_NO_NORMALIZE) == 0;
	}
	return no_normalize;
}

/* Reads file path through (checking its rows unless first is NULL),
 * keeps its kept comments; first (NULL: none to match) is the header
 * every file must have. Returns whether the file has a #normalize=no
 * line. */
static int
first_pass(const char *path, int format, const sr_tsv *first,
    sr_interner *seen)
{
	int no_normalize;
	gfile g;
	size_t i;

	open_checked(&g, path, format);
	if (first && (g.t->ncol != first->ncol))
		sr_tsv_die(g.t, -1, "another header than %s's", first->path);
	for (i = 0; first && i < g.t->ncol; i++)
		if (strcmp(g.t->header[i], first->header[i]) != 0)
			sr_tsv_die(g.t, -1, "another header than %s's", first->path);
	if (first)
		while (next_checked(&g))
			;
	else
		while (sr_tsv_next(g.t))
			;
	no_normalize = keep_comments(g.t, seen);
	gfile_close(&g);
	return no_normalize;
}

/* Whether all the timings files[0..n) have a #normalize=no line
 * (flag[i]); warns when only some have it: the rows do not say which
 * bucket normalized, and the merged file gets no such line (timings of a
 * campaign resumed with a newer seg-run). */
static int
all_no_normalize(char *const *files, const unsigned char *flag, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (flag[i] != flag[0]) {
			sr_warn("%s: %s #%s line, unlike %s: the merged timings get "
			    "none (their normalization rows may not all be "
			    "measurements)", files[i], flag[i] ? "a" : "no",
			    SR_TIMINGS_NO_NORMALIZE, files[0]);
			return 0;
		}
	return flag[0];
}

/* Writes the rows of path as they are. */
static void
copy_rows(FILE *out, const char *path)
{
	sr_tsv *t = sr_tsv_open(path);
	size_t i;

	while (sr_tsv_next(t))
		for (i = 0; i < t->nfield; i++)
			fprintf(out, "%s%c", t->field[i], i + 1 < t->nfield ? '\t' :
			    '\n');
	sr_tsv_close(t);
}

void
sr_gather(FILE *out, int format, char *const *files, size_t n,
    char *const *extra, size_t nextra, int argc, char **argv)
{
	sr_interner seen;
	gfile first;
	size_t i, len;
	unsigned char *flag = sr_calloc(n + 1, 1);
	int no_normalize;

	sr_interner_init(&seen);
	for (i = 0; i < nextra; i++)
		first_pass(extra[i], format, NULL, &seen);
	open_checked(&first, files[0], format);
	for (i = 0; i < n; i++)
		flag[i] = (unsigned char)first_pass(files[i], format, first.t,
		    &seen);
	no_normalize = format == SR_GATHER_TIMINGS &&
	    all_no_normalize(files, flag, n);
	sr_out_provenance(out, argc, argv);
	fprintf(out, "#buckets=%zu\n", n);
	if (no_normalize)
		sr_timings_write_no_normalize(out);
	for (i = 0; i < seen.n; i++) {
		const char *c = sr_interner_key(&seen, i, &len);
		fprintf(out, "#%.*s\n", (int)len, c);
	}
	for (i = 0; i < first.t->ncol; i++)
		fprintf(out, "%s%c", first.t->header[i], i + 1 < first.t->ncol ?
		    '\t' : '\n');
	gfile_close(&first);
	for (i = 0; i < n; i++)
		copy_rows(out, files[i]);
	sr_interner_free(&seen);
	free(flag);
}
