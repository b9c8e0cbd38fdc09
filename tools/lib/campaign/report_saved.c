/* report_saved.c - the section of sa-report's page on the work saved
 * (report_page.h): task nodes and seconds of the merged stage if every
 * run computed every task on every tile, after reuse (the plan), and as
 * run once cancellation and the paths a task stopped left work out, for
 * the campaign and for each batch (campaign/saved.h). */
#include "campaign/report_page.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/html.h"
#include "campaign/report_html.h"
#include "campaign/saved.h"
#include "core/err.h"
#include "image/tiles.h"
#include "plan/workflow.h"

/* A cell of seconds: "—" when unknown, "≈ S" when estimated. */
static void
seconds_cell(FILE *fp, double s, int estimated)
{
	char buf[SR_REPORT_NUMLEN + 8], num[SR_REPORT_NUMLEN];

	if (!isfinite(s))
		snprintf(buf, sizeof buf, "—");
	else
		snprintf(buf, sizeof buf, "%s%s", estimated ? "≈ " : "",
		    sr_report_num(num, s, 4));
	sr_report_cell(fp, "td", "n", buf);
}

/* A cell of the share of all saved by part: "37.5 %", "—" unknown. */
static void
saved_cell(FILE *fp, double part, double all)
{
	char buf[SR_REPORT_NUMLEN + 4], num[SR_REPORT_NUMLEN];

	if (!isfinite(part) || !(all > 0))
		snprintf(buf, sizeof buf, "—");
	else
		snprintf(buf, sizeof buf, "%s %%", sr_report_num(num,
		    100 * (1 - part / all), 4));
	sr_report_cell(fp, "td", "n", buf);
}

/* A row of the campaign's table: nodes (a bar of all), saved, seconds
 * (estimated or not) and the seconds saved. */
static void
total_row(FILE *fp, const char *what, double nodes, double all, double s,
    int estimated, double all_s, int first)
{
	char buf[SR_REPORT_NUMLEN];

	fputs("<tr>", fp);
	sr_report_cell(fp, "td", NULL, what);
	sr_report_bar(fp, isfinite(nodes) ? nodes / all : 0);
	sr_report_cell(fp, "td", "n", isfinite(nodes) ?
	    sr_report_num(buf, nodes, 15) : "—");
	if (first)
		sr_report_cell(fp, "td", "n", "—");
	else
		saved_cell(fp, nodes, all);
	seconds_cell(fp, s, estimated);
	if (first || !isfinite(s))
		sr_report_cell(fp, "td", "n", "—");
	else
		saved_cell(fp, s, all_s);
	fputs("</tr>\n", fp);
}

/* The campaign's table: all, after stage-level reuse, the plan, run. */
static void
total_table(FILE *fp, const sr_saved *t)
{
	fputs("<table class=\"data\">\n<thead><tr><th></th><th class=\"n\" "
	    "colspan=\"2\">task nodes</th><th class=\"n\">saved</th><th "
	    "class=\"n\">seconds</th><th class=\"n\">saved</th></tr></thead>"
	    "\n<tbody>\n", fp);
	total_row(fp, "without reuse: every run computes every task on every "
	    "tile", t->all, t->all, t->all_s, 1, t->all_s, 1);
	total_row(fp, "after stage-level reuse (wf-compact)", t->stage,
	    t->all, NAN, 0, t->all_s, 0);
	total_row(fp, "merged into buckets (reuse-merge): the plan",
	    t->planned, t->all, t->planned_s, 1, t->all_s, 0);
	total_row(fp, "run: the plan less what cancellation and stopped paths "
	    "left out", t->run, t->all, t->run_s, 0, t->all_s, 0);
	fputs("</tbody>\n</table>\n", fp);
}

/* A row of the batches' table. */
static void
batch_row(FILE *fp, const char *name, const sr_saved *s, int total)
{
	char buf[SR_REPORT_NUMLEN];

	fputs(total ? "<tr class=\"total\">" : "<tr>", fp);
	sr_report_cell(fp, "td", NULL, name);
	sr_report_cell(fp, "td", "n", sr_report_num(buf, s->runs, 15));
	sr_report_cell(fp, "td", "n", sr_report_num(buf, s->all, 15));
	sr_report_cell(fp, "td", "n", sr_report_num(buf, s->planned, 15));
	sr_report_cell(fp, "td", "n", isfinite(s->run) ?
	    sr_report_num(buf, s->run, 15) : "—");
	saved_cell(fp, s->run, s->all);
	seconds_cell(fp, s->all_s, 1);
	seconds_cell(fp, s->run_s, 0);
	saved_cell(fp, s->run_s, s->all_s);
	fputs("</tr>\n", fp);
}

/* The batches' table: each batch's work and the campaign's. */
static void
batch_table(FILE *fp, const sr_saved *b, size_t n, const sr_saved *t)
{
	char name[32];
	size_t k;

	fputs("<p>Per batch, and for the campaign:</p>\n", fp);
	fputs("<table class=\"data\">\n<thead><tr><th>batch</th><th class=\"n\">"
	    "runs</th><th class=\"n\">nodes: all</th><th class=\"n\">the plan"
	    "</th><th class=\"n\">run</th><th class=\"n\">saved</th><th "
	    "class=\"n\">seconds: all</th><th class=\"n\">run</th><th "
	    "class=\"n\">saved</th></tr></thead>\n<tbody>\n", fp);
	for (k = 0; k < n; k++) {
		snprintf(name, sizeof name, "%zu", k + 1);
		batch_row(fp, name, &b[k], 0);
	}
	batch_row(fp, "the campaign", t, 1);
	fputs("</tbody>\n</table>\n", fp);
}

/* The note under the tables: what a node is, where each figure comes
 * from, what was estimated. */
static void
saved_note(FILE *fp, const sr_saved *t, int measured, int tune)
{
	char a[SR_REPORT_NUMLEN], b[SR_REPORT_NUMLEN];

	fputs("<p class=\"note\">", fp);
	sr_html_printf(fp, "Task nodes: one execution of a task of the merged "
	    "stage on a tile, for %s runs on %s tiles: without reuse, after "
	    "it and in the plan, buckets.tsv's #stats line (per tile) times "
	    "the tiles", sr_report_num(a, t->runs, 15), sr_report_num(b,
	    t->tiles, 15));
	if (!measured) {
		fputs("; what was run and its seconds need the workflow "
		    "(<code>sa-report --workflow</code>).</p>\n", fp);
		return;
	}
	fputs("; run: the rows of timings.tsv, with their measured seconds. "
	    "≈ estimated: without reuse, each task at its mean measured "
	    "seconds; the plan, its nodes not run at the mean seconds of a "
	    "node run. Left out of the plan: ", fp);
	fputs(tune ? "the nodes of the sets cancelled once they could no "
	    "longer be the best, and those " : "the nodes ", fp);
	fputs("below a task that stopped its runs (a background tile, no "
	    "candidate nuclei).</p>\n", fp);
}

void
sr_report_section_reuse(FILE *fp, const sr_report_page *r)
{
	char *path = sr_report_path(r->out, "tiles.list");
	sr_tiles *tl = sr_tiles_read(path);	/* a list or a table */
	sr_workflow *w = r->o->workflow ? sr_workflow_read(r->o->workflow) :
	    NULL;
	sr_saved *b = sr_calloc(r->ndir, sizeof *b), t;
	size_t k;

	fputs("<section id=\"reuse\">\n<h2>Reuse and cancellation: the work "
	    "saved</h2>\n", fp);
	for (k = 0; k < r->ndir; k++) {
		sr_saved_read(&b[k], r->dir[k], tl->n, w);
		if (k == 0)
			t = b[0];
		else
			sr_saved_add(&t, &b[k]);
	}
	if (!isfinite(t.all) || !(t.all > 0))
		fputs("<p>buckets.tsv has no #stats line.</p>\n", fp);
	else {
		total_table(fp, &t);
		if (r->nbatches)
			batch_table(fp, b, r->ndir, &t);
		saved_note(fp, &t, w != NULL, r->tune);
	}
	fputs("</section>\n", fp);
	sr_workflow_free(w);
	sr_tiles_free(tl);
	free(b);
	free(path);
}
