/* report.c - a campaign's report as one self-contained HTML page; see
 * report.h. The page: its head and style, the plots, its foot, and the
 * sections in order: what was run and the results (report_run.c, the
 * tables in report_tables.c), the batches (report_batches.c), the plots,
 * the reuse, the timings per task and the makespan (report_work.c). */
#include "campaign/report.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "campaign/campaign.h"
#include "campaign/html.h"
#include "campaign/makespan.h"
#include "campaign/report_html.h"
#include "campaign/report_page.h"
#include "core/err.h"
#include "core/out.h"
#include "image/image.h"

#define STRING_(x) #x
#define STRING(x) STRING_(x)	/* a macro's value as a string literal */

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
char *
sr_report_inputs(const char *outdir, const char *key)
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


/* The first n bytes of path, newly allocated (*len of them); dies when
 * it cannot be read. */
unsigned char *
sr_report_slurp(const char *path, size_t max, size_t *len)
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
/* the best sets: scrolled sideways within their box, the rank and run
 * kept in sight */
"table.trials th,table.trials td{padding:3px 6px}\n"
"table.trials tr>:nth-child(-n+2){position:sticky;z-index:1}\n"
"table.trials tr>:first-child{left:0;width:1.5em;min-width:1.5em}\n"
"table.trials tr>:nth-child(2){left:calc(1.5em + 12px);"
"box-shadow:inset -1px 0 0 var(--line)}\n"
"table.trials td:nth-child(-n+2){background:#fff}\n"
"table.trials tbody tr:nth-child(even) td:nth-child(-n+2){"
"background:#fafbfc}\n"
"td.b{width:" STRING(SR_REPORT_BAR) "px;padding-right:0}\n"
".bar{display:block;height:.7em;margin-top:.45em;background:#6f9fd8}\n"
"tr.total td{font-weight:600;border-top:2px solid var(--line)}\n"
".note{color:var(--muted);font-size:.92em;max-width:62em}\n"
".warn{border-left:5px solid #b40426;background:#fdf0f0;padding:4px 14px;"
"margin:.8em 0;max-width:62em}\n"
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
page_head(FILE *fp, const sr_report_page *r)
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
	    "<a href=\"#results\">%s</a>%s<a href=\"#plots\">Plots</a>%s"
	    "<a href=\"#reuse\">Work saved</a><a href=\"#timings\">Timings</a>"
	    "<a href=\"#makespan\">Makespan</a></nav>\n",
	    r->tune ? "Best sets" : "Indices", r->nbatches ?
	    "<a href=\"#batches\">Batches</a>" : "", r->nslides ?
	    "<a href=\"#slides\">Slides</a>" : "");
}


/* ---- the plots ------------------------------------------------------------ */

/* One plot inlined (sr_report_png) with its caption. */
static void
plot_figure(FILE *fp, const char *outdir, size_t i)
{
	char *path = sr_report_path(outdir, sr_report_plots[i]);

	fputs("<figure>\n", fp);
	sr_report_png(fp, path, sr_report_plots[i]);
	fputs("\n<figcaption><b>", fp);
	sr_html_text(fp, sr_report_plots[i]);
	fputs("</b>: ", fp);
	sr_html_text(fp, sr_report_plot_captions[i]);
	fputs(".</figcaption>\n</figure>\n", fp);
	free(path);
}

void
sr_report_png(FILE *fp, const char *path, const char *alt)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n',
	    0x1a, '\n' };
	char err[SR_ERRLEN];
	unsigned char *png;
	size_t len;
	sr_rgb img;

	png = sr_report_slurp(path, (size_t)1 << 30, &len);
	if (len < sizeof sig || memcmp(png, sig, sizeof sig) != 0)
		sr_die(SR_EXIT_DATA, "%s: not a PNG image", path);
	if (sr_rgb_read(path, &img, err) != 0)
		sr_die(SR_EXIT_DATA, "%s", err);
	fputs("<img alt=\"", fp);
	sr_html_text(fp, alt);
	fprintf(fp, "\" width=\"%zu\" height=\"%zu\" src=\"data:image/png;"
	    "base64,", img.w, img.h);
	sr_base64_write(fp, png, len);
	fputs("\">", fp);
	sr_rgb_free(&img);
	free(png);
}

static void
section_plots(FILE *fp, const sr_report_page *r)
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

/* ---- all of it ----------------------------------------------------------- */

static void
page_foot(FILE *fp, const sr_report_page *r)
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
read_attempts(const sr_report_page *r, size_t *n)
{
	sr_attempt *all = NULL, *a;
	size_t i, j, m, off = 0;
	char *path;

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
		off += sr_report_nbuckets(r->dir[i]);
	}
	return all;
}

void
sr_report_write(FILE *fp, const sr_report_opts *o)
{
	sr_report_page r;
	char *goal;
	sr_attempt *a;
	size_t n, i;

	memset(&r, 0, sizeof r);
	r.o = o;
	r.out = o->outdir;
	goal = sr_report_inputs(r.out, "goal");
	r.tune = goal && strcmp(goal, "tune") == 0;
	free(goal);
	r.merge = sr_report_inputs(r.out, "merge");
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
	for (i = 0; i < r.ndir; i++)
		r.nbuckets += sr_report_nbuckets(r.dir[i]);
	r.nslides = sr_report_nslides(r.out);
	page_head(fp, &r);
	sr_report_section_run(fp, &r);
	sr_report_section_results(fp, &r);
	if (r.nbatches)
		sr_report_batches(fp, r.out, r.nbatches);
	section_plots(fp, &r);
	if (r.nslides)
		sr_report_section_slides(fp, &r);
	sr_report_section_reuse(fp, &r);
	sr_report_section_timings(fp, &r);
	sr_report_section_makespan(fp, &r);
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
