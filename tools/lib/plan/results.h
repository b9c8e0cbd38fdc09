/* results.h - seg-run's results.tsv (metrics(5)): the one writer, and the
 * names a reader of it needs. One row per run and tile:
 *   run tile status [dice jaccard object_dice aji] objects seconds
 * the metric columns present when the runs were compared with a
 * reference. */
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

/* The run statuses (enum sr_run_status) are the metrics format's,
 * sa/metrics.h. */
/* Dies naming file, line and column unless the current row's column col
 * is a status; returns it. */
int sr_results_status(const struct sr_tsv *t, int col);

/* The value of metric column col in the current row of status status
 * (-1: no status column): NaN for a failed or cancelled run (status error
 * or cancelled) and for an empty field, else the number (dies naming the
 * file, line and column when it is not one). */
double sr_results_value(const struct sr_tsv *t, int status, int col);

/* One row. */
typedef struct {
	size_t run;
	const char *tile;
	int status;			/* enum sr_run_status */
	double dice, jaccard, object_dice, aji;	/* with a reference */
	size_t objects;
	double seconds;
} sr_result_row;

/* Writes the header: with the metric columns when ref. */
void sr_results_write_header(FILE *fp, int ref);
void sr_results_write_row(FILE *fp, const sr_result_row *r, int ref);

/* Whether t's header is a results header, with metrics (*ref = 1) or
 * without (*ref = 0). */
int sr_results_header(const struct sr_tsv *t, int *ref);

#endif
