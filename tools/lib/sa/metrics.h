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
	SR_RUN_CANCELLED,	/* skipped: a tuning rule cancelled the run */
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

typedef struct {
	char *metric;		/* the column used */
	size_t nrun;
	double *value;		/* per run, aggregated over tiles; NaN = missing */
	size_t nrows;		/* rows used */
	size_t nfailed;		/* rows skipped: status error or empty value */
} sr_metrics;

/* Parses "mean", "median" or "sum"; -1 if none. */
int sr_aggregate_parse(const char *s);

/* Reads PATH for runs 0..nrun-1: a run column, an optional tile column
 * (several rows per run are aggregated), an optional status column (rows
 * with status error are failed runs), and metric columns; metric names
 * the one to use (NULL: the only metric column, else dice). Dies naming
 * file, line and column on a run not in the design, a repeated run (or
 * run and tile), or a value that is not a finite number. */
sr_metrics *sr_metrics_read(const char *path, size_t nrun, const char *metric,
    enum sr_aggregate agg);
void sr_metrics_free(sr_metrics *m);

#endif
