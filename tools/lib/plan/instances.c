/* instances.c - instances.tsv, read and written (instances.h). */
#include "plan/instances.h"
#include "core/err.h"
#include "core/text.h"
#include "core/num.h"
#include "core/tsv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void
sr_instances_set_space(sr_instances *s, const sr_space *space)
{
	size_t i;
	int k;

	free(s->param);
	s->param = NULL;
	s->space = space;
	if (space == NULL)
		return;
	s->param = sr_calloc(s->w->nparam ? s->w->nparam : 1, sizeof *s->param);
	for (i = 0; i < s->w->nparam; i++)
		if ((k = sr_space_find(space, s->w->param[i])) >= 0)
			s->param[i] = &space->p[k];
}

const char *
sr_instances_value_text(const sr_instances *s, size_t i, double v,
    char buf[SR_NUMLEN])
{
	if (s->param && s->param[i])
		return sr_param_text(s->param[i], v, buf);
	return sr_fmt_double(buf, v);
}

void
sr_instances_write_meta(FILE *fp, const sr_instances *s)
{
	fprintf(fp, "#runs=%zu stages=%zu instances=%zu\n", s->nruns,
	    s->w->nstage, s->n);
	if (s->space)
		sr_space_write_comments(fp, s->space);
}

void
sr_instances_write_head(FILE *fp, const sr_workflow *w)
{
	size_t i;

	fputs(SR_INSTANCES_STAGE "\t" SR_INSTANCES_INSTANCE "\t" SR_INSTANCES_UPSTREAM
	    "\t" SR_INSTANCES_RUNS, fp);
	for (i = 0; i < w->nparam; i++)
		fprintf(fp, "\t%s", w->param[i]);
	fputc('\n', fp);
}

void
sr_instance_write(FILE *fp, const sr_instances *s, const sr_instance *in)
{
	const sr_workflow *w = s->w;
	char buf[SR_NUMLEN];
	size_t i;

	fprintf(fp, "%s\t%zu\t", w->stage[in->stage].name, in->id);
	if (in->upstream == SR_NO_UPSTREAM)
		fputc('-', fp);
	else
		fprintf(fp, "%zu", in->upstream);
	for (i = 0; i < in->nruns; i++)
		fprintf(fp, "%c%zu", i ? ',' : '\t', in->runs[i]);
	for (i = 0; i < w->nparam; i++) {
		fputc('\t', fp);
		if (!isnan(in->value[i]))
			fputs(sr_instances_value_text(s, i, in->value[i], buf), fp);
	}
	fputc('\n', fp);
}

/* The chunks runs and values are carved from: two mallocs per instance
 * cost 16 to 24 bytes each on top of what they held, and reuse-merge
 * reads millions of instances. */
#define POOL_CHUNK (1 << 20)

typedef struct pool_chunk {
	struct pool_chunk *next;
	size_t used, size;	/* in doubles */
	double data[];		/* doubles and size_t, both 8 bytes here */
} pool_chunk;

/* bytes (a multiple of 8) from the pool *pool */
static void *
pool_alloc(void **pool, size_t bytes)
{
	pool_chunk *c = *pool;
	size_t n = bytes / sizeof(double);

	if (c == NULL || c->size - c->used < n) {
		size_t size = n > POOL_CHUNK / 64 ? n : POOL_CHUNK / sizeof(double);
		pool_chunk *fresh = sr_calloc(1, sizeof *fresh + size * sizeof(double));
		fresh->size = size;
		if (c && size == n) {	/* a big one: behind the current chunk */
			fresh->next = c->next;
			c->next = fresh;
			fresh->used = n;
			return fresh->data;
		}
		fresh->next = c;
		*pool = c = fresh;
	}
	c->used += n;
	return c->data + c->used - n;
}

static void
pool_free(void *pool)
{
	pool_chunk *c = pool, *next;

	for (; c; c = next) {
		next = c->next;
		free(c);
	}
}

/* Parses the comma list of runs of the current row into in, through
 * the growing buffer *buf of *cap runs. */
static void
read_runs(sr_instances *s, const sr_tsv *t, int col, sr_instance *in,
    size_t **buf, size_t *cap)
{
	const char *p = sr_tsv_str(t, col);
	char item[32];
	long r;
	int rc;

	while ((rc = sr_list_next(&p, item, sizeof item)) > 0) {
		if (sr_parse_long(item, &r) || r < 0 || r > 1000000000)
			sr_tsv_die(t, col, "run '%s' is not a run number (0 to 1e9)",
			    SR_SHOW(item));
		if (in->nruns == *cap) {
			*cap = *cap ? 2 * *cap : 64;
			*buf = sr_reallocarray(*buf, *cap, sizeof **buf);
		}
		(*buf)[in->nruns++] = (size_t)r;
	}
	if (rc < 0)
		sr_tsv_die_value(t, col, "is not a list of runs");
	in->runs = pool_alloc(&s->pool, (in->nruns ? in->nruns : 1) *
	    sizeof *in->runs);
	memcpy(in->runs, *buf, in->nruns * sizeof *in->runs);
}

/* Reads the row's upstream: '-' for the first stage, else an instance of
 * the previous stage. */
static size_t
read_upstream(const sr_tsv *t, int col, const sr_instances *s, size_t stage)
{
	const char *u = sr_tsv_str(t, col);
	long v;

	if (stage == 0) {
		if (strcmp(u, "-") != 0)
			sr_tsv_die(t, col, "the first stage has no upstream ('-')");
		return SR_NO_UPSTREAM;
	}
	if (sr_parse_long(u, &v) || v < 0 ||
	    (size_t)v >= s->first[stage] - s->first[stage - 1])
		sr_tsv_die(t, col, "'%s' is not an instance of stage %s", SR_SHOW(u),
		    s->w->stage[stage - 1].name);
	return (size_t)v;
}

/* Reads the parameter values of the current row into in: numbers for the
 * stage's parameters, empty fields for the others. */
static void
read_values(sr_instances *si, const sr_tsv *t, const int *col,
    const sr_workflow *w, sr_instance *in, double **nan_row)
{
	const sr_stage *s = &w->stage[in->stage];
	size_t i;

	if (s->nparam == 0) {	/* all empty: one shared row of NaN */
		if (*nan_row == NULL) {
			*nan_row = pool_alloc(&si->vpool, (w->nparam + 1) *
			    sizeof **nan_row);
			for (i = 0; i < w->nparam; i++)
				(*nan_row)[i] = NAN;
		}
		in->value = *nan_row;
	} else
		in->value = pool_alloc(&si->vpool, (w->nparam ? w->nparam : 1) *
		    sizeof *in->value);
	for (i = 0; i < w->nparam; i++) {
		int used = sr_stage_param(s, i) >= 0;
		const char *f = sr_tsv_str(t, col[i]);
		if (!used && *f)
			sr_tsv_die(t, col[i], "stage %s has no parameter %s: the "
			    "field must be empty", s->name, w->param[i]);
		if (s->nparam)
			in->value[i] = !used ? NAN : si->param && si->param[i] ?
			    sr_param_field(t, col[i], si->param[i]) :
			    sr_tsv_double(t, col[i]);
	}
}

/* Checks that every run 0..nruns-1 is in exactly one instance of each
 * stage, and that its instances chain through their upstreams. */
static void
check_runs(sr_instances *s, const char *path)
{
	size_t st, i, k, r, *owner, listed = 0, top = 0;

	for (i = 0; i < s->n; i++)
		for (k = 0; k < s->inst[i].nruns; k++)
			if (s->inst[i].runs[k] + 1 > s->nruns) {
				s->nruns = s->inst[i].runs[k] + 1;
				top = i;
			}
	/* runs are 0..nruns-1, each once per stage: a run number beyond the
	 * runs the first stage lists is refused before anything of its size
	 * is allocated (a 20-byte line must not cost gigabytes) */
	for (i = s->first[0]; s->w->nstage > 0 && i < s->first[1]; i++)
		listed += s->inst[i].nruns;
	if (s->nruns > listed)
		sr_die(SR_EXIT_DATA, "%s:%zu: column runs: run %zu, but stage %s "
		    "lists %zu runs (runs go from 0 to %zu)", path, s->line[top],
		    s->nruns - 1, s->w->stage[0].name, listed,
		    listed ? listed - 1 : 0);
	owner = sr_calloc(s->nruns ? s->nruns : 1, sizeof *owner);
	for (st = 0; st < s->w->nstage; st++) {
		size_t *prev = sr_calloc(s->nruns ? s->nruns : 1, sizeof *prev);
		memcpy(prev, owner, s->nruns * sizeof *owner);
		for (r = 0; r < s->nruns; r++)
			owner[r] = SR_NONE_RUN;
		for (i = s->first[st]; i < s->first[st + 1]; i++)
			for (k = 0; k < s->inst[i].nruns; k++) {
				r = s->inst[i].runs[k];
				if (owner[r] != SR_NONE_RUN)
					sr_die(SR_EXIT_DATA, "%s:%zu: column runs: run %zu "
					    "is in instances %zu and %zu of stage %s", path,
					    s->line[i], r, owner[r], s->inst[i].id,
					    s->w->stage[st].name);
				if (st > 0 && prev[r] != s->inst[i].upstream)
					sr_die(SR_EXIT_DATA, "%s:%zu: column upstream: run %zu "
					    "is in instance %zu of stage %s, not in this "
					    "upstream %zu", path, s->line[i], r, prev[r],
					    s->w->stage[st - 1].name, s->inst[i].upstream);
				owner[r] = s->inst[i].id;
			}
		for (r = 0; r < s->nruns; r++)
			if (owner[r] == SR_NONE_RUN)
				sr_die(SR_EXIT_DATA, "%s: run %zu is in no instance "
				    "of stage %s (runs go from 0 to %zu)", path, r,
				    s->w->stage[st].name, s->nruns - 1);
		free(prev);
	}
	free(owner);
}

/* Compares the run count with the metadata's runs=, when there is one. */
static void
check_run_count(const sr_instances *s, const sr_tsv *t)
{
	char *v = sr_tsv_meta(t, "runs");
	long n;

	if (v && (sr_parse_long(v, &n) || n < 0 || (size_t)n != s->nruns))
		sr_die(SR_EXIT_DATA, "%s: the metadata says runs=%s but the "
		    "instances hold runs 0 to %zu", t->path, v, s->nruns - 1);
	free(v);
}

sr_instances *
sr_instances_read(const char *path, const sr_workflow *w)
{
	sr_tsv *t = sr_tsv_open(path);
	sr_instances *s = sr_calloc(1, sizeof *s);
	int cs = sr_tsv_need(t, SR_INSTANCES_STAGE);
	int ci = sr_tsv_need(t, SR_INSTANCES_INSTANCE);
	int cu = sr_tsv_need(t, SR_INSTANCES_UPSTREAM);
	int cr = sr_tsv_need(t, SR_INSTANCES_RUNS);
	int *col = sr_calloc(w->nparam ? w->nparam : 1, sizeof *col), st;
	size_t i, cap = 0, cur = 0, runs_cap = 0, *runs_buf = NULL;
	double *nan_row = NULL;
	sr_instance *in;

	for (i = 0; i < w->nparam; i++)
		if ((col[i] = sr_tsv_col(t, w->param[i])) < 0)
			sr_tsv_die(t, -1, "header: no column %s, a parameter of the "
			    "workflow %s", w->param[i], w->path);
	s->w = w;
	s->own_space = sr_space_from_comments(t);
	sr_instances_set_space(s, s->own_space);
	s->first = sr_calloc(w->nstage + 1, sizeof *s->first);
	while (sr_tsv_next(t)) {
		if ((st = sr_workflow_stage(w, sr_tsv_str(t, cs))) < 0)
			sr_tsv_die(t, cs, "no stage %s in the workflow %s",
			    SR_SHOW(sr_tsv_str(t, cs)), w->path);
		if ((size_t)st < cur || (s->n == 0 && st != 0) ||
		    (size_t)st > cur + 1)
			sr_tsv_die(t, cs, "stage %s out of the workflow's order",
			    SR_SHOW(sr_tsv_str(t, cs)));
		for (; cur < (size_t)st; cur++)
			s->first[cur + 1] = s->n;
		if (s->n == cap) {
			cap = cap ? 2 * cap : 1024;
			s->inst = sr_reallocarray(s->inst, cap, sizeof *s->inst);
			s->line = sr_reallocarray(s->line, cap, sizeof *s->line);
		}
		s->line[s->n] = t->lineno;
		in = memset(&s->inst[s->n], 0, sizeof *in);
		in->stage = (size_t)st;
		if (sr_tsv_long(t, ci) != (long)(s->n - s->first[st]))
			sr_tsv_die(t, ci, "instance %s out of sequence, expected %zu",
			    SR_SHOW(sr_tsv_str(t, ci)), s->n - s->first[st]);
		in->id = s->n - s->first[st];
		in->upstream = read_upstream(t, cu, s, (size_t)st);
		read_runs(s, t, cr, in, &runs_buf, &runs_cap);
		read_values(s, t, col, w, in, &nan_row);
		s->n++;
	}
	if (s->n == 0 || cur + 1 != w->nstage)
		sr_die(SR_EXIT_DATA, "%s: no instances of stage %s", t->path,
		    w->stage[s->n ? cur + 1 : 0].name);
	s->first[w->nstage] = s->n;
	s->inst = sr_reallocarray(s->inst, s->n, sizeof *s->inst);
	s->line = sr_reallocarray(s->line, s->n, sizeof *s->line);
	check_runs(s, t->path);
	check_run_count(s, t);
	free(runs_buf);
	free(col);
	sr_tsv_close(t);
	return s;
}

void
sr_instances_drop_values(sr_instances *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (s->pool == NULL)
			free(s->inst[i].value);
		s->inst[i].value = NULL;
	}
	pool_free(s->vpool);
	s->vpool = NULL;
}

void
sr_instances_free(sr_instances *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; s->pool == NULL && i < s->n; i++) {
		free(s->inst[i].runs);
		free(s->inst[i].value);
	}
	pool_free(s->pool);
	pool_free(s->vpool);
	free(s->inst);
	free(s->first);
	free(s->line);
	free(s->param);
	sr_space_free(s->own_space);
	free(s);
}
