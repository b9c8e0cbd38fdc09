/* ledger.c - the tuning ledger: rows checked once for the writer and the
 * reader, appended under the lock with one write(), read incrementally
 * from the end of the last complete line (ledger.h). */
#include "sa/ledger.h"
#include "core/err.h"
#include "core/hash.h"
#include "core/lock.h"
#include "core/num.h"
#include "core/text.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { COL_KIND, COL_RUN, COL_TILE, COL_VALUE, COL_SECONDS, COL_DETAIL,
	NCOL, COL_BATCH = NCOL };
static const char *const column[NCOL + 1] = { SR_LEDGER_KIND, SR_LEDGER_RUN,
	SR_LEDGER_TILE, SR_LEDGER_VALUE, SR_LEDGER_SECONDS, SR_LEDGER_DETAIL,
	SR_LEDGER_BATCH };
static const char *const kind_name[] = { "result", "cancel" };

#define MISSING "-"		/* a NaN field */
#define RUN_MAX 9000000000000000.0	/* the largest run sr_parse_long reads */
#define WAIT_MAX_US 20000	/* the longest wait between tries of the lock */

/* ---- rows ---------------------------------------------------------------- */

/* Why s cannot be a field (a tab, another control character, invalid
 * UTF-8), or NULL. */
static const char *
text_problem(const char *s)
{
	size_t i, n = strlen(s);

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return s[i] == '\t' ? "holds a tab" :
			    "holds a control character";
	return sr_utf8_invalid(s, n) == n ? NULL : "is not valid UTF-8";
}

/* Why row r cannot be written and read back, its column in *col, or
 * NULL: the rules of both the writer and the reader. */
static const char *
row_problem(const sr_ledgerrow *r, int *col)
{
	const char *why;
	long count;

	*col = COL_KIND;
	if (r->kind != SR_LEDGER_RESULT && r->kind != SR_LEDGER_CANCEL)
		return "is neither result nor cancel";
	*col = COL_RUN;
	if ((double)r->run > RUN_MAX)
		return "is too large";
	*col = COL_TILE;
	if (r->tile == NULL || r->tile[0] == '\0')
		return "is empty";
	if ((why = text_problem(r->tile)) != NULL)
		return why;
	if (r->kind == SR_LEDGER_CANCEL &&
	    (sr_parse_long(r->tile, &count) != NULL || count < 0))
		return "is not a number of values (a cancel's tile)";
	*col = COL_VALUE;
	if (isinf(r->value))
		return "is not finite";
	*col = COL_SECONDS;
	if (r->kind == SR_LEDGER_CANCEL && !isnan(r->seconds))
		return "is not " MISSING " (a cancel has no seconds)";
	if (isinf(r->seconds) || r->seconds < 0)
		return "is not a number of seconds >= 0";
	*col = COL_DETAIL;
	if (r->detail != NULL && (why = text_problem(r->detail)) != NULL)
		return why;
	return NULL;
}

/* ---- reading ------------------------------------------------------------- */

struct sr_ledger {
	char *path;
	off_t off;		/* the end of the last complete line read */
	size_t lineno;		/* the lines read */
	int header;		/* the header was read */
	int batched;		/* it has the batch column (NCOL + 1) */
	sr_ledgerrow *row;
	size_t nrow, cap;
	sr_interner results;	/* run (8 bytes) and tile of each result */
	sr_imap cancels;	/* the cancelled runs */
	char *buf;		/* SR_LEDGER_LINE_MAX bytes from off */
	char *key;		/* 8 + SR_LEDGER_LINE_MAX bytes */
};

/* Dies "PATH:LINE: message" (exit 1). */
static _Noreturn void __attribute__((format(printf, 2, 3)))
die_line(const sr_ledger *l, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	sr_die(SR_EXIT_DATA, "%s:%zu: %s", l->path, l->lineno, msg);
}

/* Dies "PATH:LINE: column NAME: 'VALUE' why" (exit 1). */
static _Noreturn void
die_field(const sr_ledger *l, int col, const char *value, const char *why)
{
	char show[SR_SHOWLEN];

	die_line(l, "column %s: '%s' %s", column[col], sr_show(show, value),
	    why);
}

sr_ledger *
sr_ledger_open(const char *path)
{
	sr_ledger *l = sr_calloc(1, sizeof *l);

	l->path = sr_strdup(path);
	sr_interner_init(&l->results);
	sr_imap_init(&l->cancels);
	l->buf = sr_malloc(SR_LEDGER_LINE_MAX);
	l->key = sr_malloc(8 + SR_LEDGER_LINE_MAX);
	return l;
}

void
sr_ledger_close(sr_ledger *l)
{
	size_t i;

	if (l == NULL)
		return;
	for (i = 0; i < l->nrow; i++) {
		free(l->row[i].tile);
		free(l->row[i].detail);
	}
	free(l->row);
	sr_interner_free(&l->results);
	sr_imap_free(&l->cancels);
	free(l->buf);
	free(l->key);
	free(l->path);
	free(l);
}

int
sr_ledger_has_batch(const sr_ledger *l)
{
	return l->batched;
}

void
sr_ledger_put_header(FILE *fp, int batch)
{
	int k, n = batch ? NCOL + 1 : NCOL;

	for (k = 0; k < n; k++)
		fprintf(fp, "%s%s", column[k], k + 1 < n ? "\t" : "\n");
}

size_t
sr_ledger_nrows(const sr_ledger *l)
{
	return l->nrow;
}

const sr_ledgerrow *
sr_ledger_row(const sr_ledger *l, size_t i)
{
	return i < l->nrow ? &l->row[i] : NULL;
}

/* The number of tab-separated fields of s. */
static size_t
count_fields(const char *s)
{
	size_t n = 1;

	while ((s = strchr(s, '\t')) != NULL) {
		n++;
		s++;
	}
	return n;
}

/* Splits s, of n fields, at its tabs into f. */
static void
split(char *s, char **f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		f[i] = s;
		s += strcspn(s, "\t");
		if (*s)
			*s++ = '\0';
	}
}

/* The header line s: exactly the columns, in order, and perhaps the
 * batch column after them; dies otherwise. */
static void
take_header(sr_ledger *l, char *s)
{
	char *f[NCOL + 1], show[SR_SHOWLEN];
	size_t i, n = count_fields(s);

	if (n == NCOL || n == NCOL + 1) {
		split(s, f, n);
		for (i = 0; i < n && strcmp(f[i], column[i]) == 0; i++)
			;
		if (i == n) {
			l->header = 1;
			l->batched = n == NCOL + 1;
			return;
		}
		die_line(l, "header: column %zu is '%s', expected '%s' (the "
		    "header is %s %s %s %s %s %s, tab-separated)", i + 1,
		    sr_show(show, f[i]), column[i], column[0], column[1],
		    column[2], column[3], column[4], column[5]);
	}
	die_line(l, "header: %zu columns, expected the %d columns %s %s %s %s "
	    "%s %s (not a ledger?)", n, NCOL, column[0],
	    column[1], column[2], column[3], column[4], column[5]);
}

/* Parses field col of f into *v: a finite number, or NaN for "-". */
static void
parse_number(const sr_ledger *l, char **f, int col, double *v)
{
	const char *why;
	char msg[128];

	if (strcmp(f[col], MISSING) == 0) {
		*v = NAN;
		return;
	}
	if ((why = sr_parse_double(f[col], v)) != NULL) {
		snprintf(msg, sizeof msg, "is %s: expected a number or "
		    MISSING, why);
		die_field(l, col, f[col], msg);
	}
}

/* Parses the row line s into r, tile and detail pointing into s; dies
 * naming the column on a bad field. */
static void
parse_row(const sr_ledger *l, char *s, sr_ledgerrow *r)
{
	char *f[NCOL + 1];
	const char *why;
	size_t n, ncol = NCOL + (l->batched ? 1 : 0);
	long run, batch = 0;
	int col;

	if ((n = count_fields(s)) != ncol)
		die_line(l, "%zu fields, expected %zu (row too %s)", n, ncol,
		    n < ncol ? "short" : "long");
	split(s, f, n);
	if (l->batched && ((why = sr_parse_long(f[COL_BATCH], &batch)) !=
	    NULL || batch < 1))
		die_field(l, COL_BATCH, f[COL_BATCH], "is not a batch (a whole "
		    "number >= 1)");
	r->batch = (size_t)batch;
	if (strcmp(f[COL_KIND], kind_name[SR_LEDGER_RESULT]) == 0)
		r->kind = SR_LEDGER_RESULT;
	else if (strcmp(f[COL_KIND], kind_name[SR_LEDGER_CANCEL]) == 0)
		r->kind = SR_LEDGER_CANCEL;
	else
		die_field(l, COL_KIND, f[COL_KIND], "is not a kind (result or "
		    "cancel)");
	if ((why = sr_parse_long(f[COL_RUN], &run)) != NULL || run < 0)
		die_field(l, COL_RUN, f[COL_RUN], "is not a run (a whole number "
		    ">= 0)");
	r->run = (size_t)run;
	r->tile = f[COL_TILE];
	parse_number(l, f, COL_VALUE, &r->value);
	parse_number(l, f, COL_SECONDS, &r->seconds);
	r->detail = f[COL_DETAIL];
	if ((why = row_problem(r, &col)) != NULL)
		die_field(l, col, f[col], why);
}

/* Whether r is the first result of its (run, tile), or the first cancel
 * of its run; remembers it. */
static int
first_of_its_key(sr_ledger *l, const sr_ledgerrow *r)
{
	uint64_t run = (uint64_t)r->run;
	size_t n;
	int added;

	if (r->kind == SR_LEDGER_CANCEL) {
		sr_imap_at(&l->cancels, run, &added);
		return added;
	}
	n = strlen(r->tile);
	memcpy(l->key, &run, 8);
	memcpy(l->key + 8, r->tile, n);
	sr_intern(&l->results, l->key, 8 + n, &added);
	return added;
}

/* One complete line s of n bytes, its newline replaced by a NUL. */
static void
take_line(sr_ledger *l, char *s, size_t n)
{
	sr_ledgerrow r;

	l->lineno++;
	if (strlen(s) != n)
		die_line(l, "NUL byte in line: not a text file");
	if (n > 0 && s[n - 1] == '\r')
		s[--n] = '\0';
	if (l->lineno == 1 && strncmp(s, "\xef\xbb\xbf", 3) == 0)
		die_line(l, "starts with a UTF-8 byte order mark (BOM)");
	if (s[0] == '#' || s[strspn(s, " \t")] == '\0')
		return;		/* a comment, a blank line */
	if (!l->header) {
		take_header(l, s);
		return;
	}
	parse_row(l, s, &r);
	if (!first_of_its_key(l, &r))
		return;
	if (l->nrow == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->row = sr_reallocarray(l->row, l->cap, sizeof *l->row);
	}
	r.tile = sr_strdup(r.tile);
	r.detail = sr_strdup(r.detail);
	l->row[l->nrow++] = r;
}

/* Takes the complete lines of buf[0..len); returns the bytes they take. */
static size_t
take_lines(sr_ledger *l, size_t len)
{
	size_t done = 0;
	char *nl;

	while ((nl = memchr(l->buf + done, '\n', len - done)) != NULL) {
		*nl = '\0';
		take_line(l, l->buf + done, (size_t)(nl - l->buf) - done);
		done = (size_t)(nl - l->buf) + 1;
	}
	return done;
}

/* Opened at every call: on NFS, an open revalidates what the client
 * caches of the file (close-to-open consistency), so the lines other
 * nodes appended are seen. */
size_t
sr_ledger_update(sr_ledger *l)
{
	size_t before = l->nrow, len = 0, done;
	struct stat st;
	ssize_t got;
	int fd;

	if ((fd = open(l->path, O_RDONLY)) < 0) {
		if (errno == ENOENT)
			return 0;	/* not created yet */
		sr_die_errno("%s", l->path);
	}
	if (fstat(fd, &st) != 0)
		sr_die_io("%s", l->path);
	if (!S_ISREG(st.st_mode))
		sr_die(SR_EXIT_DATA, "%s: not a regular file", l->path);
	if (st.st_size < l->off)
		sr_die(SR_EXIT_DATA, "%s: %lld bytes, fewer than the %lld "
		    "already read: the ledger was truncated or replaced",
		    l->path, (long long)st.st_size, (long long)l->off);
	for (;;) {
		got = pread(fd, l->buf + len, SR_LEDGER_LINE_MAX - len,
		    l->off + (off_t)len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			sr_die_io("%s: read error", l->path);
		if (got == 0)
			break;	/* an incomplete last line waits in the file */
		len += (size_t)got;
		done = take_lines(l, len);
		l->off += (off_t)done;
		memmove(l->buf, l->buf + done, len - done);
		len -= done;
		if (len == SR_LEDGER_LINE_MAX) {
			l->lineno++;
			die_line(l, "line longer than %d bytes", SR_LEDGER_LINE_MAX - 1);
		}
	}
	close(fd);
	return l->nrow - before;
}

/* ---- writing ------------------------------------------------------------- */

/* A growing text. */
typedef struct {
	char *s;
	size_t len, cap;
} text;

static void
add(text *t, const char *s)
{
	size_t n = strlen(s);

	if (t->len + n + 1 > t->cap) {
		while (t->len + n + 1 > t->cap)
			t->cap = t->cap ? 2 * t->cap : 1024;
		t->s = sr_reallocarray(t->s, t->cap, 1);
	}
	memcpy(t->s + t->len, s, n + 1);
	t->len += n;
}

/* A number field and the tab after it: "-" for NaN. */
static void
add_number(text *t, double v)
{
	char num[SR_NUMLEN];

	add(t, isnan(v) ? MISSING : sr_fmt_double(num, v));
	add(t, "\t");
}

/* The header and the provenance lines before it (each checked: one
 * comment line). */
static void
add_head(text *t, const char *path, const char *const *prov, size_t nprov)
{
	size_t i, k;

	for (i = 0; i < nprov; i++) {
		if (prov[i][0] != '#' || strchr(prov[i], '\n') ||
		    strlen(prov[i]) + 1 > SR_LEDGER_LINE_MAX)
			sr_die(SR_EXIT_DATA, "%s: provenance line %zu is not one "
			    "comment line ('#...' without newline)", path, i + 1);
		add(t, prov[i]);
		add(t, "\n");
	}
	for (k = 0; k < NCOL; k++) {
		add(t, column[k]);
		add(t, k + 1 < NCOL ? "\t" : "\n");
	}
}

/* Row i, r, as a line; dies (exit 1) on a row that would not read back. */
static void
add_row(text *t, const char *path, size_t i, const sr_ledgerrow *r)
{
	char num[32];
	size_t start = t->len;
	const char *why;
	int col;

	if ((why = row_problem(r, &col)) != NULL)
		sr_die(SR_EXIT_DATA, "%s: row %zu to append (run %zu): column %s "
		    "%s", path, i + 1, r->run, column[col], why);
	add(t, kind_name[r->kind]);
	snprintf(num, sizeof num, "\t%zu\t", r->run);
	add(t, num);
	add(t, r->tile);
	add(t, "\t");
	add_number(t, r->value);
	add_number(t, r->seconds);
	add(t, r->detail ? r->detail : "");
	add(t, "\n");
	if (t->len - start > SR_LEDGER_LINE_MAX)
		sr_die(SR_EXIT_DATA, "%s: row %zu to append (run %zu): a line of "
		    "%zu bytes, more than %d", path, i + 1, r->run,
		    t->len - start, SR_LEDGER_LINE_MAX);
}

/* Takes the lock file lock for this process, waiting while a live
 * holder has it (a random pause between half the wait and the wait, the
 * wait doubling from 250 us to WAIT_MAX_US); dies when it cannot be
 * taken. */
static void
take_lock(const char *path, const char *lock, long grace)
{
	char msg[4352];
	long pid = (long)getpid();
	uint64_t x = (uint64_t)pid * 0x9e3779b97f4a7c15ull ^ (uint64_t)time(NULL);
	long wait_us = 250;
	struct timespec ts;
	int r, e;

	while ((r = sr_lock_take(lock, pid, grace, msg, sizeof msg)) == 1) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		ts.tv_sec = 0;
		ts.tv_nsec = (wait_us / 2 + (long)(x % (uint64_t)(wait_us / 2 + 1))) *
		    1000;
		nanosleep(&ts, NULL);
		if (wait_us < WAIT_MAX_US)
			wait_us *= 2;
	}
	if (r != 0) {
		e = errno;
		sr_die(e == 0 || e == EEXIST ? SR_EXIT_IO :
		    sr_exit_for_errno(e), "%s: cannot take its lock: %s", path,
		    msg);
	}
}

/* Releases the lock, then dies: exit 3, or as errno says (io 0). */
static _Noreturn void
fail_locked(const char *path, const char *lock, int io, const char *what)
{
	int e = errno;

	sr_lock_release(lock, (long)getpid());
	errno = e;
	if (io)
		sr_die_io("%s: %s", path, what);
	sr_die_errno("%s: %s", path, what);
}

/* Cuts an incomplete last line (no newline: an append killed while
 * writing it) from the ledger fd of size bytes; returns the size left.
 * Dies unless a newline ends the file or is found within the last
 * SR_LEDGER_LINE_MAX bytes. */
static off_t
cut_incomplete_line(int fd, const char *path, const char *lock, off_t size)
{
	char *buf, last;
	off_t from;
	size_t n;

	if (pread(fd, &last, 1, size - 1) != 1)
		fail_locked(path, lock, 1, "read error");
	if (last == '\n')
		return size;
	from = size > SR_LEDGER_LINE_MAX ? size - SR_LEDGER_LINE_MAX : 0;
	n = (size_t)(size - from);
	buf = sr_malloc(n);
	if (pread(fd, buf, n, from) != (ssize_t)n)
		fail_locked(path, lock, 1, "read error");
	while (n > 0 && buf[n - 1] != '\n')
		n--;
	free(buf);
	if (n == 0 && from > 0) {
		sr_lock_release(lock, (long)getpid());
		sr_die(SR_EXIT_DATA, "%s: no newline in its last %d bytes: not a "
		    "ledger", path, SR_LEDGER_LINE_MAX);
	}
	sr_warn("%s: removed an incomplete last line of %lld bytes (an "
	    "interrupted append)", path, (long long)(size - from - (off_t)n));
	if (ftruncate(fd, from + (off_t)n) != 0)
		fail_locked(path, lock, 1, "cannot remove it");
	return from + (off_t)n;
}

/* Syncs the directory of path (a new file's entry); errors ignored. */
static void
sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash == NULL ? sr_strdup(".") :
	    strndup(path, slash == path ? 1 : (size_t)(slash - path));
	int fd;

	if (dir != NULL && (fd = open(dir, O_RDONLY)) >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

/* Writes t (its first headlen bytes only into an empty file) to the
 * ledger path with one write(), the lock held; syncs, closes. Opened
 * once the lock is held: on NFS the open revalidates the file's size,
 * where O_APPEND writes (the client's idea of the end), and the sync
 * and close flush the lines before the lock is released. */
static void
write_locked(const char *path, const char *lock, const text *t,
    size_t headlen)
{
	struct stat st;
	const char *s = t->s + headlen;
	size_t n = t->len - headlen;
	off_t size;
	ssize_t got;
	int fd;

	if ((fd = open(path, O_RDWR | O_APPEND | O_CREAT, 0666)) < 0)
		fail_locked(path, lock, 0, "cannot open the ledger");
	if (fstat(fd, &st) != 0)
		fail_locked(path, lock, 1, "cannot stat the ledger");
	if (!S_ISREG(st.st_mode)) {
		sr_lock_release(lock, (long)getpid());
		sr_die(SR_EXIT_DATA, "%s: not a regular file", path);
	}
	size = st.st_size > 0 ? cut_incomplete_line(fd, path, lock,
	    st.st_size) : 0;
	if (size == 0) {	/* new, or empty: the header first */
		s = t->s;
		n = t->len;
	}
	errno = 0;
	if ((got = write(fd, s, n)) != (ssize_t)n) {
		if (got > 0 && ftruncate(fd, size) != 0)
			fail_locked(path, lock, 1, "short write, not undone");
		fail_locked(path, lock, 1, got < 0 ? "write error" :
		    "short write (undone)");
	}
	if (fsync(fd) != 0 && errno != EINVAL)
		fail_locked(path, lock, 1, "cannot sync");
	if (close(fd) != 0)
		fail_locked(path, lock, 1, "write error");
	if (st.st_size == 0)
		sync_dir(path);
}

static pthread_mutex_t append_mutex = PTHREAD_MUTEX_INITIALIZER;

void
sr_ledger_append(const char *path, const char *const *prov, size_t nprov,
    const sr_ledgerrow *rows, size_t n, long grace)
{
	text t = { NULL, 0, 0 };
	size_t i, headlen, locklen = strlen(path) + 6;
	char *lock;

	if (grace <= 0)
		sr_die(SR_EXIT_USAGE, "%s: lock grace period %ld: not > 0", path,
		    grace);
	add_head(&t, path, prov, prov ? nprov : 0);
	headlen = t.len;
	for (i = 0; i < n; i++)
		add_row(&t, path, i, &rows[i]);
	lock = sr_malloc(locklen);
	snprintf(lock, locklen, "%s.lock", path);
	pthread_mutex_lock(&append_mutex);	/* the lock names the process */
	take_lock(path, lock, grace);
	write_locked(path, lock, &t, headlen);
	if (sr_lock_release(lock, (long)getpid()) != 0)
		sr_warn("%s: the lock was broken while held (the append took "
		    "longer than its grace period of %ld s?)", lock, grace);
	pthread_mutex_unlock(&append_mutex);
	free(lock);
	free(t.s);
}

long
sr_ledger_grace(void)
{
	const char *s = getenv("SA_LEDGER_LOCK_GRACE");
	char show[SR_SHOWLEN];
	long g;

	if (s == NULL || *s == '\0')
		return SR_LOCK_GRACE;
	if (sr_parse_long(s, &g) != NULL || g <= 0)
		sr_die(SR_EXIT_USAGE, "SA_LEDGER_LOCK_GRACE: '%s' is not a whole "
		    "number of seconds > 0", sr_show(show, s));
	return g;
}
