/* report.h - sim-runtime's report (sim-runtime(1)): metadata lines (the
 * costs, a fitted model's tasks, the replay's settings, the cancellation
 * rule, each plan), then a row per plan and slot count:
 *   plan slots buckets work makespan utilisation efficiency node_hours
 *   [cancelled best_survived] work_hms makespan_hms
 * seconds and ratios to 4 significant digits, durations also as h:mm:ss;
 * the plot of makespan against slots; the fitted model (--write-model). */
#ifndef SR_REPORT_H
#define SR_REPORT_H

#include <stdio.h>

#include "sim/job.h"

/* Writes the metadata lines, the header and the rows (after the caller's
 * provenance lines). */
void sr_simreport_write(FILE *fp, const sr_simjob *j, const sr_siminputs *r,
    const sr_simrow *rows);

/* Writes the fitted model r->fit, as --model reads it, after the
 * provenance (argc, argv) and the report's lines about the fit. */
void sr_simreport_model(FILE *fp, const sr_simjob *j, const sr_siminputs *r,
    int argc, char **argv);

/* Draws makespan against slots to path (PNG, gnuplot), a line per plan,
 * log-log. */
void sr_simreport_plot(const char *path, const sr_simjob *j,
    const sr_siminputs *r, const sr_simrow *rows);

#endif
