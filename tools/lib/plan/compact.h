/* compact.h - stage-level reuse (wf-compact). */
#ifndef SR_COMPACT_H
#define SR_COMPACT_H

#include <stddef.h>

#include "plan/instances.h"

/* The unique stage instances of nruns runs through w: values holds, for
 * each run, w->nparam parameter values (row-major). Instances of a stage
 * are numbered in order of first appearance; each lists its runs in
 * increasing order. O(runs x stages) with hash tables. */
sr_instances *sr_compact(const sr_workflow *w, const double *values,
    size_t nruns);

#endif
