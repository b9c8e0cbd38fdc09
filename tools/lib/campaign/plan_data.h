/* plan_data.h - a campaign's plan and search read for the driver
 * (sa-campaign-data(1)): what sa-campaign's plan_summary, plan_estimate,
 * workflow_model and tune_status read with sed and awk. Every function
 * dies (exit 1) naming file and line on bad input; the caller writes fp
 * out only when it returns. */
#ifndef SR_CAMPAIGN_PLAN_DATA_H
#define SR_CAMPAIGN_PLAN_DATA_H

#include <stddef.h>
#include <stdio.h>

/* One line: the words of OUT/buckets.tsv's #stats lines (key=value, see
 * buckets(5)), then stage_instances=N, N the instances of
 * OUT/instances.tsv's "#runs=R stages=S instances=N" line when it has
 * one. */
void sr_data_stats(const char *out, FILE *fp);

/* The columns of the cost model written here, as sim-runtime --model
 * reads it (sim/model.h; this layer may not include sim's headers). */
#define SR_COSTS_TASK		"task"
#define SR_COSTS_SECONDS	"seconds"
#define SR_COSTS_SPREAD		"spread"

/* A cost model as sim-runtime --model reads it, "task seconds spread",
 * from the workflow's tasks: each task's cost, read as the seconds on a
 * 4096x4096 tile, scaled by the mean pixels of OUT/tiles.list's tiles
 * (their headers, or a table's columns). */
void sr_data_model(const char *out, const char *workflow, FILE *fp);

/* Of each row of sim-runtime's report read from path ("-": stdin), the
 * line "estimate: the buckets take H:MM:SS (S s) on N slot(s) (how),
 * C core-hours; source". */
void sr_data_estimate(const char *how, const char *source, const char *path,
    FILE *fp);

/* The space at space_path with a group column (space(5)): each
 * parameter's group the stage (by_task 0) or the task (by_task 1) of the
 * workflow that first reads it; one no task reads stays alone. Dies on a
 * space that has a group column of its own. */
void sr_data_groups(const char *space_path, const char *workflow,
    int by_task, FILE *fp);

/* A ledger of a tune campaign's search, its runs shifted by off. */
typedef struct {
	long off;
	const char *path;
} sr_data_ledgerarg;

/* The search of the ledgers led[0..n) (sa/ledger.h), for nsets sets on
 * the tiles of OUT/tiles.list: "sets=N complete=N running=N cancelled=N
 * waiting=N best=R|none[ METRIC=V]": a set complete with a result on
 * every tile (or cancelled after its last), running with some and not
 * cancelled, cancelled before its last, waiting with none; a (run,
 * tile) result counted once; best the complete set of the highest mean
 * with a value on every tile, the lowest run of equal means, V to 4
 * decimals. */
void sr_data_status(const char *out, const char *metric, long nsets,
    const sr_data_ledgerarg *led, size_t n, FILE *fp);

#endif
