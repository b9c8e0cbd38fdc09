/* experiment.h - sa-prune's experiments read onto a space: a campaign
 * output directory (its trials.tsv, or its design.tsv and results.tsv),
 * a design and a metrics(5) file given directly, and the campaign outputs
 * of a knowledge directory. Each job's value is the mean of its metric
 * over the tiles: trials.tsv's mean column, or the metrics aggregated by
 * their mean. */
#ifndef SR_EXPERIMENT_H
#define SR_EXPERIMENT_H

#include <stddef.h>

#include "sa/prune.h"
#include "sa/space.h"

/* The files of a campaign output that make it an experiment. */
#define SR_EXPERIMENT_TRIALS	"trials.tsv"
#define SR_EXPERIMENT_DESIGN	"design.tsv"
#define SR_EXPERIMENT_RESULTS	"results.tsv"

/* Whether dir is a campaign output: it holds trials.tsv, or design.tsv
 * and results.tsv. */
int sr_experiment_is_output(const char *dir);

/* The experiment of campaign output dir on space s, by metric: its
 * trials.tsv when that ranks metric (its #metric=), else its design.tsv
 * and results.tsv. A current experiment (current != 0) without results
 * yet (no trials.tsv, no results.tsv) has no jobs; any other dir that is
 * not a campaign output is an error. Dies (exit 1) naming the file, and
 * its line where there is one, on anything malformed; a column of the
 * current experiment that is not a parameter of s is an error, a past
 * one's is left out (e->ignored). */
sr_experiment *sr_experiment_read_dir(const char *dir, const sr_space *s,
    const char *metric, int current);
/* The same from a design and a metrics file. */
sr_experiment *sr_experiment_read_files(const char *design,
    const char *metrics, const sr_space *s, const char *metric, int current);

/* An experiment as the command line gives it: --current DIR or --past
 * DIR, --current-files or --past-files DESIGN METRICS, --knowledge DIR. */
enum sr_experiment_kind { SR_EXP_DIR, SR_EXP_FILES, SR_EXP_KNOWLEDGE };
typedef struct {
	enum sr_experiment_kind kind;
	const char *path, *metrics;	/* metrics: SR_EXP_FILES only */
} sr_experiment_arg;

/* The experiment a (not SR_EXP_KNOWLEDGE). */
sr_experiment *sr_experiment_read(const sr_experiment_arg *a,
    const sr_space *s, const char *metric, int current);
/* The past experiments args[0..n) in order, a knowledge directory's
 * campaign outputs in the order of their names; a directory named twice
 * (or reached twice) is read once, and the current experiment's directory
 * (current may be NULL) not at all. *npast: how many. */
sr_experiment **sr_experiment_read_past(const sr_experiment_arg *args,
    size_t n, const sr_experiment_arg *current, const sr_space *s,
    const char *metric, size_t *npast);

/* The campaign outputs directly inside dir, sorted by name (*n of them;
 * free each and the array); hidden entries are skipped; dir alone when
 * it is a campaign output itself (sr_experiment_is_output). Dies when
 * dir is not a directory. */
char **sr_experiment_knowledge(const char *dir, size_t *n);

#endif
