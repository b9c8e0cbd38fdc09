/* report_batches.c - the batches of a tune campaign searched in batches
 * (campaign(5), batches > 1) in its report (report_html.h): each batch's
 * sets and runs, its space against the campaign's, what sa-prune did
 * before it, and its best set. */
#include "campaign/report_html.h"
#include "campaign/html.h"
#include "core/err.h"
#include "core/tsv.h"
#include "plan/trials.h"
#include "sa/prune_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t
sr_report_nbatches(const char *outdir)
{
	char *path = sr_report_path(outdir, "design.tsv"), *v;
	sr_tsv *t = sr_tsv_open(path);
	size_t k = 0;

	/* "#batches=K of N sizes=...": the batches merged so far */
	if ((v = sr_tsv_meta(t, "batches")) != NULL)
		k = strtoul(v, NULL, 10);
	free(v);
	sr_tsv_close(t);
	free(path);
	return k;
}

char *
sr_report_batch_dir(const char *outdir, size_t k)
{
	char name[32];

	snprintf(name, sizeof name, "batch-%zu", k);
	return sr_report_path(outdir, name);
}

/* The rows of a batch's sets: the count of design.tsv's rows. */
static size_t
count_rows(const char *dir, const char *name)
{
	char *path = sr_report_path(dir, name);
	sr_tsv *t = sr_tsv_open(path);
	size_t n = 0;

	while (sr_tsv_next(t))
		n++;
	sr_tsv_close(t);
	free(path);
	return n;
}

/* The prune report of batch dir (prune.tsv) opened, its columns item,
 * name and value in col[0..2], after "<td>"; NULL, with the cell
 * written as none (its text), for batch 1 or a batch without one. */
static sr_tsv *
prune_open(FILE *fp, const char *dir, size_t k, const char *none, int col[3])
{
	char *path;
	sr_tsv *t;

	fputs("<td>", fp);
	if (k == 1 || !sr_report_has(dir, "prune.tsv")) {
		fprintf(fp, "%s</td>", none);
		return NULL;
	}
	path = sr_report_path(dir, "prune.tsv");
	t = sr_tsv_open(path);
	free(path);
	col[0] = sr_tsv_need(t, SR_PRUNE_REPORT_ITEM);
	col[1] = sr_tsv_need(t, SR_PRUNE_REPORT_NAME);
	col[2] = sr_tsv_need(t, SR_PRUNE_REPORT_VALUE);
	return t;
}

/* The space cell of batch dir: the parameters sa-prune narrowed
 * (prune.tsv's parameter rows kept below 1: "NAME OLD -> NEW, F % of
 * the values kept"), or what left the campaign's space whole. */
static void
space_cell(FILE *fp, const char *dir, size_t k)
{
	char buf[SR_REPORT_NUMLEN];
	sr_tsv *t;
	int col[3], item, name, value, detail, any = 0;
	double kept;

	if ((t = prune_open(fp, dir, k, "the campaign's space", col)) == NULL)
		return;
	item = col[0];
	name = col[1];
	value = col[2];
	detail = sr_tsv_need(t, SR_PRUNE_REPORT_DETAIL);
	while (sr_tsv_next(t)) {
		if (strcmp(sr_tsv_str(t, item), "parameter") == 0 &&
		    (kept = sr_tsv_double(t, value)) < 1) {
			fputs(any++ ? "<br><b>" : "<b>", fp);
			sr_html_printf(fp, "%s", sr_tsv_str(t, name));
			fputs("</b> ", fp);
			sr_html_printf(fp, "%s (%s %% of the values "
			    "kept)", sr_tsv_str(t, detail), sr_report_num(buf,
			    100 * kept, 3));
		} else if (strcmp(sr_tsv_str(t, item), "outcome") == 0 &&
		    strcmp(sr_tsv_str(t, name), "pruned") != 0)
			sr_html_printf(fp, "the campaign's space: nothing "
			    "pruned (%s)", sr_tsv_str(t, detail));
	}
	sr_tsv_close(t);
	fputs("</td>", fp);
}

/* The sa-prune cell of batch dir: the past campaign chosen, its ncorr,
 * paggr and how it was chosen, the fraction of the space removed. */
static void
prune_cell(FILE *fp, const char *dir, size_t k)
{
	char a[SR_REPORT_NUMLEN], b[SR_REPORT_NUMLEN];
	sr_tsv *t;
	int col[3], item, name, value;
	const char *it;

	if ((t = prune_open(fp, dir, k, "—", col)) == NULL)
		return;
	item = col[0];
	name = col[1];
	value = col[2];
	while (sr_tsv_next(t)) {
		it = sr_tsv_str(t, item);
		if (strcmp(it, "chosen") == 0) {
			sr_html_printf(fp, "chosen: %s (ncorr %s)",
			    sr_tsv_str(t, name), sr_report_num(a,
			    sr_tsv_double(t, value), 3));
			fputs("<br>", fp);
		} else if (strcmp(it, "paggr") == 0) {
			sr_html_printf(fp, "paggr %s (%s)", sr_report_num(a,
			    sr_tsv_double(t, value), 3), sr_tsv_str(t, name));
			fputs("<br>", fp);
		} else if (strcmp(it, "outcome") == 0)
			sr_html_printf(fp, "%s: %s %% of the space removed",
			    sr_tsv_str(t, name), sr_report_num(b, 100 *
			    sr_tsv_double(t, value), 3));
	}
	sr_tsv_close(t);
	fputs("</td>", fp);
}

/* The best set of batch dir (its trials.tsv's first row, the best),
 * its run renumbered as the campaign's (off before it). */
static void
best_cell(FILE *fp, const char *dir, size_t off)
{
	char *path = sr_report_path(dir, "trials.tsv"), buf[SR_REPORT_NUMLEN];
	sr_trials_table *tt = sr_trials_table_read(path);
	size_t best;

	fputs("<td class=\"n\">", fp);
	if (tt->n > 0) {
		best = tt->row_set[0];
		sr_html_printf(fp, "%s (run %ld)", isnan(tt->mean[best]) ? "—" :
		    sr_report_num(buf, tt->mean[best], 4), (long)off +
		    (long)tt->run[best]);
	} else
		fputs("—", fp);
	sr_trials_table_free(tt);
	free(path);
	fputs("</td>", fp);
}

void
sr_report_batches(FILE *fp, const char *outdir, size_t nbatches)
{
	char *dir;
	size_t k, n, off = 0;

	fputs("<section id=\"batches\">\n<h2>Batches</h2>\n<p class=\"note\">"
	    "Batch 1 is drawn from the campaign's space; before each later "
	    "batch, sa-prune narrows that space with the knowledge base as "
	    "past campaigns and the sets so far as the current one, and the "
	    "batch is drawn from what it kept. Runs are numbered as in "
	    "trials.tsv.</p>\n<table class=\"data\">\n<thead><tr><th>batch"
	    "</th><th class=\"n\">sets</th><th class=\"n\">runs</th><th>space"
	    "</th><th>sa-prune</th><th class=\"n\">best mean</th></tr></thead>"
	    "\n<tbody>\n", fp);
	for (k = 1; k <= nbatches; k++) {
		dir = sr_report_batch_dir(outdir, k);
		n = count_rows(dir, "design.tsv");
		fprintf(fp, "<tr><td class=\"n\">%zu</td><td class=\"n\">%zu</td>"
		    "<td class=\"n\">%zu–%zu</td>", k, n, off, off + n - 1);
		space_cell(fp, dir, k);
		prune_cell(fp, dir, k);
		best_cell(fp, dir, off);
		fputs("</tr>\n", fp);
		off += n;
		free(dir);
	}
	fputs("</tbody>\n</table>\n</section>\n", fp);
}
