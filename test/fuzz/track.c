/* track.c - what a reader refused by sr_die leaves behind, reclaimed.
 *
 * The harnesses link with -Wl,--wrap= for the allocation and file calls
 * below, so every call the library (and the harness) makes goes through
 * here. While tracking is on (one input's read), each live block, FILE
 * and descriptor is remembered; when sr_die longjmps out of a reader,
 * fuzz_track_reclaim() closes and frees them, so millions of refusals
 * neither run out of descriptors nor grow the heap. Outside a read the
 * wrappers only pass the calls on (libFuzzer's own allocations are never
 * tracked). Memory allocated inside libpng, libtiff or GSL is not seen. */
#define _GNU_SOURCE
#include "fuzz.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
ssize_t __real_getline(char **line, size_t *cap, FILE *fp);
FILE *__real_fopen(const char *path, const char *mode);
FILE *__real_fdopen(int fd, const char *mode);
int __real_fclose(FILE *fp);
int __real_open(const char *path, int flags, ...);
int __real_close(int fd);

/* An open-addressing set of pointers (linear probing, deletion by
 * backward shift, so no tombstones); kind tells blocks from FILEs. */
typedef struct {
	void *p;
	int kind;
} slot;
enum { KIND_BLOCK = 1, KIND_FILE = 2 };

static slot *table;
static size_t cap, used;
static int tracking;
static int fds[64];
static size_t nfd;

static size_t
slot_of(const void *p)
{
	uint64_t h = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ull;

	return (size_t)(h >> 32) & (cap - 1);
}

static void track(void *p, int kind);

static void
grow(void)
{
	slot *old = table;
	size_t oldcap = cap, i;

	cap = cap ? 2 * cap : 1024;
	table = __real_calloc(cap, sizeof *table);
	if (table == NULL)
		abort();
	used = 0;
	for (i = 0; i < oldcap; i++)
		if (old[i].p)
			track(old[i].p, old[i].kind);
	__real_free(old);
}

static void
track(void *p, int kind)
{
	size_t i;

	if (p == NULL)
		return;
	if (2 * (used + 1) > cap)
		grow();
	for (i = slot_of(p); table[i].p && table[i].p != p; i = (i + 1) & (cap - 1))
		;
	if (table[i].p == NULL)
		used++;
	table[i].p = p;
	table[i].kind = kind;
}

static void
untrack(const void *p)
{
	size_t i, j, home;

	if (p == NULL || used == 0)
		return;
	for (i = slot_of(p); table[i].p != p; i = (i + 1) & (cap - 1))
		if (table[i].p == NULL)
			return;
	table[i].p = NULL;
	used--;
	for (j = (i + 1) & (cap - 1); table[j].p; j = (j + 1) & (cap - 1)) {
		home = slot_of(table[j].p);
		/* move j back into the hole at i unless its home lies in (i, j] */
		if ((j > i && (home <= i || home > j)) ||
		    (j < i && (home <= i && home > j))) {
			table[i] = table[j];
			table[j].p = NULL;
			i = j;
		}
	}
}

void
fuzz_track_begin(void)
{
	tracking = 1;
}

/* Forgets what is tracked (a read that returned freed its own). */
void
fuzz_track_end(void)
{
	tracking = 0;
	if (cap > 4096) {	/* a big read's table: start small again */
		__real_free(table);
		table = NULL;
		cap = 0;
	} else if (used)
		memset(table, 0, cap * sizeof *table);
	used = 0;
	nfd = 0;
}

void
fuzz_track_reclaim(void)
{
	size_t i, k;
	int fd;

	tracking = 0;
	for (i = 0; i < cap; i++)
		if (table[i].p && table[i].kind == KIND_FILE) {
			fd = fileno(table[i].p);
			for (k = 0; k < nfd; k++)
				if (fds[k] == fd)
					fds[k] = -1;
			__real_fclose(table[i].p);
		}
	for (i = 0; i < cap; i++)
		if (table[i].p && table[i].kind == KIND_BLOCK)
			__real_free(table[i].p);
	for (k = 0; k < nfd; k++)
		if (fds[k] >= 0)
			__real_close(fds[k]);
	fuzz_track_end();
}

void *
__wrap_malloc(size_t n)
{
	void *p = __real_malloc(n);

	if (tracking)
		track(p, KIND_BLOCK);
	return p;
}

void *
__wrap_calloc(size_t n, size_t size)
{
	void *p = __real_calloc(n, size);

	if (tracking)
		track(p, KIND_BLOCK);
	return p;
}

void *
__wrap_realloc(void *p, size_t n)
{
	void *q = __real_realloc(p, n);

	if (q && used)
		untrack(p);
	if (q && tracking)
		track(q, KIND_BLOCK);
	return q;
}

void
__wrap_free(void *p)
{
	if (used)
		untrack(p);
	__real_free(p);
}

char *
__wrap_strdup(const char *s)
{
	char *p = __real_strdup(s);

	if (tracking)
		track(p, KIND_BLOCK);
	return p;
}

char *
__wrap_strndup(const char *s, size_t n)
{
	char *p = __real_strndup(s, n);

	if (tracking)
		track(p, KIND_BLOCK);
	return p;
}

ssize_t
__wrap_getline(char **line, size_t *cap_, FILE *fp)
{
	char *old = *line;
	ssize_t got = __real_getline(line, cap_, fp);

	if (*line != old) {
		if (used)
			untrack(old);
		if (tracking)
			track(*line, KIND_BLOCK);
	}
	return got;
}

FILE *
__wrap_fopen(const char *path, const char *mode)
{
	FILE *fp = __real_fopen(path, mode);

	if (tracking)
		track(fp, KIND_FILE);
	return fp;
}

FILE *
__wrap_fdopen(int fd, const char *mode)
{
	FILE *fp = __real_fdopen(fd, mode);

	if (tracking)
		track(fp, KIND_FILE);
	return fp;
}

int
__wrap_fclose(FILE *fp)
{
	size_t k;
	int fd = fileno(fp);

	if (used)
		untrack(fp);
	for (k = 0; k < nfd; k++)
		if (fds[k] == fd)
			fds[k] = -1;
	return __real_fclose(fp);
}

int
__wrap_open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode = 0;
	int fd;

	if (flags & O_CREAT) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	fd = __real_open(path, flags, mode);
	if (tracking && fd >= 0 && nfd < sizeof fds / sizeof *fds)
		fds[nfd++] = fd;
	return fd;
}

int
__wrap_close(int fd)
{
	size_t k;

	for (k = 0; k < nfd; k++)
		if (fds[k] == fd)
			fds[k] = -1;
	return __real_close(fd);
}
