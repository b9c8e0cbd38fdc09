/* rows.h - the rows of a design (design.tsv, see design(5)): the run
 * number, then the values in their shortest form, tab-separated: the
 * writer of sa-sample's generators (generator.c), out of design.c so
 * that design.h (which names sr_generator) and they do not circle. */
#ifndef SR_ROWS_H
#define SR_ROWS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/num.h"
#include "sa/space.h"

/* Writes one row: run, then the values. */
void sr_design_write_row(FILE *fp, size_t run, const double *v, size_t n);

/* A writer of rows of n values. Rows wait in blocks; a block's text is
 * made on threads, each part of the rows by one, then written in order.
 * Each part keeps the text of each column's two latest distinct values:
 * designs repeat them (a VBD block of k + 2 rows has 2k distinct values,
 * a MOAT step changes one), and formatting the shortest digits is most
 * of a design's writing. The bytes are those of sr_design_write_row
 * whatever the threads, but for the columns of a word enum: their
 * words. */
struct sr_row_text {
	uint64_t bits[2];	/* the values, bit for bit */
	unsigned char len[2];	/* 0: empty */
	unsigned char next;	/* the slot to replace */
	char text[2][SR_NUMLEN];
};
struct sr_row_part {
	struct sr_row_text *col;	/* n */
	char *text;
	size_t len, cap;
};
struct sr_row_writer {
	size_t n;
	char *const **word;	/* by column: a word enum's words, or NULL */
	size_t rowmax;		/* the longest row's bytes, and room past it */
	FILE *fp;		/* where the rows waiting go */
	double *value;		/* the rows waiting: cap of n */
	size_t *run;
	size_t count, cap;
	size_t threads;		/* at most (sr_row_writer_init: the
				 * processors) */
	struct sr_row_part *part;	/* threads */
};
/* A writer of the rows of the n parameters of s (s NULL: n numbers). */
void sr_row_writer_init(struct sr_row_writer *w, size_t n, const sr_space *s);
/* Writes the rows waiting, if any (a write error shows where fp is
 * closed: core/out). */
void sr_row_writer_flush(struct sr_row_writer *w);
/* Writes the rows waiting and frees w. */
void sr_row_writer_free(struct sr_row_writer *w);
/* Adds a row: run, then the values; written to fp at a flush, once a
 * block is full, or at the end (every row of a writer to one fp). */
void sr_row_writer_put(struct sr_row_writer *w, FILE *fp, size_t run,
    const double *v);

#endif
