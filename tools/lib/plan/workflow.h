/* workflow.h - workflow files (workflow.wf, see workflow(5)) and stage
 * instances (instances.tsv, see instances(5)). */
#ifndef SR_WORKFLOW_H
#define SR_WORKFLOW_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
	char *name;
	char **param;		/* parameters the task reads */
	size_t nparam;
	double cost;		/* relative cost */
	size_t line;		/* in the workflow file, for messages */
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
} sr_workflow;

/* Reads a workflow; dies naming file, line and column on an error. */
sr_workflow *sr_workflow_read(const char *path);
void sr_workflow_free(sr_workflow *w);
/* Index of the stage or parameter named, or -1. */
int sr_workflow_stage(const sr_workflow *w, const char *name);
int sr_workflow_param(const sr_workflow *w, const char *name);
/* Index of param (a workflow parameter index) within stage s, or -1. */
int sr_stage_param(const sr_stage *s, size_t param);

/* One unique stage instance. */
typedef struct {
	size_t stage, id;	/* id: number within its stage, from 0 */
	size_t upstream;	/* id in the previous stage; SR_NO_UPSTREAM */
	size_t *runs;
	size_t nruns;
	double *value;		/* w->nparam values; NaN where unused */
} sr_instance;

#define SR_NO_UPSTREAM ((size_t)-1)
#define SR_NONE_RUN ((size_t)-1)

typedef struct {
	const sr_workflow *w;
	sr_instance *inst;	/* by stage, then id */
	size_t n;
	size_t *first;		/* nstage + 1 offsets into inst */
	size_t nruns;		/* runs (0..nruns-1) */
	size_t *line;		/* line of each instance in the file read */
} sr_instances;

/* Writes instances.tsv's header line; then sr_instance_write per row. */
void sr_instances_write_head(FILE *fp, const sr_workflow *w);
void sr_instance_write(FILE *fp, const sr_workflow *w, const sr_instance *in);

/* Reads instances.tsv against w; dies naming file and line when it does
 * not match the workflow (stage unknown, ids out of sequence, upstream
 * missing, a run in two instances of a stage or in none, a value missing
 * or present where the stage has no such parameter). */
sr_instances *sr_instances_read(const char *path, const sr_workflow *w);
void sr_instances_free(sr_instances *s);

#endif
