/* compact.h - stage-level reuse (wf-compact). */
#ifndef SR_COMPACT_H
#define SR_COMPACT_H

#include <stddef.h>

#include "plan/instances.h"
#include "sa/design.h"

/* The unique stage instances of nruns runs through w: values holds, for
 * each run, w->nparam parameter values (row-major). Instances of a stage
 * are numbered in order of first appearance; each lists its runs in
 * increasing order. O(runs x stages) with hash tables. */
sr_instances *sr_compact(const sr_workflow *w, const double *values,
    size_t nruns);

/* The join of a workflow and a design: d's values of w's parameters, run
 * by run (d->nrun rows of w->nparam, row-major: sr_compact's values),
 * matched by name; a column of d that w does not name is left out. Dies
 * naming the workflow line of the first task whose parameter d lacks
 * (w's parameters are its tasks'). Free the result with free. */
double *sr_compact_values(const sr_workflow *w, const sr_design *d);

#endif
