/* formats_test - the format modules (plan/buckets, plan/results and its
 * reader sa/metrics's sr_metrics_rows, plan/timings), their gathering
 * (plan/gather), the memory estimate (exec/segplan) and image headers
 * (image/probe): written, read back, and bad files refused. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core/err.h"
#include "core/tsv.h"
#include "exec/segplan.h"
#include "image/image.h"
#include "plan/buckets.h"
#include "plan/gather.h"
#include "plan/results.h"
#include "plan/timings.h"
#include "sa/metrics.h"

/* A temporary file's path, made in the test's directory. */
static char *
tmpname(const char *tag)
{
	static char buf[8][64];
	static int k;
	char *p = buf[k++ % 8];

	snprintf(p, 64, "/tmp/formats_test.%ld.%s", (long)getpid(), tag);
	return p;
}

static void
test_buckets(void)
{
	const char *path = tmpname("b.tsv");
	FILE *fp = fopen(path, "w");
	size_t i0[] = { 2, 0 }, r0[] = { 1, 4, 5 }, i1[] = { 1 }, r1[] = { 3 };
	sr_buckets_stats s = { 6, 3, 42, 21, 12, 2, 7, 1.5, 0.25 };
	const sr_bucket_row *row;
	sr_buckets_in *b;

	fputs("#algorithm=rtma stage=segment cost=tasks b=2\n", fp);
	sr_buckets_write_stats(fp, &s);
	sr_buckets_write_row(fp, 0, i0, 2, r0, 3, 7, 1.5);
	sr_buckets_write_row(fp, 1, i1, 1, r1, 1, 5, 0.5);
	fclose(fp);
	if (strstr(slurp(path), "#stats runs=6 instances=3 tasks_noreuse=42 "
	    "tasks_stage=21 tasks_merged=12 buckets=2 reuse_stage_pct=50.00 "
	    "reuse_task_pct=42.86 reuse_total_pct=71.43 max_bucket_tasks=7 "
	    "max_bucket_cost=1.5 seconds=0.250\nbucket\tinstances\truns\ttasks\t"
	    "cost\n0\t2,0\t1,4,5\t7\t1.5\n1\t1\t3\t5\t0.5\n") == NULL)
		fail("buckets: written as %s", slurp(path));
	b = sr_buckets_open(path, 1);
	if (!b->stage || strcmp(b->stage, "segment") != 0)
		fail("buckets: stage %s", b->stage ? b->stage : "(none)");
	sr_buckets_stage(b, 3, "segment");
	if (!(row = sr_buckets_next(b)) || row->bucket != 0 || row->ninst != 2 ||
	    row->inst[0] != 2 || row->inst[1] != 0 || row->tasks != 7 ||
	    row->line != 4)
		fail("buckets: row 0");
	if (!(row = sr_buckets_next(b)) || row->bucket != 1 || row->ninst != 1 ||
	    row->inst[0] != 1 || row->tasks != 5)
		fail("buckets: row 1");
	if (sr_buckets_next(b) != NULL || b->rows != 2)
		fail("buckets: no row 2");
	sr_buckets_close(b);
	b = sr_buckets_open(path, 0);	/* skipping to a row */
	sr_buckets_stage(b, 3, NULL);
	if (!sr_buckets_skip(b) || !(row = sr_buckets_next(b)) ||
	    row->bucket != 1 || sr_buckets_skip(b))
		fail("buckets: skip");
	sr_buckets_close(b);
	for (int k = 0; k < 10; k++) {	/* equal: no exit */
		size_t n = rnd(1000);
		sr_buckets_check_tasks(path, 4, (long)n, n);
	}
	sr_buckets_check_tasks(path, 4, -1, 7);	/* no column: no exit */
	unlink(path);
}

static void
test_results(void)
{
	const char *path = tmpname("r.tsv");
	FILE *fp = fopen(path, "w");
	double um[2] = { 7, -0.5 };
	sr_result_row r = { 3, "t1", SR_RUN_NO_CANDIDATES, 0.5, 1.0 / 3, 0.25,
	    0.125, 0, 2.5, um }, e = r;
	char *names[] = { "area", "m2" };
	sr_metrics_rows *in;
	sr_tsv *t;
	int ref, i;

	for (i = 0; i < SR_RUN_NSTATUS; i++)
		if (sr_run_status_parse(sr_run_status_name[i]) != i)
			fail("status %d", i);
	if (sr_run_status_parse("fine") != -1 || sr_run_status_parse("") != -1)
		fail("status: not one");
	sr_results_write_header(fp, 1, NULL, 0);
	sr_results_write_row(fp, &r, 1, 0);
	fclose(fp);
	if (strcmp(slurp(path), "run\ttile\tstatus\tdice\tjaccard\tobject_dice\t"
	    "aji\tobjects\tseconds\n3\tt1\tno_candidates\t0.5\t"
	    "0.3333333333333333\t0.25\t0.125\t0\t2.5\n") != 0)
		fail("results: written as %s", slurp(path));
	in = sr_metrics_rows_open(path);
	if (!sr_results_header(in->tsv, &ref) || ref != 1 ||
	    sr_timings_header(in->tsv) || !sr_metrics_rows_next(in) ||
	    in->run != 3 || strcmp(in->tile, "t1") != 0 ||
	    in->status != SR_RUN_NO_CANDIDATES || in->nmetric != 6 ||
	    sr_metrics_rows_value(in, sr_metrics_rows_metric(in,
	    SR_RESULTS_JACCARD)) != 1.0 / 3 || sr_metrics_rows_next(in))
		fail("results: read back");
	sr_metrics_rows_close(in);
	fp = fopen(path, "w");
	sr_results_write_header(fp, 0, NULL, 0);
	sr_results_write_row(fp, &r, 0, 0);
	fclose(fp);
	if (strcmp(slurp(path), "run\ttile\tstatus\tobjects\tseconds\n"
	    "3\tt1\tno_candidates\t0\t2.5\n") != 0)
		fail("results without ref: written as %s", slurp(path));
	t = sr_tsv_open(path);
	if (!sr_results_header(t, &ref) || ref != 0)
		fail("results without ref: header");
	sr_tsv_close(t);
	fp = fopen(path, "w");	/* the commands' metrics, a failed row */
	e.status = SR_RUN_ERROR;
	sr_results_write_header(fp, 1, names, 2);
	sr_results_write_row(fp, &r, 1, 2);
	sr_results_write_row(fp, &e, 1, 2);
	fclose(fp);
	if (strcmp(slurp(path), "run\ttile\tstatus\tdice\tjaccard\tobject_dice\t"
	    "aji\tobjects\tseconds\tarea\tm2\n3\tt1\tno_candidates\t0.5\t"
	    "0.3333333333333333\t0.25\t0.125\t0\t2.5\t7\t-0.5\n"
	    "3\tt1\terror\t\t\t\t\t0\t2.5\t\t\n") != 0)
		fail("results with metrics: written as %s", slurp(path));
	in = sr_metrics_rows_open(path);
	if (!sr_results_header(in->tsv, &ref) || ref != 1 ||
	    !sr_metrics_rows_next(in) || sr_metrics_rows_value(in,
	    sr_metrics_rows_metric(in, "m2")) != -0.5 ||
	    !sr_metrics_rows_next(in) || in->status != SR_RUN_ERROR)
		fail("results with metrics: read back");
	sr_metrics_rows_close(in);
	unlink(path);
}

/* path holding text. */
static const char *
put_file(const char *tag, const char *text)
{
	const char *path = tmpname(tag);
	FILE *fp = fopen(path, "w");

	fputs(text, fp);
	fclose(fp);
	return path;
}

/* A metrics file with metric columns of any names, the columns in
 * another order than seg-run's, comments, a blank line and a CRLF. */
static void
test_metrics_rows(void)
{
	const char *path = put_file("m.tsv", "#tool 1\n#k=v\n"
	    "area\tstatus\ttile\trun\tperimeter px\n\n"
	    "2.5\tok\tt1\t3\t7\r\n"
	    "\tbackground\tt2\t3.0\t8\n"
	    "#between\n"
	    "1\terror\tt1\t4\t1\n"
	    "\tcancelled\tt2\t5\t0\n");
	sr_metrics_rows *in = sr_metrics_rows_open(path);
	int area, per;

	sr_metrics_rows_need(in, SR_METRICS_NEED_TILE | SR_METRICS_NEED_STATUS);
	area = sr_metrics_rows_metric(in, "area");
	per = sr_metrics_rows_need_metric(in, "perimeter px");
	if (in->col_run != 3 || in->col_tile != 2 || in->col_status != 1 ||
	    in->nmetric != 2 || in->metric[0] != 0 || in->metric[1] != 4 ||
	    area != 0 || per != 4 || sr_metrics_rows_metric(in, "run") != -1 ||
	    sr_metrics_rows_metric(in, "nope") != -1)
		fail("metrics rows: columns %d %d %d, %zu metrics", in->col_run,
		    in->col_tile, in->col_status, in->nmetric);
	if (!sr_metrics_rows_next(in) || in->run != 3 ||
	    strcmp(in->tile, "t1") || in->status != SR_RUN_OK ||
	    in->tsv->lineno != 5 ||
	    sr_metrics_rows_value(in, area) != 2.5 ||
	    sr_metrics_rows_value(in, per) != 7)
		fail("metrics rows: row 1");
	if (!sr_metrics_rows_next(in) || in->run != 3 ||
	    strcmp(in->tile, "t2") || in->status != SR_RUN_BACKGROUND ||
	    in->tsv->lineno != 6 ||
	    !isnan(sr_metrics_rows_value(in, area)) ||
	    sr_metrics_rows_value(in, per) != 8)
		fail("metrics rows: row 2 (an empty value)");
	if (!sr_metrics_rows_next(in) || in->run != 4 ||
	    in->status != SR_RUN_ERROR || in->tsv->lineno != 8 ||
	    !isnan(sr_metrics_rows_value(in, area)) ||
	    !isnan(sr_metrics_rows_value(in, per)) ||
	    sr_metrics_rows_number(in, per) != 1)
		fail("metrics rows: row 3 (failed)");
	if (!sr_metrics_rows_next(in) || in->run != 5 ||
	    in->status != SR_RUN_CANCELLED ||
	    !isnan(sr_metrics_rows_value(in, per)) ||
	    sr_metrics_rows_number(in, per) != 0 || sr_metrics_rows_next(in))
		fail("metrics rows: row 4 (cancelled), then the end");
	sr_metrics_rows_close(in);
	in = sr_metrics_rows_open(put_file("m2.tsv", "run\tv\n0\t1\n"));
	if (in->col_tile != -1 || in->col_status != -1 || in->nmetric != 1 ||
	    !sr_metrics_rows_next(in) || in->tile != NULL ||
	    in->status != SR_RUN_OK || sr_metrics_rows_value(in, 1) != 1)
		fail("metrics rows: no tile, no status");
	sr_metrics_rows_close(in);
	unlink(tmpname("m2.tsv"));
	unlink(path);
}

/* A metrics file read whole: every column needed, then every value. */
typedef struct {
	const char *path;
	unsigned need;		/* SR_METRICS_NEED_* */
	const char *metric;	/* needed as a metric, or NULL */
} rows_case;

static void
read_all(void *arg)
{
	const rows_case *c = arg;
	sr_metrics_rows *in;
	size_t j;

	sr_progname = "formats_test";
	in = sr_metrics_rows_open(c->path);
	sr_metrics_rows_need(in, c->need);
	if (c->metric)
		sr_metrics_rows_need_metric(in, c->metric);
	while (sr_metrics_rows_next(in))
		for (j = 0; j < in->nmetric; j++)
			sr_metrics_rows_value(in, in->metric[j]);
	sr_metrics_rows_close(in);
}

/* Every refusal of the reader: exit 1, the file, line and column named. */
static void
test_metrics_rows_refused(void)
{
	static const struct {
		const char *text;
		unsigned need;
		const char *metric, *want;	/* want: after "PATH" */
	} bad[] = {
		{ "run\tv\n1.5\t2\n", 0, NULL, ":2: column run: '1.5' is " },
		{ "run\tv\n-\t2\n", 0, NULL, ":2: column run: '-' is " },
		{ "run\tstatus\tv\n#c\n0\tfine\t1\n", 0, NULL,
		    ":3: column status: 'fine' is not ok, background, "
		    "background_likely, no_candidates, error or cancelled" },
		{ "run\tv\n0\tNaN\n", 0, NULL, ":2: column v: 'NaN' is " },
		{ "run\tv\n0\tinf\n", 0, NULL, ":2: column v: 'inf' is " },
		{ "run\tv\n0\t0x10\n", 0, NULL, ":2: column v: '0x10' is " },
		{ "run\tv\n0\tabc\n", 0, NULL, ":2: column v: 'abc' is " },
		{ "run\tv\n0\t1\t2\n", 0, NULL, ":2: 3 fields, expected 2" },
		{ "run\tv\tv\n", 0, NULL, ":1: header: column v named twice" },
		{ "v\n1\n", 0, NULL, ": no column 'run' in the header" },
		{ "run\tv\n0\t1\n", SR_METRICS_NEED_TILE, NULL,
		    ": no column 'tile' in the header" },
		{ "run\ttile\tv\n",
		    SR_METRICS_NEED_TILE | SR_METRICS_NEED_STATUS, NULL,
		    ": no column 'status' in the header" },
		{ "run\tv\n", 0, "w", ": no column 'w' in the header" },
		{ "run\tstatus\tv\n", 0, "status", ": column status is not a "
		    "metric" },
		{ "", 0, NULL, ": " },
	};
	char msg[1024], want[512];
	rows_case c;
	size_t i;
	int st;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		c.path = put_file("bad.tsv", bad[i].text);
		c.need = bad[i].need;
		c.metric = bad[i].metric;
		snprintf(want, sizeof want, "formats_test: %s%s", c.path,
		    bad[i].want);
		st = child_error(read_all, &c, msg, sizeof msg);
		if (st != 1 || strncmp(msg, want, strlen(want)) != 0)
			fail("metrics rows: case %zu: exit %d, '%s', not '%s'",
			    i, st, msg, want);
		unlink(c.path);
	}
}

static void
test_timings(void)
{
	const char *path = tmpname("t.tsv");
	FILE *fp = fopen(path, "w");
	size_t inst[] = { 4, 7 };
	sr_timings_in *r;
	int k;
	const int want[] = { SR_TIMINGS_READ, SR_TIMINGS_PREFAULT,
	    SR_TIMINGS_ROW, SR_TIMINGS_READ, SR_TIMINGS_ROW, SR_TIMINGS_END };

	sr_timings_write_meta(fp, 5, 2, 100, 200);
	sr_timings_write_tile(fp, 0, "a b", 0.5);
	sr_timings_write_tile(fp, 1, "a b", 0.25);
	sr_timings_write_header(fp);
	sr_timings_write_row(fp, 5, "a b", 2, "Seg1", inst, 2, 1.5, 64);
	fputs("#bucket=6\n", fp);
	sr_timings_write_tile(fp, 0, "c", 2);
	sr_timings_write_row(fp, 6, "c", 1, "Seg0", inst, 1, 0, 8);
	fclose(fp);
	if (strncmp(slurp(path), "#bucket=5 tiles=2\n#memory heap=100 "
	    "peak_rss=200\n#read tile=a b seconds=0.5\n#prefault tile=a b "
	    "seconds=0.25\nbucket\ttile\tdepth\ttask\tinstances\tseconds\tbytes\n"
	    "5\ta b\t2\tSeg1\t4,7\t1.5\t64\n", 150) != 0)
		fail("timings: written as %s", slurp(path));
	r = sr_timings_open(path);
	if (!sr_timings_header(r->t))
		fail("timings: header");
	for (k = 0; k < 6; k++) {
		int got = sr_timings_next(r);
		if (got != want[k]) {
			fail("timings: record %d is %d, not %d", k, got, want[k]);
			break;
		}
		if (k == 0 && (r->bucket != 5 || strcmp(r->tile, "a b") ||
		    r->seconds != 0.5))
			fail("timings: #read");
		if (k == 2 && (r->bucket != 5 || strcmp(r->task, "Seg1") ||
		    r->seconds != 1.5 || strcmp(sr_tsv_str(r->t, r->ci), "4,7")))
			fail("timings: row");
		if (k == 3 && (r->bucket != 6 || strcmp(r->tile, "c")))
			fail("timings: #read of bucket 6");
	}
	sr_timings_close(r);
	unlink(path);
}

static void
test_gather(void)
{
	const char *a = tmpname("g0.tsv"), *b = tmpname("g1.tsv");
	const char *x = tmpname("gx.tsv"), *out = tmpname("g.tsv");
	char *files[] = { (char *)a, (char *)b }, *extra[] = { (char *)x };
	char *argv[] = { "seg-merge", NULL };
	FILE *fp;

	fp = fopen(a, "w");
	fputs("#unnormalized tile=q foreground=0\nrun\ttile\tstatus\tobjects\t"
	    "seconds\n1\tq\tok\t2\t3\n", fp);
	fclose(fp);
	fp = fopen(b, "w");
	fputs("run\ttile\tstatus\tobjects\tseconds\n#unnormalized tile=q "
	    "foreground=0\n0\tq\terror\t0\t1\n", fp);
	fclose(fp);
	fp = fopen(x, "w");
	fputs("#unnormalized tile=r foreground=0.5\nrun\ttile\tstatus\tobjects\t"
	    "seconds\n", fp);
	fclose(fp);
	sr_progname = "seg-merge";
	fp = fopen(out, "w");
	sr_gather(fp, SR_GATHER_RESULTS, files, 2, extra, 1, 1, argv);
	fclose(fp);
	if (strstr(slurp(out), "\n#buckets=2\n#unnormalized tile=r "
	    "foreground=0.5\n#unnormalized tile=q foreground=0\nrun\ttile\t"
	    "status\tobjects\tseconds\n1\tq\tok\t2\t3\n0\tq\terror\t0\t1\n") ==
	    NULL)
		fail("gather: wrote %s", slurp(out));
	unlink(a);
	unlink(b);
	unlink(x);
	unlink(out);
}

static void
test_memory_and_probe(void)
{
	const char *png = tmpname("p.png"), *tif = tmpname("p.tif");
	uint32_t px[12 * 5] = { 0 };
	char err[SR_ERRLEN];
	size_t w = 0, h = 0;
	FILE *fp;

	/* 64 + ceil(P (6 + 16 N) / 2^20): 1e6 x 38 / 2^20 = 36.2 -> 37,
	 * 7e5 x 70 / 2^20 = 46.7 -> 47 */
	if (sr_memory_mib(0, 1) != 64 || sr_memory_mib(1, 1) != 65 ||
	    sr_memory_mib(1048576, 1) != 86 ||
	    sr_memory_mib(1000000, 2) != 101 ||
	    sr_memory_mib(700000, 4) != 111)
		fail("memory: %zu %zu %zu", sr_memory_mib(1, 1),
		    sr_memory_mib(1048576, 1), sr_memory_mib(1000000, 2));
	fp = fopen(png, "wb");
	if (sr_mask_write_png(fp, png, px, 12, 5, err) < 0)
		fail("png: %s", err);
	fclose(fp);
	fp = fopen(tif, "w+b");
	if (sr_labels_write_tiff(fp, tif, px, 5, 12, err) < 0)
		fail("tiff: %s", err);
	fclose(fp);
	if (sr_image_probe(png, &w, &h, err) < 0 || w != 12 || h != 5)
		fail("probe png: %zu x %zu %s", w, h, err);
	if (sr_image_probe(tif, &w, &h, err) < 0 || w != 5 || h != 12)
		fail("probe tiff: %zu x %zu %s", w, h, err);
	if (sr_image_probe(tmpname("none"), &w, &h, err) == 0 ||
	    strstr(err, "No such file") == NULL)
		fail("probe of nothing: %s", err);
	unlink(png);
	unlink(tif);
}

int
main(void)
{
	test_buckets();
	test_results();
	test_metrics_rows();
	test_metrics_rows_refused();
	test_timings();
	test_gather();
	test_memory_and_probe();
	if (failures)
		printf("%d failure(s)\n", failures);
	return failures != 0;
}
