/* segplan.h - what one seg-run executes: the nuclei workflow's segment
 * stage or a workflow's stage of commands (workflow(5)), one bucket of a
 * plan (buckets(5)) of its instances, their parameter values and reuse
 * keys. Errors die naming file, line and column. */
#ifndef SR_SEGPLAN_H
#define SR_SEGPLAN_H

#include <stddef.h>
#include <stdint.h>

#include "core/mem.h"
#include "image/nuclei.h"
#include "image/tiles.h"
#include "plan/instances.h"

typedef struct {
	sr_workflow *w;
	sr_instances *in;
	const char *instances;	/* the instances' path */
	const char *buckets;	/* the plan's path */
	size_t st;		/* the segment stage (Seg0..Seg6), or the
				 * stage of commands */
	int commands;		/* the tasks are commands (w->commands) */
	size_t m;		/* tasks on a path: SR_NUC_NTASK, or the
				 * stage's */
	size_t np;		/* values per instance in param:
				 * SR_NUC_NPARAM, or the workflow's */
	int has_norm, has_compare;	/* a stage before st, after st */
	int col[SR_NUC_NPARAM];		/* per nuclei parameter: its workflow column */
	long bucket;
	size_t *inst, n;	/* the bucket's instances (ids within stage st) */
	long tasks;		/* the plan's tasks column */
	size_t line;		/* the bucket's line in the plan */
	double *param;		/* n x np (sr_segplan_check) */
	uint64_t *key;		/* n x m reuse keys (likewise) */
	size_t ntasks;		/* task nodes the instances share (likewise) */
	size_t runs;		/* runs the instances serve */
} sr_segplan;

/* Reads the workflow (dies unless it is the nuclei workflow: a
 * normalization stage, Seg0..Seg6 with nscale's parameters, optionally a
 * comparison; or a workflow of commands), the instances, and row `bucket` of the plan (dies when
 * the plan is of another stage or has no such row). */
sr_segplan *sr_segplan_read(const char *workflow, const char *instances,
    const char *buckets, long bucket);
/* Takes the bucket's parameter values (dies on a value off its domain)
 * and reuse keys, and dies unless the plan's task count is theirs. */
void sr_segplan_check(sr_segplan *p);
void sr_segplan_free(sr_segplan *p);

/* The target of the normalization: nscale's, or the colour statistics
 * of image `target` (not NULL). */
void sr_segplan_target(const char *target, double mean[3], double sd[3]);

/* The memory a bucket needs in MiB, for active paths on the largest of
 * the tiles (P pixels, sizes read from the image headers):
 * 64 + ceil(P (6 + 16 active) / 2^20). Measured peak RSS on 4096^2
 * (2026-11-26, after issue 17): 225 MiB for one run, 296 for one path
 * through a bucket of 8, 450-500 for two paths, 801 for four, 849 for
 * four tiles in flight at once; 66 MiB on a 1000^2 tile. That is about
 * 14 bytes a pixel per path or tile in flight and 45 MiB of libraries
 * and colour table; the formula adds 2 bytes a pixel per path, 6 besides
 * and 64 MiB, for a reference mask (4 bytes a pixel) and the variation
 * between runs. Dies naming a tile whose size cannot be read. */
size_t sr_segplan_memory_mib(const sr_tiles *tiles, size_t active);
/* The same for a largest tile of `pixels` pixels. */
size_t sr_memory_mib(size_t pixels, size_t active);
/* What seg-run itself needs for a bucket of a workflow of commands (the
 * commands' own memory is theirs to say): 128 + ceil(P (11 + 12 active)
 * / 2^20) MiB: the colour table and the tile while it is normalized and
 * written, and per path a reference mask and a run's output read as
 * labels and numbered. */
size_t sr_commands_memory_mib(size_t pixels, size_t active);
/* seg-run --estimate-memory: the MiB of a bucket on the tiles with
 * active paths; for a workflow of commands (workflow not NULL), seg-run's
 * own plus active x command_mem bytes, with a warning when command_mem is
 * not given (cmem_set 0). */
size_t sr_segplan_estimate(const char *workflow, const sr_tiles *tiles,
    size_t active, size_t command_mem, int cmem_set);
/* Dies (exit 1) naming the largest of the tiles, its size, the MiB a
 * bucket needs on it (sr_segplan_memory_mib, or sr_commands_memory_mib
 * for a workflow of commands) and the readers' budget
 * with its source (sr_image_budget), when that is above the budget:
 * read from the headers, before
 * any tile is decoded. A job given sr_segplan_memory_mib MiB (a cgroup
 * or SLURM_MEM_PER_NODE of that) always passes. */
void sr_segplan_check_memory(const sr_tiles *tiles, size_t active,
    int commands);

#endif
