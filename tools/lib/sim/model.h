/* model.h - costs from a cost model instead of timings (sim-runtime
 * --model): MODEL.tsv has rows "task seconds spread", one per task of
 * every stage the buckets run, and optional rows "read" (seconds decoding
 * a tile) and "overhead" (seconds starting an array task), spread 0. */
#ifndef SR_MODEL_H
#define SR_MODEL_H

#include "core/hash.h"
#include "plan/instances.h"
#include "sim/costs.h"

/* The columns of a cost model file (sim-runtime --model). */
#define SR_MODEL_TASK	"task"
#define SR_MODEL_SECONDS	"seconds"
#define SR_MODEL_SPREAD	"spread"

/* Every node of a stage not skipped gets, on each of the tiles (names,
 * taken over), a time drawn from a lognormal of the task's mean seconds
 * and coefficient of variation (its spread), seeded. *overhead gets the
 * overhead row's seconds, or -1 without one. Dies naming file, line and
 * column on a bad row, a repeated row or a task without one. */
sr_simcost *sr_simcost_model(const char *path, const sr_instances *in,
    const char *skip, sr_interner *tiles, unsigned long seed,
    double *overhead);

#endif
