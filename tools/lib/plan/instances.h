/* instances.h - stage instances (instances.tsv, see instances(5)): the
 * only reader and writer of the format, its column names here. */
#ifndef SR_INSTANCES_H
#define SR_INSTANCES_H

#include <stddef.h>
#include <stdio.h>

#include "plan/workflow.h"

/* The fixed columns; the workflow's parameters follow. */
#define SR_INSTANCES_STAGE	"stage"
#define SR_INSTANCES_INSTANCE	"instance"
#define SR_INSTANCES_UPSTREAM	"upstream"
#define SR_INSTANCES_RUNS	"runs"

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
	/* read from a file: the instances' runs and values are carved from
	 * these chunks (lists: runs, values), and instances of a stage
	 * without parameters share one row of NaN; NULL: each instance owns
	 * its arrays */
	void *pool, *vpool;
} sr_instances;

/* Writes instances.tsv's metadata line, "#runs=N stages=S instances=I"
 * (the runs, the workflow's stages, s's instances; the reader checks
 * runs=), then sr_instances_write_head, then sr_instance_write per row. */
void sr_instances_write_meta(FILE *fp, const sr_instances *s);
/* Writes instances.tsv's header line. */
void sr_instances_write_head(FILE *fp, const sr_workflow *w);
void sr_instance_write(FILE *fp, const sr_workflow *w, const sr_instance *in);

/* Reads instances.tsv against w; dies naming file and line when it does
 * not match the workflow (stage unknown, ids out of sequence, upstream
 * missing, a run in two instances of a stage or in none, a value missing
 * or present where the stage has no such parameter). */
sr_instances *sr_instances_read(const char *path, const sr_workflow *w);
void sr_instances_free(sr_instances *s);
/* Frees every instance's values (value becomes NULL), for a reader done
 * with them: reuse-merge once its reuse tree is built (values are 120 of
 * the 10^6-run case's 150 MB of instances). */
void sr_instances_drop_values(sr_instances *s);

#endif
