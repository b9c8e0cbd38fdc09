/* indices_tsv.h - indices.tsv (see indices(5)): writing the metadata
 * line, the first-order table and the second-order table of --s2, and
 * reading either back (sa-report). */
#ifndef SR_INDICES_TSV_H
#define SR_INDICES_TSV_H

#include <stddef.h>
#include <stdio.h>

#include "sa/indices.h"

/* The parameter columns: a first-order table's, the S2 table's pair. */
#define SR_INDICES_PARAM	"param"
#define SR_INDICES_PARAM_I	"param_i"
#define SR_INDICES_PARAM_J	"param_j"
/* The index columns of each method (corr's are sr_corr_names). */
#define SR_INDICES_MU		"mu"
#define SR_INDICES_MU_STAR	"mu_star"
#define SR_INDICES_SIGMA	"sigma"
#define SR_INDICES_EFFECTS	"effects"	/* moat: the effects used */
#define SR_INDICES_S1		"S1"
#define SR_INDICES_ST		"ST"
#define SR_INDICES_S2		"S2"
#define SR_INDICES_DELTA	"delta"
#define SR_INDICES_PAWN		"pawn"	/* the median; beside it: */
#define SR_INDICES_PAWN_MIN	"minimum"
#define SR_INDICES_PAWN_MEAN	"mean"
#define SR_INDICES_PAWN_MAX	"maximum"
#define SR_INDICES_PAWN_CV	"CV"
/* An index's companion columns: its name and one of these suffixes. */
#define SR_INDICES_CONF		"_conf"	/* its interval's half-width */
#define SR_INDICES_LO		"_lo"	/* its percentile interval */
#define SR_INDICES_HI		"_hi"
#define SR_INDICES_P		"_p"	/* its p-value */
#define SR_INDICES_CHANGE	"_change"	/* a grown design's: its
						 * change from the design
						 * it was grown from */

/* The keys of the metadata line that a reader takes. */
#define SR_INDICES_METHOD	"method"
#define SR_INDICES_METRIC	"metric"
#define SR_INDICES_AGGREGATE	"aggregate"
#define SR_INDICES_RESAMPLES	"resamples"
#define SR_INDICES_CONFLEVEL	"conf"
#define SR_INDICES_TRAJECTORIES	"trajectories"	/* moat's, analyzed */
/* A comment line of a warning: "#" SR_INDICES_WARNING " message" */
#define SR_INDICES_WARNING	"warning:"
/* and the correlation's r2 and r2_rank: SR_INDICES_R2, SR_INDICES_R2_RANK
 * (indices.h, whose sr_indices_compute writes them) */

/* The metadata line "#method=... metric=... aggregate=... runs=..." with
 * the bootstrap's settings (moat, vbd) and the method's own keys, then
 * extra (" order=2" for the S2 table, or ""). */
void sr_indices_write_meta(FILE *fp, const sr_indices *x, const char *extra);
/* The comment lines "#warning: ..." of x's trust warnings (trust.h):
 * every one, or with s2 those of the S2 table only. */
void sr_indices_write_warnings(FILE *fp, const sr_indices *x, int s2);
/* The header and one row per parameter: vbd and efast param S1 S1_conf
 * ST ST_conf [S1_lo S1_hi ST_lo ST_hi], rbd_fast param S1 S1_conf, moat
 * param mu mu_star sigma mu_star_conf, corr param and each measure with
 * its p-value, pawn param pawn minimum mean maximum CV, delta param delta
 * delta_conf S1 S1_conf. */
void sr_indices_write(FILE *fp, const sr_indices *x);
/* The S2 table: param_i param_j S2 S2_conf [S2_lo S2_hi], i < j. */
void sr_indices_write_s2(FILE *fp, const sr_indices *x);

/* ---- indices.tsv read back ----------------------------------------------- */

/* What a column holds. */
enum sr_indices_kind {
	SR_INDICES_KIND_PARAM,		/* a parameter's name */
	SR_INDICES_KIND_INDEX,		/* an index (a measure) */
	SR_INDICES_KIND_COMPANION	/* an interval or p-value of one */
};

/* An indices file (either table) as read. */
typedef struct {
	char *path;
	/* the metadata line's values, as written, NULL where missing */
	char *method, *metric, *aggregate, *resamples, *conf, *r2, *r2_rank,
	    *trajectories;
	size_t ncol;
	char **name;		/* the header */
	int *kind;		/* by column: enum sr_indices_kind */
	/* by column, for an index: the columns of its companions, -1 none */
	int *conf_col, *lo_col, *hi_col, *p_col;
	/* the index that ranks the parameters: the first of ST, mu_star,
	 * S2, delta, pawn and S1 that the file has (none for corr's
	 * measures, each with its p-value), or -1 */
	int rank;
	size_t nrow;
	char ***field;		/* field[i][j]: row i's column j as written */
	double *value;		/* value[i * ncol + j]: the number of an index
				 * or companion (NaN: undefined), NaN for a
				 * parameter */
	char **warning;		/* the warning lines' messages */
	size_t nwarning;
} sr_indices_table;

/* Reads an indices file. Dies naming the file on a header without a
 * param (or param_i and param_j) column, and its line and column on a
 * wrong number of fields or a value that is neither a finite number nor
 * NaN. */
sr_indices_table *sr_indices_table_read(const char *path);
void sr_indices_table_free(sr_indices_table *t);

#endif
