/* tsv.c - strict TSV reader: comments, one header, counted fields. */
#include "core/tsv.h"
#include "core/err.h"
#include "core/num.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Reads one physical line into t->line without its newline; 0 at EOF.
 * getline's -1 is end of file only when feof says so: otherwise (a read
 * error, no memory for a long line) the file is not read through. */
static int
read_line(sr_tsv *t)
{
	ssize_t n;

	errno = 0;
	n = getline(&t->line, &t->cap, t->fp);
	if (n < 0) {
		if (ferror(t->fp) || !feof(t->fp))
			sr_die_io("%s:%zu: read error", t->path, t->lineno + 1);
		return 0;
	}
	t->lineno++;
	if ((size_t)n != strlen(t->line))
		sr_tsv_die(t, -1, "NUL byte in line: not a text file");
	if (n > 0 && t->line[n - 1] == '\n')
		t->line[--n] = '\0';
	if (n > 0 && t->line[n - 1] == '\r')
		t->line[--n] = '\0';
	return 1;
}

/* Splits t->line at tabs into t->field (pointers into the line), in one
 * pass over the line. */
static void
split_fields(sr_tsv *t)
{
	char *p = t->line;

	t->nfield = 0;
	for (;;) {
		if (t->nfield == t->fieldcap) {
			t->fieldcap = t->fieldcap ? 2 * t->fieldcap : 16;
			t->field = sr_reallocarray(t->field, t->fieldcap,
			    sizeof *t->field);
		}
		t->field[t->nfield++] = p;
		while (*p != '\t' && *p != '\0')
			p++;
		if (*p == '\0')
			break;
		*p++ = '\0';
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

static void
read_header(sr_tsv *t)
{
	size_t i, j;

	if (!next_content_line(t))
		sr_die(SR_EXIT_DATA, "%s: %s", t->path, t->lineno == 0 ?
		    "empty file, expected a header line" :
		    "no header line (only comments)");
	split_fields(t);
	t->ncol = t->nfield;
	t->header = sr_calloc(t->ncol, sizeof *t->header);
	for (i = 0; i < t->ncol; i++) {
		if (t->field[i][0] == '\0')
			sr_tsv_die(t, -1, "header: column %zu has no name", i + 1);
		for (j = 0; j < i; j++)
			if (strcmp(t->header[j], t->field[i]) == 0)
				sr_tsv_die(t, -1, "header: column %s named twice",
				    t->field[i]);
		t->header[i] = sr_strdup(t->field[i]);
	}
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
	free(t->line);
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

	if (c < 0)
		sr_die(SR_EXIT_DATA, "%s: no column '%s' in the header", t->path,
		    name);
	return c;
}

void
sr_tsv_die(const sr_tsv *t, int col, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (col >= 0 && (size_t)col < t->ncol)
		sr_die(SR_EXIT_DATA, "%s:%zu: column %s: %s", t->path,
		    t->lineno, t->header[col], msg);
	sr_die(SR_EXIT_DATA, "%s:%zu: %s", t->path, t->lineno, msg);
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
		sr_tsv_die(t, col, "'%.40s' is %s", t->field[col], why);
	return v;
}

long
sr_tsv_long(const sr_tsv *t, int col)
{
	long v;
	const char *why = sr_parse_long(t->field[col], &v);

	if (why)
		sr_tsv_die(t, col, "'%.40s' is %s", t->field[col], why);
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
sr_tsv_meta(const sr_tsv *t, const char *key)
{
	size_t i, klen = strlen(key);
	const char *found = NULL, *p;

	for (i = 0; i < t->ncomment; i++) {
		if (!is_meta_line(t->comment[i]))
			continue;
		for (p = t->comment[i]; (p = strstr(p, key)) != NULL; p += klen)
			if ((p == t->comment[i] || p[-1] == ' ' ||
			    p[-1] == '\t') && p[klen] == '=')
				found = p + klen + 1;
	}
	if (found == NULL)
		return NULL;
	return strndup(found, strcspn(found, " \t"));
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
