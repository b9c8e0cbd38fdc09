/* workflow.c - workflow files and stage instances. */
#include "plan/workflow.h"
#include "core/err.h"
#include "core/text.h"
#include "core/num.h"
#include "core/tsv.h"
#include "plan/results.h"
#include "sa/space.h"

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

/* The row being read, for the walks of its comma lists. */
typedef struct {
	sr_workflow *w;
	sr_stage *s;
	sr_task *task;
	const sr_tsv *t;
	int col;
} row_ctx;

/* Calls add(r, name) for each name of the comma list in column r->col,
 * in order; nothing for "-". Dies on an item that is not a name (what:
 * "parameter", "metric"). */
static void
each_name(const row_ctx *r, const char *what,
    void (*add)(const row_ctx *, const char *))
{
	char *copy = sr_strdup(sr_tsv_str(r->t, r->col)), *tok = copy, *end;

	if (strcmp(copy, "-") != 0)
		for (;; tok = end + 1) {
			if ((end = strchr(tok, ',')) != NULL)
				*end = '\0';
			if (!good_name(tok) || strcmp(tok, "-") == 0)
				sr_tsv_die(r->t, r->col, "'%s' is not a %s name",
				    SR_SHOW(tok), what);
			add(r, tok);
			if (end == NULL)
				break;
		}
	free(copy);
}

/* Adds a parameter of the task to task, stage and workflow. */
static void
add_param(const row_ctx *r, const char *name)
{
	sr_workflow *w = r->w;
	sr_stage *s = r->s;
	sr_task *t = r->task;
	size_t i;
	int p;

	if (sr_param_reserved(name))
		sr_tsv_die(r->t, r->col, "parameter name '%s' is reserved "
		    "(a placeholder of the run column, or a column of "
		    "results)", name);
	for (i = 0; i < t->nparam; i++)
		if (strcmp(t->param[i], name) == 0)
			sr_tsv_die(r->t, r->col, "parameter %s named twice",
			    SR_SHOW(name));
	t->param = sr_reallocarray(t->param, t->nparam + 1, sizeof *t->param);
	t->param[t->nparam++] = sr_strdup(name);
	if ((p = sr_workflow_param(w, name)) < 0) {
		w->param = sr_reallocarray(w->param, w->nparam + 1,
		    sizeof *w->param);
		w->param[p = (int)w->nparam++] = sr_strdup(name);
	}
	if (sr_stage_param(s, (size_t)p) < 0) {
		s->param = sr_reallocarray(s->param, s->nparam + 1,
		    sizeof *s->param);
		s->param[s->nparam++] = (size_t)p;
	}
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

/* The command of task (column col of the row), parsed; dies naming the
 * byte of the line where the template goes wrong. A parameter of the
 * task missing from its command is warned of: it still splits runs. */
static sr_template *
read_command(const sr_tsv *t, int col, const sr_task *task)
{
	sr_template *run = sr_calloc(1, sizeof *run);
	const char *field = sr_tsv_str(t, col);
	char err[512], show[SR_SHOWLEN];
	size_t at, i;

	if (sr_template_parse(field, task->param, task->nparam, run, &at, err,
	    sizeof err) != 0)
		sr_die(SR_EXIT_DATA, "%s:%zu:%zu: column %s: task %s: %s",
		    sr_show(show, t->path), t->lineno,
		    (size_t)(field - t->line) + at, SR_WORKFLOW_RUN, task->name,
		    err);
	for (i = 0; i < task->nparam; i++)
		if (!run->param_used[i])
			sr_warn("%s:%zu: task %s: parameter %s is not in its "
			    "command (it still tells runs apart)", t->path,
			    t->lineno, task->name, task->param[i]);
	return run;
}

/* Whether name is a column of results of its own (run, tile, status and
 * the scores): no metric of a command may take it. */
static int
result_column(const char *name)
{
	static const char *const col[] = { SR_RESULTS_RUN, SR_RESULTS_TILE,
	    SR_RESULTS_STATUS, SR_RESULTS_DICE, SR_RESULTS_JACCARD,
	    SR_RESULTS_OBJECT_DICE, SR_RESULTS_AJI, SR_RESULTS_OBJECTS,
	    SR_RESULTS_SECONDS };
	size_t i;

	for (i = 0; i < sizeof col / sizeof col[0]; i++)
		if (strcmp(name, col[i]) == 0)
			return 1;
	return 0;
}

/* Adds a metric of the task's command, unique in the workflow. */
static void
add_metric(const row_ctx *r, const char *name)
{
	sr_workflow *w = r->w;
	sr_task *task = r->task;
	size_t i;

	if (result_column(name) || sr_param_reserved(name))
		sr_tsv_die(r->t, r->col, "metric %s: a column of results "
		    "already (run, tile, status and the scores)", name);
	for (i = 0; i < w->nmetric; i++)
		if (strcmp(w->metric[i], name) == 0)
			sr_tsv_die(r->t, r->col, "metric %s named twice: a "
			    "metric is one column of results", name);
	task->metric = sr_reallocarray(task->metric, task->nmetric + 1,
	    sizeof *task->metric);
	task->metric[task->nmetric++] = sr_strdup(name);
	w->metric = sr_reallocarray(w->metric, w->nmetric + 1,
	    sizeof *w->metric);
	w->metric[w->nmetric++] = sr_strdup(name);
}

/* Reads the metrics column of the row's task: names of results columns
 * its command writes through {metrics}. */
static void
add_metrics(const row_ctx *r)
{
	const sr_task *task = r->task;

	if (strcmp(sr_tsv_str(r->t, r->col), "-") != 0 && task->run == NULL)
		sr_tsv_die(r->t, r->col, "task %s: metrics of a built-in task: "
		    "only a command writes its own (column run)", task->name);
	each_name(r, "metric", add_metric);
	if (task->nmetric > 0 && !(task->run->uses & 1u << SR_TP_METRICS))
		sr_tsv_die(r->t, r->col, "task %s declares metrics and its "
		    "command has no {metrics} to write them to", task->name);
}

/* Dies naming task (at line) of w: why the workflow's shape is refused. */
static _Noreturn void
shape_die(const sr_workflow *w, const sr_task *task, const char *why)
{
	sr_die(SR_EXIT_DATA, "%s:%zu: task %s: %s: a workflow of commands is "
	    "an optional stage of normalize alone, one stage of command tasks "
	    "and an optional stage of compare alone (workflow(5))", w->path,
	    task->line, task->name, why);
}

/* Whether stage s holds the built-in task name alone. */
static int
builtin_alone(const sr_stage *s, const char *name)
{
	return s->ntask == 1 && s->task[0].run == NULL &&
	    strcmp(s->task[0].name, name) == 0;
}

/* Sets w->command_stage, and refuses a workflow of commands of another
 * shape than [normalize] commands [compare]. */
static void
check_shape(sr_workflow *w)
{
	size_t s, k;
	int c = -1;

	for (s = 0; s < w->nstage; s++)
		for (k = 0; k < w->stage[s].ntask; k++) {
			const sr_task *task = &w->stage[s].task[k];
			if (task->run && c >= 0 && (size_t)c != s)
				shape_die(w, task, "a second stage of commands "
				    "(not yet: one stage of commands is merged)");
			if (task->run)
				c = (int)s;
		}
	if (c < 0)
		return;
	w->commands = 1;
	w->command_stage = (size_t)c;
	for (k = 0; k < w->stage[c].ntask; k++)
		if (w->stage[c].task[k].run == NULL)
			shape_die(w, &w->stage[c].task[k], "a built-in task "
			    "among the commands (a task without a run)");
	if (c > 1 || (c == 1 && !builtin_alone(&w->stage[0], SR_TASK_NORMALIZE)))
		shape_die(w, &w->stage[0].task[0], "a built-in task before "
		    "the commands other than normalize alone in its stage");
	if (w->nstage > (size_t)c + 2 || (w->nstage == (size_t)c + 2 &&
	    !builtin_alone(&w->stage[c + 1], SR_TASK_COMPARE)))
		shape_die(w, &w->stage[c + 1].task[0], "a built-in task after "
		    "the commands other than compare alone in its stage");
}

/* Refuses a metric named as a parameter (trials.tsv has both). */
static void
check_metrics(const sr_workflow *w)
{
	size_t s, k, m;

	for (s = 0; s < w->nstage; s++)
		for (k = 0; k < w->stage[s].ntask; k++)
			for (m = 0; m < w->stage[s].task[k].nmetric; m++) {
				const sr_task *task = &w->stage[s].task[k];
				if (sr_workflow_param(w, task->metric[m]) >= 0)
					sr_die(SR_EXIT_DATA, "%s:%zu: column %s: "
					    "metric %s is also a parameter's name",
					    w->path, task->line,
					    SR_WORKFLOW_METRICS, task->metric[m]);
			}
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
	int cr = sr_tsv_col(t, SR_WORKFLOW_RUN);
	int cm = sr_tsv_col(t, SR_WORKFLOW_METRICS);
	sr_stage *s;
	sr_task *task;
	row_ctx row;
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
		row = (row_ctx){ w, s, task, t, cp };
		each_name(&row, "parameter", add_param);
		if (cr >= 0 && strcmp(sr_tsv_str(t, cr), "-") != 0) {
			if (strcmp(task->name, SR_TASK_NORMALIZE) == 0 ||
			    strcmp(task->name, SR_TASK_COMPARE) == 0)
				sr_tsv_die(t, cr, "task %s: normalize and compare "
				    "are built-in tasks: name a command otherwise",
				    task->name);
			task->run = read_command(t, cr, task);
		}
		if (cm >= 0) {
			row.col = cm;
			add_metrics(&row);
		}
		if (task->run && (task->run->uses & 1u << SR_TP_METRICS) &&
		    task->nmetric == 0)
			sr_tsv_die(t, cr, "task %s: {metrics} without metrics "
			    "declared (column metrics: the names it writes)",
			    task->name);
	}
	if (w->nstage == 0)
		sr_die(SR_EXIT_DATA, "%s: no tasks", t->path);
	sr_tsv_close(t);
	check_shape(w);
	check_metrics(w);
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
			if (w->stage[i].task[j].run)
				sr_template_free(w->stage[i].task[j].run);
			free(w->stage[i].task[j].run);
			for (k = 0; k < w->stage[i].task[j].nmetric; k++)
				free(w->stage[i].task[j].metric[k]);
			free(w->stage[i].task[j].metric);
		}
		free(w->stage[i].task);
		free(w->stage[i].param);
		free(w->stage[i].name);
	}
	for (i = 0; i < w->nparam; i++)
		free(w->param[i]);
	for (i = 0; i < w->nmetric; i++)
		free(w->metric[i]);
	free(w->metric);
	free(w->stage);
	free(w->param);
	free(w->path);
	free(w);
}
