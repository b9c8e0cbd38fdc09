/* prune.h - sa-prune: a space shrunk with what past experiments learned
 * (the JobPruner study). A kNN surrogate per experiment (knn.h); the past
 * experiment whose surrogate correlates best with the current one's on a
 * common set of points; its jobs cut by Algorithm 1 at paggr times their
 * best value, paggr fixed or from their variogram (paggr.h).
 *
 * No file I/O: experiments are read by plan/experiment.h, the report
 * written by sa/prune_report.h. */
#ifndef SR_PRUNE_H
#define SR_PRUNE_H

#include <stddef.h>

#include "core/err.h"
#include "sa/knn.h"
#include "sa/paggr.h"
#include "sa/space.h"

/* An experiment's jobs in a space: each job's parameter values in the
 * space's order (a parameter the experiment's design lacks held at its
 * default) and its value of the metric. */
typedef struct {
	char *name;		/* as the report names it: the directory, or
				 * the design's path */
	char *source;		/* what the values were read from */
	size_t n;		/* jobs with a value */
	double *raw;		/* n * dim parameter values */
	double *y;		/* n metric values */
	size_t nmissing;	/* runs without a value, left out */
	char **ignored;		/* design columns not in the space */
	size_t nignored;
} sr_experiment;

void sr_experiment_free(sr_experiment *e);

/* Algorithm 1 for one parameter: its values (a grid's, a list's, an
 * enum's) or the bins of its range, the best value of the jobs at each,
 * and which survive. */
typedef struct {
	size_t nvalues;		/* values or bins (0: a single value, not cut) */
	int binned;		/* a range cut into bins */
	double *best;		/* nvalues: NaN when no job tried it */
	unsigned char *removed;	/* nvalues: every job below the cut */
	unsigned char *kept;	/* nvalues: in the pruned space (a removed
				 * bin inside a range's hull, an enum's
				 * default, the best values of a parameter
				 * that would lose all) */
	int lost_all;		/* every value was removed: the best kept */
	int kept_default;	/* an enum's default was removed: kept */
	long current_slot;	/* the current experiment's best set's value,
				 * or -1 */
	int kept_current;	/* that value was removed: kept */
	char *values;		/* the pruned values as space(5) writes them
				 * (NULL: unchanged) */
	double kept_fraction;	/* of the values, or of a range's width */
} sr_param_cut;

typedef struct {
	double paggr, max, threshold;	/* threshold = paggr * max */
	size_t dim;
	sr_param_cut *param;	/* dim */
	double removed_fraction;	/* 1 - the product of the kept fractions */
} sr_cut;

/* Algorithm 1 on the jobs of e over space s: a value is removed when
 * every job with it scored strictly below paggr times the best job's
 * score (within a relative 1e-9 counts as equal); values no job tried
 * are kept; a range is cut into bins equal bins (an int range's integers
 * into at most bins groups) and a bin is a value; a parameter never
 * loses all its values (its best ones stay), an enum never its default.
 * A grid keeps its surviving values as a list, or as a grid when they are
 * consecutive; a range shrinks to the hull of its surviving bins. The
 * values of the parameter set keep (s's order; NULL: none), the current
 * experiment's best so far, are kept. */
void sr_prune_cut(sr_cut *cut, const sr_space *s, const sr_experiment *e,
    double paggr, size_t bins, const double *keep);
void sr_cut_free(sr_cut *cut);
/* Value i of parameter p as the report writes it: the number, or the
 * bin "lo..hi" (an int range's bin: its first and last integers). */
char *sr_cut_value_text(const sr_param *p, const sr_param_cut *pc, size_t i,
    char *buf, size_t len);

/* sa-prune's options. */
typedef struct {
	size_t k;		/* neighbours of the surrogates */
	size_t points;		/* common points: 0, the current experiment's;
				 * else this many of a Sobol sequence */
	unsigned long seed;	/* of the Sobol points' shift and the
				 * variogram's subset */
	double min_ncorr;
	size_t bins;
	int paggr_auto;		/* else paggr */
	double paggr;
	sr_paggr_opts auto_opts;
} sr_prune_opts;

/* Which options of paggr auto were given (sr_prune_opts_check): any of
 * them, --paggr-top or --paggr-min, --paggr-min; each holds the bits of
 * those before it. */
enum { SR_PRUNE_SET_AUTO = 1, SR_PRUNE_SET_TOP = 3, SR_PRUNE_SET_MIN = 7 };

/* How the options of paggr auto go together, set the SR_PRUNE_SET_ bits
 * of those given: 0, or -1 with the usage error in errbuf (len bytes).
 * A default min above a given max yields to it. */
int sr_prune_opts_check(sr_prune_opts *o, unsigned set, char *errbuf,
    size_t len);

/* What sa-prune found. */
typedef struct {
	int pruned;		/* Algorithm 1 ran (it may have removed
				 * nothing); else why says why not */
	char why[SR_ERRLEN];
	size_t npast;
	double *ncorr;		/* npast: NaN when undefined */
	size_t *shared;		/* npast: the current sets each past
				 * experiment ran too */
	size_t ncommon;		/* common points */
	long chosen;		/* the past experiment used, or -1 */
	int have_paggr;
	sr_paggr paggr;		/* method SR_PAGGR_FIXED for --paggr */
	int have_cut;
	sr_cut cut;
	sr_space *space;	/* the pruned space (NULL unless pruned) */
} sr_prune_result;

/* Runs sa-prune over space s: current (NULL: none) against the npast
 * past experiments. Returns 0 (r->pruned says whether it pruned), or -1
 * with the reason in errbuf (SR_ERRLEN bytes) when it cannot run at all
 * (Sobol points for more than 40 parameters). */
int sr_prune_run(sr_prune_result *r, const sr_space *s,
    const sr_experiment *current, sr_experiment *const *past, size_t npast,
    const sr_prune_opts *o, char *errbuf);
void sr_prune_result_free(sr_prune_result *r);

#endif
