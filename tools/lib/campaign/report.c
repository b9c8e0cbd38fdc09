/* report.c - a campaign's report as one self-contained HTML page; see
 * report.h. The page's sections: what was run, the results (indices or
 * best sets, report_tables.c), the plots, the reuse, the timings per
 * task, the makespan. */
#include "campaign/report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "campaign/campaign.h"
#include "campaign/html.h"
#include "campaign/makespan.h"
#include "campaign/report_html.h"
#include "core/err.h"
#include "core/out.h"
#include "core/tsv.h"
#include "image/image.h"
#include "image/tiles.h"
#include "plan/timings.h"
#include "plan/trials.h"
#include "sa/indices_tsv.h"

#define STRING_(x) #x
#define STRING(x) STRING_(x)	/* a macro's value as a string literal */
#define CAMPAIGN_SHOWN (256 * 1024)	/* bytes of the campaign file shown */

const char *const sr_report_plots[] = { "indices.png", "indices-plane.png",
    "indices-s2.png", "tune.png" };
const char *const sr_report_plot_captions[] = {
	"the index of each parameter with its interval (sa-indices --plot)",
	"the Morris μ*–σ plane, with the lines σ/μ* = 0.1, 0.5 and 1",
	"the second-order indices S2 of each pair of parameters",
	"the search: the best mean so far against the seconds of work, and "
	    "the mean against each varied parameter (sa-trials --plot)",
};
const size_t sr_report_nplots = sizeof sr_report_plots /
    sizeof sr_report_plots[0];

/* What the sections share. */
typedef struct {
	const sr_report_opts *o;
	const char *out;
	int tune;		/* goal = tune */
	char *merge;		/* the plan's merge algorithm (inputs) */
	sr_campaign *c;		/* the campaign file, or NULL */
	sr_measured m;		/* the buckets' attempts (logs/finished) */
	size_t nbuckets;
	size_t nbatches;	/* a tune campaign in batches: those merged */
	char **dir;		/* the directories of the buckets: out, or
				 * out/batch-1 to out/batch-nbatches */
	size_t ndir;
} report;

/* Whether outdir is a batched tune campaign's, merged at least once: its
 * batches hold the buckets (OUT/batch-K/buckets.tsv), OUT none. */
static int
batched(const char *outdir)
{
	return !sr_report_has(outdir, "buckets.tsv") &&
	    sr_report_has(outdir, "batch-1/buckets.tsv") &&
	    sr_report_has(outdir, "design.tsv") &&
	    sr_report_nbatches(outdir) > 0;
}

void
sr_report_check(const char *outdir)
{
	static const char *const need[] = { "buckets.tsv", "design.tsv",
	    "tiles.list" };
	struct stat sb;
	size_t i;

	if (stat(outdir, &sb) != 0)
		sr_die_errno("%s", outdir);
	if (!S_ISDIR(sb.st_mode))
		sr_die(SR_EXIT_DATA, "%s: not a directory", outdir);
	for (i = batched(outdir) ? 1 : 0; i < sizeof need / sizeof need[0]; i++)
		if (!sr_report_has(outdir, need[i]))
			sr_die(SR_EXIT_DATA, "%s: no %s: not a campaign's output "
			    "directory (sa-campaign plan makes one)", outdir,
			    need[i]);
	if (!sr_report_has(outdir, "trials.tsv"))
		sr_die(SR_EXIT_DATA, "%s: no trials.tsv: the campaign is not "
		    "merged (sa-campaign merge)", outdir);
}

/* The value of key in OUT/inputs ("key = value" lines), newly allocated,
 * or NULL. */
static char *
inputs_value(const char *outdir, const char *key)
{
	char *path = sr_report_path(outdir, "inputs"), *line = NULL, *v = NULL;
	size_t cap = 0, n = strlen(key);
	ssize_t len;
	FILE *fp = fopen(path, "r");

	while (fp && v == NULL && (len = getline(&line, &cap, fp)) != -1) {
		if (len > 0 && line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (strncmp(line, key, n) == 0 && strncmp(line + n, " = ", 3) == 0)
			v = sr_strdup(line + n + 3);
	}
	if (fp)
		fclose(fp);
	free(line);
	free(path);
	return v;
}

/* The campaign file of --campaign, parsed (not resolved: the report
 * shows what it says). */
static sr_campaign *
campaign_read(const char *path)
{
	char err[SR_CAMPAIGN_ERRLEN];
	FILE *fp = fopen(path, "r");
	sr_campaign *c;

	if (fp == NULL)
		sr_die_errno("%s", path);
	c = sr_campaign_new(path);
	if (sr_campaign_parse(c, fp, err, sizeof err))
		sr_die(SR_EXIT_DATA, "%s", err);
	fclose(fp);
	return c;
}

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

/* The first n bytes of path, newly allocated (*len of them); dies when
 * it cannot be read. */
static unsigned char *
slurp(const char *path, size_t max, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *buf;
	size_t cap = 65536, n = 0, got;

	if (fp == NULL)
		sr_die_errno("%s", path);
	buf = sr_malloc(cap);
	while (n < max && (got = fread(buf + n, 1, cap - n < max - n ?
	    cap - n : max - n, fp)) > 0) {
		n += got;
		if (n == cap && n < max)
			buf = sr_reallocarray(buf, cap *= 2, 1);
	}
	if (ferror(fp))
		sr_die_io("%s", path);
	fclose(fp);
	*len = n;
	return buf;
}

/* ---- the page ------------------------------------------------------------ */

static const char css[] =
":root{--fg:#1f2328;--muted:#57606a;--line:#d0d7de;--band:#f3f5f7;"
"--accent:#0b5cad}\n"
"body{margin:0;color:var(--fg);background:#fff;font:15px/1.5 system-ui,"
"'DejaVu Sans',sans-serif}\n"
"main{max-width:1120px;margin:0 auto;padding:24px 32px 48px}\n"
"h1{font-size:1.7em;margin:0}\n"
"h2{font-size:1.3em;margin:2em 0 .5em;padding-bottom:4px;"
"border-bottom:2px solid var(--line)}\n"
"h3{font-size:1.05em;margin:1.5em 0 .3em}\n"
".sub{color:var(--muted);margin:.2em 0 1em}\n"
"nav{background:var(--band);padding:6px 12px;border-radius:4px}\n"
"nav a{margin-right:1.2em;color:var(--accent);text-decoration:none}\n"
"table{border-collapse:collapse;margin:.5em 0;"
"font-variant-numeric:tabular-nums}\n"
"th,td{padding:3px 10px;border-bottom:1px solid var(--line);"
"text-align:left;vertical-align:top}\n"
"table.data th{background:var(--band);font-weight:600;white-space:nowrap}\n"
"table.data tbody tr:nth-child(even){background:#fafbfc}\n"
"table.kv th{font-weight:normal;color:var(--muted);width:13em}\n"
".n{text-align:right;white-space:nowrap}\n"
".sig{font-weight:600}\n"
"tr.best td{font-weight:600}\n"
"tr.fixed td{color:var(--muted)}\n"
".wide{overflow-x:auto;max-width:100%}\n"
"td.b{width:" STRING(SR_REPORT_BAR) "px;padding-right:0}\n"
".bar{display:block;height:.7em;margin-top:.45em;background:#6f9fd8}\n"
"tr.total td{font-weight:600;border-top:2px solid var(--line)}\n"
".note{color:var(--muted);font-size:.92em;max-width:62em}\n"
"figure{margin:1em 0 2em}\n"
"figure img{display:block;max-width:100%;height:auto;"
"border:1px solid var(--line)}\n"
"figcaption{color:var(--muted);font-size:.92em;margin-top:.3em}\n"
"pre{background:var(--band);padding:8px 12px;overflow-x:auto}\n"
"code{font-size:.95em}\n"
"footer{margin-top:3em;color:var(--muted);font-size:.85em}\n";

/* Once the page has loaded (every image too, a data: URI as any other),
 * its body gets data-images="decoded" when every image has decoded to a
 * size, else "broken", and data-image-count: what the tests read. */
static const char script[] =
"<script>\n"
"(function () {\n"
"  function mark() {\n"
"    var imgs = Array.prototype.slice.call(document.images);\n"
"    var ok = imgs.every(function (i) {\n"
"      return i.complete && i.naturalWidth > 0 && i.naturalHeight > 0;\n"
"    });\n"
"    document.body.dataset.images = ok ? \"decoded\" : \"broken\";\n"
"    document.body.dataset.imageCount = String(imgs.length);\n"
"  }\n"
"  if (document.readyState === \"complete\") mark();\n"
"  else window.addEventListener(\"load\", mark);\n"
"})();\n"
"</script>\n";

/* The report's title: the campaign file's name, else the directory's. */
static void
page_head(FILE *fp, const report *r)
{
	const char *name = r->o->campaign ? r->o->campaign : r->out, *slash;
	char date[SR_REPORT_NUMLEN];
	size_t n = strlen(name);

	while (n > 1 && name[n - 1] == '/')
		n--;
	for (slash = name + n; slash > name && slash[-1] != '/'; slash--)
		;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
	    "content=\"width=device-width, initial-scale=1\">\n"
	    "<meta name=\"generator\" content=\"sa-report " SR_VERSION
	    " (sareuse)\">\n<title>", fp);
	sr_html_printf(fp, "%.*s: campaign report", (int)(name + n - slash),
	    slash);
	fprintf(fp, "</title>\n<style>\n%s</style>\n</head>\n"
	    "<body data-images=\"pending\">\n<main>\n<h1>", css);
	sr_html_printf(fp, "%.*s", (int)(name + n - slash), slash);
	fputs("</h1>\n<p class=\"sub\">", fp);
	sr_html_printf(fp, "%s campaign · report of %s, %s",
	    r->tune ? "Tuning" : "Sensitivity", r->out,
	    sr_report_date(date, r->o->now));
	fprintf(fp, "</p>\n<nav><a href=\"#run\">What was run</a>"
	    "<a href=\"#results\">%s</a>%s<a href=\"#plots\">Plots</a>"
	    "<a href=\"#reuse\">Reuse</a><a href=\"#timings\">Timings</a>"
	    "<a href=\"#makespan\">Makespan</a></nav>\n",
	    r->tune ? "Best sets" : "Indices", r->nbatches ?
	    "<a href=\"#batches\">Batches</a>" : "");
}

/* The dates of the run: planned, the buckets, merged, this report. */
static void
run_dates(FILE *fp, const report *r)
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
run_design(FILE *fp, const report *r)
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
run_metric(FILE *fp, const report *r)
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
run_campaign_file(FILE *fp, const report *r)
{
	size_t len;
	unsigned char *text = slurp(r->o->campaign, CAMPAIGN_SHOWN, &len);

	fputs("<details><summary>The campaign file</summary>\n<pre>", fp);
	sr_html_textn(fp, (const char *)text, len);
	fputs(len == CAMPAIGN_SHOWN ? "\n…</pre>\n</details>\n" :
	    "</pre>\n</details>\n", fp);
	free(text);
}

static void
section_run(FILE *fp, const report *r)
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
	alg = inputs_value(r->out, "bucket_size");
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

static void
section_results(FILE *fp, const report *r)
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

/* ---- the plots ------------------------------------------------------------ */

/* One plot inlined: checked to be a whole PNG (decoded), its bytes as a
 * data: URI, its size as the image's. */
static void
plot_figure(FILE *fp, const char *outdir, size_t i)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n',
	    0x1a, '\n' };
	char *path = sr_report_path(outdir, sr_report_plots[i]);
	char err[SR_ERRLEN];
	unsigned char *png;
	size_t len;
	sr_rgb img;

	png = slurp(path, (size_t)1 << 30, &len);
	if (len < sizeof sig || memcmp(png, sig, sizeof sig) != 0)
		sr_die(SR_EXIT_DATA, "%s: not a PNG image", path);
	if (sr_rgb_read(path, &img, err) != 0)
		sr_die(SR_EXIT_DATA, "%s", err);
	fputs("<figure>\n<img alt=\"", fp);
	sr_html_text(fp, sr_report_plots[i]);
	fprintf(fp, "\" width=\"%zu\" height=\"%zu\" src=\"data:image/png;"
	    "base64,", img.w, img.h);
	sr_base64_write(fp, png, len);
	fputs("\">\n<figcaption><b>", fp);
	sr_html_text(fp, sr_report_plots[i]);
	fputs("</b>: ", fp);
	sr_html_text(fp, sr_report_plot_captions[i]);
	fputs(".</figcaption>\n</figure>\n", fp);
	sr_rgb_free(&img);
	free(png);
	free(path);
}

static void
section_plots(FILE *fp, const report *r)
{
	size_t i, n = 0;

	fputs("<section id=\"plots\">\n<h2>Plots</h2>\n", fp);
	for (i = 0; i < sr_report_nplots; i++)
		if (sr_report_has(r->out, sr_report_plots[i])) {
			plot_figure(fp, r->out, i);
			n++;
		}
	if (n == 0)
		fputs("<p>None: the campaign has <code>plot = no</code>.</p>\n",
		    fp);
	fputs("</section>\n", fp);
}

/* ---- the reuse ------------------------------------------------------------ */

/* The #stats line of buckets.tsv (without "stats "), newly allocated,
 * and the number of buckets. */
static char *
bucket_stats(const char *outdir, size_t *nbuckets)
{
	char *path = sr_report_path(outdir, "buckets.tsv"), *stats = NULL;
	sr_tsv *t = sr_tsv_open(path);
	size_t i;

	*nbuckets = 0;
	while (sr_tsv_next(t))
		++*nbuckets;
	for (i = 0; i < t->ncomment; i++)
		if (strncmp(t->comment[i], "stats ", 6) == 0) {
			free(stats);
			stats = sr_strdup(t->comment[i] + 6);
		}
	sr_tsv_close(t);
	free(path);
	return stats;
}

/* A stat of the #stats line as a number (NaN when missing). */
static double stat_num(const char *stats, const char *key);

/* The #stats of the report's buckets: buckets.tsv's line, or in
 * batches the sums of the batches' lines (their largest bucket, and the
 * shares saved of the sums), newly allocated; the buckets in all. */
static char *
all_bucket_stats(const report *r, size_t *nbuckets)
{
	static const char *const sum[] = { "runs", "instances",
	    "tasks_noreuse", "tasks_stage", "tasks_merged" };
	double v[5] = { 0 }, max = 0;
	char *stats, buf[512];
	size_t i, j, nb;

	if (r->ndir == 1)
		return bucket_stats(r->dir[0], nbuckets);
	*nbuckets = 0;
	for (i = 0; i < r->ndir; i++) {
		stats = bucket_stats(r->dir[i], &nb);
		*nbuckets += nb;
		for (j = 0; j < 5; j++)
			v[j] += stat_num(stats, sum[j]);
		if (stat_num(stats, "max_bucket_tasks") > max)
			max = stat_num(stats, "max_bucket_tasks");
		free(stats);
	}
	snprintf(buf, sizeof buf, "runs=%.17g instances=%.17g "
	    "tasks_noreuse=%.17g tasks_stage=%.17g tasks_merged=%.17g "
	    "buckets=%zu reuse_stage_pct=%.4f reuse_total_pct=%.4f "
	    "max_bucket_tasks=%.17g", v[0], v[1], v[2], v[3], v[4], *nbuckets,
	    100 * (1 - v[3] / v[2]), 100 * (1 - v[4] / v[2]), max);
	return sr_strdup(buf);
}

static double
stat_num(const char *stats, const char *key)
{
	char *v = stats ? sr_report_word(stats, key) : NULL, *end;
	double x = v ? strtod(v, &end) : NAN;

	if (v && (end == v || *end))
		x = NAN;
	free(v);
	return x;
}

/* One row of the reuse table: task nodes and the fraction of all. */
static void
reuse_row(FILE *fp, const char *what, double nodes, double all,
    const char *saved)
{
	char buf[SR_REPORT_NUMLEN];

	fputs("<tr>", fp);
	sr_report_cell(fp, "td", NULL, what);
	sr_report_bar(fp, nodes / all);
	sr_report_cell(fp, "td", "n", sr_report_num(buf, nodes, 15));
	sr_report_cell(fp, "td", "n", saved);
	fputs("</tr>\n", fp);
}

static void
section_reuse(FILE *fp, const report *r)
{
	size_t nb;
	char *stats = all_bucket_stats(r, &nb);
	double all = stat_num(stats, "tasks_noreuse");
	char a[SR_REPORT_NUMLEN], b[SR_REPORT_NUMLEN], c[SR_REPORT_NUMLEN];

	fputs("<section id=\"reuse\">\n<h2>Reuse</h2>\n", fp);
	if (stats == NULL || !(all > 0)) {
		fputs("<p>buckets.tsv has no #stats line.</p>\n</section>\n", fp);
		free(stats);
		return;
	}
	fputs("<p class=\"note\">Task nodes: one execution of a task of the "
	    "workflow on a tile (buckets.tsv's <code>#stats</code> line).</p>"
	    "\n<table class=\"data\">\n<thead><tr><th></th><th class=\"n\" "
	    "colspan=\"2\">task nodes</th><th class=\"n\">saved</th></tr>"
	    "</thead>\n<tbody>\n", fp);
	reuse_row(fp, "without reuse: every run computes its own", all, all,
	    "—");
	snprintf(a, sizeof a, "%s %%", sr_report_num(b,
	    stat_num(stats, "reuse_stage_pct"), 4));
	reuse_row(fp, "after stage-level reuse (wf-compact)",
	    stat_num(stats, "tasks_stage"), all, a);
	snprintf(a, sizeof a, "%s %%", sr_report_num(b,
	    stat_num(stats, "reuse_total_pct"), 4));
	reuse_row(fp, "merged into buckets (reuse-merge): what ran",
	    stat_num(stats, "tasks_merged"), all, a);
	fputs("</tbody>\n</table>\n<p>", fp);
	sr_html_printf(fp, "%s runs, %s stage instances, %zu buckets; the "
	    "largest bucket has %s task nodes.", sr_report_num(a,
	    stat_num(stats, "runs"), 15), sr_report_num(b, stat_num(stats,
	    "instances"), 15), nb, sr_report_num(c, stat_num(stats,
	    "max_bucket_tasks"), 15));
	fputs("</p>\n</section>\n", fp);
	free(stats);
}

/* ---- timings per task ------------------------------------------------------ */

typedef struct {
	char *task;
	size_t n;
	double seconds;
} task_time;

typedef struct {
	task_time *t;
	size_t n;
	size_t reads;		/* #read lines: decoding a tile */
	double read_seconds;
} task_times;

/* Adds one execution of task (seconds) to tt, tasks in order of first
 * appearance. */
static void
task_add(task_times *tt, const char *task, double seconds)
{
	size_t i;

	for (i = 0; i < tt->n && strcmp(tt->t[i].task, task) != 0; i++)
		;
	if (i == tt->n) {
		tt->t = sr_reallocarray(tt->t, tt->n + 1, sizeof *tt->t);
		tt->t[tt->n].task = sr_strdup(task);
		tt->t[tt->n].n = 0;
		tt->t[tt->n++].seconds = 0;
	}
	tt->t[i].n++;
	tt->t[i].seconds += seconds;
}

/* The executions of each task in a timings file (timings(5)). */
static void
task_times_read(task_times *tt, const char *path)
{
	sr_timings_in *in = sr_timings_open(path);
	enum sr_timings_kind k;

	memset(tt, 0, sizeof *tt);
	while ((k = sr_timings_next(in)) != SR_TIMINGS_END) {
		if (k == SR_TIMINGS_ROW)
			task_add(tt, in->task, in->seconds);
		else if (k == SR_TIMINGS_READ) {
			tt->reads++;
			tt->read_seconds += in->seconds;
		}
	}
	sr_timings_close(in);
}

/* Adds the executions, seconds and reads of from to to. */
static void
task_times_add(task_times *to, const task_times *from)
{
	size_t i, j;

	for (i = 0; i < from->n; i++) {
		task_add(to, from->t[i].task, from->t[i].seconds);
		for (j = 0; j < to->n; j++)
			if (strcmp(to->t[j].task, from->t[i].task) == 0)
				to->t[j].n += from->t[i].n - 1;
	}
	to->reads += from->reads;
	to->read_seconds += from->read_seconds;
}

static void
task_times_free(task_times *tt)
{
	size_t i;

	for (i = 0; i < tt->n; i++)
		free(tt->t[i].task);
	free(tt->t);
}

/* One row of the timings table: task, executions, total and mean
 * seconds, its share of all, a bar of its share of the largest (top). */
static void
timing_row(FILE *fp, const char *task, size_t n, double s, double all,
    double top)
{
	char buf[SR_REPORT_NUMLEN];

	fputs(top > 0 ? "<tr>" : "<tr class=\"total\">", fp);
	sr_report_cell(fp, "td", NULL, task);
	fprintf(fp, "<td class=\"n\">%zu</td>", n);
	sr_report_cell(fp, "td", "n", sr_report_num(buf, s, 4));
	sr_report_cell(fp, "td", "n", sr_report_num(buf, n ? s / n : NAN, 4));
	if (top > 0)
		sr_report_bar(fp, s / top);
	else
		fputs("<td></td>", fp);
	fputs("<td class=\"n\">", fp);
	sr_html_text(fp, sr_report_num(buf, 100 * s / all, 3));
	fputs(" %</td></tr>\n", fp);
}

/* The normalize task as the reference step measured it: *n, *s. */
static void
reference_normalize(const char *outdir, size_t *n, double *s)
{
	task_times ref;
	char *path = sr_report_path(outdir, "ref/timings.tsv");
	size_t i;

	*n = 0;
	*s = 0;
	task_times_read(&ref, path);
	for (i = 0; i < ref.n; i++)
		if (strcmp(ref.t[i].task, "normalize") == 0) {
			*n = ref.t[i].n;
			*s = ref.t[i].seconds;
		}
	task_times_free(&ref);
	free(path);
}

/* The note under the timings table: where normalize's row comes from
 * (n rows of the buckets' own, s seconds), how the tiles were read. */
static void
timings_note(FILE *fp, int from_ref, size_t n, double s, size_t reads)
{
	char buf[SR_REPORT_NUMLEN];

	fputs("<p class=\"note\">Wall-clock seconds of every task node of "
	    "the buckets (timings.tsv)", fp);
	if (reads)
		fputs(", and of reading the tiles (its #read lines)", fp);
	fputs(". ", fp);
	if (from_ref)
		sr_html_printf(fp, "normalize: as the reference step measured it"
		    " (ref/timings.tsv). The buckets read the tiles it "
		    "normalized (seg-run --no-normalize: stage-level reuse of "
		    "the normalization), so their own normalize rows time only "
		    "that reuse: %zu of them, %s s in all.", n,
		    sr_report_num(buf, s, 3));
	fputs("</p>\n", fp);
}

/* The timings table of tt: a row per task, reading, the total. */
static void
timings_table(FILE *fp, const task_times *tt, int from_ref)
{
	size_t i, n = tt->reads;
	double all = tt->read_seconds, top = tt->read_seconds;

	for (i = 0; i < tt->n; i++) {
		all += tt->t[i].seconds;
		n += tt->t[i].n;
		if (tt->t[i].seconds > top)
			top = tt->t[i].seconds;
	}
	if (!(all > 0))
		all = top = 1;
	fputs("<table class=\"data\">\n<thead><tr><th>task</th>"
	    "<th class=\"n\">executions</th><th class=\"n\">total s</th>"
	    "<th class=\"n\">mean s</th><th class=\"n\" colspan=\"2\">share"
	    "</th></tr></thead>\n<tbody>\n", fp);
	for (i = 0; i < tt->n; i++)
		timing_row(fp, strcmp(tt->t[i].task, "normalize") || !from_ref ?
		    tt->t[i].task : "normalize (reference step)", tt->t[i].n,
		    tt->t[i].seconds, all, top);
	if (tt->reads)
		timing_row(fp, "reading the tiles", tt->reads, tt->read_seconds,
		    all, top);
	timing_row(fp, "all", n, all, all, 0);
	fputs("</tbody>\n</table>\n", fp);
}

static void
section_timings(FILE *fp, const report *r)
{
	task_times tt, one;
	char *path;
	int from_ref = r->merge && strcmp(r->merge, "none") != 0 &&
	    sr_report_has(r->out, "ref/timings.tsv");
	size_t i, rn = 0, bn = 0;
	double rs = 0, bs = 0;

	fputs("<section id=\"timings\">\n<h2>Timings per task</h2>\n", fp);
	/* the timings of every directory of buckets, summed per task */
	memset(&tt, 0, sizeof tt);
	for (i = 0; i < r->ndir; i++) {
		path = sr_report_path(r->dir[i], "timings.tsv");
		task_times_read(&one, path);
		free(path);
		task_times_add(&tt, &one);
		task_times_free(&one);
	}
	if (from_ref)
		reference_normalize(r->out, &rn, &rs);
	for (i = 0; from_ref && i < tt.n; i++)
		if (strcmp(tt.t[i].task, "normalize") == 0) {
			bn = tt.t[i].n;
			bs = tt.t[i].seconds;
			tt.t[i].n = rn;
			tt.t[i].seconds = rs;
		}
	timings_table(fp, &tt, from_ref);
	timings_note(fp, from_ref, bn, bs, tt.reads);
	fputs("</section>\n", fp);
	task_times_free(&tt);
}

/* ---- the makespan ----------------------------------------------------------- */

static void
makespan_predicted(FILE *fp, const report *r, char *a, char *b)
{
	sr_predicted p;
	char line[256];

	if (r->o->makespan == NULL) {
		sr_report_kv(fp, "Predicted", "no prediction (sa-report "
		    "--makespan: sim-runtime's report)");
		return;
	}
	sr_predicted_read(r->o->makespan, &p);
	snprintf(line, sizeof line, "%s on %s slots (sim-runtime, from the "
	    "timings)", sr_report_duration(a, p.makespan),
	    isnan(p.slots) ? "?" : sr_report_num(b, p.slots, 6));
	sr_report_kv(fp, "Predicted", line);
	if (r->m.buckets && r->m.makespan > 0) {
		snprintf(line, sizeof line, "%+.1f %% of the measured",
		    100 * (p.makespan - r->m.makespan) / r->m.makespan);
		sr_report_kv(fp, "Prediction error", line);
	}
}

static void
section_makespan(FILE *fp, const report *r)
{
	char a[SR_REPORT_NUMLEN], b[SR_REPORT_NUMLEN], line[256];

	fputs("<section id=\"makespan\">\n<h2>Makespan of the buckets</h2>\n"
	    "<table class=\"kv\">\n", fp);
	if (r->m.buckets) {
		snprintf(line, sizeof line, "%s: from the first start to the "
		    "last end", sr_report_duration(a, r->m.makespan));
		sr_report_kv(fp, "Measured", line);
		snprintf(line, sizeof line, "%zu bucket(s) at once at most; "
		    "%s of bucket time in all", r->m.concurrency,
		    sr_report_duration(b, r->m.busy));
		sr_report_kv(fp, "Concurrency", line);
		snprintf(line, sizeof line, "%zu of %zu", r->m.buckets,
		    r->nbuckets);
		sr_report_kv(fp, "Buckets timed", line);
	} else
		sr_report_kv(fp, "Measured", "no bucket's attempt is recorded "
		    "(logs/finished)");
	makespan_predicted(fp, r, a, b);
	fputs("</table>\n<p class=\"note\">Measured: the last successful "
	    "attempt of every bucket, as the bucket step records it in "
	    "logs/finished (a campaign resumed later counts the pause). "
	    "Predicted: sim-runtime replays the buckets' task timings on as "
	    "many slots as buckets were seen running at once; it leaves out "
	    "what happens outside seg-run's tasks (starting the processes, "
	    "the scheduler's delays).</p>\n</section>\n", fp);
}

/* ---- all of it ----------------------------------------------------------- */

static void
page_foot(FILE *fp, const report *r)
{
	int i;

	fputs("<footer>Written by sa-report " SR_VERSION " (sareuse): <code>",
	    fp);
	for (i = 0; i < r->o->argc; i++)
		sr_html_printf(fp, "%s%s", i ? " " : "", r->o->argv[i]);
	fprintf(fp, "</code></footer>\n</main>\n%s</body>\n</html>\n", script);
}

/* The buckets' attempts of every directory of buckets (logs/finished),
 * a batch's buckets numbered after the batches' before it. */
static sr_attempt *
read_attempts(const report *r, size_t *n)
{
	sr_attempt *all = NULL, *a;
	size_t i, j, m, nb, off = 0;
	char *path, *stats;

	*n = 0;
	for (i = 0; i < r->ndir; i++) {
		path = sr_report_path(r->dir[i], "logs/finished");
		a = sr_attempts_read(path, &m, 1);
		free(path);
		all = sr_reallocarray(all, *n + m + 1, sizeof *all);
		for (j = 0; j < m; j++) {
			all[*n + j] = a[j];
			all[*n + j].bucket += (long)off;
		}
		*n += m;
		free(a);
		stats = bucket_stats(r->dir[i], &nb);
		free(stats);
		off += nb;
	}
	return all;
}

void
sr_report_write(FILE *fp, const sr_report_opts *o)
{
	report r;
	char *goal;
	sr_attempt *a;
	size_t n, i;
	char *stats;

	memset(&r, 0, sizeof r);
	r.o = o;
	r.out = o->outdir;
	goal = inputs_value(r.out, "goal");
	r.tune = goal && strcmp(goal, "tune") == 0;
	free(goal);
	r.merge = inputs_value(r.out, "merge");
	r.c = o->campaign ? campaign_read(o->campaign) : NULL;
	r.nbatches = batched(r.out) ? sr_report_nbatches(r.out) : 0;
	r.ndir = r.nbatches ? r.nbatches : 1;
	r.dir = sr_calloc(r.ndir, sizeof *r.dir);
	for (i = 0; i < r.ndir; i++)
		r.dir[i] = r.nbatches ? sr_report_batch_dir(r.out, i + 1) :
		    sr_strdup(r.out);
	a = read_attempts(&r, &n);
	sr_measured_of(a, n, &r.m);
	free(a);
	stats = all_bucket_stats(&r, &r.nbuckets);
	free(stats);
	page_head(fp, &r);
	section_run(fp, &r);
	section_results(fp, &r);
	if (r.nbatches)
		sr_report_batches(fp, r.out, r.nbatches);
	section_plots(fp, &r);
	section_reuse(fp, &r);
	section_timings(fp, &r);
	section_makespan(fp, &r);
	page_foot(fp, &r);
	sr_campaign_free(r.c);
	free(r.merge);
	for (i = 0; i < r.ndir; i++)
		free(r.dir[i]);
	free(r.dir);
}

size_t
sr_report_concurrency(const char *outdir)
{
	char *path = sr_report_path(outdir, "logs/finished");
	sr_attempt *a;
	sr_measured m;
	size_t n;

	a = sr_attempts_read(path, &n, 0);	/* the page warns */
	sr_measured_of(a, n, &m);
	free(a);
	free(path);
	return m.concurrency;
}
