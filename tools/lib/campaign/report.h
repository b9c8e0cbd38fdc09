/* report.h - a campaign's report (sa-report(1)): one self-contained HTML
 * page of what ran, the reuse, the indices or the best sets, every plot
 * (inlined as data: URIs), the task timings and the makespan, measured
 * and predicted, from the files of the campaign's output directory
 * (campaign(5)). */
#ifndef SR_CAMPAIGN_REPORT_H
#define SR_CAMPAIGN_REPORT_H

#include <stddef.h>
#include <stdio.h>

typedef struct sr_report_opts {
	const char *outdir;	/* the campaign's output directory */
	const char *campaign;	/* the campaign file, or NULL */
	const char *makespan;	/* sim-runtime's report, or NULL */
	const char *workflow;	/* the campaign's workflow, or NULL */
	size_t top;		/* the sets of a tune campaign shown */
	double now;		/* the report's date, seconds since the epoch */
	int argc;		/* the command line, for the page's footer */
	char **argv;
} sr_report_opts;

/* The plots a campaign's merge may draw, in the order the page shows
 * them, and what each shows. */
extern const char *const sr_report_plots[];
extern const char *const sr_report_plot_captions[];
extern const size_t sr_report_nplots;

/* Dies (exit 1) unless outdir is a campaign's output directory that has
 * been merged: a directory with buckets.tsv, design.tsv, tiles.list and
 * trials.tsv. */
void sr_report_check(const char *outdir);

/* Writes the page to fp. Dies naming file, line and column on a file of
 * the directory that is malformed, and on a plot that is not a whole PNG
 * image (decoded with libpng first). */
void sr_report_write(FILE *fp, const sr_report_opts *o);

/* The most buckets seen running at once: of their last successful
 * attempts in outdir/logs/finished (0 when it records none). */
size_t sr_report_concurrency(const char *outdir);

#endif
