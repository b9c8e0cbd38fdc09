/* ledger_test - the tuning ledger (sa/ledger): rows written and read back
 * exactly, incremental reads that take complete lines only, the dedup of
 * results and cancels, every refusal naming file and line, appends
 * refused before the lock, an I/O failure undone; under the lock: 8
 * processes appending 1,000 rows each while a reader polls, and locks
 * left by dead or stuck holders broken after the grace period. */
#define _GNU_SOURCE	/* setenv, unsetenv */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "core/err.h"
#include "core/lock.h"
#include "core/num.h"
#include "sa/ledger.h"

static char dir[64];

/* A path in the test's directory, in a buffer of 8 that calls reuse. */
static char *
path_of(const char *name)
{
	static char buf[8][128];
	static int k;
	char *p = buf[k++ % 8];

	snprintf(p, 128, "%s/%s", dir, name);
	return p;
}

static void
put_file(const char *path, const char *text, size_t n, int append)
{
	int fd = open(path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC),
	    0644);

	if (fd < 0 || write(fd, text, n) != (ssize_t)n) {
		fail("cannot write %s", path);
		exit(1);
	}
	close(fd);
}

static void
put_text(const char *path, const char *text)
{
	put_file(path, text, strlen(text), 0);
}

static void
add_text(const char *path, const char *text)
{
	put_file(path, text, strlen(text), 1);
}

static int
exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}


/* Reads the ledger arg through. */
static void
read_all(void *arg)
{
	sr_ledger *l = sr_ledger_open(arg);

	sr_ledger_update(l);
	sr_ledger_close(l);
}

static const char *header = "kind\trun\ttile\tvalue\tseconds\tdetail\n";

static sr_ledgerrow
result(size_t run, const char *tile, double value, double seconds,
    const char *detail)
{
	sr_ledgerrow r = { SR_LEDGER_RESULT, run, (char *)tile, value, seconds,
		(char *)detail, 0 };

	return r;
}

static sr_ledgerrow
cancel(size_t run, const char *count, double mean, const char *detail)
{
	sr_ledgerrow r = { SR_LEDGER_CANCEL, run, (char *)count, mean, NAN,
		(char *)detail, 0 };

	return r;
}

/* Whether two doubles are the same (NaN the same as NaN). */
static int
same(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

static int
same_row(const sr_ledgerrow *a, const sr_ledgerrow *b)
{
	return a->kind == b->kind && a->run == b->run &&
	    strcmp(a->tile, b->tile) == 0 && same(a->value, b->value) &&
	    same(a->seconds, b->seconds) &&
	    strcmp(a->detail, b->detail ? b->detail : "") == 0;
}

/* ---- the format ------------------------------------------------------- */

static void
test_round_trip(void)
{
	const char *path = path_of("round.tsv");
	const char *prov[] = { "#seg-run 0.1.0", "#command line: seg-run -b 3" };
	sr_ledgerrow rows[] = {
		result(0, "tile-a", 0.8125, 12.5, ""),
		result(3, "tuile-\xc3\xa9", 0.1, 1e-300, "status=ok #not a comment"),
		result(3, "b", -2.5e22, 0, NULL),
		result(9000000000000000ull, "c", NAN, NAN, "status=error"),
		result(4, "d", 1.0 / 3, 0.30000000000000004, "x y"),
		cancel(3, "4", 0.61, "converged: mean 0.61 < 0.72 - 0.05 after 4"),
		cancel(5, "0", NAN, "no value"),
	};
	size_t n = sizeof rows / sizeof *rows, i;
	sr_ledger *l;
	const char *text;

	sr_ledger_append(path, prov, 2, rows, n, 30);
	text = slurp(path);
	if (strncmp(text, "#seg-run 0.1.0\n#command line: seg-run -b 3\n"
	    "kind\trun\ttile\tvalue\tseconds\tdetail\n"
	    "result\t0\ttile-a\t0.8125\t12.5\t\n", 106) != 0)
		fail("round trip: the file starts '%.120s'", text);
	if (strstr(text, "\ncancel\t3\t4\t0.61\t-\tconverged: mean 0.61 < 0.72 "
	    "- 0.05 after 4\n") == NULL ||
	    strstr(text, "\nresult\t9000000000000000\tc\t-\t-\tstatus=error\n")
	    == NULL)
		fail("round trip: a cancel or NaN row not as expected: %s", text);
	l = sr_ledger_open(path);
	if (sr_ledger_update(l) != n || sr_ledger_nrows(l) != n)
		fail("round trip: %zu rows read, %zu written", sr_ledger_nrows(l), n);
	for (i = 0; i < n && i < sr_ledger_nrows(l); i++)
		if (!same_row(sr_ledger_row(l, i), &rows[i]))
			fail("round trip: row %zu differs", i);
	if (sr_ledger_row(l, n) != NULL)
		fail("round trip: a row past the end");
	sr_ledger_close(l);
	/* appended again: no second header or provenance */
	sr_ledger_append(path, prov, 2, rows, 1, 30);
	text = slurp(path);
	if (strstr(text + 1, "#seg-run") || strstr(text + 1 + strlen(header) +
	    50, "kind\t"))
		fail("round trip: a second header or provenance");
	/* no rows: the header alone */
	sr_ledger_append(path_of("empty.tsv"), NULL, 0, NULL, 0, 30);
	if (strcmp(slurp(path_of("empty.tsv")), header) != 0)
		fail("no rows: not the header alone: '%s'", slurp(path_of("empty.tsv")));
	if (exists(path_of("round.tsv.lock")))
		fail("round trip: the lock was left");
}

/* The reader takes complete lines only, and only from where it stopped:
 * a line already read, changed in place, is not read again. */
static void
test_incremental(void)
{
	const char *path = path_of("inc.tsv");
	sr_ledgerrow r0 = result(1, "a", 0.5, 1, "first");
	sr_ledger *l = sr_ledger_open(path);
	char msg[1024];
	size_t got;

	if (sr_ledger_update(l) != 0 || sr_ledger_nrows(l) != 0)
		fail("incremental: a missing ledger is not empty");
	put_text(path, "#prov");
	if (sr_ledger_update(l) != 0)
		fail("incremental: an incomplete comment read");
	add_text(path, "\nkind\trun\ttile");
	if (sr_ledger_update(l) != 0)
		fail("incremental: an incomplete header read");
	add_text(path, "\tvalue\tseconds\tdetail\n");
	sr_ledger_append(path, NULL, 0, &r0, 1, 30);
	if ((got = sr_ledger_update(l)) != 1)
		fail("incremental: %zu rows after one append", got);
	add_text(path, "result\t7\tt");
	if ((got = sr_ledger_update(l)) != 0 || sr_ledger_nrows(l) != 1)
		fail("incremental: half a line read (%zu rows)", got);
	add_text(path, "ile\t0.25\t2\thalf");
	if ((got = sr_ledger_update(l)) != 0)
		fail("incremental: a line without its newline read");
	add_text(path, "\n\n#a comment between rows\n  \t \nresult\t8\tu\t1\t");
	if ((got = sr_ledger_update(l)) != 1 || sr_ledger_nrows(l) != 2 ||
	    strcmp(sr_ledger_row(l, 1)->tile, "tile") != 0 ||
	    strcmp(sr_ledger_row(l, 1)->detail, "half") != 0 ||
	    sr_ledger_row(l, 1)->value != 0.25)
		fail("incremental: the finished line not read as one row");
	/* the first rows spoiled in place: never read again */
	{
		int fd = open(path, O_WRONLY);
		off_t at = (off_t)(strlen("#prov\n") + strlen(header));

		if (fd < 0 || pwrite(fd, "XXXXXX", 6, at) != 6)
			fail("incremental: cannot spoil the file");
		close(fd);
	}
	add_text(path, "3\t\n");
	if ((got = sr_ledger_update(l)) != 1 || sr_ledger_row(l, 2)->run != 8 ||
	    sr_ledger_row(l, 2)->seconds != 3)
		fail("incremental: the rows after a spoiled line (%zu)", got);
	if (sr_ledger_update(l) != 0)
		fail("incremental: rows read twice");
	add_text(path, "result\t9\tcr\t1\t1\tcrlf\r\n");
	if (sr_ledger_update(l) != 1 ||
	    strcmp(sr_ledger_row(l, 3)->detail, "crlf") != 0)
		fail("incremental: a line ending in CR LF");
	/* a fresh reader reads the spoiled line, and dies on it */
	if (child_error(read_all, (void *)path, msg, sizeof msg) != SR_EXIT_DATA ||
	    strstr(msg, "inc.tsv:3: column kind: 'XXXXXX") == NULL)
		fail("incremental: the spoiled line: %s", msg);
	sr_ledger_close(l);
}

/* The reader l of path after the file was truncated dies. */
static void
update_truncated(void *arg)
{
	sr_ledger *l = sr_ledger_open(arg);

	sr_ledger_update(l);
	truncate(arg, 10);
	sr_ledger_update(l);
	sr_ledger_close(l);
}

static void
test_truncated(void)
{
	const char *path = path_of("trunc.tsv");
	sr_ledgerrow r = result(1, "a", 0.5, 1, "");
	char msg[1024];

	sr_ledger_append(path, NULL, 0, &r, 1, 30);
	if (child_error(update_truncated, (void *)path, msg, sizeof msg) !=
	    SR_EXIT_DATA || strstr(msg, "trunc.tsv: 10 bytes, fewer than the ") ==
	    NULL || strstr(msg, " already read: the ledger was truncated") == NULL)
		fail("truncated: %s", msg);
}

static void
test_dedup(void)
{
	const char *path = path_of("dedup.tsv");
	sr_ledgerrow rows[] = {
		result(1, "a", 0.1, 1, "first"),
		result(1, "b", 0.2, 1, ""),
		result(1, "a", 0.9, 2, "again: dropped"),
		cancel(1, "2", 0.15, "rule"),
		cancel(1, "3", 0.4, "again: dropped"),
		result(2, "a", 0.3, 1, ""),
		result(1, "a", 0.1, 1, "after the cancel: dropped (a repeat)"),
		result(1, "c", 0.5, 1, "after the cancel: kept"),
	};
	sr_ledgerrow again[] = {
		result(2, "a", 0.7, 1, "a resumed bucket's: dropped"),
		result(2, "b", 0.7, 1, "new"),
		cancel(1, "9", 0, "dropped"),
		cancel(2, "1", 0.5, "new"),
	};
	sr_ledger *l = sr_ledger_open(path);
	size_t got;

	sr_ledger_append(path, NULL, 0, rows, 8, 30);
	if ((got = sr_ledger_update(l)) != 5)
		fail("dedup: %zu rows of 8 with 3 repeats", got);
	else if (strcmp(sr_ledger_row(l, 0)->detail, "first") != 0 ||
	    sr_ledger_row(l, 2)->kind != SR_LEDGER_CANCEL ||
	    strcmp(sr_ledger_row(l, 2)->tile, "2") != 0 ||
	    strcmp(sr_ledger_row(l, 4)->tile, "c") != 0)
		fail("dedup: not the first of each");
	sr_ledger_append(path, NULL, 0, again, 4, 30);
	if ((got = sr_ledger_update(l)) != 2 ||
	    strcmp(sr_ledger_row(l, 5)->detail, "new") != 0 ||
	    strcmp(sr_ledger_row(l, 6)->detail, "new") != 0)
		fail("dedup across updates: %zu rows", got);
	sr_ledger_close(l);
}

/* A ledger of all batches: the batch column read into each row; a plain
 * ledger's rows have batch 0. */
static void
test_batch_column(void)
{
	const char *path = path_of("batched.tsv");
	const sr_ledgerrow *r;
	sr_ledger *l;

	put_text(path, "#composed\nkind\trun\ttile\tvalue\tseconds\tdetail\t"
	    "batch\nresult\t0\ta\t0.5\t1\tok\t1\nresult\t12\ta\t0.25\t-\t\t"
	    "2\ncancel\t13\t1\t-\t-\tmedian\t3\n");
	l = sr_ledger_open(path);
	if (sr_ledger_update(l) != 3 || !sr_ledger_has_batch(l))
		fail("batch column: %zu rows, has_batch %d", sr_ledger_nrows(l),
		    sr_ledger_has_batch(l));
	r = sr_ledger_row(l, 1);
	if (r->run != 12 || r->batch != 2 || r->value != 0.25 ||
	    strcmp(r->detail, "") != 0)
		fail("batch column: row 2: run %zu batch %zu", r->run, r->batch);
	r = sr_ledger_row(l, 2);
	if (r->kind != SR_LEDGER_CANCEL || r->batch != 3 ||
	    strcmp(r->detail, "median") != 0)
		fail("batch column: row 3: batch %zu detail '%s'", r->batch,
		    r->detail);
	sr_ledger_close(l);
	put_text(path, "kind\trun\ttile\tvalue\tseconds\tdetail\n"
	    "result\t0\ta\t0.5\t1\tok\n");
	l = sr_ledger_open(path);
	if (sr_ledger_update(l) != 1 || sr_ledger_has_batch(l) ||
	    sr_ledger_row(l, 0)->batch != 0)
		fail("no batch column: has_batch %d", sr_ledger_has_batch(l));
	sr_ledger_close(l);
}

/* Malformed files: each dies with exit 1 naming file and line. */
static void
test_malformed(void)
{
	static const struct {
		int raw;	/* the whole file, else after the header */
		const char *text, *want;
	} bad[] = {
		{ 1, "kind\trun\ttile\tvalue\tseconds\n", ":1: header: 5 columns" },
		{ 1, "#c\nkind\trun\ttile\tval\tseconds\tdetail\n",
		  ":2: header: column 4 is 'val', expected 'value'" },
		{ 1, "result\t1\ta\t0.5\t1\t\n", ":1: header: column 1 is 'result'" },
		{ 1, "\xef\xbb\xbfkind\trun\ttile\tvalue\tseconds\tdetail\n",
		  ":1: starts with a UTF-8 byte order mark" },
		{ 0, "RESULT\t1\ta\t0.5\t1\t\n", ":2: column kind: 'RESULT' is not a kind" },
		{ 0, "result\tx\ta\t0.5\t1\t\n", ":2: column run: 'x' is not a run" },
		{ 0, "result\t-1\ta\t0.5\t1\t\n", ":2: column run: '-1' is not a run" },
		{ 0, "result\t1.5\ta\t0.5\t1\t\n", ":2: column run: '1.5' is not a run" },
		{ 0, "result\t1\ta\tnan\t1\t\n", ":2: column value: 'nan' is not finite" },
		{ 0, "result\t1\ta\t0,5\t1\t\n", ":2: column value: '0,5' is not a number" },
		{ 0, "result\t1\ta\t\t1\t\n", ":2: column value: '' is empty" },
		{ 0, "result\t1\ta\t0.5\t-1\t\n", ":2: column seconds: '-1' is not a number of seconds" },
		{ 0, "result\t1\ta\t0.5\tinf\t\n", ":2: column seconds: 'inf' is not finite" },
		{ 0, "cancel\t1\t4\t0.5\t3\t\n", ":2: column seconds: '3' is not - (a cancel" },
		{ 0, "cancel\t1\tfour\t0.5\t-\t\n", ":2: column tile: 'four' is not a number of values" },
		{ 0, "result\t1\t\t0.5\t1\t\n", ":2: column tile: '' is empty" },
		{ 0, "result\t1\ta\xff\t0.5\t1\t\n", ":2: column tile: 'a\\xff' is not valid UTF-8" },
		{ 0, "result\t1\ta\t0.5\t1\tx\x01y\n", ":2: column detail: 'x\\x01y' holds a control character" },
		{ 0, "result\t1\ta\t0.5\t1\tx\ry\n", ":2: column detail: 'x\\ry' holds a control character" },
		{ 0, "result\t1\ta\t0.5\t1\n", ":2: 5 fields, expected 6 (row too short)" },
		{ 0, "result\t1\ta\n", ":2: 3 fields, expected 6 (row too short)" },
		{ 0, "result\t1\ta\t0.5\t1\t\t\n", ":2: 7 fields, expected 6 (row too long)" },
		{ 0, "#c\n\nresult\t1\ta\t0.5\t1\t\nresult\t2\n", ":5: 2 fields" },
		/* the batch column: only seventh, named batch, a batch >= 1 */
		{ 1, "kind\trun\ttile\tvalue\tseconds\tdetail\tbach\n",
		  ":1: header: column 7 is 'bach', expected 'batch'" },
		{ 1, "kind\trun\ttile\tvalue\tseconds\tdetail\tbatch\tx\n",
		  ":1: header: 8 columns" },
		{ 1, "kind\trun\ttile\tvalue\tseconds\tdetail\tbatch\n"
		  "result\t1\ta\t0.5\t1\t\t0\n", ":2: column batch: '0' is not a batch" },
		{ 1, "kind\trun\ttile\tvalue\tseconds\tdetail\tbatch\n"
		  "result\t1\ta\t0.5\t1\t\t1.5\n", ":2: column batch: '1.5' is not a batch" },
		{ 1, "kind\trun\ttile\tvalue\tseconds\tdetail\tbatch\n"
		  "result\t1\ta\t0.5\t1\t\n", ":2: 6 fields, expected 7 (row too short)" },
	};
	const char *path = path_of("bad.tsv");
	char msg[1024], want[256], text[512];
	size_t i;
	int rc;

	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		snprintf(text, sizeof text, "%s%s", bad[i].raw ? "" : header,
		    bad[i].text);
		put_text(path, text);
		snprintf(want, sizeof want, "%s%s", path, bad[i].want);
		rc = child_error(read_all, (void *)path, msg, sizeof msg);
		if (rc != SR_EXIT_DATA || strstr(msg, want) == NULL)
			fail("malformed %zu: exit %d, '%s', expected 1 and '%s'", i,
			    rc, msg, want);
	}
	/* a NUL byte */
	put_file(path, "kind\trun\ttile\tvalue\tseconds\tdetail\nresult\t1\ta\0b\t"
	    "0.5\t1\t\n", strlen(header) + 20, 0);
	snprintf(want, sizeof want, "%s:2: NUL byte", path);
	if (child_error(read_all, (void *)path, msg, sizeof msg) != SR_EXIT_DATA ||
	    strstr(msg, want) == NULL)
		fail("malformed: a NUL byte: %s", msg);
	/* a line over the bound, complete or not, read a buffer at a time */
	{
		size_t n = 70000;
		char *big = malloc(n + 64);
		int nl;

		for (nl = 0; nl < 2; nl++) {
			put_text(path, header);
			add_text(path, "#c\n");
			memset(big, 'x', n);
			memcpy(big, "result\t1\t", 9);
			big[n] = nl ? '\n' : '\0';
			put_file(path, big, n + (size_t)nl, 1);
			snprintf(want, sizeof want, "%s:3: line longer than 65535 bytes",
			    path);
			if (child_error(read_all, (void *)path, msg, sizeof msg) !=
			    SR_EXIT_DATA || strstr(msg, want) == NULL)
				fail("malformed: a long line (newline %d): %s", nl, msg);
		}
		/* the longest line is read */
		put_text(path, header);
		n = SR_LEDGER_LINE_MAX;
		memset(big, 'x', n);
		memcpy(big, "result\t1\ta\t0.5\t1\t", 17);
		big[n - 1] = '\n';
		put_file(path, big, n, 1);
		if (child_error(read_all, (void *)path, msg, sizeof msg) != 0)
			fail("malformed: a line of %zu bytes refused: %s", n, msg);
		free(big);
	}
	/* not a regular file */
	if (child_error(read_all, (void *)dir, msg, sizeof msg) != SR_EXIT_DATA ||
	    strstr(msg, "not a regular file") == NULL)
		fail("malformed: a directory: %s", msg);
}

/* ---- appending --------------------------------------------------------- */

struct append_arg {
	const char *path;
	const char *const *prov;
	size_t nprov;
	sr_ledgerrow row;
};

static void
append_one(void *arg)
{
	struct append_arg *a = arg;

	sr_ledger_append(a->path, a->prov, a->nprov, &a->row, 1, 30);
}

/* Rows that would not read back are refused, before the lock. */
static void
test_append_refused(void)
{
	static const char *const noprefix[] = { "seg-run 0.1.0" };
	static const char *const newline[] = { "#a\nb" };
	const char *path = path_of("refused.tsv");
	struct {
		sr_ledgerrow row;
		const char *const *prov;
		const char *want;
	} bad[] = {
		{ result(1, "a\tb", 0.5, 1, ""), NULL, "column tile holds a tab" },
		{ result(1, "", 0.5, 1, ""), NULL, "column tile is empty" },
		{ result(1, NULL, 0.5, 1, ""), NULL, "column tile is empty" },
		{ result(1, "a\xc3", 0.5, 1, ""), NULL, "column tile is not valid UTF-8" },
		{ result(1, "a", 0.5, 1, "x\ny"), NULL, "column detail holds a control" },
		{ result(1, "a", INFINITY, 1, ""), NULL, "column value is not finite" },
		{ result(1, "a", 0.5, -0.5, ""), NULL, "column seconds is not a number of seconds" },
		{ result(1, "a", 0.5, INFINITY, ""), NULL, "column seconds is not" },
		{ result(10000000000000000ull, "a", 0.5, 1, ""), NULL, "column run is too large" },
		{ cancel(1, "x", 0.5, ""), NULL, "column tile is not a number of values" },
		{ cancel(1, "-1", 0.5, ""), NULL, "column tile is not a number of values" },
		{ { SR_LEDGER_CANCEL, 1, "2", 0.5, 1, "", 0 }, NULL, "column seconds is not -" },
		{ { (sr_ledgerkind)7, 1, "2", 0.5, 1, "", 0 }, NULL, "column kind is neither" },
		{ result(1, "a", 0.5, 1, ""), noprefix, "provenance line 1 is not one comment line" },
		{ result(1, "a", 0.5, 1, ""), newline, "provenance line 1 is not one comment line" },
	};
	struct append_arg a;
	char msg[1024];
	size_t i;
	int rc;

	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		a = (struct append_arg){ path, bad[i].prov, 1, bad[i].row };
		rc = child_error(append_one, &a, msg, sizeof msg);
		if (rc != SR_EXIT_DATA || strstr(msg, "refused.tsv") == NULL ||
		    strstr(msg, bad[i].want) == NULL)
			fail("append refused %zu: exit %d, '%s', expected 1 and '%s'",
			    i, rc, msg, bad[i].want);
		if (exists(path) || exists(path_of("refused.tsv.lock")))
			fail("append refused %zu: the ledger or its lock made", i);
	}
	/* a detail of a line over the bound */
	{
		char *big = malloc(SR_LEDGER_LINE_MAX + 1);

		memset(big, 'd', SR_LEDGER_LINE_MAX);
		big[SR_LEDGER_LINE_MAX] = '\0';
		a = (struct append_arg){ path, NULL, 0, result(1, "a", 0.5, 1, big) };
		if (child_error(append_one, &a, msg, sizeof msg) != SR_EXIT_DATA ||
		    strstr(msg, "more than 65536") == NULL || exists(path))
			fail("append refused: a long line: %s", msg);
		free(big);
	}
}

/* Appends a row with the ledger's file size limited to what it holds and
 * 10 bytes more. */
static void
append_limited(void *arg)
{
	struct append_arg *a = arg;
	struct stat st;
	struct rlimit rl;

	signal(SIGXFSZ, SIG_IGN);
	stat(a->path, &st);
	rl.rlim_cur = rl.rlim_max = (rlim_t)st.st_size + 10;
	setrlimit(RLIMIT_FSIZE, &rl);
	append_one(arg);
}

/* A write that fails is undone, exits 3, and leaves no lock. */
static void
test_io_failure(void)
{
	const char *path = path_of("full.tsv");
	struct append_arg a = { path, NULL, 0, result(1, "a", 0.5, 1, "") };
	char msg[1024], before[4096];
	int rc;

	a.row.detail = "a detail long enough that the lock file's line is "
	    "shorter than the ledger's size limit: ..................................."
	    "................................................................."
	    ".........";
	sr_ledger_append(path, NULL, 0, &a.row, 1, 30);
	snprintf(before, sizeof before, "%s", slurp(path));
	a.row = result(2, "a-long-tile-name", 0.5, 1, "a detail");
	rc = child_error(append_limited, &a, msg, sizeof msg);
	if (rc != SR_EXIT_IO || strstr(msg, "full.tsv: short write (undone)") ==
	    NULL)
		fail("io failure: exit %d, '%s'", rc, msg);
	if (strcmp(slurp(path), before) != 0)
		fail("io failure: the short write not undone: '%s'", slurp(path));
	if (exists(path_of("full.tsv.lock")))
		fail("io failure: the lock was left");
	/* a directory that does not exist: as open's errno says */
	a.path = path_of("no/such/dir/ledger.tsv");
	rc = child_error(append_one, &a, msg, sizeof msg);
	if (rc != SR_EXIT_DATA ||
	    strstr(msg, "ledger.tsv: cannot take its lock: ") == NULL)
		fail("io failure: no directory: exit %d, '%s'", rc, msg);
}

/* An append killed while writing left half a line: the next append cuts
 * it, with a warning. */
static void
test_cut_incomplete(void)
{
	const char *path = path_of("cut.tsv");
	struct append_arg a = { path, NULL, 0, result(1, "a", 0.5, 1, "") };
	sr_ledger *l;
	char msg[1024];

	sr_ledger_append(path, NULL, 0, &a.row, 1, 30);
	add_text(path, "result\t2\tha");
	a.row = result(3, "b", 0.25, 2, "after");
	if (child_error(append_one, &a, msg, sizeof msg) != 0 ||
	    strstr(msg, "cut.tsv: removed an incomplete last line of 11 bytes") ==
	    NULL)
		fail("cut: '%s'", msg);
	l = sr_ledger_open(path);
	if (sr_ledger_update(l) != 2 || sr_ledger_row(l, 1)->run != 3)
		fail("cut: not the two rows");
	sr_ledger_close(l);
	/* half a header: cut, the header written */
	put_text(path, "kind\tru");
	a.row = result(4, "c", 0.25, 2, "");
	if (child_error(append_one, &a, msg, sizeof msg) != 0 ||
	    strncmp(slurp(path), header, strlen(header)) != 0)
		fail("cut: half a header: %s", slurp(path));
	/* no newline in the last 64 KiB: not a ledger, left as it is */
	{
		char *big = malloc(70000);

		memset(big, 'z', 70000);
		put_file(path, big, 70000, 0);
		free(big);
	}
	if (child_error(append_one, &a, msg, sizeof msg) != SR_EXIT_DATA ||
	    strstr(msg, "no newline in its last 65536 bytes") == NULL)
		fail("cut: garbage: %s", msg);
	if (exists(path_of("cut.tsv.lock")))
		fail("cut: the lock was left");
}

static void
grace_of(void *arg)
{
	setenv("SA_LEDGER_LOCK_GRACE", arg, 1);
	sr_ledger_grace();
}

static void
test_grace(void)
{
	static const char *const bad[] = { "0", "-5", "abc", "1.5", " 3" };
	char msg[512];
	size_t i;

	unsetenv("SA_LEDGER_LOCK_GRACE");
	if (sr_ledger_grace() != SR_LOCK_GRACE)
		fail("grace: the default");
	setenv("SA_LEDGER_LOCK_GRACE", "", 1);
	if (sr_ledger_grace() != SR_LOCK_GRACE)
		fail("grace: empty is the default");
	setenv("SA_LEDGER_LOCK_GRACE", "7", 1);
	if (sr_ledger_grace() != 7)
		fail("grace: 7");
	unsetenv("SA_LEDGER_LOCK_GRACE");
	for (i = 0; i < sizeof bad / sizeof *bad; i++)
		if (child_error(grace_of, (void *)bad[i], msg, sizeof msg) != SR_EXIT_USAGE ||
		    strstr(msg, "SA_LEDGER_LOCK_GRACE") == NULL)
			fail("grace: '%s' taken: %s", bad[i], msg);
}

/* ---- under the lock ---------------------------------------------------- */

#define WRITERS 8
#define PER_WRITER_MAX 1000

/* Rows each writer appends: PER_WRITER_MAX, a tenth under SR_QUICK (make
 * check-fast's inner loop; make check runs them all). */
static size_t per_writer = PER_WRITER_MAX;

/* Writer k's row i: run i, tile pK; its value, seconds and detail known. */
static sr_ledgerrow
writer_row(int k, int i, char *tile, char *detail)
{
	sprintf(tile, "p%d", k);
	sprintf(detail, "writer %d row %d: padding so that an interleaved "
	    "line would show .........................................", k, i);
	return result((size_t)i, tile, k * 1000.0 + i, i / 1000.0, detail);
}

/* Whether r is a row some writer appends. */
static int
writer_row_ok(const sr_ledgerrow *r)
{
	char tile[16], detail[256];
	sr_ledgerrow w;
	int k;

	if (r->kind != SR_LEDGER_RESULT || r->tile[0] != 'p' ||
	    (k = atoi(r->tile + 1)) < 0 || k >= WRITERS || r->run >= per_writer)
		return 0;
	w = writer_row(k, (int)r->run, tile, detail);
	return same_row(r, &w);
}

static void
writer(const char *path, int k)
{
	const char *prov[] = { "#ledger_test writer" };
	char tile[16], detail[256];
	sr_ledgerrow r;
	int i;

	for (i = 0; i < (int)per_writer; i++) {
		r = writer_row(k, i, tile, detail);
		sr_ledger_append(path, prov, 1, &r, 1, 30);
	}
}

/* Polls the ledger until it holds every row (or a minute passed): exits
 * 0 when every row it saw was a writer's, each once. */
static void
poller(const char *path)
{
	sr_ledger *l = sr_ledger_open(path);
	double t0 = sr_now();
	size_t seen = 0, polls = 0, busy = 0, got;
	struct timespec pause = { 0, 100000 };

	while (seen < WRITERS * per_writer && sr_now() - t0 < 60) {
		nanosleep(&pause, NULL);
		got = sr_ledger_update(l);
		polls++;
		busy += got > 0 && got < WRITERS * per_writer;
		for (; seen < sr_ledger_nrows(l); seen++)
			if (!writer_row_ok(sr_ledger_row(l, seen))) {
				fprintf(stderr, "poller: row %zu not a writer's\n", seen);
				_exit(1);
			}
	}
	fprintf(stderr, "ledger_test: a reader polled %zu times, %zu of them "
	    "while rows came, and saw %zu rows\n", polls, busy, seen);
	_exit(seen == WRITERS * per_writer ? 0 : 1);
}

static void
test_concurrent(void)
{
	const char *path = path_of("many.tsv");
	pid_t kids[WRITERS + 1];
	static unsigned char seen[WRITERS][PER_WRITER_MAX];
	const sr_ledgerrow *r;
	double t0 = sr_now();
	sr_ledger *l;
	int k, st, bad = 0;
	size_t i, rows = 0, headers = 0;
	FILE *fp;
	char line[512];

	fflush(stdout);
	for (k = 0; k <= WRITERS; k++)
		if ((kids[k] = fork()) == 0) {
			if (k == WRITERS)
				poller(path);
			writer(path, k);
			_exit(0);
		}
	for (k = 0; k <= WRITERS; k++) {
		waitpid(kids[k], &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			fail("concurrent: %s %d failed", k < WRITERS ? "writer" :
			    "poller", k);
			bad = 1;
		}
	}
	fprintf(stderr, "ledger_test: %d processes appended %zu rows each, one "
	    "at a time, in %.2f s\n", WRITERS, per_writer, sr_now() - t0);
	if (bad)
		return;
	/* every line whole: one header, the rows, each once */
	if ((fp = fopen(path, "r")) == NULL) {
		fail("concurrent: no ledger");
		return;
	}
	while (fgets(line, sizeof line, fp)) {
		if (line[strlen(line) - 1] != '\n')
			fail("concurrent: a line too long or cut: %s", line);
		if (line[0] == '#')
			continue;
		if (strcmp(line, header) == 0)
			headers++;
		else
			rows++;
	}
	fclose(fp);
	if (headers != 1 || rows != WRITERS * per_writer)
		fail("concurrent: %zu headers, %zu rows", headers, rows);
	l = sr_ledger_open(path);
	sr_ledger_update(l);
	for (i = 0; i < sr_ledger_nrows(l); i++) {
		r = sr_ledger_row(l, i);
		if (!writer_row_ok(r))
			fail("concurrent: row %zu is no writer's", i);
		else
			seen[atoi(r->tile + 1)][r->run]++;
	}
	for (k = 0; k < WRITERS; k++)
		for (i = 0; i < per_writer; i++)
			if (seen[k][i] != 1)
				fail("concurrent: writer %d row %zu seen %d times", k,
				    i, seen[k][i]);
	sr_ledger_close(l);
	if (strstr(slurp(path), "#ledger_test writer\nkind") != slurp(path))
		fail("concurrent: the provenance is not the first line");
	if (exists(path_of("many.tsv.lock")))
		fail("concurrent: the lock was left");
}

#define THREADS 4
#define PER_THREAD_MAX 250

static size_t per_thread = PER_THREAD_MAX;	/* a tenth under SR_QUICK */

/* The threads' ledger, named before they start: path_of's ring of
 * buffers is not for threads (a buffer reused under a writer). */
static char threads_tsv[128];

static void *
thread_writer(void *arg)
{
	int k = (int)(intptr_t)arg, i;
	char tile[16];
	sr_ledgerrow r;

	snprintf(tile, sizeof tile, "thread%d", k);
	for (i = 0; i < (int)per_thread; i++) {
		r = result((size_t)i, tile, i, 0, "");
		sr_ledger_append(threads_tsv, NULL, 0, &r, 1, 30);
	}
	return NULL;
}

/* Threads of one process (one pid in the lock) append one at a time. */
static void
threads(void *arg)
{
	pthread_t t[THREADS];
	sr_ledger *l;
	intptr_t k;

	(void)arg;
	snprintf(threads_tsv, sizeof threads_tsv, "%s", path_of("threads.tsv"));
	for (k = 0; k < THREADS; k++)
		pthread_create(&t[k], NULL, thread_writer, (void *)k);
	for (k = 0; k < THREADS; k++)
		pthread_join(t[k], NULL);
	l = sr_ledger_open(threads_tsv);
	if (sr_ledger_update(l) != THREADS * per_thread)
		_exit(1);
	sr_ledger_close(l);
}

static void
test_threads(void)
{
	char msg[4096];
	int rc = child_error(threads, NULL, msg, sizeof msg);

	if (rc != 0 || msg[0] != '\0')
		fail("threads: exit %d, '%s'", rc, msg);
}

/* A lock file holding "host pid now", dated mtime seconds ago. */
static void
plant_lock(const char *lock, const char *host, long pid, long age)
{
	char text[512];
	struct timespec ts[2];

	snprintf(text, sizeof text, "%s %ld %lld\n", host, pid,
	    (long long)time(NULL));
	put_text(lock, text);
	ts[0].tv_sec = ts[1].tv_sec = time(NULL) - age;
	ts[0].tv_nsec = ts[1].tv_nsec = 0;
	utimensat(AT_FDCWD, lock, ts, 0);
}

/* Appends one row with grace 1: the seconds it took. */
static double
timed_append(const char *path, long grace)
{
	sr_ledgerrow r = result(1, "a", 0.5, 1, "");
	double t0 = sr_now();

	sr_ledger_append(path, NULL, 0, &r, 1, grace);
	return sr_now() - t0;
}

static void
test_stale_locks(void)
{
	const char *path = path_of("stale.tsv"), *lock = path_of("stale.tsv.lock");
	char host[256], msg[512];
	double t;
	pid_t holder;
	int go[2], st;

	sr_lock_host(host, sizeof host);
	/* a dead pid on this host: broken at once */
	plant_lock(lock, host, dead_pid(), 0);
	if ((t = timed_append(path, 1)) > 0.9 || exists(lock))
		fail("stale: a dead holder's lock: %.2f s", t);
	/* another host, untouched for long: broken at once */
	plant_lock(lock, "elsewhere.invalid", 4242, 3600);
	if ((t = timed_append(path, 1)) > 0.9 || exists(lock))
		fail("stale: an old lock of another host: %.2f s", t);
	/* another host, just touched: waited for, broken after the grace */
	plant_lock(lock, "elsewhere.invalid", 4242, 0);
	if ((t = timed_append(path, 1)) < 1 || t > 10 || exists(lock))
		fail("stale: a fresh lock of another host broken after %.2f s", t);
	/* a live holder on this host that stops touching it: the same */
	plant_lock(lock, host, (long)getppid(), 0);
	if ((t = timed_append(path, 1)) < 1 || t > 10 || exists(lock))
		fail("stale: a stuck live holder broken after %.2f s", t);
	/* a holder killed while holding it */
	if ((holder = fork()) == 0) {
		sr_lock_take(lock, (long)getpid(), 1, msg, sizeof msg);
		raise(SIGKILL);
	}
	waitpid(holder, NULL, 0);
	if (!exists(lock))
		fail("stale: the killed holder took no lock");
	if ((t = timed_append(path, 30)) > 0.9 || exists(lock))
		fail("stale: a killed holder's lock: %.2f s", t);
	/* a live holder that releases it: waited for, never broken */
	if (pipe(go) != 0)
		return;
	fflush(stdout);
	if ((holder = fork()) == 0) {
		struct timespec wait = { 0, 500000000 };
		char c = 'x';

		sr_lock_take(lock, (long)getpid(), 30, msg, sizeof msg);
		if (write(go[1], &c, 1) != 1)
			_exit(2);
		nanosleep(&wait, NULL);
		_exit(sr_lock_release(lock, (long)getpid()) == 0 ? 0 : 1);
	}
	if (read(go[0], msg, 1) != 1)
		fail("stale: the holder did not start");
	t = timed_append(path, 30);
	waitpid(holder, &st, 0);
	if (t < 0.4 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail("stale: a live holder's lock: %.2f s, holder exit %d", t,
		    WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	close(go[0]);
	close(go[1]);
	{
		sr_ledger *l = sr_ledger_open(path);

		if (sr_ledger_update(l) != 1)	/* one (run, tile), 6 times */
			fail("stale: the ledger");
		sr_ledger_close(l);
	}
	if (strstr(slurp(path), "result\t1\ta") == NULL)
		fail("stale: no rows");
}

/* Removes the test's directory and what it holds. */
static void
remove_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fail("cannot remove %s", dir);
}

int
main(void)
{
	(void)rnd;
	if (getenv("SR_QUICK")) {
		per_writer /= 10;
		per_thread /= 10;
	}
	snprintf(dir, sizeof dir, "/tmp/ledger_test.XXXXXX");
	if (mkdtemp(dir) == NULL) {
		perror(dir);
		return 1;
	}
	test_round_trip();
	test_incremental();
	test_truncated();
	test_dedup();
	test_batch_column();
	test_malformed();
	test_append_refused();
	test_io_failure();
	test_cut_incomplete();
	test_grace();
	test_concurrent();
	test_threads();
	test_stale_locks();
	remove_dir();
	return failures ? 1 : 0;
}
