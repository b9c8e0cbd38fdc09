/* check.h - what the unit tests share: failure reports, a seeded random
 * generator and a function run in a child process. Included once, by the
 * test program's one .c file. Define CHECK_SEED before including it for
 * another stream. */
#ifndef SR_CHECK_H
#define SR_CHECK_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CHECK_SEED
#define CHECK_SEED 0x2545f4914f6cdd1dULL
#endif

static int failures;

/* Reports a failed check. */
static void
fail(const char *fmt, ...)
{
	va_list ap;

	printf("FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	failures++;
}

static uint64_t rng_state = CHECK_SEED;

/* xorshift64*: uniform in [0, k). */
static size_t
rnd(size_t k)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (size_t)((rng_state * 0x2545f4914f6cdd1dULL) >> 33) % k;
}

/* Sets a (w x h) to 0, then to v on count discs of random centres and
 * radii 1 to rmax. Inline, so that a test without it is not warned of
 * it. */
static inline void
discs(uint8_t *a, size_t w, size_t h, size_t count, size_t rmax, uint8_t v)
{
	size_t k;

	memset(a, 0, w * h);
	for (k = 0; k < count; k++) {
		long cx = (long)rnd(w), cy = (long)rnd(h), r = 1 + (long)rnd(rmax);
		long x, y;

		for (y = cy - r; y <= cy + r; y++)
			for (x = cx - r; x <= cx + r; x++)
				if (x >= 0 && y >= 0 && x < (long)w &&
				    y < (long)h && (x - cx) * (x - cx) +
				    (y - cy) * (y - cy) <= r * r)
					a[y * (long)w + x] = v;
	}
}

/* The file's text (its first 64 KiB), in a buffer the next call reuses;
 * "" when it cannot be read. */
static inline const char *
slurp(const char *path)
{
	static char s[65536];
	FILE *fp = fopen(path, "r");

	s[0] = '\0';
	if (fp) {
		s[fread(s, 1, sizeof s - 1, fp)] = '\0';
		fclose(fp);
	}
	return s;
}

/* A pid that is surely dead: a child reaped. */
static inline long
dead_pid(void)
{
	pid_t p = fork();

	if (p == 0)
		_exit(0);
	waitpid(p, NULL, 0);
	return (long)p;
}

/* Runs f(arg) in a child with stderr to a pipe: its exit status (-1 if
 * it did not exit), its message in msg (len bytes). Inline, so that a
 * test without it is not warned of it. */
static inline int
child_error(void (*f)(void *), void *arg, char *msg, size_t len)
{
	int fd[2], st;
	ssize_t n;
	size_t got = 0;
	pid_t pid;

	fflush(stdout);
	if (pipe(fd) != 0 || (pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		dup2(fd[1], 2);
		close(fd[0]);
		f(arg);
		_exit(0);
	}
	close(fd[1]);
	while (got + 1 < len && (n = read(fd[0], msg + got, len - 1 - got)) > 0)
		got += (size_t)n;
	msg[got] = '\0';
	close(fd[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#endif
