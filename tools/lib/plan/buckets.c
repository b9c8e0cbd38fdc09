/* buckets.c - buckets.tsv, the bucket plan: reader and writer (buckets.h). */
#include "plan/buckets.h"
#include "core/err.h"
#include "core/text.h"
#include "core/num.h"
#include "core/tsv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void
sr_buckets_write_stats(FILE *fp, const sr_buckets_stats *s)
{
	double noreuse = s->tasks_noreuse, stage = s->tasks_stage;
	double merged = (double)s->tasks_merged;

	fprintf(fp, "#stats runs=%zu instances=%zu tasks_noreuse=%.0f "
	    "tasks_stage=%.0f tasks_merged=%zu buckets=%zu reuse_stage_pct=%.2f "
	    "reuse_task_pct=%.2f reuse_total_pct=%.2f max_bucket_tasks=%zu "
	    "max_bucket_cost=", s->runs, s->instances, noreuse, stage,
	    s->tasks_merged, s->buckets,
	    noreuse > 0 ? 100.0 * (1.0 - stage / noreuse) : 0.0,
	    stage > 0 ? 100.0 * (1.0 - merged / stage) : 0.0,
	    noreuse > 0 ? 100.0 * (1.0 - merged / noreuse) : 0.0,
	    s->max_bucket_tasks);
	sr_put_double(fp, s->max_bucket_cost);
	fprintf(fp, " seconds=%.3f\n%s\t%s\t%s\t%s\t%s\n", s->seconds,
	    SR_BUCKETS_BUCKET, SR_BUCKETS_INSTANCES, SR_BUCKETS_RUNS,
	    SR_BUCKETS_TASKS, SR_BUCKETS_COST);
}

void
sr_buckets_write_row(FILE *fp, size_t b, const size_t *inst, size_t n,
    const size_t *runs, size_t nruns, size_t tasks, double cost)
{
	size_t k;

	fprintf(fp, "%zu", b);
	for (k = 0; k < n; k++)
		fprintf(fp, "%c%zu", k ? ',' : '\t', inst[k]);
	for (k = 0; k < nruns; k++)
		fprintf(fp, "%c%zu", k ? ',' : '\t', runs[k]);
	fprintf(fp, "\t%zu\t", tasks);
	sr_put_double(fp, cost);
	fputc('\n', fp);
}

/* The number after "key=" in the words of stats, or NaN. */
static double
stats_value(const char *stats, const char *key)
{
	char *v = sr_tsv_word(stats, key);
	double x;

	if (v == NULL || sr_parse_double(v, &x))
		x = NAN;
	free(v);
	return x;
}

int
sr_buckets_read_stats(const sr_buckets_in *b, sr_buckets_stats *s)
{
	const char *stats = NULL;
	double v[4];
	size_t i;

	for (i = 0; i < b->t->ncomment; i++)
		if (strncmp(b->t->comment[i], "stats ", 6) == 0)
			stats = b->t->comment[i] + 6;
	if (stats == NULL)
		return -1;
	v[0] = stats_value(stats, "runs");
	v[1] = stats_value(stats, "tasks_noreuse");
	v[2] = stats_value(stats, "tasks_stage");
	v[3] = stats_value(stats, "tasks_merged");
	for (i = 0; i < 4; i++)
		if (!(v[i] >= 0))
			return -1;
	s->runs = (size_t)v[0];
	s->tasks_noreuse = v[1];
	s->tasks_stage = v[2];
	s->tasks_merged = (size_t)v[3];
	/* the others where written (0 where not) */
	s->instances = (size_t)fmax(0, stats_value(stats, "instances"));
	s->buckets = (size_t)fmax(0, stats_value(stats, "buckets"));
	s->max_bucket_tasks = (size_t)fmax(0, stats_value(stats,
	    "max_bucket_tasks"));
	s->max_bucket_cost = fmax(0, stats_value(stats, "max_bucket_cost"));
	s->seconds = fmax(0, stats_value(stats, "seconds"));
	return 0;
}

sr_buckets_in *
sr_buckets_open(const char *path, int need_tasks)
{
	sr_buckets_in *b = sr_calloc(1, sizeof *b);

	b->t = sr_tsv_open(path);
	b->path = b->t->path;
	b->cb = sr_tsv_need(b->t, SR_BUCKETS_BUCKET);
	b->ci = sr_tsv_need(b->t, SR_BUCKETS_INSTANCES);
	b->ct = need_tasks ? sr_tsv_need(b->t, SR_BUCKETS_TASKS) :
	    sr_tsv_col(b->t, SR_BUCKETS_TASKS);
	b->stage = sr_tsv_meta(b->t, "stage");
	return b;
}

void
sr_buckets_stage(sr_buckets_in *b, size_t n, const char *name)
{
	b->ninst = n;
	b->stage_name = name;
	free(b->owner);
	b->owner = sr_calloc(n + 1, sizeof *b->owner);
}

/* Checks the current row's bucket number is its row. */
static void
check_number(const sr_buckets_in *b)
{
	long id = sr_tsv_long(b->t, b->cb);

	if (id < 0 || (size_t)id != b->rows)
		sr_tsv_die(b->t, b->cb, "row %zu is bucket %ld", b->rows, id);
}

/* Reads the current row's instances into b->row. */
static void
read_instances(sr_buckets_in *b)
{
	const sr_tsv *t = b->t;
	const char *f = sr_tsv_str(t, b->ci);
	sr_bucket_row *r = &b->row;
	size_t cap = r->ninst = 0;
	char item[32];
	long id;
	int rc;

	while ((rc = sr_list_next(&f, item, sizeof item)) > 0) {
		if (sr_parse_long(item, &id) || id < 0 || (size_t)id >= b->ninst)
			sr_tsv_die(t, b->ci, "'%s' is not an instance of %s%s (0 to "
			    "%zu)", SR_SHOW(item), b->stage_name ? "stage " : "the stage",
			    b->stage_name ? b->stage_name : "", b->ninst - 1);
		if (b->owner[id] == b->rows + 1)
			sr_tsv_die(t, b->ci, "instance %ld twice", id);
		if (b->owner[id])
			sr_tsv_die(t, b->ci, "instance %ld is in bucket %zu too", id,
			    b->owner[id] - 1);
		b->owner[id] = b->rows + 1;
		if (r->ninst == cap) {
			cap = cap ? 2 * cap : 16;
			r->inst = sr_reallocarray(r->inst, cap, sizeof *r->inst);
		}
		r->inst[r->ninst++] = (size_t)id;
	}
	if (rc < 0 || r->ninst == 0)
		sr_tsv_die_value(t, b->ci, "is not a list of instances");
}

const sr_bucket_row *
sr_buckets_next(sr_buckets_in *b)
{
	if (b->owner == NULL)
		sr_die(SR_EXIT_DATA, "internal error: sr_buckets_next before "
		    "sr_buckets_stage");
	if (!sr_tsv_next(b->t))
		return NULL;
	check_number(b);
	read_instances(b);
	b->row.bucket = b->rows++;
	b->row.tasks = b->ct >= 0 ? sr_tsv_long(b->t, b->ct) : -1;
	if (b->ct >= 0 && b->row.tasks < 0)
		sr_tsv_die(b->t, b->ct, "%ld is not a count of tasks",
		    b->row.tasks);
	b->row.line = b->t->lineno;
	return &b->row;
}

int
sr_buckets_skip(sr_buckets_in *b)
{
	if (!sr_tsv_next(b->t))
		return 0;
	b->rows++;
	return 1;
}

void
sr_buckets_close(sr_buckets_in *b)
{
	if (b == NULL)
		return;
	sr_tsv_close(b->t);
	free(b->stage);
	free(b->owner);
	free(b->row.inst);
	free(b);
}

void
sr_buckets_check_tasks(const char *path, size_t line, long tasks,
    size_t shared)
{
	if (tasks >= 0 && (size_t)tasks != shared)
		sr_die(SR_EXIT_DATA, "%s:%zu: column %s: %ld, but the bucket's "
		    "instances share %zu tasks: a plan of another instances "
		    "file?", path, line, SR_BUCKETS_TASKS, tasks, shared);
}
