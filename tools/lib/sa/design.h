/* design.h - designs (design.tsv, see design(5)): runs x parameters. */
#ifndef SR_DESIGN_H
#define SR_DESIGN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/num.h"

#include "sa/generator.h"
#include "sa/sample.h"
#include "sa/space.h"

typedef struct {
	sr_space *space;	/* from the "#space" lines, or NULL */
	char *path;		/* for messages */
	size_t ncol;		/* parameter columns (all but run) */
	char **name;
	size_t nrun;
	double *x;		/* nrun * ncol, row-major */
	/* metadata (see design(5)); absent numbers are 0, strings NULL */
	char *method, *base;
	size_t n, k, r, p;
	int second_order;
	long reference;		/* run number of the reference run, or -1 */
	unsigned long seed;
	size_t *param;		/* k column indices of the varied parameters */
	size_t nbatch;		/* a batched tune campaign's composed design
				 * ("#batches=K of N sizes=N1,...,NK"): K */
	size_t *batch_size;	/* its K sizes, summing to nrun; NULL */
} sr_design;

/* Reads a design; dies naming file, line and column on a malformed row,
 * a run number out of sequence, a value off its parameter's domain, or
 * metadata that contradicts the columns. */
sr_design *sr_design_read(const char *path);
void sr_design_free(sr_design *d);

/* Writes the metadata comment line of a design sa-sample makes (see
 * design(5)): what s asked for, g's varied parameters, rows runs. */
void sr_design_write_meta(FILE *fp, const sr_sample_spec *s,
    const sr_generator *g, double rows);
/* Writes the "#space NAME TYPE VALUES DEFAULT" lines and the header. */
void sr_design_write_head(FILE *fp, const sr_space *s);
/* Writes one row: run, then the values. */
void sr_design_write_row(FILE *fp, size_t run, const double *v, size_t n);

/* A writer of rows of n values that keeps the text of each column's two
 * latest distinct values: designs repeat them (a VBD block of k + 2 rows
 * has 2k distinct values, a MOAT step changes one), and formatting the
 * shortest digits is most of a design's writing. The bytes are those of
 * sr_design_write_row. */
struct sr_row_writer {
	size_t n;
	char *row;		/* one row's text */
	struct sr_row_text {
		uint64_t bits[2];	/* the values, bit for bit */
		unsigned char len[2];	/* 0: empty */
		unsigned char next;	/* the slot to replace */
		char text[2][SR_NUMLEN];
	} *col;
};
void sr_row_writer_init(struct sr_row_writer *w, size_t n);
void sr_row_writer_free(struct sr_row_writer *w);
void sr_row_writer_put(struct sr_row_writer *w, FILE *fp, size_t run,
    const double *v);

#endif
