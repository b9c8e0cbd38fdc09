/* err.c - one error helper for all tools (after OpenBSD err(3)). */
#include "core/err.h"
#include "core/text.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *sr_progname = "sareuse";
void (*sr_cleanup_hook)(void);
void (*sr_die_hook)(int code);

void
sr_init(const char *argv0)
{
	const char *slash;

	if (argv0 == NULL || *argv0 == '\0')
		return;
	slash = strrchr(argv0, '/');
	sr_progname = slash ? slash + 1 : argv0;
}

/* Prints "prog: message[: suffix]" as one line: the control characters
 * and invalid UTF-8 of any value it quotes (a name in a file, a path, an
 * argument) escaped as sr_escape does, so none reaches a terminal raw.
 * Buffers on the stack: threads may warn at once. */
static void
vmessage(const char *fmt, va_list ap, const char *suffix)
{
	char msg[8192], shown[4 * sizeof msg];

	vsnprintf(msg, sizeof msg, fmt, ap);
	fflush(stdout);
	fprintf(stderr, "%s: %s", sr_progname, sr_escape(shown, sizeof shown, msg));
	if (suffix)
		fprintf(stderr, ": %s", suffix);
	fputc('\n', stderr);
}

/* Removes uncommitted outputs and ends the process at once: _exit skips
 * atexit work (leak checkers included), since an error exit deliberately
 * frees nothing. */
static _Noreturn void
finish(int code)
{
	if (sr_die_hook)
		sr_die_hook(code);
	if (sr_cleanup_hook)
		sr_cleanup_hook();
	fflush(NULL);
	_exit(code);
}

void
sr_die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, NULL);
	va_end(ap);
	finish(code);
}

int
sr_exit_for_errno(int e)
{
	switch (e) {
	case EIO: case ENOSPC: case EDQUOT: case EFBIG: case ENOMEM:
	case ENOBUFS: case EMFILE: case ENFILE: case EAGAIN: case EINTR:
	case ESTALE: case ETIMEDOUT:
		return SR_EXIT_IO;
	default:
		return SR_EXIT_DATA;
	}
}

void
sr_die_errno(const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	va_start(ap, fmt);
	vmessage(fmt, ap, strerror(e));
	va_end(ap);
	finish(sr_exit_for_errno(e));
}

void
sr_die_io(const char *fmt, ...)
{
	va_list ap;
	int e = errno ? errno : EIO;

	va_start(ap, fmt);
	vmessage(fmt, ap, strerror(e));
	va_end(ap);
	finish(SR_EXIT_IO);
}

void
sr_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, NULL);
	va_end(ap);
}

void
sr_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, NULL);
	va_end(ap);
	fprintf(stderr, "Try '%s --help' for more information.\n", sr_progname);
	finish(SR_EXIT_USAGE);
}

void
sr_getopt_fail(int c, char **argv)
{
	const char *arg = argv[optind - 1];

	if (c == ':')
		sr_usage_error("option '%s' needs a value", arg);
	if (optopt && strncmp(arg, "--", 2) != 0)
		sr_usage_error("unknown option '-%c'", optopt);
	sr_usage_error("unknown option '%s'", arg);
}

void *
sr_malloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		sr_die(SR_EXIT_IO, "out of memory (asked for %zu bytes)", n);
	return p;
}

void *
sr_calloc(size_t count, size_t size)
{
	void *p;

	if (size && count > SIZE_MAX / size)
		sr_die(SR_EXIT_DATA, "out of memory (%zu x %zu bytes overflows)",
		    count, size);
	p = calloc(count ? count : 1, size ? size : 1);
	if (p == NULL)
		sr_die(SR_EXIT_IO, "out of memory (asked for %zu x %zu bytes)",
		    count, size);
	return p;
}

void *
sr_reallocarray(void *p, size_t count, size_t size)
{
	void *q;

	if (size && count > SIZE_MAX / size)
		sr_die(SR_EXIT_DATA, "out of memory (%zu x %zu bytes overflows)",
		    count, size);
	q = realloc(p, count && size ? count * size : 1);
	if (q == NULL)
		sr_die(SR_EXIT_IO, "out of memory (asked for %zu x %zu bytes)",
		    count, size);
	return q;
}

char *
sr_strdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(sr_malloc(n), s, n);
}

void
sr_seterr(char *errbuf, const char *fmt, ...)
{
	va_list ap;

	if (errbuf == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(errbuf, SR_ERRLEN, fmt, ap);
	va_end(ap);
}
