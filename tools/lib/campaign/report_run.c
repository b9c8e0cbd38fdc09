/* report_run.c - the sections of sa-report's page on what was run and
 * what it found (report_page.h): the campaign, its design, metric,
 * bucket plan, engine and dates; the indices or the best sets. */
#include "campaign/report_page.h"

#include <stdlib.h>
#include <string.h>

#include "campaign/campaign.h"
#include "campaign/html.h"
#include "campaign/report_html.h"
#include "core/err.h"
#include "core/tsv.h"
#include "image/tiles.h"
#include "plan/trials.h"
#include "sa/indices_tsv.h"

#define CAMPAIGN_SHOWN (256 * 1024)	/* bytes of the campaign file shown */

/* The campaign's value of key, as written or its default ("" none). */
static const char *
campaign_value(const sr_campaign *c, const char *key)
{
	int k = sr_campaign_key_find(key);

	if (k < 0)
		return "";
	if (c->value[k])
		return c->value[k];
	return sr_campaign_keys[k].def ? sr_campaign_keys[k].def : "";
}

/* The dates of the run: planned, the buckets, merged, this report. */
static void
run_dates(FILE *fp, const sr_report_page *r)
{
	char a[SR_REPORT_NUMLEN], b[SR_REPORT_NUMLEN], line[200];

	sr_report_kv(fp, "Planned", sr_report_date(a, sr_report_mtime(r->out,
	    "inputs")));
	if (r->m.buckets) {
		snprintf(line, sizeof line, "%s to %s", sr_report_date(a,
		    r->m.first), sr_report_date(b, r->m.last));
		sr_report_kv(fp, "Buckets ran", line);
	}
	sr_report_kv(fp, "Merged", sr_report_date(a, sr_report_mtime(r->out,
	    "trials.tsv")));
}

/* The comma list as text, ", " between the items. */
static void
list_text(FILE *fp, const char *list)
{
	size_t len;

	for (;;) {
		len = strcspn(list, ",");
		sr_html_textn(fp, list, len);
		if (list[len] == '\0')
			return;
		fputs(", ", fp);
		list += len + 1;
	}
}

/* The design: method, varied parameters, seed (design.tsv's metadata),
 * and the runs and tiles. */
static void
run_design(FILE *fp, const sr_report_page *r)
{
	char *path = sr_report_path(r->out, "design.tsv"), line[256];
	sr_tsv *t = sr_tsv_open(path);
	char *method = sr_tsv_meta(t, "method"), *k = sr_tsv_meta(t, "k"),
	    *params = sr_tsv_meta(t, "params"), *seed = sr_tsv_meta(t, "seed");
	size_t runs = 0, tiles;
	sr_tiles *tl;

	while (sr_tsv_next(t))
		runs++;
	fputs("<tr><th>Design</th><td>", fp);
	sr_html_printf(fp, "%s, %s varied parameters (", method ? method : "?",
	    k ? k : "?");
	list_text(fp, params ? params : "?");
	sr_html_printf(fp, "), seed %s", seed ? seed : "?");
	fputs("</td></tr>\n", fp);
	free(path);
	path = sr_report_path(r->out, "tiles.list");
	tl = sr_tiles_read(path);	/* a list or a table; nothing opened */
	tiles = tl->n;
	sr_tiles_free(tl);
	snprintf(line, sizeof line, "%zu run%s × %zu tile%s = %zu runs of the "
	    "workflow on a tile", runs, runs == 1 ? "" : "s", tiles,
	    tiles == 1 ? "" : "s", runs * tiles);
	sr_report_kv(fp, "Runs × tiles", line);
	sr_tsv_close(t);
	free(path);
	free(method);
	free(k);
	free(params);
	free(seed);
}

/* The metric (trials.tsv's), and how the indices aggregate it. */
static void
run_metric(FILE *fp, const sr_report_page *r)
{
	char *path = sr_report_path(r->out, "trials.tsv"), line[256];
	sr_trials_table *tt = sr_trials_table_read(path);
	sr_indices_table *x = NULL;
	const char *agg = NULL;

	free(path);
	if (!r->tune && sr_report_has(r->out, "indices.tsv")) {
		path = sr_report_path(r->out, "indices.tsv");
		x = sr_indices_table_read(path);
		agg = x->aggregate;
		free(path);
	}
	snprintf(line, sizeof line, "%s%s%s%s", tt->metric ? tt->metric : "?",
	    agg ? " (the " : "", agg ? agg : "", agg ? " over the tiles)" :
	    r->tune ? " (the mean over the tiles ranks the sets)" : "");
	sr_report_kv(fp, "Metric", line);
	sr_trials_table_free(tt);
	sr_indices_table_free(x);
}

/* The campaign file as written. */
static void
run_campaign_file(FILE *fp, const sr_report_page *r)
{
	size_t len;
	unsigned char *text = sr_report_slurp(r->o->campaign, CAMPAIGN_SHOWN, &len);

	fputs("<details><summary>The campaign file</summary>\n<pre>", fp);
	sr_html_textn(fp, (const char *)text, len);
	fputs(len == CAMPAIGN_SHOWN ? "\n…</pre>\n</details>\n" :
	    "</pre>\n</details>\n", fp);
	free(text);
}

void
sr_report_section_run(FILE *fp, const sr_report_page *r)
{
	char *alg;
	char line[256];

	fputs("<section id=\"run\">\n<h2>What was run</h2>\n"
	    "<table class=\"kv\">\n", fp);
	if (r->o->campaign)
		sr_report_kv(fp, "Campaign", r->o->campaign);
	sr_report_kv(fp, "Output directory", r->out);
	sr_report_kv(fp, "Goal", r->tune ? "tune: the best parameter set" :
	    "sensitivity: the indices");
	run_design(fp, r);
	run_metric(fp, r);
	alg = sr_report_inputs(r->out, "bucket_size");
	snprintf(line, sizeof line, "%s%s%s%s, %zu buckets (array tasks)",
	    r->merge ? r->merge : "?", alg && *alg ? " (at most " : "",
	    alg && *alg ? alg : "", alg && *alg ? " runs a bucket)" : "",
	    r->nbuckets);
	sr_report_kv(fp, "Bucket plan", line);
	free(alg);
	if (r->c) {
		snprintf(line, sizeof line, "%s, %s active path(s) a bucket",
		    campaign_value(r->c, "engine"),
		    campaign_value(r->c, "active_paths"));
		sr_report_kv(fp, "Engine", line);
	}
	run_dates(fp, r);
	fputs("</table>\n", fp);
	if (r->o->campaign)
		run_campaign_file(fp, r);
	fputs("</section>\n", fp);
}

void
sr_report_section_results(FILE *fp, const sr_report_page *r)
{
	fprintf(fp, "<section id=\"results\">\n<h2>%s</h2>\n", r->tune ?
	    "The best sets" : "The indices");
	if (r->tune)
		sr_report_trials(fp, r->out, r->o->top);
	else if (sr_report_has(r->out, "indices.tsv"))
		sr_report_indices(fp, r->out);
	else
		fputs("<p>No indices.tsv.</p>\n", fp);
	fputs("</section>\n", fp);
}
