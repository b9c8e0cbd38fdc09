/* report.h - sim-runtime's report (sim-runtime(1)): metadata lines (the
 * costs, the replay's settings, the cancellation rule, each plan), then
 * a row per plan and slot count:
 *   plan slots buckets work makespan utilisation efficiency node_hours
 *   [cancelled best_survived]
 * and the plot of makespan against slots. */
#ifndef SR_REPORT_H
#define SR_REPORT_H

#include <stdio.h>

#include "sim/job.h"

/* Writes the metadata lines, the header and the rows (after the caller's
 * provenance lines). */
void sr_simreport_write(FILE *fp, const sr_simjob *j, const sr_siminputs *r,
    const sr_simrow *rows);

/* Draws makespan against slots to path (PNG, gnuplot), a line per plan,
 * log-log. */
void sr_simreport_plot(const char *path, const sr_simjob *j,
    const sr_siminputs *r, const sr_simrow *rows);

#endif
