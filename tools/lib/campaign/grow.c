/* grow.c - a campaign's plan grown with its design (grow.h). */
#include "campaign/grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/data.h"
#include "core/err.h"
#include "core/tsv.h"
#include "plan/buckets.h"
#include "plan/instances.h"
#include "plan/workflow.h"
#include "sa/design.h"
#include "sa/method.h"
#include "sa/metrics.h"

/* The number at the start of s (a field), or dies naming r's line. */
static size_t
number(const sr_datareader *r, const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		sr_die(SR_EXIT_DATA, "%s:%ld: %s: not a number", r->path,
		    r->lineno, what);
	v = strtoull(s, &end, 10);
	if (*end != '\0' && *end != '\t' && *end != ',' && *end != ' ')
		sr_die(SR_EXIT_DATA, "%s:%ld: %s: not a number", r->path,
		    r->lineno, what);
	return (size_t)v;
}

/* The i-th tab-separated field of line (0-based), or dies. */
static const char *
field(const sr_datareader *r, int i)
{
	const char *s = r->line;

	while (i-- > 0)
		if ((s = strchr(s, '\t')) == NULL)
			sr_die(SR_EXIT_DATA, "%s:%ld: too few columns", r->path,
			    r->lineno);
		else
			s++;
	return s;
}

/* Writes the comma list at s (to its tab or end) with off added to each
 * number ("-" as it is); returns the end. */
static const char *
put_list(FILE *fp, const sr_datareader *r, const char *s, size_t off,
    const char *what)
{
	size_t n = 0;

	if (s[0] == '-' && (s[1] == '\t' || s[1] == '\0')) {
		fputc('-', fp);
		return s + 1;
	}
	for (;;) {
		fprintf(fp, "%s%zu", n++ ? "," : "", number(r, s, what) + off);
		s += strspn(s, "0123456789");
		if (*s != ',')
			return s;
		s++;
	}
}

void
sr_grow_design_part(const char *path, FILE *fp)
{
	sr_design *d = sr_design_read(path);
	size_t first, k, run;
	sr_datareader r;
	int header = 0;
	char *tok, *save = NULL;

	if (d->grown_from == 0 || d->method == NULL)
		sr_die(SR_EXIT_DATA, "%s: not a grown design (no grown_from= "
		    "in its metadata)", path);
	if (d->reference >= 0)
		sr_die(SR_EXIT_DATA, "%s: a design with a reference run: a "
		    "campaign's runs the reference apart", path);
	first = (size_t)sr_method_runs(sr_method_parse(d->method),
	    d->grown_from, d->k, d->r, d->second_order);
	k = d->n - d->grown_from;
	sr_design_free(d);
	sr_data_open(&r, path);
	while (sr_data_next(&r)) {
		if (strncmp(r.line, "#method=", 8) == 0) {
			fputc('#', fp);
			for (tok = strtok_r(r.line + 1, " ", &save), header = 0;
			    tok; tok = strtok_r(NULL, " ", &save)) {
				if (strncmp(tok, "grown_from=", 11) == 0)
					continue;
				if (strncmp(tok, "n=", 2) == 0)
					fprintf(fp, "%sn=%zu", header++ ? " " : "", k);
				else
					fprintf(fp, "%s%s", header++ ? " " : "", tok);
			}
			fputc('\n', fp);
			header = 0;
		} else if (r.line[0] == '#' || !header) {
			fprintf(fp, "%s\n", r.line);
			header = r.line[0] != '#';
		} else if ((run = number(&r, r.line, SR_METRICS_RUN)) >= first)
			fprintf(fp, "%zu%s\n", run - first, r.line + strspn(r.line,
			    "0123456789"));
	}
	sr_data_close(&r);
}

/* The stages of instances.tsv in their order, and the rows of each. */
typedef struct {
	char **name;
	size_t *rows, n;
} stage_count;

static size_t
stage_index(stage_count *c, const char *name, size_t len, int add)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (strlen(c->name[i]) == len && strncmp(c->name[i], name,
		    len) == 0)
			return i;
	if (!add)
		return SIZE_MAX;
	c->name = sr_reallocarray(c->name, c->n + 1, sizeof *c->name);
	c->rows = sr_reallocarray(c->rows, c->n + 1, sizeof *c->rows);
	c->name[c->n] = sr_malloc(len + 1);
	memcpy(c->name[c->n], name, len);
	c->name[c->n][len] = '\0';
	c->rows[c->n] = 0;
	return c->n++;
}

/* Counts path's rows per stage into c (in the order met); *runs the
 * runs of its "#runs=" line. */
static void
count_stages(const char *path, stage_count *c, size_t *runs)
{
	sr_datareader r;
	int header = 0;
	const char *v;
	size_t i;

	sr_data_open(&r, path);
	while (sr_data_next(&r)) {
		if (r.line[0] == '#') {
			if ((v = strstr(r.line, "#runs=")) == r.line)
				*runs = number(&r, v + 6, SR_INSTANCES_RUNS);
			continue;
		}
		if (!header++)
			continue;
		i = stage_index(c, r.line, strcspn(r.line, "\t"), 1);
		c->rows[i]++;	/* after the call, which may move rows */
	}
	sr_data_close(&r);
}

/* Writes the combined instances.tsv: old's lines (its #runs= line
 * summed), then part's rows shifted. */
static FILE *open_staged(const char *path);
static void close_staged(FILE *fp, const char *path);

static void
write_instances(const char *path, const char *old, const char *part,
    size_t off)
{
	FILE *fp;
	stage_count o = { 0 }, p = { 0 };
	size_t oruns = 0, pruns = 0, s, i, total = 0;
	sr_datareader r;
	const char *f;
	int header = 0;

	count_stages(old, &o, &oruns);
	count_stages(part, &p, &pruns);
	if (oruns != off)
		sr_die(SR_EXIT_DATA, "%s: %zu runs, not the %zu planned", old,
		    oruns, off);
	for (i = 0; i < o.n; i++)
		total += o.rows[i];
	for (i = 0; i < p.n; i++)
		total += p.rows[i];
	fp = open_staged(path);
	sr_data_open(&r, old);	/* its comments and header */
	while (sr_data_next(&r) && (r.line[0] == '#' || !header++))
		if (strncmp(r.line, "#runs=", 6) == 0)
			fprintf(fp, "#runs=%zu stages=%zu instances=%zu\n",
			    oruns + pruns, o.n, total);
		else
			fprintf(fp, "%s\n", r.line);
	sr_data_close(&r);
	for (s = 0; s < o.n; s++) {	/* each stage: old rows, then part's */
		sr_data_open(&r, old);
		for (header = 0; sr_data_next(&r); )
			if (r.line[0] != '#' && header++ && stage_index(&o, r.line,
			    strcspn(r.line, "\t"), 0) == s)
				fprintf(fp, "%s\n", r.line);
		sr_data_close(&r);
		sr_data_open(&r, part);
		for (header = 0; sr_data_next(&r); ) {
			if (r.line[0] == '#' || !header++)
				continue;
			i = stage_index(&o, r.line, strcspn(r.line, "\t"), 0);
			if (i == SIZE_MAX)
				sr_die(SR_EXIT_DATA, "%s:%ld: a stage the plan has "
				    "not", part, r.lineno);
			if (i != s)
				continue;
			fprintf(fp, "%s\t%zu\t", o.name[s], number(&r,
			    field(&r, 1), SR_INSTANCES_INSTANCE) + o.rows[s]);
			put_list(fp, &r, field(&r, 2), s ? o.rows[s - 1] : 0,
			    SR_INSTANCES_UPSTREAM);
			fputc('\t', fp);
			f = put_list(fp, &r, field(&r, 3), off, SR_INSTANCES_RUNS);
			fprintf(fp, "%s\n", f);
		}
		sr_data_close(&r);
	}
	close_staged(fp, path);
	for (i = 0; i < o.n; i++)
		free(o.name[i]);
	for (i = 0; i < p.n; i++)
		free(p.name[i]);
	free(o.name);
	free(o.rows);
	free(p.name);
	free(p.rows);
}

/* The #stats values of buckets.tsv at path. */
static void
read_stats(const char *path, sr_buckets_stats *s, size_t *nrows,
    char **stage)
{
	sr_buckets_in *b = sr_buckets_open(path, 1);

	memset(s, 0, sizeof *s);
	if (sr_buckets_read_stats(b, s))
		sr_die(SR_EXIT_DATA, "%s: no #stats line", path);
	*stage = b->stage ? sr_strdup(b->stage) : NULL;
	for (*nrows = 0; sr_buckets_skip(b); ++*nrows)
		;
	sr_buckets_close(b);
}

/* Writes the combined buckets.tsv: old's comments (its #stats summed
 * with part's) and rows, then part's rows shifted: buckets by old's,
 * instances by the stage's planned ones, runs by off. */
static void
write_buckets(FILE *fp, const char *old, const char *part, size_t off,
    size_t inst_off)
{
	sr_buckets_stats so, sp;
	size_t nold, npart;
	char *stage_o, *stage_p;
	sr_datareader r;
	int header = 0;
	const char *f;

	read_stats(old, &so, &nold, &stage_o);
	read_stats(part, &sp, &npart, &stage_p);
	if (!stage_o || !stage_p || strcmp(stage_o, stage_p))
		sr_die(SR_EXIT_DATA, "%s: merged at another stage than %s", part,
		    old);
	so.runs += sp.runs;
	so.instances += sp.instances;
	so.tasks_noreuse += sp.tasks_noreuse;
	so.tasks_stage += sp.tasks_stage;
	so.tasks_merged += sp.tasks_merged;
	so.buckets += sp.buckets;
	so.max_bucket_tasks = so.max_bucket_tasks > sp.max_bucket_tasks ?
	    so.max_bucket_tasks : sp.max_bucket_tasks;
	so.max_bucket_cost = so.max_bucket_cost > sp.max_bucket_cost ?
	    so.max_bucket_cost : sp.max_bucket_cost;
	so.seconds += sp.seconds;
	sr_data_open(&r, old);
	while (sr_data_next(&r)) {
		if (strncmp(r.line, "#stats ", 7) == 0)
			sr_buckets_write_stats(fp, &so);	/* and the header */
		else if (r.line[0] == '#')
			fprintf(fp, "%s\n", r.line);
		else if (header++)
			fprintf(fp, "%s\n", r.line);
	}
	sr_data_close(&r);
	sr_data_open(&r, part);
	header = 0;
	while (sr_data_next(&r)) {
		if (r.line[0] == '#' || !header++)
			continue;
		fprintf(fp, "%zu\t", number(&r, r.line, SR_BUCKETS_BUCKET) + nold);
		put_list(fp, &r, field(&r, 1), inst_off, SR_BUCKETS_INSTANCES);
		fputc('\t', fp);
		f = put_list(fp, &r, field(&r, 2), off, SR_BUCKETS_RUNS);
		fprintf(fp, "%s\n", f);
	}
	sr_data_close(&r);
	free(stage_o);
	free(stage_p);
}

/* Reads the combined files back: the instances against the workflow,
 * the buckets against the merged stage's instances. */
static void
check(const char *workflow, const char *inst, const char *buckets)
{
	sr_workflow *w = sr_workflow_read(workflow);
	sr_instances *s = sr_instances_read(inst, w);
	sr_buckets_in *b = sr_buckets_open(buckets, 1);
	size_t st;

	st = b->stage ? (size_t)sr_workflow_stage(w, b->stage) : SIZE_MAX;
	if (st >= w->nstage)
		sr_die(SR_EXIT_DATA, "%s: no stage %s in %s", buckets, b->stage ?
		    b->stage : "?", workflow);
	sr_buckets_stage(b, s->first[st + 1] - s->first[st], b->stage);
	while (sr_buckets_next(b))
		;
	sr_buckets_close(b);
	sr_instances_free(s);
	sr_workflow_free(w);
}

/* The files of grow-plan go into the driver's staging directory, which
 * it moves into place whole: written in place. */
static FILE *
open_staged(const char *path)
{
	FILE *fp = fopen(path, "w");

	if (fp == NULL)
		sr_die_errno("%s", path);
	return fp;
}

static void
close_staged(FILE *fp, const char *path)
{
	if (ferror(fp) | fclose(fp))
		sr_die_io("%s: write error", path);
}

void
sr_grow_plan(const char *workflow, const char *old_instances,
    const char *old_buckets, const char *part_instances,
    const char *part_buckets, size_t run_offset, const char *out_instances,
    const char *out_buckets)
{
	sr_workflow *w = sr_workflow_read(workflow);
	sr_instances *s = sr_instances_read(old_instances, w);
	sr_buckets_in *b = sr_buckets_open(old_buckets, 1);
	size_t st, inst_off = 0;
	FILE *fp;

	st = b->stage ? (size_t)sr_workflow_stage(w, b->stage) : SIZE_MAX;
	if (st < w->nstage)
		inst_off = s->first[st + 1] - s->first[st];
	sr_buckets_close(b);
	sr_instances_free(s);
	sr_workflow_free(w);
	write_instances(out_instances, old_instances, part_instances,
	    run_offset);
	write_buckets(fp = open_staged(out_buckets), old_buckets, part_buckets,
	    run_offset, inst_off);
	close_staged(fp, out_buckets);
	check(workflow, out_instances, out_buckets);
}
