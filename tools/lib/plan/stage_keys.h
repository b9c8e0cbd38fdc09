/* stage_keys.h - reuse-tree keys of a stage's instances. */
#ifndef SR_STAGE_KEYS_H
#define SR_STAGE_KEYS_H

#include <stdint.h>

#include "plan/instances.h"

/* key[i*m + t] for the stage's n instances and m tasks: equal keys at
 * task t mean equal values of t's parameters (and, at t = 0, the same
 * upstream instance). Feeds sr_rtree_build. */
uint64_t *sr_stage_keys(const sr_instances *s, size_t stage);

#endif
