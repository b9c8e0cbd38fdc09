/* rows.c - writing a design's rows (see rows.h). */
#include "sa/rows.h"
#include "core/err.h"
#include "core/num.h"

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

void
sr_row_writer_init(struct sr_row_writer *w, size_t n, const sr_space *s)
{
	size_t i, words = 0;

	w->n = n;
	w->word = NULL;
	for (i = 0; s && i < n; i++)
		if (s->p[i].word) {
			if (w->word == NULL)
				w->word = sr_calloc(n, sizeof *w->word);
			w->word[i] = s->p[i].word;
			words++;
		}
	/* room for every number (see put_cached) and the longest words */
	w->row = sr_calloc((n + 2) * (SR_NUMLEN + 1) + words * SR_WORD_MAX, 1);
	w->col = sr_calloc(n ? n : 1, sizeof *w->col);
}

void
sr_row_writer_free(struct sr_row_writer *w)
{
	free(w->row);
	free(w->col);
	free(w->word);
	memset(w, 0, sizeof *w);
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

void
sr_row_writer_put(struct sr_row_writer *w, FILE *fp, size_t run, const double *v)
{
	char *p = put_size(w->row, run);
	size_t i;

	for (i = 0; i < w->n; i++) {
		*p++ = '\t';
		if (w->word && w->word[i]) {	/* v[i] is a code */
			const char *s = w->word[i][(size_t)v[i]];
			size_t len = strlen(s);
			memcpy(p, s, len);
			p += len;
		} else
			p = put_cached(&w->col[i], p, v[i]);
	}
	*p++ = '\n';
	fwrite(w->row, 1, (size_t)(p - w->row), fp);
}
