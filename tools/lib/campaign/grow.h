/* grow.h - a campaign's plan grown with its design (campaign(5): samples
 * raised): the runs the larger design adds after the planned ones, as a
 * design of their own, and their plan appended to the plan that ran, its
 * instances and buckets numbered after the planned ones, so that every
 * bucket that ran keeps its number, its runs and its results. Stage-level
 * reuse between old and new runs is forgone (a new run whose instance
 * equals an old one's computes it again): the planned buckets must not
 * change. Each function dies naming file and line on bad input, before
 * its output is committed. */
#ifndef SR_CAMPAIGN_GROW_H
#define SR_CAMPAIGN_GROW_H

#include <stddef.h>
#include <stdio.h>

/* Writes to fp the runs of DESIGN (grown by sa-sample --extend from its
 * grown_from) after those of the design it was grown from, renumbered
 * from 0, as a design of their own: its comments, n= the base samples or
 * points added, no grown_from=. Dies on a design not grown. */
void sr_grow_design_part(const char *design, FILE *fp);

/* Writes OUT_INSTANCES and OUT_BUCKETS: the planned instances and
 * buckets (old_*) and then the part's (part_*, of runs numbered from 0),
 * the part's runs shifted by run_offset, its instances by the planned
 * instances of each stage, its buckets by the planned buckets; the
 * metadata and #stats lines summed. Both read back against workflow
 * before they are committed. */
void sr_grow_plan(const char *workflow, const char *old_instances,
    const char *old_buckets, const char *part_instances,
    const char *part_buckets, size_t run_offset, const char *out_instances,
    const char *out_buckets);

#endif
