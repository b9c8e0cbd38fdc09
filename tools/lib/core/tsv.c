/* tsv.c - strict TSV reader: comments, one header, counted fields. */
#include "core/tsv.h"
#include "core/err.h"
#include "core/hash.h"
#include "core/num.h"
#include "core/text.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Reads more of the file into t->buf, after what is unread (moved to its
 * front), growing it when full; sets t->eof at the end of the file. */
static void
fill(sr_tsv *t)
{
	size_t got;
	ssize_t r;

	if (t->start > 0) {	/* the unread bytes to the front */
		memmove(t->buf, t->buf + t->start, t->end - t->start);
		t->end -= t->start;
		t->start = 0;
	}
	if (t->end + 1 >= t->cap) {	/* a line longer than buf */
		char *grown = realloc(t->buf, t->cap ? 2 * t->cap : 1 << 16);

		if (grown == NULL) {
			errno = ENOMEM;
			sr_die_io("%s:%zu: read error", t->path, t->lineno + 1);
		}
		t->buf = grown;
		t->cap = t->cap ? 2 * t->cap : 1 << 16;
	}
	/* read(2), not fread: a pipe's lines as they come */
	do
		r = read(fileno(t->fp), t->buf + t->end, t->cap - 1 - t->end);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		sr_die_io("%s:%zu: read error", t->path, t->lineno + 1);
	got = (size_t)r;
	t->end += got;
	t->eof = got == 0;
}

/* Reads one physical line into t->line without its newline; 0 at EOF.
 * From a buffer of the file's blocks, the line in place (getline's lock
 * and copy were a fifth of reading a file of short rows); the buffer
 * grows to hold the longest line. A read error is not an end of file. */
static int
read_line(sr_tsv *t)
{
	char *nl = NULL;
	size_t n;

	for (;;) {
		if (t->start < t->end &&
		    (nl = memchr(t->buf + t->start, '\n', t->end - t->start)))
			break;
		if (t->eof)
			break;
		fill(t);
	}
	if (t->start == t->end)
		return 0;
	t->line = t->buf + t->start;
	n = nl ? (size_t)(nl - t->line) : t->end - t->start;
	t->start += n + (nl != NULL);
	t->line[n] = '\0';	/* the newline's place, or the spare byte */
	t->lineno++;
	if (memchr(t->line, '\0', n))
		sr_tsv_die(t, -1, "NUL byte in line: not a text file");
	if (n > 0 && t->line[n - 1] == '\r')
		t->line[--n] = '\0';
	t->len = n;
	if (t->lineno == 1 && strncmp(t->line, "\xef\xbb\xbf", 3) == 0)
		sr_tsv_die(t, -1, "starts with a UTF-8 byte order mark (BOM): "
		    "save the file as UTF-8 without one");
	return 1;
}

const char *
sr_tsv_peek(sr_tsv *t, size_t want, size_t *len)
{
	char *nl, *from;

	if (t->buf == NULL)
		fill(t);
	for (;;) {
		from = t->buf + t->start;
		*len = t->end - t->start;
		if (*len >= want) {
			/* whole lines within want bytes, else the one line */
			for (nl = from + want; nl > from && nl[-1] != '\n'; nl--)
				;
			if (nl == from && (nl = memchr(from + want, '\n',
			    *len - want)) != NULL)
				nl++;
			if (nl != NULL && nl > from) {
				*len = (size_t)(nl - from);
				return from;
			}
		}
		if (t->eof)	/* what is left, its last line unended */
			return from;
		fill(t);
	}
}

void
sr_tsv_skip(sr_tsv *t, size_t len, size_t lines)
{
	t->start += len;
	t->lineno += lines;
}

/* Dies unless every field of the current line is valid UTF-8, naming the
 * column (by number in the header) and the byte. The line is checked
 * whole first, its tabs now NULs: ASCII bytes end no valid sequence
 * and start none, so it is valid exactly when each field is. */
static void
check_utf8(const sr_tsv *t, int header)
{
	size_t i, n, bad;

	if (sr_utf8_invalid(t->line, t->len) == t->len)
		return;
	for (i = 0; i < t->nfield; i++) {
		n = strlen(t->field[i]);
		if ((bad = sr_utf8_invalid(t->field[i], n)) == n)
			continue;
		if (header || i >= t->ncol)
			sr_tsv_die(t, -1, "column %zu: invalid UTF-8 (byte 0x%02x "
			    "at byte %zu of the field)", i + 1,
			    (unsigned char)t->field[i][bad], bad + 1);
		sr_tsv_die(t, (int)i, "invalid UTF-8 (byte 0x%02x at byte %zu "
		    "of the field)", (unsigned char)t->field[i][bad], bad + 1);
	}
}

/* Splits t->line at tabs into t->field (pointers into the line), in one
 * pass over the line (memchr: fields are long, rows millions). */
static void
split_fields(sr_tsv *t)
{
	char *p = t->line, *end = t->line + t->len, *tab;

	t->nfield = 0;
	for (;;) {
		if (t->nfield == t->fieldcap) {
			t->fieldcap = t->fieldcap ? 2 * t->fieldcap : 16;
			t->field = sr_reallocarray(t->field, t->fieldcap,
			    sizeof *t->field);
		}
		t->field[t->nfield++] = p;
		if ((tab = memchr(p, '\t', (size_t)(end - p))) == NULL)
			break;
		*tab = '\0';
		p = tab + 1;
	}
}

/* Reads lines until one that is neither a comment nor blank; 0 at EOF. */
static int
next_content_line(sr_tsv *t)
{
	while (read_line(t)) {
		if (t->line[0] == '#') {
			t->comment = sr_reallocarray(t->comment,
			    t->ncomment + 1, sizeof *t->comment);
			t->comment[t->ncomment++] = sr_strdup(t->line + 1);
			continue;
		}
		if (t->line[strspn(t->line, " \t")] == '\0')
			continue;
		return 1;
	}
	return 0;
}

/* Reads the header line into t->header; dies on an empty or repeated
 * name (found through an interner: linear in the columns). */
static void
read_header(sr_tsv *t)
{
	sr_interner seen;
	size_t i;
	int added;

	if (!next_content_line(t))
		sr_die(SR_EXIT_DATA, "%s: %s", t->path, t->lineno == 0 ?
		    "empty file, expected a header line" :
		    "no header line (only comments)");
	split_fields(t);
	check_utf8(t, 1);
	sr_interner_init(&seen);
	for (i = 0; i < t->nfield; i++) {
		if (t->field[i][0] == '\0')
			sr_tsv_die(t, -1, "header: column %zu has no name", i + 1);
		sr_intern_str(&seen, t->field[i], &added);
		if (!added) {
			char show[SR_SHOWLEN];

			sr_tsv_die(t, -1, "header: column %s named twice",
			    sr_show(show, t->field[i]));
		}
	}
	sr_interner_free(&seen);
	t->ncol = t->nfield;
	t->header = sr_calloc(t->ncol, sizeof *t->header);
	for (i = 0; i < t->ncol; i++)
		t->header[i] = sr_strdup(t->field[i]);
}

sr_tsv *
sr_tsv_open(const char *path)
{
	sr_tsv *t = sr_calloc(1, sizeof *t);

	if (strcmp(path, "-") == 0) {
		t->path = sr_strdup("<stdin>");
		t->fp = stdin;
	} else {
		t->path = sr_strdup(path);
		if ((t->fp = fopen(path, "r")) == NULL)
			sr_die_errno("%s", path);
	}
	read_header(t);
	return t;
}

void
sr_tsv_close(sr_tsv *t)
{
	size_t i;

	if (t == NULL)
		return;
	if (t->fp && t->fp != stdin)
		fclose(t->fp);
	for (i = 0; i < t->ncol; i++)
		free(t->header[i]);
	for (i = 0; i < t->ncomment; i++)
		free(t->comment[i]);
	free(t->header);
	free(t->comment);
	free(t->field);
	free(t->buf);
	free(t->path);
	free(t);
}

int
sr_tsv_next(sr_tsv *t)
{
	if (!next_content_line(t))
		return 0;
	split_fields(t);
	if (t->nfield != t->ncol)
		sr_tsv_die(t, -1, "%zu fields, expected %zu (%s)", t->nfield,
		    t->ncol, t->nfield < t->ncol ? "row too short" :
		    "row too long");
	check_utf8(t, 0);
	return 1;
}

int
sr_tsv_col(const sr_tsv *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->ncol; i++)
		if (strcmp(t->header[i], name) == 0)
			return (int)i;
	return -1;
}

int
sr_tsv_need(const sr_tsv *t, const char *name)
{
	int c = sr_tsv_col(t, name);

	if (c < 0) {
		char path[SR_SHOWLEN * 2];

		sr_die(SR_EXIT_DATA, "%s: no column '%s' in the header",
		    sr_escape(path, sizeof path, t->path), name);
	}
	return c;
}

void
sr_tsv_die(const sr_tsv *t, int col, const char *fmt, ...)
{
	char raw[512], msg[1024], path[1024], show[SR_SHOWLEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof raw, fmt, ap);
	va_end(ap);
	sr_escape(msg, sizeof msg, raw);
	sr_escape(path, sizeof path, t->path);
	if (col >= 0 && (size_t)col < t->ncol)
		sr_die(SR_EXIT_DATA, "%s:%zu: column %s: %s", path, t->lineno,
		    sr_show(show, t->header[col]), msg);
	sr_die(SR_EXIT_DATA, "%s:%zu: %s", path, t->lineno, msg);
}

void
sr_tsv_die_value(const sr_tsv *t, int col, const char *fmt, ...)
{
	char why[512], show[SR_SHOWLEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	sr_tsv_die(t, col, "'%s' %s", sr_show(show, t->field[col]), why);
}

const char *
sr_tsv_str(const sr_tsv *t, int col)
{
	return t->field[col];
}

double
sr_tsv_double(const sr_tsv *t, int col)
{
	double v;
	const char *why = sr_parse_double(t->field[col], &v);

	if (why)
		sr_tsv_die_value(t, col, "is %s", why);
	return v;
}

long
sr_tsv_long(const sr_tsv *t, int col)
{
	long v;
	const char *why = sr_parse_long(t->field[col], &v);

	if (why)
		sr_tsv_die_value(t, col, "is %s", why);
	return v;
}

/* Whether a comment line is a metadata line: its first word is key=value. */
static int
is_meta_line(const char *c)
{
	size_t n = strspn(c, "abcdefghijklmnopqrstuvwxyz0123456789_");

	return n > 0 && c[n] == '=';
}

char *
sr_tsv_word(const char *words, const char *key)
{
	size_t klen = strlen(key), len;
	const char *p = words, *found = NULL;

	while (*(p += strspn(p, " \t"))) {
		len = strcspn(p, " \t");
		if (len > klen && strncmp(p, key, klen) == 0 && p[klen] == '=')
			found = p;	/* the last one wins */
		p += len;
	}
	if (found == NULL)
		return NULL;
	return strndup(found + klen + 1, strcspn(found, " \t") - klen - 1);
}

char *
sr_tsv_meta(const sr_tsv *t, const char *key)
{
	char *found = NULL, *v;
	size_t i;

	for (i = 0; i < t->ncomment; i++)
		if (is_meta_line(t->comment[i]) &&
		    (v = sr_tsv_word(t->comment[i], key)) != NULL) {
			free(found);
			found = v;
		}
	return found;
}

void
sr_put_double(FILE *fp, double v)
{
	char buf[SR_NUMLEN];

	fputs(isfinite(v) ? sr_fmt_double(buf, v) : "NaN", fp);
}

int
sr_list_next(const char **p, char *item, size_t size)
{
	size_t len;

	if (*p == NULL)
		return 0;
	len = strcspn(*p, ",");
	if (len == 0)
		return -1;
	if (len >= size)
		return -2;
	memcpy(item, *p, len);
	item[len] = '\0';
	*p = (*p)[len] ? *p + len + 1 : NULL;
	return 1;
}

int
sr_tsv_header_is(const sr_tsv *t, const char *const *names, size_t n)
{
	size_t i;

	if (t->ncol != n)
		return 0;
	for (i = 0; i < n; i++)
		if (strcmp(t->header[i], names[i]) != 0)
			return 0;
	return 1;
}
