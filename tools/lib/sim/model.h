/* model.h - costs from a cost model instead of timings (sim-runtime
 * --model, or the model --fit fits, fit.h): MODEL.tsv has rows "task
 * seconds spread", one per task of every stage the buckets run, and
 * optional rows "read" (seconds decoding a tile) and "overhead" (seconds
 * starting an array task), spread 0. */
#ifndef SR_MODEL_H
#define SR_MODEL_H

#include <stdio.h>

#include "core/hash.h"
#include "plan/instances.h"
#include "sim/costs.h"

/* The columns of a cost model file (sim-runtime --model). */
#define SR_MODEL_TASK	"task"
#define SR_MODEL_SECONDS	"seconds"
#define SR_MODEL_SPREAD	"spread"

/* A cost model of a workflow's tasks. */
typedef struct {
	const sr_workflow *w;
	double **mean;		/* per stage and task: mean seconds of one
				 * execution on one tile */
	double **spread;	/* their coefficient of variation */
	size_t **n;		/* the rows fitted (a file: the line) that
				 * gave them; 0: none, no cost */
	double read;		/* seconds decoding a tile, or -1: no row */
	double overhead;	/* seconds starting an array task, or -1 */
	size_t nread;		/* #read lines that gave read (a file's: 1) */
} sr_simmodel;

/* An empty model of w's tasks: no task, no read, no overhead. */
void sr_simmodel_init(sr_simmodel *m, const sr_workflow *w);
void sr_simmodel_free(sr_simmodel *m);

/* Reads MODEL.tsv (path, "-" stdin) into m (initialised for w). Dies
 * naming file, line and column on a bad row, a repeated row, or a task of
 * a stage not skipped (skip[s] set; skip may be NULL) without one. */
void sr_simmodel_read(sr_simmodel *m, const char *path, const char *skip);

/* Dies naming path when a task of a stage not skipped has no cost. */
void sr_simmodel_check(const sr_simmodel *m, const char *skip,
    const char *path);

/* Writes the model's header and rows, every task with a cost in workflow
 * order, then read and overhead if it has them, each number as it reads
 * back exactly: what sr_simmodel_read takes. */
void sr_simmodel_write(FILE *fp, const sr_simmodel *m);

/* Costs from model m: every node of a stage not skipped gets, on each of
 * the tiles (names, taken over), a time drawn from a lognormal of its
 * task's mean seconds and coefficient of variation, seeded; every bucket
 * decodes each tile at the read seconds (0 without). */
sr_simcost *sr_simcost_model(const sr_simmodel *m, const sr_instances *in,
    const char *skip, sr_interner *tiles, unsigned long seed);

#endif
