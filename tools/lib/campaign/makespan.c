/* makespan.c - the measured and the predicted makespan of a campaign's
 * buckets; see makespan.h. */
#include "campaign/makespan.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/num.h"
#include "core/text.h"
#include "core/tsv.h"

/* Splits line into at most max blank-separated words (in place);
 * returns how many there were (max + 1 when more). */
static size_t
split_words(char *line, char **w, size_t max)
{
	size_t n = 0;
	char *p = line;

	while (*(p += strspn(p, " \t\r\n"))) {
		if (n == max)
			return max + 1;
		w[n++] = p;
		p += strcspn(p, " \t\r\n");
		if (*p)
			*p++ = '\0';
	}
	return n;
}

/* Parses the words of one line into *a: NULL, or why not. */
static const char *
parse_attempt(char **w, size_t nw, sr_attempt *a)
{
	if (nw != 4)
		return "expected 'I START END EXIT': a bucket, two times in "
		    "seconds since the epoch and an exit status";
	if (sr_parse_long(w[0], &a->bucket) || a->bucket < 0)
		return "the bucket is not a number from 0";
	if (sr_parse_double(w[1], &a->start) || a->start < 0 ||
	    sr_parse_double(w[2], &a->end) || a->end < 0)
		return "a time is not a number of seconds from 0";
	if (sr_parse_long(w[3], &a->status) || a->status < 0)
		return "the exit status is not a number from 0";
	if (a->end < a->start)
		a->end = a->start;
	return NULL;
}

sr_attempt *
sr_attempts_read(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "r");
	sr_attempt *a = NULL;
	char *line = NULL, *w[5], show[SR_SHOWLEN];
	size_t cap = 0, lineno = 0, nw;
	const char *why;
	ssize_t len;

	*n = 0;
	if (fp == NULL) {
		if (errno == ENOENT)
			return NULL;
		sr_die_errno("%s", path);
	}
	while ((len = getline(&line, &cap, fp)) != -1) {
		lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[len - 1] = '\0';
		sr_show(show, line);
		if ((nw = split_words(line, w, 4)) == 0)
			continue;
		a = sr_reallocarray(a, *n + 1, sizeof *a);
		if ((why = parse_attempt(w, nw, &a[*n])) != NULL)
			sr_die(SR_EXIT_DATA, "%s:%zu: '%s': %s", path, lineno,
			    show, why);
		++*n;
	}
	if (ferror(fp))
		sr_die_io("%s", path);
	free(line);
	fclose(fp);
	return a;
}

static int
cmp_event(const void *pa, const void *pb)
{
	const double *a = pa, *b = pb;

	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return (a[1] > b[1]) - (a[1] < b[1]);	/* ends (-1) first */
}

/* The most of the intervals [start, end) of the attempts kept[0..k)
 * that overlap. */
static size_t
most_at_once(const sr_attempt *const *kept, size_t k)
{
	double (*ev)[2] = sr_reallocarray(NULL, 2 * k + 1, sizeof *ev);
	size_t i, most = 0;
	long now = 0;

	for (i = 0; i < k; i++) {
		ev[2 * i][0] = kept[i]->start;
		ev[2 * i][1] = 1;
		ev[2 * i + 1][0] = kept[i]->end;
		ev[2 * i + 1][1] = -1;
	}
	qsort(ev, 2 * k, sizeof *ev, cmp_event);
	for (i = 0; i < 2 * k; i++) {
		now += (long)ev[i][1];
		if (now > 0 && (size_t)now > most)
			most = (size_t)now;
	}
	free(ev);
	return most;
}

void
sr_measured_of(const sr_attempt *a, size_t n, sr_measured *m)
{
	const sr_attempt **kept = sr_reallocarray(NULL, n + 1, sizeof *kept);
	size_t i, j, k = 0;

	memset(m, 0, sizeof *m);
	for (i = n; i-- > 0;) {	/* the last success of each bucket */
		if (a[i].status != 0)
			continue;
		for (j = 0; j < k && kept[j]->bucket != a[i].bucket; j++)
			;
		if (j == k)
			kept[k++] = &a[i];
	}
	for (i = 0; i < k; i++) {
		if (i == 0 || kept[i]->start < m->first)
			m->first = kept[i]->start;
		if (i == 0 || kept[i]->end > m->last)
			m->last = kept[i]->end;
		m->busy += kept[i]->end - kept[i]->start;
	}
	m->buckets = k;
	m->makespan = m->last - m->first;
	m->concurrency = most_at_once(kept, k);
	free(kept);
}

int
sr_duration_parse(const char *s, double *out)
{
	double part[3], v = 0;
	size_t np = 0, i;
	char buf[SR_NUMLEN * 2], *p, *colon;

	if (sr_parse_double(s, out) == NULL)
		return *out >= 0 ? 0 : -1;
	if (strlen(s) >= sizeof buf || strchr(s, ':') == NULL)
		return -1;
	strcpy(buf, s);
	for (p = buf; np < 3; p = colon + 1) {
		colon = strchr(p, ':');
		if (colon)
			*colon = '\0';
		/* every part digits (the last may have a fraction) */
		if (*p < '0' || *p > '9' || sr_parse_double(p, &part[np]))
			return -1;
		np++;
		if (colon == NULL)
			break;
	}
	if (colon || np < 2)
		return -1;
	for (i = 0; i < np; i++) {
		if ((i > 0 && part[i] >= 60) ||
		    (i + 1 < np && part[i] != floor(part[i])))
			return -1;
		v = v * 60 + part[i];
	}
	*out = v;
	return 0;
}

/* The value of column col of t's row as a duration; dies when it is not
 * one. */
static double
duration_field(const sr_tsv *t, int col)
{
	double v;

	if (sr_duration_parse(sr_tsv_str(t, col), &v))
		sr_tsv_die_value(t, col, "is not a duration (seconds, or "
		    "h:mm:ss)");
	return v;
}

void
sr_predicted_read(const char *path, sr_predicted *p)
{
	sr_tsv *t = sr_tsv_open(path);
	int cm = sr_tsv_need(t, SR_PREDICTED_MAKESPAN),
	    cs = sr_tsv_col(t, SR_PREDICTED_SLOTS),
	    cw = sr_tsv_col(t, SR_PREDICTED_WORK),
	    cp = sr_tsv_col(t, SR_PREDICTED_PLAN);
	int rows = 0, baseline = 0, is_base;

	while (sr_tsv_next(t)) {
		is_base = cp >= 0 && strcmp(sr_tsv_str(t, cp),
		    SR_PREDICTED_BASELINE) == 0;
		if (rows++ > 0 && (baseline || !is_base))
			continue;	/* the first row, or the baseline */
		baseline = is_base;
		p->makespan = duration_field(t, cm);
		p->slots = cs >= 0 ? sr_tsv_double(t, cs) : NAN;
		p->work = cw >= 0 ? duration_field(t, cw) : NAN;
	}
	if (rows == 0)
		sr_die(SR_EXIT_DATA, "%s: no row under the header", path);
	sr_tsv_close(t);
}
