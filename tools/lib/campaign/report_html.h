/* report_html.h - the pieces sa-report's page is made of (report.c and
 * the report_*.c of its sections): numbers, durations and dates as the
 * page shows them, table cells, and the files of the output directory. */
#ifndef SR_CAMPAIGN_REPORT_HTML_H
#define SR_CAMPAIGN_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "plan/trials.h"

#define SR_REPORT_NUMLEN 64	/* room for any number, duration or date */

/* v to sig significant digits ("0.1423", "2240", "2.4e-06"), "NaN"
 * when not finite. Returns buf. */
const char *sr_report_num(char *buf, double v, int sig);
/* Seconds as "64.61 s", and from a minute on "1:04:05 (3845 s)". */
const char *sr_report_duration(char *buf, double seconds);
/* A date in local time, "2026-11-26 03:29:12 UTC". */
const char *sr_report_date(char *buf, double epoch);

/* outdir/name, newly allocated. */
char *sr_report_path(const char *outdir, const char *name);
/* Whether outdir/name is a file that is not empty. */
int sr_report_has(const char *outdir, const char *name);
/* The modification time of outdir/name, or -1. */
double sr_report_mtime(const char *outdir, const char *name);

/* <TAG class="CLS">TEXT</TAG>, TEXT escaped, cls NULL for none. */
void sr_report_cell(FILE *fp, const char *tag, const char *cls,
    const char *text);
/* A row of a table of keys and values: <tr><th>KEY</th><td>VALUE</td>. */
void sr_report_kv(FILE *fp, const char *key, const char *value);
/* A cell of a bar of the fraction f (0 to 1) of SR_REPORT_BAR pixels,
 * before the cell of its number. */
#define SR_REPORT_BAR 120
void sr_report_bar(FILE *fp, double f);

/* The sections' tables (report_tables.c): the indices of indices.tsv
 * and, when there, indices-s2.tsv (the largest); the top sets of
 * trials.tsv (the design's varied parameters) and the best set of
 * best.tsv. */
void sr_report_indices(FILE *fp, const char *outdir);
void sr_report_trials(FILE *fp, const char *outdir, size_t top);
/* A tune campaign's sets against the defaults (report_better.c): the
 * defaults' training score (ref/results.tsv) beside the best set's, and
 * with validate each set's validation scores, gains and p-values
 * (validate/evaluation.tsv). */
void sr_report_better(FILE *fp, const char *outdir, const sr_trials_table *tt);

/* A tune campaign searched in batches (report_batches.c): the batches
 * merged so far (design.tsv's #batches=K line; 0 without batches), the
 * directory of batch k (newly allocated), and the section of the
 * batches: each one's sets and runs, its space, what sa-prune did, its
 * best set. */
size_t sr_report_nbatches(const char *outdir);
char *sr_report_batch_dir(const char *outdir, size_t k);
void sr_report_batches(FILE *fp, const char *outdir, size_t nbatches);

#endif
