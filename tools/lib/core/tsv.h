/* tsv.h - the one strict TSV reader every tool uses.
 *
 * A file is: comment lines starting with '#' (anywhere), exactly one header
 * line naming the columns, then rows with exactly as many tab-separated
 * fields. Blank lines are skipped; a trailing CR is dropped. Every error
 * names the file and line, and the column where there is one:
 * "prog: FILE:LINE: column NAME: why", with control characters and
 * invalid UTF-8 escaped (core/text.h). Header and rows must be UTF-8 (a
 * byte order mark is refused); comment lines are bytes. */
#ifndef SR_TSV_H
#define SR_TSV_H

#include <stddef.h>
#include <stdio.h>

typedef struct sr_tsv {
	char *path;		/* as given; "<stdin>" for "-" */
	FILE *fp;
	size_t lineno;		/* line of the current row */
	char *line;		/* the current line, in buf */
	size_t len;		/* its length, without its newline */
	char *buf;		/* blocks of the file: [start, end) unread */
	size_t cap, start, end;
	int eof;
	char **field;		/* fields of the current row */
	size_t nfield, fieldcap;
	char **header;		/* column names */
	size_t ncol;
	char **comment;		/* comment lines seen so far, without '#' */
	size_t ncomment;
} sr_tsv;

/* Opens PATH ("-" is stdin) and reads up to and including the header;
 * dies if the file is missing, empty, or the header repeats a name. */
sr_tsv *sr_tsv_open(const char *path);
void sr_tsv_close(sr_tsv *t);

/* Reads the next row: 1, or 0 at end of file. Dies on a wrong field count
 * or a read error. */
int sr_tsv_next(sr_tsv *t);

/* The unread bytes that follow the current row, in place: whole lines of
 * at most want bytes (or the one line, when longer), or what is left of
 * the file when less (its last line with or without its newline); their
 * length in *len, 0 at the end. For a reader of rows on threads (sa/
 * design): sr_tsv_skip consumes them, else sr_tsv_next reads them. */
const char *sr_tsv_peek(sr_tsv *t, size_t want, size_t *len);
/* Consumes len bytes from sr_tsv_peek, holding lines lines. */
void sr_tsv_skip(sr_tsv *t, size_t len, size_t lines);

/* Column index of name, or -1. */
int sr_tsv_col(const sr_tsv *t, const char *name);
/* Column index of name; dies "FILE: no column NAME in the header". */
int sr_tsv_need(const sr_tsv *t, const char *name);
/* Whether the header is exactly names[0..n), in that order. */
int sr_tsv_header_is(const sr_tsv *t, const char *const *names, size_t n);

/* The current row's field, and typed accessors that die naming file,
 * line and column when the field is not a finite number (or integer). */
const char *sr_tsv_str(const sr_tsv *t, int col);
double sr_tsv_double(const sr_tsv *t, int col);
long sr_tsv_long(const sr_tsv *t, int col);

/* Dies with "FILE:LINE: column NAME: message" (col < 0: no column). */
_Noreturn void sr_tsv_die(const sr_tsv *t, int col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Dies with "FILE:LINE: column NAME: 'VALUE' message", VALUE the row's
 * field col shown escaped and shortened (sr_show). */
_Noreturn void sr_tsv_die_value(const sr_tsv *t, int col, const char *fmt,
    ...) __attribute__((format(printf, 3, 4)));

/* Value of KEY from "key=value" words in the comment lines read so far
 * (the last one wins), newly allocated, or NULL. */
char *sr_tsv_meta(const sr_tsv *t, const char *key);
/* The value of key among the "key=value" words of words (separated by
 * blanks or tabs; the last one wins), newly allocated, or NULL. */
char *sr_tsv_word(const char *words, const char *key);

/* Writes v as a TSV field: the shortest round-trip decimal, or NaN for a
 * value that is not finite (an undefined index). */
void sr_put_double(FILE *fp, double v);

/* Walks a comma list: copies the item at *p into item (size bytes) and
 * moves *p past it and its comma (to NULL after the last item). Returns
 * 1 for an item, 0 when the list is done, -1 for an empty item and -2 for
 * one too long (leaving *p on it). */
int sr_list_next(const char **p, char *item, size_t size);

#endif
