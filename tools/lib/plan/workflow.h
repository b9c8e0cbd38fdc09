/* workflow.h - workflow files (workflow.wf, see workflow(5)); stage
 * instances are plan/instances.h. */
#ifndef SR_WORKFLOW_H
#define SR_WORKFLOW_H

#include <stddef.h>
#include <stdio.h>

#include "plan/template.h"

/* The columns of workflow.wf. */
#define SR_WORKFLOW_STAGE	"stage"
#define SR_WORKFLOW_TASK	"task"
#define SR_WORKFLOW_PARAMS	"params"
#define SR_WORKFLOW_COST	"cost"
#define SR_WORKFLOW_RUN		"run"	/* optional: a command template */
#define SR_WORKFLOW_METRICS	"metrics"	/* optional: what it writes */

/* The built-in tasks a workflow of commands may hold around its stage of
 * commands: the first stage's, the last stage's. */
#define SR_TASK_NORMALIZE	"normalize"
#define SR_TASK_COMPARE		"compare"

typedef struct {
	char *name;
	char **param;		/* parameters the task reads */
	size_t nparam;
	double cost;		/* relative cost */
	size_t line;		/* in the workflow file, for messages */
	sr_template *run;	/* the command (column run); NULL: built-in */
	char **metric;		/* the metrics its command writes (column
				 * metrics), columns of results */
	size_t nmetric;
} sr_task;

typedef struct {
	char *name;
	sr_task *task;		/* the chain, in row order */
	size_t ntask;
	size_t *param;		/* the stage's parameters (indices into
				 * the workflow's), in order of first use */
	size_t nparam;
} sr_stage;

typedef struct {
	char *path;
	sr_stage *stage;	/* the chain, in order of first appearance */
	size_t nstage;
	char **param;		/* every parameter, in order of first use */
	size_t nparam;
	int commands;		/* whether tasks have commands (run) */
	char **metric;		/* every task's metrics, in task order */
	size_t nmetric;
	size_t command_stage;	/* then, the stage of those tasks */
} sr_workflow;

/* Reads a workflow; dies naming file, line and column on an error. A
 * workflow with commands is an optional stage of the built-in normalize
 * alone, one stage of command tasks, and an optional stage of the
 * built-in compare alone (workflow(5)); any other is refused. */
sr_workflow *sr_workflow_read(const char *path);
void sr_workflow_free(sr_workflow *w);
/* Index of the stage or parameter named, or -1. */
int sr_workflow_stage(const sr_workflow *w, const char *name);
int sr_workflow_param(const sr_workflow *w, const char *name);
/* Whether a task is named name (task names are unique in a workflow);
 * its stage and its index there to *stage and *task. */
int sr_workflow_task(const sr_workflow *w, const char *name, size_t *stage,
    size_t *task);
/* Index of param (a workflow parameter index) within stage s, or -1. */
int sr_stage_param(const sr_stage *s, size_t param);

#endif
