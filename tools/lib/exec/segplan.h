/* segplan.h - what one seg-run executes: the nuclei workflow's segment
 * stage, one bucket of a plan (buckets(5)) of its instances, their
 * parameter values and reuse keys. Errors die naming file, line and
 * column. */
#ifndef SR_SEGPLAN_H
#define SR_SEGPLAN_H

#include <stddef.h>
#include <stdint.h>

#include "image/nuclei.h"
#include "image/tiles.h"
#include "plan/instances.h"

typedef struct {
	sr_workflow *w;
	sr_instances *in;
	const char *instances;	/* the instances' path */
	const char *buckets;	/* the plan's path */
	size_t st;		/* the segment stage (Seg0..Seg6) */
	int col[SR_NUC_NPARAM];		/* per nuclei parameter: its workflow column */
	long bucket;
	size_t *inst, n;	/* the bucket's instances (ids within stage st) */
	long tasks;		/* the plan's tasks column */
	size_t line;		/* the bucket's line in the plan */
	double *param;		/* n x SR_NUC_NPARAM (sr_segplan_check) */
	uint64_t *key;		/* n x SR_NUC_NTASK reuse keys (likewise) */
	size_t ntasks;		/* task nodes the instances share (likewise) */
	size_t runs;		/* runs the instances serve */
} sr_segplan;

/* Reads the workflow (dies unless it is the nuclei workflow: a
 * normalization stage, Seg0..Seg6 with nscale's parameters, optionally a
 * comparison), the instances, and row `bucket` of the plan (dies when
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
 * ceil(200 + P (16 + 24 active) / 2^20), seg-run's measured 19 bytes per
 * pixel per active path and 10 besides, plus 64 MiB of colour table,
 * with a margin. Dies naming a tile whose size cannot be read. */
size_t sr_segplan_memory_mib(const sr_tiles *tiles, size_t active);
/* The same for a largest tile of `pixels` pixels. */
size_t sr_memory_mib(size_t pixels, size_t active);

#endif
