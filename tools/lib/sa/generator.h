/* generator.h - design generators behind sa-sample: each writes design rows. */
#ifndef SR_GENERATOR_H
#define SR_GENERATOR_H

#include <stddef.h>
#include <stdio.h>

#include "sa/space.h"

struct sr_row_writer;

/* What a generator needs: the space (fixed parameters marked), the varied
 * parameters, where to write and how far numbering has got. */
typedef struct {
	const sr_space *space;
	size_t k;		/* varied parameters */
	size_t *varied;		/* their indices in space */
	FILE *fp;
	size_t run;		/* next run number */
	double *row;		/* space->n values; fixed ones pre-filled */
	struct sr_row_writer *writer;	/* writes the rows (sa/rows.h) */
	unsigned long seed;
	/* called once, before the first row: writes what precedes the rows,
	 * so that a generator that fails early has written nothing */
	void (*before_rows)(void *arg);
	void *arg;
	/* a design grown (sa-sample --extend): its first nexpect rows must
	 * be these (nexpect rows of the space's n values); the first run
	 * that is not, or -1 */
	const double *expect;
	size_t nexpect;
	long mismatch;
	/* the varied parameters' groups (space(5) column group): ngroup
	 * groups, named group_name, varied parameter j in group_of[j]; a
	 * parameter without one is a group of its own, named by it; ngroup
	 * 0 when no varied parameter has a group */
	size_t ngroup;
	const char **group_name;
	size_t *group_of;
} sr_generator;

/* Sets up g over s: parameters that are fixed or have a single value are
 * held (at the fixed value, or that value), the others are varied. */
void sr_generator_init(sr_generator *g, const sr_space *s, FILE *fp, unsigned long seed);
void sr_generator_free(sr_generator *g);
/* Writes the rows emitted so far that still wait (sa/rows.h): before
 * g->fp is committed. */
void sr_generator_flush(sr_generator *g);

/* Writes row (space->n values; the held ones ignored) as the next run. */
void sr_generator_put(sr_generator *g, const double *row);

/* Writes the default parameter set as one run. */
void sr_generator_reference(sr_generator *g);

/* Each returns NULL, or the reason it cannot run (errbuf holds it). */
const char *sr_generator_unit(sr_generator *g, int method, size_t n, char *errbuf,
    size_t errlen);
const char *sr_generator_random(sr_generator *g, size_t n, char *errbuf, size_t errlen);
/* The full grid (continuous ranges at levels levels); its size, from
 * sr_generator_grid_size, is the caller's to check against SR_GRID_LIMIT. */
void sr_generator_grid(sr_generator *g, size_t levels);
const char *sr_generator_moat(sr_generator *g, size_t r, size_t levels, size_t optimize,
    char *errbuf, size_t errlen);
const char *sr_generator_vbd(sr_generator *g, int base, size_t n, int second_order,
    char *errbuf, size_t errlen);

/* eFAST: a block of n runs per varied parameter, m harmonics (n > 4 m^2),
 * a random phase per block (sa/efast.h). */
const char *sr_generator_efast(sr_generator *g, size_t n, size_t m,
    char *errbuf, size_t errlen);

/* RBD-FAST's random balance design: n points of one search curve, each
 * parameter in its own random order (sa/rbd.h). */
const char *sr_generator_rbd(sr_generator *g, size_t n, char *errbuf,
    size_t errlen);

/* Points of the Sobol sequence a VBD design skips (as SALib). */
size_t sr_vbd_sobol_skip(size_t n);

/* Rows a grid design would have (+inf past 1e300). */
double sr_generator_grid_size(const sr_generator *g, size_t levels);

#define SR_GRID_LIMIT 1e7	/* grid designs past this need --force */

#endif
