/* instances.h - stage instances (instances.tsv, see instances(5)): the
 * only reader and writer of the format, its column names here. */
#ifndef SR_INSTANCES_H
#define SR_INSTANCES_H

#include <stddef.h>
#include <stdio.h>

#include "plan/workflow.h"
#include "sa/space.h"

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
	/* the space of the design the instances came from ("#space" lines,
	 * see instances(5)), or NULL; param: by workflow parameter, its
	 * parameter in space, or NULL */
	const sr_space *space;
	sr_space *own_space;	/* space, when read from the file */
	const sr_param **param;
} sr_instances;

/* Gives s the space of its design (NULL: none): values are then written
 * as their parameters' texts (a word enum's words) and the space with
 * them. space must outlive s. */
void sr_instances_set_space(sr_instances *s, const sr_space *space);
/* Writes instances.tsv's metadata line, "#runs=N stages=S instances=I"
 * (the runs, the workflow's stages, s's instances; the reader checks
 * runs=), then its "#space" lines, then sr_instances_write_head, then
 * sr_instance_write per row. */
void sr_instances_write_meta(FILE *fp, const sr_instances *s);
/* Writes instances.tsv's header line. */
void sr_instances_write_head(FILE *fp, const sr_workflow *w);
void sr_instance_write(FILE *fp, const sr_instances *s, const sr_instance *in);
/* The text of v, a value of the workflow's parameter i, as the file holds
 * it (sr_param_text): in buf, or a word enum's word. */
const char *sr_instances_value_text(const sr_instances *s, size_t i, double v,
    char buf[SR_NUMLEN]);

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
