/* trials.h - trials.tsv (trials(5)): one row per parameter set of a
 * design, from the results of its runs (seg-run's results.tsv), the
 * best complete set first; the best set as a space(5); the search drawn.
 *
 * A set is complete when it has a value of the metric on every tile of
 * the results, cancelled when rows of it have the status cancelled (a
 * tuning rule skipped its other tiles), failed otherwise (a row with the
 * status error, a tile without a row or a value). Order: complete, then
 * cancelled, then failed sets; within each the highest mean first (sets
 * without a value last), then the lowest run. */
#ifndef SR_TRIALS_H
#define SR_TRIALS_H

#include <stddef.h>
#include <stdio.h>

#include "sa/design.h"
#include "sa/search.h"
#include "sa/space.h"

/* The columns, in order; the design's parameter columns follow. */
#define SR_TRIALS_RUN		"run"
#define SR_TRIALS_STATUS	"status"
#define SR_TRIALS_TILES		"tiles"
#define SR_TRIALS_MEAN		"mean"
#define SR_TRIALS_MEDIAN	"median"
#define SR_TRIALS_SD		"sd"
#define SR_TRIALS_SECONDS	"seconds"
#define SR_TRIALS_CANCELLED_AT	"cancelled_at"
#define SR_TRIALS_RULE		"rule"
/* A batched tune campaign's batch of each set (not a parameter). */
#define SR_TRIALS_BATCH		"batch"
/* The keys of the metadata line; the counts of the sets of each status
 * follow, keyed by sr_trial_status_name. best.tsv's "#best run=R
 * metric=M mean=X tiles=T" line: SR_TRIALS_META_BEST, then SR_TRIALS_RUN,
 * SR_TRIALS_META_METRIC, SR_TRIALS_MEAN and SR_TRIALS_META_TILES. */
#define SR_TRIALS_META_METRIC	"metric"
#define SR_TRIALS_META_TILES	"tiles"
#define SR_TRIALS_META_SETS	"sets"
#define SR_TRIALS_META_BEST	"best"

enum sr_trial_status { SR_TRIAL_COMPLETE, SR_TRIAL_CANCELLED, SR_TRIAL_FAILED,
    SR_NTRIAL };
/* "complete", "cancelled", "failed". */
extern const char *const sr_trial_status_name[SR_NTRIAL];

/* The metric sets are ranked by unless told: any metric column of the
 * results (dice, jaccard, object_dice, aji, objects, a command's own)
 * may be. */
#define SR_TRIALS_METRIC "dice"

/* One parameter set. */
typedef struct {
	size_t run;
	int status;		/* enum sr_trial_status */
	size_t tiles;		/* tiles with a value */
	double mean, median, sd;	/* over those values; NaN: none (sd:
					 * fewer than two) */
	double seconds;		/* summed over its rows, to the microsecond */
} sr_trial;

typedef struct {
	const char *metric;
	size_t ntiles;		/* the tiles of the results */
	size_t n;		/* sets: the design's runs */
	sr_trial *set;		/* by run */
	size_t *order;		/* best first */
	size_t count[SR_NTRIAL];	/* sets of each status */
} sr_trials;

/* Reads RESULTS (a results.tsv of d's runs) into the sets of d ranked by
 * metric. Dies naming file, line and column on a header that is not a
 * results one, a metric it lacks, a run not in d, a run and tile that
 * repeat, or a malformed row. */
sr_trials *sr_trials_read(const sr_design *d, const char *results,
    const char *metric);
void sr_trials_free(sr_trials *t);

/* The best complete set's run, or SIZE_MAX when no set is complete. */
size_t sr_trials_best(const sr_trials *t);

/* Writes trials.tsv: the provenance comments (argc, argv), a metadata
 * line, the header and one row per set, best first; rule fills the rule
 * column of the cancelled sets (NULL: empty); a batched campaign's
 * design (d->nbatch) adds the batch column after rule. */
void sr_trials_write(FILE *fp, const sr_trials *t, const sr_design *d,
    const char *rule, int argc, char **argv);

/* Writes best.tsv: the space s (read from space_path) whose defaults are
 * the best complete set's values; parameters not in the design keep
 * theirs. Dies when no set is complete, or when a design column is not a
 * parameter of s or its value is off the parameter's domain. */
void sr_trials_write_best(FILE *fp, const sr_trials *t, const sr_design *d,
    sr_space *s, const char *space_path, int argc, char **argv);

/* Draws the search to path (PNG): the mean of every set (a cancelled
 * one's over the tiles it ran, marked apart) and the best complete mean
 * so far against the seconds of work done, the sets taken in run order,
 * then the mean of every set against each varied parameter of d: an
 * enum's values as categories, a grid's few values as its ticks
 * (trials_plot.c). */
void sr_trials_plot(const char *path, const sr_trials *t, const sr_design *d);

/* ---- trials.tsv read back ---------------------------------------------- */

/* What a column of trials.tsv holds. */
enum sr_trials_kind {
	SR_TRIALS_KIND_FIGURE,	/* run to seconds: the set's figures */
	SR_TRIALS_KIND_CANCEL,	/* cancelled_at, rule: its cancellation */
	SR_TRIALS_KIND_BATCH,	/* batch */
	SR_TRIALS_KIND_PARAM	/* a parameter */
};

/* A trials.tsv as read: each set's run, mean and parameter values, the
 * sets in run order; and the file as written, for a reader that shows
 * it (sa-report). */
typedef struct {
	char *path;
	char *metric;		/* its #metric=, or NULL */
	char *tiles, *sets;	/* its #tiles= and #sets=, as written, or NULL */
	char *count[SR_NTRIAL];	/* its #complete=, #cancelled=, #failed= */
	size_t ncol;		/* parameter columns: every column but those
				 * above (run ... rule, batch) */
	char **name;
	size_t n;		/* sets */
	size_t *run;		/* n, increasing */
	double *mean;		/* n: NaN when empty */
	double *x;		/* n * ncol parameter values */
	sr_space *space;	/* its "#space" lines, or NULL */
	const sr_param **cparam;	/* by parameter column: its parameter
					 * in space (x holds a word enum's
					 * codes there), or NULL */
	/* the file as written */
	size_t nhead;
	char **head;		/* every column, in order */
	int *kind;		/* by column: enum sr_trials_kind */
	char ***field;		/* field[i][j]: column j of the file's row i
				 * (the best set first) */
	size_t *row_set;	/* the set (in run order) of the file's row i */
} sr_trials_table;

/* Reads a trials.tsv. Dies naming file, line and column on a missing run,
 * status or mean column, a run that is not a whole number or repeats, a
 * status that is not one of trials(5)'s, a mean or parameter value that is
 * not a finite number (a mean may be empty) or, with "#space" lines, not a
 * word of its word enum. */
sr_trials_table *sr_trials_table_read(const char *path);
void sr_trials_table_free(sr_trials_table *t);

/* The history of a search (sa/search.h) from the trials.tsv path, in the
 * values of s: each set's values and mean (a cancelled set's over its
 * tiles so far; none for a failed one), its round its batch (1 without a
 * batch column), in run order. Dies naming the file on a parameter of s
 * it lacks or a word s has not. Free with sr_search_history_free. */
void sr_trials_search_history(const char *path, const sr_space *s,
    sr_search_history *h);

#endif
