/* workflow.c - workflow files and stage instances. */
#include "plan/workflow.h"
#include "core/err.h"
#include "core/num.h"
#include "core/tsv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Whether s is a usable name: non-empty, no blank, comma, '=' or '#'. */
static int
good_name(const char *s)
{
	return *s && !strpbrk(s, " ,=#\"'");
}

int
sr_workflow_stage(const sr_workflow *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->nstage; i++)
		if (strcmp(w->stage[i].name, name) == 0)
			return (int)i;
	return -1;
}

int
sr_workflow_param(const sr_workflow *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->nparam; i++)
		if (strcmp(w->param[i], name) == 0)
			return (int)i;
	return -1;
}

int
sr_stage_param(const sr_stage *s, size_t param)
{
	size_t i;

	for (i = 0; i < s->nparam; i++)
		if (s->param[i] == param)
			return (int)i;
	return -1;
}

/* Adds the parameters of the comma list to task, stage and workflow. */
static void
add_params(sr_workflow *w, sr_stage *s, sr_task *t, const sr_tsv *tsv,
    int col)
{
	char *copy = sr_strdup(sr_tsv_str(tsv, col)), *tok = copy, *end;
	size_t i;
	int p;

	if (strcmp(copy, "-") == 0) {
		free(copy);
		return;
	}
	for (;; tok = end + 1) {
		if ((end = strchr(tok, ',')) != NULL)
			*end = '\0';
		if (!good_name(tok) || strcmp(tok, "-") == 0)
			sr_tsv_die(tsv, col, "'%s' is not a parameter name", tok);
		for (i = 0; i < t->nparam; i++)
			if (strcmp(t->param[i], tok) == 0)
				sr_tsv_die(tsv, col, "parameter %s named twice", tok);
		t->param = sr_reallocarray(t->param, t->nparam + 1, sizeof *t->param);
		t->param[t->nparam++] = sr_strdup(tok);
		if ((p = sr_workflow_param(w, tok)) < 0) {
			w->param = sr_reallocarray(w->param, w->nparam + 1,
			    sizeof *w->param);
			w->param[p = (int)w->nparam++] = sr_strdup(tok);
		}
		if (sr_stage_param(s, (size_t)p) < 0) {
			s->param = sr_reallocarray(s->param, s->nparam + 1,
			    sizeof *s->param);
			s->param[s->nparam++] = (size_t)p;
		}
		if (end == NULL)
			break;
	}
	free(copy);
}

/* The stage called name, appended when new; dies if it reappears after
 * another stage began (stages are contiguous runs of rows). */
static sr_stage *
stage_for(sr_workflow *w, const sr_tsv *t, int col)
{
	const char *name = sr_tsv_str(t, col);
	int i = sr_workflow_stage(w, name);

	if (i >= 0 && (size_t)i != w->nstage - 1)
		sr_tsv_die(t, col, "stage %s appears again after stage %s: a "
		    "stage's tasks are consecutive rows", name,
		    w->stage[w->nstage - 1].name);
	if (i >= 0)
		return &w->stage[i];
	if (!good_name(name))
		sr_tsv_die(t, col, "'%s' is not a stage name", name);
	w->stage = sr_reallocarray(w->stage, w->nstage + 1, sizeof *w->stage);
	memset(&w->stage[w->nstage], 0, sizeof w->stage[w->nstage]);
	w->stage[w->nstage].name = sr_strdup(name);
	return &w->stage[w->nstage++];
}

sr_workflow *
sr_workflow_read(const char *path)
{
	sr_tsv *t = sr_tsv_open(path);
	sr_workflow *w = sr_calloc(1, sizeof *w);
	int cs = sr_tsv_need(t, "stage"), ct = sr_tsv_need(t, "task");
	int cp = sr_tsv_need(t, "params"), cc = sr_tsv_need(t, "cost");
	sr_stage *s;
	sr_task *task;
	size_t i, j;

	w->path = sr_strdup(t->path);
	while (sr_tsv_next(t)) {
		s = stage_for(w, t, cs);
		if (!good_name(sr_tsv_str(t, ct)))
			sr_tsv_die(t, ct, "'%s' is not a task name", sr_tsv_str(t, ct));
		for (j = 0; j < w->nstage; j++)
			for (i = 0; i < w->stage[j].ntask; i++)
				if (strcmp(w->stage[j].task[i].name,
				    sr_tsv_str(t, ct)) == 0)
					sr_tsv_die(t, ct, "task %s named twice (stage %s): "
					    "task names are unique in a workflow",
					    sr_tsv_str(t, ct), w->stage[j].name);
		s->task = sr_reallocarray(s->task, s->ntask + 1, sizeof *s->task);
		task = &s->task[s->ntask++];
		memset(task, 0, sizeof *task);
		task->name = sr_strdup(sr_tsv_str(t, ct));
		task->line = t->lineno;
		task->cost = sr_tsv_double(t, cc);
		if (!(task->cost > 0))
			sr_tsv_die(t, cc, "a cost must be positive");
		add_params(w, s, task, t, cp);
	}
	if (w->nstage == 0)
		sr_die(SR_EXIT_DATA, "%s: no tasks", t->path);
	sr_tsv_close(t);
	return w;
}

void
sr_workflow_free(sr_workflow *w)
{
	size_t i, j, k;

	if (w == NULL)
		return;
	for (i = 0; i < w->nstage; i++) {
		for (j = 0; j < w->stage[i].ntask; j++) {
			for (k = 0; k < w->stage[i].task[j].nparam; k++)
				free(w->stage[i].task[j].param[k]);
			free(w->stage[i].task[j].param);
			free(w->stage[i].task[j].name);
		}
		free(w->stage[i].task);
		free(w->stage[i].param);
		free(w->stage[i].name);
	}
	for (i = 0; i < w->nparam; i++)
		free(w->param[i]);
	free(w->stage);
	free(w->param);
	free(w->path);
	free(w);
}

void
sr_instances_write_head(FILE *fp, const sr_workflow *w)
{
	size_t i;

	fputs("stage\tinstance\tupstream\truns", fp);
	for (i = 0; i < w->nparam; i++)
		fprintf(fp, "\t%s", w->param[i]);
	fputc('\n', fp);
}

void
sr_instance_write(FILE *fp, const sr_workflow *w, const sr_instance *in)
{
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
			fputs(sr_fmt_double(buf, in->value[i]), fp);
	}
	fputc('\n', fp);
}

/* Parses the comma list of runs of the current row into in. */
static void
read_runs(const sr_tsv *t, int col, sr_instance *in)
{
	const char *p = sr_tsv_str(t, col);
	char item[32];
	long r;
	int rc;

	while ((rc = sr_list_next(&p, item, sizeof item)) > 0) {
		if (sr_parse_long(item, &r) || r < 0 || r > 1000000000)
			sr_tsv_die(t, col, "run '%s' is not a run number (0 to 1e9)",
			    item);
		if ((in->nruns & (in->nruns - 1)) == 0)	/* doubling */
			in->runs = sr_reallocarray(in->runs, in->nruns ? 2 * in->nruns : 1,
			    sizeof *in->runs);
		in->runs[in->nruns++] = (size_t)r;
	}
	if (rc < 0)
		sr_tsv_die(t, col, "'%.40s' is not a list of runs", sr_tsv_str(t, col));
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
		sr_tsv_die(t, col, "'%s' is not an instance of stage %s", u,
		    s->w->stage[stage - 1].name);
	return (size_t)v;
}

/* Reads the parameter values of the current row into in: numbers for the
 * stage's parameters, empty fields for the others. */
static void
read_values(const sr_tsv *t, const int *col, const sr_workflow *w,
    sr_instance *in)
{
	const sr_stage *s = &w->stage[in->stage];
	size_t i;

	in->value = sr_calloc(w->nparam, sizeof *in->value);
	for (i = 0; i < w->nparam; i++) {
		int used = sr_stage_param(s, i) >= 0;
		const char *f = sr_tsv_str(t, col[i]);
		if (!used && *f)
			sr_tsv_die(t, col[i], "stage %s has no parameter %s: the "
			    "field must be empty", s->name, w->param[i]);
		in->value[i] = used ? sr_tsv_double(t, col[i]) : NAN;
	}
}

/* Checks that every run 0..nruns-1 is in exactly one instance of each
 * stage, and that its instances chain through their upstreams. */
static void
check_runs(sr_instances *s, const char *path)
{
	size_t st, i, k, r, *owner;

	for (i = 0; i < s->n; i++)
		for (k = 0; k < s->inst[i].nruns; k++)
			if (s->inst[i].runs[k] + 1 > s->nruns)
				s->nruns = s->inst[i].runs[k] + 1;
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
	int cs = sr_tsv_need(t, "stage"), ci = sr_tsv_need(t, "instance");
	int cu = sr_tsv_need(t, "upstream"), cr = sr_tsv_need(t, "runs");
	int *col = sr_calloc(w->nparam ? w->nparam : 1, sizeof *col), st;
	size_t i, cap = 0, cur = 0;
	sr_instance *in;

	for (i = 0; i < w->nparam; i++)
		if ((col[i] = sr_tsv_col(t, w->param[i])) < 0)
			sr_tsv_die(t, -1, "header: no column %s, a parameter of the "
			    "workflow %s", w->param[i], w->path);
	s->w = w;
	s->first = sr_calloc(w->nstage + 1, sizeof *s->first);
	while (sr_tsv_next(t)) {
		if ((st = sr_workflow_stage(w, sr_tsv_str(t, cs))) < 0)
			sr_tsv_die(t, cs, "no stage %s in the workflow %s",
			    sr_tsv_str(t, cs), w->path);
		if ((size_t)st < cur || (s->n == 0 && st != 0) ||
		    (size_t)st > cur + 1)
			sr_tsv_die(t, cs, "stage %s out of the workflow's order",
			    sr_tsv_str(t, cs));
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
			    sr_tsv_str(t, ci), s->n - s->first[st]);
		in->id = s->n - s->first[st];
		in->upstream = read_upstream(t, cu, s, (size_t)st);
		read_runs(t, cr, in);
		read_values(t, col, w, in);
		s->n++;
	}
	if (s->n == 0 || cur + 1 != w->nstage)
		sr_die(SR_EXIT_DATA, "%s: no instances of stage %s", t->path,
		    w->stage[s->n ? cur + 1 : 0].name);
	s->first[w->nstage] = s->n;
	check_runs(s, t->path);
	check_run_count(s, t);
	free(col);
	sr_tsv_close(t);
	return s;
}

void
sr_instances_free(sr_instances *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->n; i++) {
		free(s->inst[i].runs);
		free(s->inst[i].value);
	}
	free(s->inst);
	free(s->first);
	free(s->line);
	free(s);
}
