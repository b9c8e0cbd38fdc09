/* fit.h - a cost model fitted from measured timings (sim-runtime --fit):
 * the timings of one design cost the plans of another, whose instances
 * the timings' rows do not name, through the model of model.h.
 *
 * A task's cost is the mean seconds of its rows (one execution of a task
 * node on one tile), and its spread their coefficient of variation (the
 * sample standard deviation over the mean; 0 for one row or a mean of
 * 0): over all its rows (the row for every tile) and over its rows on
 * each tile of the timings (a row per tile, which a replay on the same
 * tiles takes). A task without rows in the timings is fitted from the
 * rows of the reference step's timings: the normalization, when the
 * buckets ran seg-run --no-normalize on tiles normalized once, whose
 * normalization rows (of a file with a "#normalize=no" line) are not
 * measurements and are left out. The read seconds: the #read and
 * #prefault seconds of the timings per #read line (one per bucket and
 * tile), likewise over all tiles and per tile.
 */
#ifndef SR_FIT_H
#define SR_FIT_H

#include <stddef.h>

#include "plan/workflow.h"
#include "sim/model.h"

typedef struct {
	sr_simmodel m;		/* the model: n = rows fitted; its tiles:
				 * the timings', in order of first sight */
	size_t rows;		/* rows fitted, over all tasks */
	size_t ignored;		/* normalization rows left out (#normalize=no) */
	size_t norm_stage;	/* the normalization stage, or SR_NONE */
} sr_simfit;

/* Fits f (for workflow w) from timings (a file, "-" stdin, or a
 * directory of *.tsv) and, for tasks without rows there, the reference
 * step's timings ref[0..nref) (each a file or a directory). Dies naming
 * file, line and column on a bad row or a task not of w, naming timings
 * when it has no rows or a task of a stage not skipped (skip[s] set;
 * skip may be NULL) has none anywhere. Warns when a normalization fitted
 * from timings costs less than a hundredth of the reference step's. */
void sr_simfit_timings(sr_simfit *f, const sr_workflow *w,
    const char *timings, char *const *ref, size_t nref, const char *skip);
void sr_simfit_free(sr_simfit *f);

#endif
