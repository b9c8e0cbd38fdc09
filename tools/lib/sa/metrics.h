/* metrics.h - metrics.tsv: one output value per run (see metrics(5)). */
#ifndef SR_METRICS_H
#define SR_METRICS_H

#include <stddef.h>

/* The columns every metrics file may have (the metric columns follow),
 * and the metric used when a file has several and none is named. The
 * design's run column is the same "run". */
#define SR_METRICS_RUN	"run"
#define SR_METRICS_TILE	"tile"
#define SR_METRICS_STATUS	"status"
#define SR_METRICS_DEFAULT	"dice"

enum sr_aggregate { SR_AGG_MEAN, SR_AGG_MEDIAN, SR_AGG_SUM, SR_NAGG };
/* "mean", "median", "sum", by the enum. */
extern const char *const sr_aggregate_names[SR_NAGG];

/* A run's status on a tile (the status column of results.tsv and of any
 * metrics file). */
enum sr_run_status {
	SR_RUN_OK,		/* a mask (possibly empty) */
	SR_RUN_BACKGROUND,	/* the tile is background */
	SR_RUN_BACKGROUND_LIKELY,	/* most likely background */
	SR_RUN_NO_CANDIDATES,	/* no candidate nuclei */
	SR_RUN_ERROR,		/* the run failed: no values */
	SR_RUN_CANCELLED,	/* a tuning campaign cancelled the run before
				 * this tile: no values, not a failure */
	SR_RUN_NSTATUS
};

/* The status names, by enum sr_run_status. */
extern const char *const sr_run_status_name[SR_RUN_NSTATUS];
/* The status named s, or -1. */
int sr_run_status_parse(const char *s);
struct sr_tsv;
/* Dies naming file, line and column: the current row's column col is no
 * status (its value is quoted). */
_Noreturn void sr_run_status_die(const struct sr_tsv *t, int col);

/* ---- a metrics file row by row ------------------------------------------ */

/* The columns a reader needs besides run (sr_metrics_rows_need). */
enum { SR_METRICS_NEED_TILE = 1, SR_METRICS_NEED_STATUS = 2 };

/* A metrics file (results.tsv is one) read row by row: the columns found
 * by name, in any order; run, the optional tile and status, and every
 * other column a metric column, whatever their names and number. The one
 * reader of the format: sa-indices, sim-runtime, sa-trials and seg-merge
 * read through it. */
typedef struct sr_metrics_rows {
	struct sr_tsv *tsv;	/* the file: path, comments, header, line */
	int col_run, col_tile, col_status;	/* -1: no such column */
	size_t nmetric;
	int *metric;		/* the metric columns, in header order */
	/* the current row */
	long run;		/* a whole number; its range is the reader's */
	const char *tile;	/* NULL without a tile column */
	int status;		/* enum sr_run_status; SR_RUN_OK without a
				 * status column */
} sr_metrics_rows;

/* Opens PATH ("-" is stdin) and reads its comments and header; dies as
 * sr_tsv_open does. Needs no column yet, so that a reader may check the
 * header first; sr_metrics_rows_need does. */
sr_metrics_rows *sr_metrics_rows_open(const char *path);
/* Dies "FILE: no column 'NAME' in the header" unless the header has a
 * run column and those of need (SR_METRICS_NEED_*), in that order. */
void sr_metrics_rows_need(const sr_metrics_rows *r, unsigned need);
/* The metric column called name, or -1 (run, tile and status are not
 * metric columns). */
int sr_metrics_rows_metric(const sr_metrics_rows *r, const char *name);
/* The metric column called name; dies naming the file when the header
 * has no such column, or names run, tile or status. */
int sr_metrics_rows_need_metric(const sr_metrics_rows *r, const char *name);
/* Reads the next row: 1, or 0 at the end. Dies naming file, line and
 * column on a wrong number of fields, a run that is not a whole number, a
 * status that is not one of sr_run_status_name (and without a run
 * column, as sr_metrics_rows_need). */
int sr_metrics_rows_next(sr_metrics_rows *r);
/* The value of metric column col in the current row: NaN when the row
 * failed or was cancelled (status error or cancelled) or the field is
 * empty, else the number; dies naming file, line and column when it is
 * not a finite number. */
double sr_metrics_rows_value(const sr_metrics_rows *r, int col);
/* The field of column col as a finite number, whatever the status (a
 * cancelled row's seconds); dies naming file, line and column. */
double sr_metrics_rows_number(const sr_metrics_rows *r, int col);
void sr_metrics_rows_close(sr_metrics_rows *r);

/* ---- a metrics file aggregated per run ----------------------------------- */

typedef struct {
	char *metric;		/* the column used */
	size_t nrun;
	double *value;		/* per run, aggregated over tiles; NaN = missing */
	size_t nrows;		/* rows used */
	size_t nfailed;		/* rows skipped: status error or empty value */
	size_t npartial;	/* runs with results on some tiles only (a
				 * failed tile, or fewer tiles than others):
				 * missing all the same */
	size_t ncancelled;	/* rows skipped: status cancelled */
} sr_metrics;

/* Parses "mean", "median" or "sum"; -1 if none. */
int sr_aggregate_parse(const char *s);

/* Reads PATH for runs 0..nrun-1: a run column, an optional tile column
 * (several rows per run are aggregated), an optional status column (rows
 * with status error are failed), and metric columns. A run with a failed
 * row, or fewer tiles than others, is missing (NaN): an aggregate over
 * the tiles that did not fail would be biased by which did (warned of,
 * counted in npartial). metric names
 * the one to use (NULL: the only metric column, else dice). Dies naming
 * file, line and column on a run not in the design, a repeated run (or
 * run and tile), or a value that is not a finite number. */
sr_metrics *sr_metrics_read(const char *path, size_t nrun, const char *metric,
    enum sr_aggregate agg);
void sr_metrics_free(sr_metrics *m);

#endif
