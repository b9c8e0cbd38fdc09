/* evaluate.h - parameter sets evaluated side by side on tiles with ground
 * truth (sa-campaign evaluate, and the validation step of a tune
 * campaign): the design whose runs are the sets, the comparison of their
 * results (evaluation.tsv: per tile and on average, every metric, each set
 * against the first with a paired Wilcoxon signed-rank test across
 * tiles), and validation.tsv (campaign(5)). Every function dies (exit 1)
 * naming file and line on bad input. */
#ifndef SR_CAMPAIGN_EVALUATE_H
#define SR_CAMPAIGN_EVALUATE_H

#include <stddef.h>
#include <stdio.h>

/* evaluation.tsv's columns (those of the sets follow metric, diff_ and p_
 * ones after them) and the tile name of its mean rows. */
#define SR_EVAL_TILE	"tile"
#define SR_EVAL_METRIC	"metric"
#define SR_EVAL_N	"n"
#define SR_EVAL_MEAN	"mean"
#define SR_EVAL_DIFF	"diff_"
#define SR_EVAL_P	"p_"

/* A set to evaluate: its name (a word of letters, digits, '_', '-' and
 * '.') and what it is: "defaults" (the space's default values), "run=N"
 * (run N of a campaign's design), or a space file whose defaults are the
 * set (a tune campaign's best.tsv is one). */
typedef struct {
	const char *name;
	const char *spec;
} sr_eval_set;

/* Writes to fp the design (design(5)) of the n sets of the parameters
 * of the space file space, run i being set i: its "#space" lines, a
 * "#method=sets n=N k=0 params=- sets=NAME,... runs=R,..." line (R: the
 * run of design a set was taken from, else -) and one row a set. design
 * (for "run=N" sets) may be NULL. A space file must name every parameter
 * of space, with a default in its domain. */
void sr_eval_design(const char *space, const char *design,
    const sr_eval_set *set, size_t n, FILE *fp);

/* Writes to fp evaluation.tsv, the comparison of the results of a sets
 * design (sr_eval_design; its runs are the sets): a row per tile and
 * metric, then a "mean" row per metric over the tiles where every set
 * has a value; columns tile, metric, one per set, then per set after
 * the first diff_NAME (its value minus the first set's) and p_NAME (the
 * two-sided paired Wilcoxon signed-rank p-value across tiles, on mean
 * rows only) and n (the tiles paired). The metrics are results' metric
 * columns but seconds. Writes to summary one line per metric (the means,
 * the differences, the p-values) and, when the tiles are too few for any
 * p below 0.05, a line that says so. */
void sr_eval_compare(const char *design, const char *results, FILE *fp,
    FILE *summary);

/* Writes to fp validation.tsv: the results' rows of every set, in the
 * sets' order, with a first column set (the set's name) and run the
 * set's run in the campaign's design (- for a set not taken from it);
 * the header "set" then exactly results' header. */
void sr_eval_validation(const char *design, const char *results, FILE *fp);

/* evaluation.tsv read back: its sets (and, from the sets' design, the
 * run each was taken from), its tiles= and paired=, and per metric its
 * mean row: n, each set's mean, difference and p (NaN for the first). */
typedef struct {
	size_t nset, nmet, ntiles, paired;
	char **set;
	char **run;		/* nset, or NULL without the design */
	char **met;		/* nmet */
	size_t *n;		/* nmet: the tiles paired */
	double *mean, *diff, *p;	/* nmet * nset, metric-major */
} sr_evaluation;

/* Reads evaluation (sr_eval_compare's) and, when design is not NULL,
 * the runs of the sets design; dies naming file and line on a malformed
 * one. */
void sr_eval_read(const char *evaluation, const char *design,
    sr_evaluation *e);
void sr_eval_free(sr_evaluation *e);
/* The index of metric in e, or e->nmet. */
size_t sr_eval_metric(const sr_evaluation *e, const char *metric);

/* Writes to fp the runs of the k best complete sets of trials.tsv (its
 * rows' order), one a line; fewer when it has fewer. */
void sr_eval_top(const char *trials, size_t k, FILE *fp);

/* Rewrites best (a tune campaign's best.tsv) with the line
 * "#validation metric=M tiles=N SET=MEAN..." before its header, from the
 * mean row of metric in evaluation (sr_eval_compare), in place of such a
 * line it has; committed with the program's outputs (sr_out). */
void sr_eval_best_validation(const char *best, const char *evaluation,
    const char *metric);

/* The smallest two-sided p-value of a paired Wilcoxon signed-rank test
 * of n pairs: 2^(1-n), 1 for n <= 1. */
double sr_eval_min_p(size_t n);

#endif
