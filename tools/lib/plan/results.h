/* results.h - seg-run's results.tsv (metrics(5)): the one writer, its
 * column names and its header. One row per run and tile:
 *   run tile status [dice jaccard object_dice aji] objects seconds [M...]
 * the metric columns present when the runs were compared with a
 * reference, and the metrics a workflow's commands write (workflow(5)
 * column metrics), in the workflow's order, after seconds. */
#ifndef SR_RESULTS_H
#define SR_RESULTS_H

#include <stddef.h>

#include "sa/metrics.h"
#include <stdio.h>

struct sr_tsv;

/* The columns, in order. */
#define SR_RESULTS_RUN		SR_METRICS_RUN
#define SR_RESULTS_TILE		SR_METRICS_TILE
#define SR_RESULTS_STATUS	SR_METRICS_STATUS
#define SR_RESULTS_DICE		"dice"
#define SR_RESULTS_JACCARD	"jaccard"
#define SR_RESULTS_OBJECT_DICE	"object_dice"
#define SR_RESULTS_AJI		"aji"
#define SR_RESULTS_OBJECTS	"objects"
#define SR_RESULTS_SECONDS	"seconds"

/* The run statuses (enum sr_run_status) are the metrics format's, and
 * its rows are read through its one reader, sr_metrics_rows
 * (sa/metrics.h), whatever its metric columns. */

/* One row. */
typedef struct {
	size_t run;
	const char *tile;
	int status;			/* enum sr_run_status */
	double dice, jaccard, object_dice, aji;	/* with a reference */
	size_t objects;
	double seconds;
	const double *metric;		/* the commands' metrics (nmetric of
					 * sr_results_write_header) */
} sr_result_row;

/* Writes the header: with the metric columns when ref, then the
 * commands' metrics metric[0..nmetric). */
void sr_results_write_header(FILE *fp, int ref, char *const *metric,
    size_t nmetric);
/* Writes a row of nmetric commands' metrics; a failed (error) or
 * cancelled row has no values (empty fields). */
void sr_results_write_row(FILE *fp, const sr_result_row *r, int ref,
    size_t nmetric);

/* Whether t's header is a results header, with metrics (*ref = 1) or
 * without (*ref = 0), and any commands' metrics after seconds. */
int sr_results_header(const struct sr_tsv *t, int *ref);

#endif
