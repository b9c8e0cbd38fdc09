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
parse_attempt(char **w, size_t nw, void *rec)
{
	sr_attempt *a = rec;

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

/* The malformed lines of a log: the first, shown, and how many. */
typedef struct {
	size_t line, count;
	char show[SR_SHOWLEN];
	const char *why;
} skipped;

/* Notes line lineno (text) as skipped for why. */
static void
skip_line(skipped *sk, size_t lineno, const char *text, const char *why)
{
	if (sk->count++ == 0) {
		sk->line = lineno;
		sr_show(sk->show, text);
		sk->why = why;
	}
}

/* One warning for the skipped lines of path, if any (and warn). */
static void
warn_skipped(const skipped *sk, const char *path, int warn)
{
	if (warn && sk->count)
		sr_warn("%s:%zu: '%s': %s; skipped (%zu malformed %s: %s cut "
		    "by a kill)", path, sk->line, sk->show, sk->why,
		    sk->count, sk->count == 1 ? "line" : "lines in all",
		    sk->count == 1 ? "a record" : "records");
}

/* Opens the log path for reading: NULL when it does not exist. */
static FILE *
open_log(const char *path)
{
	FILE *fp = fopen(path, "r");

	if (fp == NULL && errno != ENOENT)
		sr_die_errno("%s", path);
	return fp;
}

/* Reads the next line of fp into *line (its newline cut): its length, or
 * -1 at the end. */
static ssize_t
next_line(FILE *fp, const char *path, char **line, size_t *cap)
{
	ssize_t len = getline(line, cap, fp);

	if (len == -1 && ferror(fp))
		sr_die_io("%s", path);
	if (len > 0 && (*line)[len - 1] == '\n')
		(*line)[--len] = '\0';
	return len;
}

/* Reads the log path of records of size bytes, each line's 4 words
 * parsed by parse: a new array of the well-formed ones (*n), the others
 * skipped with one warning (when warn); NULL when path does not exist. */
static void *
read_log(const char *path, size_t size, const char *(*parse)(char **,
    size_t, void *), size_t *n, int warn)
{
	FILE *fp = open_log(path);
	char *recs = NULL, *line = NULL, *copy, *w[5];
	size_t cap = 0, lineno = 0, nw;
	skipped sk = { 0, 0, "", NULL };
	const char *why;

	*n = 0;
	if (fp == NULL)
		return NULL;
	while (next_line(fp, path, &line, &cap) != -1) {
		lineno++;
		copy = sr_strdup(line);
		if ((nw = split_words(copy, w, 4)) != 0) {
			recs = sr_reallocarray(recs, *n + 1, size);
			if ((why = parse(w, nw, recs + *n * size)) != NULL)
				skip_line(&sk, lineno, line, why);
			else
				++*n;
		}
		free(copy);
	}
	warn_skipped(&sk, path, warn);
	free(line);
	fclose(fp);
	return recs;
}

sr_attempt *
sr_attempts_read(const char *path, size_t *n, int warn)
{
	return read_log(path, sizeof(sr_attempt), parse_attempt, n, warn);
}

/* Parses the words of one line of logs/attempts into *s: NULL, or why
 * not. */
static const char *
parse_start(char **w, size_t nw, void *rec)
{
	sr_task_start *s = rec;
	long long t;
	char *end;

	if (nw != 4)
		return "expected 'I HOST PID TIME': a task, the host and "
		    "process of its attempt, and a time in seconds since "
		    "the epoch";
	if (sr_parse_long(w[0], &s->task) || s->task < 0)
		return "the task is not a number from 0";
	if (strlen(w[1]) >= sizeof s->host)
		return "the host name is longer than 255 bytes";
	if (sr_parse_long(w[2], &s->pid) || s->pid <= 0)
		return "the process id is not a number from 1";
	errno = 0;
	t = strtoll(w[3], &end, 10);
	if (*end != '\0' || errno || t < 0)
		return "the time is not a whole number of seconds from 0";
	strcpy(s->host, w[1]);
	s->time = t;
	return NULL;
}

sr_task_start *
sr_task_starts_read(const char *path, size_t *n, int warn)
{
	return read_log(path, sizeof(sr_task_start), parse_start, n, warn);
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
