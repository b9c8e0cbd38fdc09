/* rows.c - writing a design's rows (see rows.h). */
#include "sa/rows.h"
#include "core/err.h"
#include "core/num.h"
#include "core/out.h"
#include "core/parallel.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Writes the decimal digits of u at p; returns the end. */
static char *
put_size(char *p, size_t u)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	while (n > 0)
		*p++ = tmp[--n];
	return p;
}

void
sr_design_write_row(FILE *fp, size_t run, const double *v, size_t n)
{
	/* the row is put together in buf and written in pieces of ~4 KiB:
	 * one stdio call per field was a third of sa-sample's time */
	char buf[4096], *p = buf, *end = buf + sizeof buf - SR_NUMLEN - 2;
	size_t i;

	p = put_size(p, run);
	for (i = 0; i < n; i++) {
		if (p > end) {
			fwrite(buf, 1, (size_t)(p - buf), fp);
			p = buf;
		}
		*p++ = '\t';
		p += sr_fmt_double_n(p, v[i]);
	}
	*p++ = '\n';
	fwrite(buf, 1, (size_t)(p - buf), fp);
}

/* Rows a block holds: their text is made on threads */
#define BLOCK 8192

void
sr_row_writer_init(struct sr_row_writer *w, size_t n, const sr_space *s)
{
	size_t i, words = 0;

	memset(w, 0, sizeof *w);
	w->n = n;
	for (i = 0; s && i < n; i++)
		if (s->p[i].word) {
			if (w->word == NULL)
				w->word = sr_calloc(n, sizeof *w->word);
			w->word[i] = s->p[i].word;
			words++;
		}
	/* room for every number (see put_cached) and the longest words */
	w->rowmax = (n + 2) * (SR_NUMLEN + 1) + words * SR_WORD_MAX;
	w->cap = BLOCK;
	w->value = sr_calloc(w->cap * (n ? n : 1), sizeof *w->value);
	w->run = sr_calloc(w->cap, sizeof *w->run);
	w->threads = sr_cpus();
}

/* Puts the text of v, column c's, at p; returns the end. Copies all
 * SR_NUMLEN bytes of the text, which the compiler makes two moves (a copy
 * of len bytes became a `rep movs`, slower than formatting): the row has
 * room for that past its last field. */
static char *
put_cached(struct sr_row_text *c, char *p, double v)
{
	uint64_t bits;
	int s;

	memcpy(&bits, &v, sizeof bits);
	for (s = 0; s < 2; s++)
		if (c->len[s] && c->bits[s] == bits) {
			memcpy(p, c->text[s], SR_NUMLEN);
			return p + c->len[s];
		}
	s = c->next;
	c->next ^= 1;
	c->bits[s] = bits;
	c->len[s] = (unsigned char)sr_fmt_double_n(c->text[s], v);
	memcpy(p, c->text[s], SR_NUMLEN);
	return p + c->len[s];
}

/* The parts the rows waiting are cut in: a thread's each, but no part
 * of fewer than PART rows (a small design is not worth a thread). */
#define PART 1024

static size_t
parts_of(const struct sr_row_writer *w)
{
	size_t most = w->count / PART + 1;

	return w->threads < most ? w->threads : most;
}

/* Part i (of parts_of) of the rows waiting into its text. */
static void
format_part(void *ctx, size_t i, size_t worker)
{
	struct sr_row_writer *w = ctx;
	struct sr_row_part *pt = &w->part[i];
	size_t parts = parts_of(w);
	size_t r = w->count * i / parts, end = w->count * (i + 1) / parts, j;
	const double *v;
	char *p;

	(void)worker;
	if (pt->cap < (end - r) * w->rowmax) {
		pt->cap = (end - r) * w->rowmax;
		free(pt->text);
		pt->text = sr_malloc(pt->cap);
	}
	memset(pt->col, 0, w->n * sizeof *pt->col);	/* cold: no order */
	for (p = pt->text; r < end; r++) {
		v = w->value + r * w->n;
		p = put_size(p, w->run[r]);
		for (j = 0; j < w->n; j++) {
			*p++ = '\t';
			if (w->word && w->word[j]) {	/* v[j] is a code */
				const char *s = w->word[j][(size_t)v[j]];
				size_t len = strlen(s);
				memcpy(p, s, len);
				p += len;
			} else
				p = put_cached(&pt->col[j], p, v[j]);
		}
		*p++ = '\n';
	}
	pt->len = (size_t)(p - pt->text);
}

void
sr_row_writer_flush(struct sr_row_writer *w)
{
	size_t parts, i;

	if (w->count == 0)
		return;
	if (w->part == NULL) {
		w->part = sr_calloc(w->threads, sizeof *w->part);
		for (i = 0; i < w->threads; i++)
			w->part[i].col = sr_calloc(w->n ? w->n : 1,
			    sizeof *w->part[i].col);
	}
	parts = parts_of(w);
	sr_parallel(parts, parts, format_part, w);
	for (i = 0; i < parts; i++)
		sr_out_write(w->fp, w->part[i].text, w->part[i].len);
	w->count = 0;
}

void
sr_row_writer_put(struct sr_row_writer *w, FILE *fp, size_t run, const double *v)
{
	if (w->count == w->cap || (w->fp && fp != w->fp))
		sr_row_writer_flush(w);
	w->fp = fp;
	memcpy(w->value + w->count * w->n, v, w->n * sizeof *v);
	w->run[w->count++] = run;
}

void
sr_row_writer_free(struct sr_row_writer *w)
{
	size_t i;

	sr_row_writer_flush(w);
	for (i = 0; w->part && i < w->threads; i++) {
		free(w->part[i].col);
		free(w->part[i].text);
	}
	free(w->part);
	free(w->value);
	free(w->run);
	free(w->word);
	memset(w, 0, sizeof *w);
}
