/* indices.h - sensitivity indices of one metric from a design and its
 * results: the design's fit to the method, the drivers of the MOAT, VBD
 * and correlation analyses, and their plots (sa-indices). The table
 * writer is indices_tsv.h. */
#ifndef SR_INDICES_H
#define SR_INDICES_H

#include <stddef.h>

#include "sa/corr.h"
#include "sa/delta.h"
#include "sa/design.h"
#include "sa/method.h"
#include "sa/metrics.h"
#include "sa/morris.h"
#include "sa/pawn.h"
#include "sa/sobol.h"
#include "sa/trust.h"

#define SR_INDICES_ERRLEN 1024	/* messages list up to 20 missing runs */

/* The keys of the metadata line (indices_tsv.h) that the correlation's
 * analysis writes into extra: here, so that indices.c needs nothing of
 * the table's module, which needs these types. */
#define SR_INDICES_R2		"r2"
#define SR_INDICES_R2_RANK	"r2_rank"

/* What the analysis is asked for. */
typedef struct {
	enum sr_method method;		/* an analysis (SR_METHODS_INDICES) */
	enum sr_aggregate aggregate;	/* as the metrics were read */
	size_t resamples;		/* bootstrap (moat, vbd) */
	double conf;			/* confidence level of the intervals */
	unsigned long seed;
	int percentile;			/* vbd: percentile intervals too */
	int s2;				/* vbd: second-order indices wanted */
	int allow_missing;		/* drop what lacks a result */
	double max_missing;		/* refuse above this share missing
					 * (1: any share) */
	const char *metrics_path;	/* for messages */
	int quiet;			/* no warnings of what is dropped */
	size_t harmonics;		/* rbd_fast: M (0: SR_RBD_M) */
	size_t slices;			/* pawn: S (0: SR_PAWN_S) */
	size_t threads;			/* efast, rbd_fast: the bootstrap's;
					 * pawn: the parameters' (0: the
					 * processors, sr_cpus) */
} sr_indices_opts;

/* The indices: one of sobol (vbd, efast, rbd_fast: S1 alone), morris,
 * corr, pawn, delta by method, for k parameters. */
typedef struct sr_indices_s {
	sr_indices_opts o;
	const char *metric;		/* the metric column (borrowed) */
	size_t k, nused;		/* parameters; design runs used */
	const char **name;		/* k varied parameter names (borrowed) */
	sr_sobol_result sobol;
	sr_morris_result morris;
	sr_corr_result corr;
	sr_pawn_result pawn;
	sr_delta_result delta;
	char extra[128];		/* the metadata line's method-specific tail */
	sr_trust trust;			/* where not to trust them (vbd, moat) */
	/* a grown design's (sa-sample --extend): the indices of the design
	 * it was grown from, its first runs; NULL */
	struct sr_indices_s *before;
	size_t grown_from;		/* the n it was grown from (0: none) */
} sr_indices;

/* Whether design d can be analyzed with method m: varied parameters in its
 * metadata, the reference run last, made by m (the analyses of given
 * data, sr_method_is_given, take any), as many
 * runs as its metadata describe. Sets *nused (runs without the reference)
 * and returns 0, or -1 with the reason in errbuf. */
int sr_indices_check_design(const sr_design *d, enum sr_method m,
    size_t *nused, char *errbuf, size_t errlen);

/* Computes the indices of design d (checked) from m's values, and where
 * they are not to be trusted (x->trust, trust.h); warns on stderr of
 * what it drops. Of a design grown from n0 (d->grown_from), vbd and the
 * analyses of given data also compute those of its first runs, the
 * design of n0, into x->before (the change of each index: a check of
 * convergence). Returns 0, or -1 with the reason (naming the
 * file at fault) in errbuf (SR_INDICES_ERRLEN bytes). Free out with
 * sr_indices_free, even after a failure. */
int sr_indices_compute(const sr_design *d, const sr_metrics *m,
    const sr_indices_opts *o, sr_indices *out, char *errbuf, size_t errlen);
void sr_indices_free(sr_indices *x);
/* Prints each of x's trust warnings to stderr, "prog: warning: ...". */
void sr_indices_warn(const sr_indices *x);

/* Draws the indices to path (PNG, core/plot.h): vbd S1 and ST bars (and,
 * with S2, its heatmap in path with -s2 before .png), moat the bars of
 * mu* (and the mu*-sigma plane in path with -plane before .png), corr
 * Pearson, Spearman, PRCC and SRRC bars with stars where p < 0.05. Dies
 * if gnuplot fails. */
void sr_indices_plot(const sr_indices *x, const char *path);

#endif
