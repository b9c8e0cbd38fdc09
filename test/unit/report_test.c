/* report_test.c - what sa-report's page is made from: base64 against RFC
 * 4648's vectors and Python's encoding, HTML text, durations, the
 * attempts of logs/finished and their measured makespan and concurrency
 * against brute force, sim-runtime's report read by column name
 * (tools/lib/campaign/html.c, tools/lib/campaign/makespan.c), and the
 * indices and trials files read through their modules
 * (sa/indices_tsv's sr_indices_table, plan/trials's sr_trials_table). */
#include "campaign/html.h"
#include "campaign/makespan.h"
#include "campaign/saved.h"
#include "core/err.h"
#include "plan/trials.h"
#include "sa/indices_tsv.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* RFC 4648 section 10, and the 256 byte values as Python's base64
 * module encodes them. */
static void
test_base64(void)
{
	static const char *const vec[][2] = { { "", "" }, { "f", "Zg==" },
	    { "fo", "Zm8=" }, { "foo", "Zm9v" }, { "foob", "Zm9vYg==" },
	    { "fooba", "Zm9vYmE=" }, { "foobar", "Zm9vYmFy" } };
	static const char all[] =
	    "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4v"
	    "MDEyMzQ1Njc4OTo7PD0+P0BBQkNERUZHSElKS0xNTk9QUVJTVFVWV1hZWltcXV5f"
	    "YGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6e3x9fn+AgYKDhIWGh4iJiouMjY6P"
	    "kJGSk5SVlpeYmZqbnJ2en6ChoqOkpaanqKmqq6ytrq+wsbKztLW2t7i5uru8vb6/"
	    "wMHCw8TFxsfIycrLzM3Oz9DR0tPU1dbX2Nna29zd3t/g4eLj5OXm5+jp6uvs7e7v"
	    "8PHy8/T19vf4+fr7/P3+/w==";
	unsigned char bytes[256], *big;
	char out[400], *whole, *streamed = NULL;
	size_t i, n = 10000, len = 0;
	FILE *fp;

	for (i = 0; i < sizeof vec / sizeof vec[0]; i++) {
		sr_base64_encode(out, (const unsigned char *)vec[i][0],
		    strlen(vec[i][0]));
		if (strcmp(out, vec[i][1]) ||
		    sr_base64_len(strlen(vec[i][0])) != strlen(vec[i][1]))
			fail("base64 '%s': '%s', want '%s'", vec[i][0], out,
			    vec[i][1]);
	}
	for (i = 0; i < 256; i++)
		bytes[i] = (unsigned char)i;
	sr_base64_encode(out, bytes, 256);
	if (strcmp(out, all))
		fail("base64 of 0..255: %s", out);
	/* written in chunks: the same as encoded at once, for every length
	 * around a chunk's end */
	big = malloc(n);
	whole = malloc(sr_base64_len(n) + 1);
	for (i = 0; i < n; i++)
		big[i] = (unsigned char)rnd(256);
	for (n = 3070; n <= 10000; n += n < 3080 ? 1 : 1733) {
		fp = open_memstream(&streamed, &len);
		sr_base64_write(fp, big, n);
		fclose(fp);
		sr_base64_encode(whole, big, n);
		if (strcmp(streamed, whole))
			fail("base64 written in chunks differs, %zu bytes", n);
		free(streamed);
	}
	free(big);
	free(whole);
}

/* The HTML text of s. */
static const char *
html(const char *s, size_t n)
{
	static char *buf;
	size_t len;
	FILE *fp;

	free(buf);
	fp = open_memstream(&buf, &len);
	sr_html_textn(fp, s, n);
	fclose(fp);
	return buf;
}

static void
test_html(void)
{
	static const char *const vec[][2] = {
		{ "<a href=\"x\">&'", "&lt;a href=&quot;x&quot;&gt;&amp;&#39;" },
		{ "plain, μ* ≥ 0 é", "plain, μ* ≥ 0 é" },
		{ "tab\there\nnl\r", "tab\there\nnl\r" },
		{ "bad\xff byte", "bad\xef\xbf\xbd byte" },
		{ "ctl\x01\x7f", "ctl\xef\xbf\xbd\xef\xbf\xbd" },
		{ "cut \xce", "cut \xef\xbf\xbd" },	/* μ's first byte */
		{ "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
	};
	size_t i;

	for (i = 0; i < sizeof vec / sizeof vec[0]; i++)
		if (strcmp(html(vec[i][0], strlen(vec[i][0])), vec[i][1]))
			fail("html '%s': '%s'", vec[i][0], html(vec[i][0],
			    strlen(vec[i][0])));
	if (strcmp(html("a\0<b", 4), "a\xef\xbf\xbd&lt;b"))
		fail("html of a NUL: %s", html("a\0<b", 4));
}

static void
test_duration(void)
{
	static const struct { const char *s; double v; } ok[] = {
		{ "64.6", 64.6 }, { "0", 0 }, { "1:04:05", 3845 },
		{ "04:05", 245 }, { "75:00", 4500 }, { "0:00:01.5", 1.5 },
		{ "12:00:00", 43200 }, { "1e3", 1000 },
	};
	static const char *const bad[] = { "-1", "abc", "", "1:60:00",
	    "1:2:3:4", "1.5:00", "1:", ":05", "1:-5", "1: 5", "0:00:60" };
	double v;
	size_t i;

	for (i = 0; i < sizeof ok / sizeof ok[0]; i++)
		if (sr_duration_parse(ok[i].s, &v) || fabs(v - ok[i].v) > 1e-9)
			fail("duration '%s': %g, want %g", ok[i].s, v, ok[i].v);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (sr_duration_parse(bad[i], &v) == 0)
			fail("duration '%s' accepted: %g", bad[i], v);
}

/* A worked example: failures, a retry, touching and nested spans. */
static void
test_measured_example(void)
{
	static const sr_attempt a[] = {
		{ 1, 0, 1, 1 },		/* failed, retried below */
		{ 0, 0, 10, 0 },
		{ 1, 5, 15, 0 },
		{ 2, 10, 20, 0 },	/* starts as bucket 0 ends */
		{ 3, 2, 3, 0 },		/* done again later: this one is not */
		{ 4, 6, 9, 0 },		/* within 0 and 1: three at once */
		{ 3, 30, 31, 0 },
		{ 5, 40, 50, 3 },	/* failed: not counted */
	};
	sr_measured m;

	sr_measured_of(a, sizeof a / sizeof a[0], &m);
	if (m.buckets != 5 || m.first != 0 || m.last != 31 ||
	    m.makespan != 31 || m.busy != 34 || m.concurrency != 3)
		fail("measured: buckets %zu first %g last %g makespan %g busy "
		    "%g at once %zu; want 5 0 31 31 34 3", m.buckets, m.first,
		    m.last, m.makespan, m.busy, m.concurrency);
	sr_measured_of(a, 1, &m);
	if (m.buckets != 0 || m.makespan != 0 || m.concurrency != 0)
		fail("measured of a failure alone: %zu buckets", m.buckets);
	sr_measured_of(NULL, 0, &m);
	if (m.buckets != 0 || m.concurrency != 0)
		fail("measured of nothing");
}

/* Random attempts on a grid of whole seconds: the concurrency against a
 * count at every half second. */
static void
test_measured_random(void)
{
	enum { N = 40, T = 60 };
	sr_attempt a[N];
	const sr_attempt *last[N];
	sr_measured m;
	size_t trial, i, j, most, now;
	double t;

	for (trial = 0; trial < 200; trial++) {
		for (i = 0; i < N; i++) {
			a[i].bucket = (long)rnd(15);
			a[i].start = (double)rnd(T);
			a[i].end = a[i].start + (double)rnd(10);
			a[i].status = rnd(4) == 0;
		}
		for (j = 0; j < N; j++)
			last[j] = NULL;
		for (i = 0; i < N; i++)
			if (a[i].status == 0)
				last[a[i].bucket] = &a[i];
		most = 0;
		for (t = 0.5; t < T + 10; t += 0.5) {
			for (now = 0, j = 0; j < N; j++)
				now += last[j] && last[j]->start <= t &&
				    t < last[j]->end;
			most = now > most ? now : most;
		}
		sr_measured_of(a, N, &m);
		if (m.concurrency != most)
			fail("random attempts %zu: concurrency %zu, brute force "
			    "%zu", trial, m.concurrency, most);
	}
}

/* Writes text to a new file in dir; returns its path (static). */
static const char *
file_with(const char *dir, const char *name, const char *text)
{
	static char path[4096];
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	fp = fopen(path, "w");
	fputs(text, fp);
	fclose(fp);
	return path;
}

static void
read_attempts(void *path)
{
	size_t n;

	free(sr_attempts_read(path, &n, 1));
}

static void
read_predicted(void *path)
{
	sr_predicted p;

	sr_predicted_read(path, &p);
}

static void
test_attempts_file(const char *dir)
{
	/* a malformed line (a record cut by a kill) is skipped with one
	 * warning, naming the first, and the count: never an error */
	static const struct { const char *text, *msg; size_t good; } bad[] = {
		{ "0 1 2 0\n1 1 2\n", ":2: '1 1 2': expected 'I START END EXIT'",
		    1 },
		{ "x 1 2 0\n", ":1: 'x 1 2 0': the bucket is not", 0 },
		{ "0 1 2 0 9\n", ":1: '0 1 2 0 9': expected", 0 },
		{ "0 -1 2 0\n", ":1: '0 -1 2 0': a time is not", 0 },
		{ "0 1 nan 0\n", ":1: '0 1 nan 0': a time is not", 0 },
		{ "0 1 2 -3\n", ":1: '0 1 2 -3': the exit status", 0 },
		{ "0 17958.7  0\n0 1 2 0\n1 x\n", ":1: '0 17958.7  0': expected "
		    "'I START END EXIT'", 1 },
	};
	char msg[1024];
	const char *path;
	sr_attempt *a;
	size_t n, i;

	path = file_with(dir, "finished", "0 100.25 110.5 0\n\n"
	    "1 101 100 0\n2 1e2 1.2e2 3\n");
	a = sr_attempts_read(path, &n, 1);
	if (n != 3 || a[0].start != 100.25 || a[0].end != 110.5 ||
	    a[1].end != 101 || a[2].status != 3 || a[2].end != 120)
		fail("attempts read: %zu of them", n);
	free(a);
	if (sr_attempts_read(file_with(dir, "empty", ""), &n, 1) != NULL || n)
		fail("an empty file has attempts");
	snprintf(msg, sizeof msg, "%s/none", dir);
	if (sr_attempts_read(msg, &n, 1) != NULL || n)
		fail("a missing file has attempts");
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		path = file_with(dir, "bad", bad[i].text);
		if (child_error(read_attempts, (void *)path, msg,
		    sizeof msg) != SR_EXIT_OK || !strstr(msg, bad[i].msg) ||
		    strchr(msg, '\n') != strrchr(msg, '\n'))
			fail("bad attempts '%s': %s", bad[i].text, msg);
		free(sr_attempts_read(path, &n, 0));
		if (n != bad[i].good)
			fail("bad attempts '%s': %zu kept", bad[i].text, n);
	}
}

static void
test_predicted_file(const char *dir)
{
	sr_predicted p;
	char msg[1024];
	const char *path;

	/* today's report */
	path = file_with(dir, "r1.tsv", "#sim-runtime 0.1.0\n"
	    "plan\tslots\tbuckets\twork\tmakespan\tutilisation\n"
	    "baseline\t2\t8\t0.525\t0.2832\t0.92\n");
	sr_predicted_read(path, &p);
	if (p.makespan != 0.2832 || p.slots != 2 || p.work != 0.525)
		fail("predicted: %g %g %g", p.makespan, p.slots, p.work);
	/* columns moved and added, h:mm:ss, the baseline not first */
	path = file_with(dir, "r2.tsv", "makespan_hms\tplan\tmakespan\tnew\n"
	    "0:00:09\tother\t9\tx\n1:04:05\tbaseline\t1:04:05\ty\n");
	sr_predicted_read(path, &p);
	if (p.makespan != 3845 || !isnan(p.slots) || !isnan(p.work))
		fail("predicted, moved columns: %g", p.makespan);
	path = file_with(dir, "r3.tsv", "slots\tspan\n2\t5\n");
	if (child_error(read_predicted, (void *)path, msg, sizeof msg) !=
	    SR_EXIT_DATA || !strstr(msg, "no column 'makespan' in the header"))
		fail("no makespan column: %s", msg);
	path = file_with(dir, "r4.tsv", "makespan\n");
	if (child_error(read_predicted, (void *)path, msg, sizeof msg) !=
	    SR_EXIT_DATA || !strstr(msg, "no row"))
		fail("no row: %s", msg);
	path = file_with(dir, "r5.tsv", "makespan\n1:75:00\n");
	if (child_error(read_predicted, (void *)path, msg, sizeof msg) !=
	    SR_EXIT_DATA || !strstr(msg, "column makespan: '1:75:00' is not "
	    "a duration"))
		fail("bad duration: %s", msg);
}

static void
read_indices(void *path)
{
	sr_indices_table_free(sr_indices_table_read(path));
}

/* An indices file: its columns classified, its ranking index found by
 * the columns it has (in any order), its values, its metadata. */
static void
test_indices_table(const char *dir)
{
	static const struct { const char *text, *msg; } bad[] = {
		{ "name\tS1\nG1\t0.5\n", "no column 'param' in the header" },
		{ "param_i\tS2\nG1\t0.5\n",
		    "no column 'param_j' in the header" },
		{ "param\tmu_star\nG1\tx\n", ":2: column mu_star: 'x' is not a "
		    "number" },
		{ "param\tmu_star\nG1\tinf\n",
		    ":2: column mu_star: 'inf' is not finite" },
		{ "param\tmu_star\nG1\n", ":2: 1 fields, expected 2" },
	};
	sr_indices_table *x;
	const char *path;
	char msg[1024];
	size_t i;

	/* a vbd table with percentile intervals, its columns shuffled */
	path = file_with(dir, "i.tsv", "#sa-indices 0.1.0\n#method=vbd "
	    "metric=aji aggregate=median runs=8 resamples=100 conf=0.9 seed=1\n"
	    "ST_hi\tS1\tparam\tST\tST_conf\tS1_conf\tST_lo\tS1_lo\tS1_hi\n"
	    "0.9\t0.25\tG1\t0.5\t0.125\t0.1\t0.2\t0\t0.5\n"
	    "NaN\tNaN\tT2\tNaN\tNaN\tNaN\tNaN\tNaN\tNaN\n");
	x = sr_indices_table_read(path);
	if (x->ncol != 9 || x->nrow != 2 || x->rank != 3 ||
	    x->kind[2] != SR_INDICES_KIND_PARAM ||
	    x->kind[1] != SR_INDICES_KIND_INDEX ||
	    x->kind[3] != SR_INDICES_KIND_INDEX ||
	    x->kind[0] != SR_INDICES_KIND_COMPANION ||
	    x->kind[5] != SR_INDICES_KIND_COMPANION || x->conf_col[3] != 4 ||
	    x->lo_col[3] != 6 || x->hi_col[3] != 0 || x->conf_col[1] != 5 ||
	    x->p_col[1] != -1 || x->conf_col[2] != -1)
		fail("indices: columns (rank %d)", x->rank);
	if (strcmp(x->field[0][2], "G1") || x->value[3] != 0.5 ||
	    !isnan(x->value[2]) || !isnan(x->value[9 + 3]) ||
	    strcmp(x->field[1][3], "NaN"))
		fail("indices: values");
	if (!x->method || strcmp(x->method, "vbd") ||
	    strcmp(x->metric, "aji") || strcmp(x->aggregate, "median") ||
	    strcmp(x->resamples, "100") ||
	    strcmp(x->conf, "0.9") || x->r2 || x->r2_rank)
		fail("indices: metadata");
	sr_indices_table_free(x);
	/* moat: mu_star ranks; corr: nothing ranks, each measure its p */
	x = sr_indices_table_read(file_with(dir, "m.tsv", "param\tmu\tmu_star\t"
	    "sigma\tmu_star_conf\nG1\t-1\t1\t0\t0.5\n"));
	if (x->rank != 2 || x->conf_col[2] != 4 || x->conf_col[1] != -1 ||
	    x->kind[3] != SR_INDICES_KIND_INDEX || x->value[1] != -1 ||
	    x->method || x->nwarning || x->trajectories)
		fail("indices: moat (rank %d)", x->rank);
	sr_indices_table_free(x);
	/* the warning lines, in order, wherever they are; not metadata */
	x = sr_indices_table_read(file_with(dir, "w.tsv", "#method=moat "
	    "trajectories=1\n#warning: sigma is undefined: a=1\n#note\n"
	    "param\tmu\tmu_star\tsigma\tmu_star_conf\nG1\t-1\t1\tNaN\tNaN\n"
	    "#warning: second\n"));
	if (x->nwarning != 2 || strcmp(x->warning[0], "sigma is undefined: "
	    "a=1") || strcmp(x->warning[1], "second") ||
	    strcmp(x->trajectories, "1") || x->conf)
		fail("indices: warnings (%zu)", x->nwarning);
	sr_indices_table_free(x);
	x = sr_indices_table_read(file_with(dir, "c.tsv", "#method=corr "
	    "r2=0.5 r2_rank=0.25\nparam\tpearson\tpearson_p\tsrc\tsrc_p\n"
	    "G1\t0.5\t0.01\t-0.5\t0.2\n"));
	if (x->rank != -1 || x->p_col[1] != 2 || x->p_col[3] != 4 ||
	    x->kind[2] != SR_INDICES_KIND_COMPANION || strcmp(x->r2, "0.5") ||
	    strcmp(x->r2_rank, "0.25"))
		fail("indices: corr (rank %d)", x->rank);
	sr_indices_table_free(x);
	/* the S2 table: its pair of parameters, S2 ranks */
	x = sr_indices_table_read(file_with(dir, "s2.tsv", "param_i\tparam_j\t"
	    "S2\tS2_conf\nG1\tT2\t0.25\t0.5\n"));
	if (x->rank != 2 || x->kind[0] != SR_INDICES_KIND_PARAM ||
	    x->kind[1] != SR_INDICES_KIND_PARAM || x->conf_col[2] != 3)
		fail("indices: S2 (rank %d)", x->rank);
	sr_indices_table_free(x);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		path = file_with(dir, "bad.tsv", bad[i].text);
		if (child_error(read_indices, (void *)path, msg, sizeof msg) !=
		    SR_EXIT_DATA || !strstr(msg, bad[i].msg) ||
		    !strstr(msg, "bad.tsv"))
			fail("indices '%s': %s", bad[i].text, msg);
	}
}

/* A trials file: each column's kind, the rows as written (best first),
 * each row's set in run order, the metadata. */
static void
test_trials_table(const char *dir)
{
	sr_trials_table *tt;
	const char *path;

	path = file_with(dir, "trials.tsv", "#sa-trials 0.1.0\n#metric=aji "
	    "tiles=2 sets=3 complete=1 cancelled=1 failed=1 best=2\n"
	    "run\tstatus\ttiles\tmean\tmedian\tsd\tseconds\tcancelled_at\t"
	    "rule\tbatch\tG1\tT2\n"
	    "2\tcomplete\t2\t0.5\t0.5\t0\t3\t\t\t1\t5\t2.5\n"
	    "0\tcancelled\t1\t0.25\t0.25\t\t1\t1\tstable\t1\t10\t3\n"
	    "1\tfailed\t0\t\t\t\t0.5\t\t\t2\t15\t4\n");
	tt = sr_trials_table_read(path);
	if (tt->n != 3 || tt->nhead != 12 || tt->ncol != 2 ||
	    strcmp(tt->name[0], "G1") || strcmp(tt->head[9], "batch") ||
	    tt->kind[0] != SR_TRIALS_KIND_FIGURE ||
	    tt->kind[6] != SR_TRIALS_KIND_FIGURE ||
	    tt->kind[7] != SR_TRIALS_KIND_CANCEL ||
	    tt->kind[8] != SR_TRIALS_KIND_CANCEL ||
	    tt->kind[9] != SR_TRIALS_KIND_BATCH ||
	    tt->kind[10] != SR_TRIALS_KIND_PARAM)
		fail("trials: columns");
	if (strcmp(tt->field[0][0], "2") || strcmp(tt->field[1][8], "stable") ||
	    strcmp(tt->field[2][3], "") || tt->row_set[0] != 2 ||
	    tt->row_set[1] != 0 || tt->row_set[2] != 1 || tt->run[0] != 0 ||
	    tt->run[2] != 2 || tt->mean[2] != 0.5 || !isnan(tt->mean[1]) ||
	    tt->x[2 * 2 + 1] != 2.5)
		fail("trials: rows");
	if (strcmp(tt->metric, "aji") || strcmp(tt->tiles, "2") ||
	    strcmp(tt->sets, "3") ||
	    strcmp(tt->count[SR_TRIAL_COMPLETE], "1") ||
	    strcmp(tt->count[SR_TRIAL_CANCELLED], "1") ||
	    strcmp(tt->count[SR_TRIAL_FAILED], "1"))
		fail("trials: metadata");
	sr_trials_table_free(tt);
	tt = sr_trials_table_read(file_with(dir, "t0.tsv",
	    "run\tstatus\tmean\n"));
	if (tt->n != 0 || tt->metric || tt->tiles || tt->count[0])
		fail("trials: none");
	sr_trials_table_free(tt);
}

/* The work saved: a plan of 4 runs of 2 tasks on 2 tiles, the 12 nodes
 * run of its 14 (task A 8 times for 8 s, B 4 times for 12 s), worked by
 * hand; then read from files: buckets.tsv's #stats, timings.tsv's rows
 * of the merged stage only (not normalize's nor compare's). */
static void
test_saved(const char *dir)
{
	sr_saved s = { .runs = 4, .tiles = 2, .all = 16, .planned = 14,
	    .run = 12, .run_s = 20 };
	double sec[2] = { 8, 12 };
	size_t n[2] = { 8, 4 }, none[2] = { 8, 0 };
	char sub[2048], path[4096];
	sr_workflow *w;
	FILE *fp;

	/* all: 4 runs x 2 tiles x (1 + 3) s; the plan: 20 + 2 x 20/12 */
	sr_saved_estimate(&s, sec, n, 2);
	if (fabs(s.all_s - 32) > 1e-12 || fabs(s.planned_s - (20 + 40.0 /
	    12)) > 1e-12)
		fail("saved: all %.17g, planned %.17g", s.all_s, s.planned_s);
	sr_saved_estimate(&s, sec, none, 2);	/* B never ran */
	if (!isnan(s.all_s))
		fail("saved, a task unmeasured: all %g", s.all_s);
	s.run = 0;
	sr_saved_estimate(&s, sec, n, 2);
	if (!isnan(s.planned_s))
		fail("saved, nothing run: planned %g", s.planned_s);
	/* from files */
	snprintf(sub, sizeof sub, "%s/saved", dir);
	if (mkdir(sub, 0777) != 0)
		fail("mkdir %s", sub);
	file_with(sub, "buckets.tsv", "#algorithm=rtma stage=segment cost=tasks "
	    "b=4\n#stats runs=4 instances=4 tasks_noreuse=8 tasks_stage=8 "
	    "tasks_merged=7 buckets=1 reuse_stage_pct=0.00 reuse_task_pct=12.50"
	    " reuse_total_pct=12.50 max_bucket_tasks=7 max_bucket_cost=7 "
	    "seconds=0.001\nbucket\tinstances\truns\ttasks\tcost\n0\t0,1,2,3\t"
	    "0,1,2,3\t7\t7\n");
	file_with(sub, "timings.tsv", "#bucket=0 tiles=2\n"
	    "bucket\ttile\tdepth\ttask\tinstances\tseconds\tbytes\n"
	    "0\ta\t1\tnormalize\t0\t5\t0\n0\ta\t1\tSeg0\t0,1,2,3\t1\t0\n"
	    "0\ta\t2\tSeg1\t0,1\t2\t0\n0\ta\t1\tcompare\t0,1\t9\t0\n"
	    "0\tb\t1\tnormalize\t0\t5\t0\n0\tb\t1\tSeg0\t0,1,2,3\t3\t0\n");
	snprintf(path, sizeof path, "%s/w.wf", sub);
	fp = fopen(path, "w");
	fputs("stage\ttask\tparams\tcost\nnormalize\tnormalize\t-\t1\n"
	    "segment\tSeg0\tB\t1\nsegment\tSeg1\tMorphRecon\t1\n"
	    "compare\tcompare\t-\t1\n", fp);
	fclose(fp);
	w = sr_workflow_read(path);
	sr_saved_read(&s, sub, 2, w);
	/* Seg0: 2 rows, 4 s (mean 2); Seg1: 1 row, 2 s */
	if (s.runs != 4 || s.all != 16 || s.stage != 16 || s.planned != 14 ||
	    s.run != 3 || s.run_s != 6 || fabs(s.all_s - 4 * 2 * (2 + 2.0)) >
	    1e-12 || fabs(s.planned_s - (6 + 11 * 2.0)) > 1e-12)
		fail("saved, read: runs %g all %g stage %g planned %g run %g "
		    "run_s %g all_s %g planned_s %g", s.runs, s.all, s.stage,
		    s.planned, s.run, s.run_s, s.all_s, s.planned_s);
	/* without the workflow: the plan only */
	sr_saved_read(&s, sub, 2, NULL);
	if (s.planned != 14 || !isnan(s.run) || !isnan(s.all_s))
		fail("saved, no workflow: %g %g %g", s.planned, s.run, s.all_s);
	sr_workflow_free(w);
}

int
main(void)
{
	char dir[] = "/tmp/report_test.XXXXXX";
	char cmd[64];

	sr_init("report_test");
	if (mkdtemp(dir) == NULL)
		return 2;
	test_base64();
	test_html();
	test_duration();
	test_measured_example();
	test_measured_random();
	test_attempts_file(dir);
	test_predicted_file(dir);
	test_indices_table(dir);
	test_trials_table(dir);
	test_saved(dir);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		fail("cannot remove %s", dir);
	if (failures)
		printf("%d failure(s)\n", failures);
	return failures != 0;
}
