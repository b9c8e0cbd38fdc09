/* design.h - designs (design.tsv, see design(5)): runs x parameters;
 * their rows are written by sa/rows.h. */
#ifndef SR_DESIGN_H
#define SR_DESIGN_H

#include <stddef.h>
#include <stdio.h>

#include "core/num.h"

#include "sa/generator.h"
#include "sa/rows.h"
#include "sa/sample.h"
#include "sa/space.h"

typedef struct sr_design_s {
	sr_space *space;	/* from the "#space" lines, or NULL */
	char *path;		/* for messages */
	size_t ncol;		/* parameter columns (all but run) */
	char **name;
	size_t nrun;
	double *x;		/* nrun * ncol, row-major */
	/* metadata (see design(5)); absent numbers are 0, strings NULL */
	char *method, *base;
	size_t n, k, r, p;
	size_t m;		/* efast: the harmonics M (0: not given) */
	size_t grown_from;	/* grown by --extend from this n (0: not) */
	/* a vbd or moat design of groups ("groups=NAME:P+P,..."): ngroup
	 * groups,
	 * named group_name, varied parameter i (of param) in group_of[i];
	 * ngroup 0 without */
	size_t ngroup;
	char **group_name;
	size_t *group_of;
	int second_order;
	long reference;		/* run number of the reference run, or -1 */
	unsigned long seed;
	size_t *param;		/* k column indices of the varied parameters */
	size_t nbatch;		/* a batched tune campaign's composed design
				 * ("#batches=K of N sizes=N1,...,NK"): K */
	size_t *batch_size;	/* its K sizes, summing to nrun; NULL */
	const sr_param **cparam;	/* by column: its parameter in space;
					 * NULL without "#space" lines */
} sr_design;

/* The factors of a vbd or moat design: its groups, or its varied
 * parameters. */
size_t sr_design_factors(const sr_design *d);

/* Reads a design; dies naming file, line and column on a malformed row,
 * a run number out of sequence, a value off its parameter's domain, or
 * metadata that contradicts the columns. */
sr_design *sr_design_read(const char *path);
/* Reads a design's settings alone (its comments and header): no rows
 * (x NULL), nrun the runs its metadata describe (0 is an error), for an
 * analysis that needs no values (eFAST's: its rows are the curves the
 * settings define; a design of 245,760 rows was four fifths of its
 * time). */
sr_design *sr_design_read_settings(const char *path);
void sr_design_free(sr_design *d);
/* The text of v, a value of column j, as files hold it (sr_param_text):
 * in buf, or a word enum's word. */
const char *sr_design_text(const sr_design *d, size_t j, double v,
    char buf[SR_NUMLEN]);

/* Writes the metadata comment line of a design sa-sample makes (see
 * design(5)): what s asked for, g's varied parameters, rows runs. */
void sr_design_write_meta(FILE *fp, const sr_sample_spec *s,
    const sr_generator *g, double rows);
/* Writes the "#space NAME TYPE VALUES DEFAULT" lines and the header. */
void sr_design_write_head(FILE *fp, const sr_space *s);

/* Growing design d (sa-sample --extend) to n: the request that drew it,
 * with n and grown_from set, into s; d's space (its "#space" lines) gets
 * each parameter d holds fixed at its value, and is the space to draw
 * from (d keeps it). NULL,
 * or why d cannot grow so (bad data) in errbuf: a method whose first
 * rows depend on n (lhs, hammersley, moat, efast, rbd_fast, grid, the
 * searches; vbd on such a base, or on the sobol base past the points it
 * skips, which SALib's rule ties to n), n not above d's, no "#space"
 * lines. A grown design grows again, grown_from its n then. */
const char *sr_design_grow_spec(sr_design *d, size_t n,
    sr_sample_spec *s, char *errbuf, size_t errlen);

#endif
