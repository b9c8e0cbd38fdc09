/* model.h - costs from a cost model instead of timings (sim-runtime
 * --model, or the model --fit fits, fit.h). MODEL.tsv has the columns
 * "task seconds spread" and optionally "tile": a row per task of every
 * stage the buckets run, for every tile ("*", or no tile column) and
 * optionally for one tile, which takes it there; optional rows "read"
 * (seconds decoding a tile, for every tile or one) and "overhead"
 * (seconds starting an array task, every tile), spread 0. */
#ifndef SR_MODEL_H
#define SR_MODEL_H

#include <stdio.h>

#include "core/hash.h"
#include "plan/instances.h"
#include "sim/costs.h"

/* The columns of a cost model file (sim-runtime --model). */
#define SR_MODEL_TASK	"task"
#define SR_MODEL_TILE	"tile"
#define SR_MODEL_SECONDS	"seconds"
#define SR_MODEL_SPREAD	"spread"
/* The tile of a row for every tile. */
#define SR_MODEL_ALL	"*"

/* A row of a model: a task's cost on a tile or on every tile. */
typedef struct {
	size_t task;		/* flat task number (sr_simmodel_task), or
				 * the model's read pseudo-task */
	size_t tile;		/* of the model's tiles, or SR_NONE: every */
	double mean;		/* seconds of one execution on one tile */
	double spread;		/* their coefficient of variation */
	size_t n;		/* the rows fitted, or the file's line */
	int from_ref;		/* fitted from the reference step's timings */
} sr_modelrow;

typedef struct {
	const sr_workflow *w;
	const char *path;	/* its file, or the timings it was fitted to */
	size_t *first;		/* per stage: the flat number of its first
				 * task; first[nstage]: the tasks, which is
				 * also the read pseudo-task's number */
	sr_interner tiles;	/* the tiles with rows of their own */
	sr_modelrow *row;
	size_t nrow, caprow;
	sr_imap at;		/* (task, tile + 1) -> its row */
	double overhead;	/* seconds starting an array task, or -1 */
} sr_simmodel;

/* An empty model of w's tasks (path: for messages, not copied). */
void sr_simmodel_init(sr_simmodel *m, const sr_workflow *w, const char *path);
void sr_simmodel_free(sr_simmodel *m);

/* The flat number of task k of stage s; the read pseudo-task's. */
size_t sr_simmodel_task(const sr_simmodel *m, size_t s, size_t k);
size_t sr_simmodel_read_task(const sr_simmodel *m);

/* Adds a row; returns the line or count (n) of the row of the same task
 * and tile already there, and adds nothing, or 0. */
size_t sr_simmodel_add(sr_simmodel *m, const sr_modelrow *r);

/* The row of task on tile (of m's tiles, or SR_NONE): its own, else the
 * one for every tile, else NULL. */
const sr_modelrow *sr_simmodel_get(const sr_simmodel *m, size_t task,
    size_t tile);

/* Reads MODEL.tsv (m->path, "-" stdin) into m (initialised for its
 * workflow). Dies naming file, line and column on a bad row, a repeated
 * row, or a task of a stage not skipped (skip[s] set; skip may be NULL)
 * without any row. */
void sr_simmodel_read(sr_simmodel *m, const char *skip);

/* Writes the model's header and rows in workflow order, each task's row
 * for every tile first, then its tiles', read last, overhead if it has
 * one; each number as it reads back exactly: what sr_simmodel_read
 * takes. */
void sr_simmodel_write(FILE *fp, const sr_simmodel *m);

/* Costs from model m: every node of a stage not skipped gets, on each of
 * the tiles (names, taken over), a time drawn from a lognormal of the
 * mean seconds and coefficient of variation of its task's row for the
 * tile, seeded; every bucket decodes each tile at the read row's seconds
 * (0 without). Dies naming m->path when a task of a stage not skipped
 * has no row for a tile. */
sr_simcost *sr_simcost_model(const sr_simmodel *m, const sr_instances *in,
    const char *skip, sr_interner *tiles, unsigned long seed);

#endif
