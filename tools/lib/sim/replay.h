/* replay.h - a plan replayed tile by tile on slots with early
 * cancellation: a bucket computes, on each tile, what its runs not yet
 * cancelled need, and stops when none is left (sim-runtime --cancel). */
#ifndef SR_REPLAY_H
#define SR_REPLAY_H

#include <stddef.h>

#include "sa/cancel.h"
#include "sim/costs.h"
#include "sim/plans.h"
#include "sim/schedule.h"

/* Replays plan p tile by tile in array tasks of `lines` buckets (order
 * over array tasks as in sr_sim_steps), cancelling runs by rule from
 * their values v (runs x tiles, NaN: none). cancelled (nruns bytes) gets
 * 1 for each run cancelled. */
void sr_sim_cancel(const sr_simconf *conf, const sr_simcost *c,
    const sr_simplan *p, size_t lines, const size_t *order, const double *v,
    const sr_cancelrule *rule, sr_simstats *st, unsigned char *cancelled);

#endif
