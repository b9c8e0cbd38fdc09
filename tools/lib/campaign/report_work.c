/* report_work.c - the sections of sa-report's page on the work the
 * buckets did (report_page.h): the timings per task (timings.tsv) and
 * the makespan, measured and predicted; the buckets' count. */
#include "campaign/report_page.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/html.h"
#include "campaign/makespan.h"
#include "campaign/report_html.h"
#include "core/err.h"
#include "core/tsv.h"
#include "plan/buckets.h"
#include "plan/timings.h"

size_t
sr_report_nbuckets(const char *outdir)
{
	char *path = sr_report_path(outdir, "buckets.tsv");
	sr_buckets_in *b = sr_buckets_open(path, 0);
	size_t n = 0;

	while (sr_buckets_skip(b))
		n++;
	sr_buckets_close(b);
	free(path);
	return n;
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

void
sr_report_section_timings(FILE *fp, const sr_report_page *r)
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
makespan_predicted(FILE *fp, const sr_report_page *r, char *a, char *b)
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

void
sr_report_section_makespan(FILE *fp, const sr_report_page *r)
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
