/* workflow.c - workflow files and stage instances. */
#include "plan/workflow.h"
#include "core/err.h"
#include "core/text.h"
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
sr_workflow_task(const sr_workflow *w, const char *name, size_t *stage,
    size_t *task)
{
	for (*stage = 0; *stage < w->nstage; ++*stage)
		for (*task = 0; *task < w->stage[*stage].ntask; ++*task)
			if (strcmp(w->stage[*stage].task[*task].name, name) == 0)
				return 1;
	return 0;
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
			sr_tsv_die(tsv, col, "'%s' is not a parameter name",
			    SR_SHOW(tok));
		for (i = 0; i < t->nparam; i++)
			if (strcmp(t->param[i], tok) == 0)
				sr_tsv_die(tsv, col, "parameter %s named twice",
				    SR_SHOW(tok));
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
		sr_tsv_die(t, col, "'%s' is not a stage name", SR_SHOW(name));
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
	int cs = sr_tsv_need(t, SR_WORKFLOW_STAGE);
	int ct = sr_tsv_need(t, SR_WORKFLOW_TASK);
	int cp = sr_tsv_need(t, SR_WORKFLOW_PARAMS);
	int cc = sr_tsv_need(t, SR_WORKFLOW_COST);
	sr_stage *s;
	sr_task *task;
	size_t i, j;

	w->path = sr_strdup(t->path);
	while (sr_tsv_next(t)) {
		s = stage_for(w, t, cs);
		if (!good_name(sr_tsv_str(t, ct)))
			sr_tsv_die(t, ct, "'%s' is not a task name",
			    SR_SHOW(sr_tsv_str(t, ct)));
		if (sr_workflow_task(w, sr_tsv_str(t, ct), &j, &i))
			sr_tsv_die(t, ct, "task %s named twice (stage %s): task "
			    "names are unique in a workflow",
			    SR_SHOW(sr_tsv_str(t, ct)), SR_SHOW(w->stage[j].name));
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
