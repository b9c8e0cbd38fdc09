/* err.h - errors, exit codes and checked allocation shared by every tool. */
#ifndef SR_ERR_H
#define SR_ERR_H

#include <stddef.h>

/* Exit codes, listed in every man page's EXIT STATUS. */
enum sr_exit {
	SR_EXIT_OK = 0,		/* success */
	SR_EXIT_DATA = 1,	/* bad or inconsistent data, a missing input */
	SR_EXIT_USAGE = 2,	/* unknown option or bad option value */
	SR_EXIT_IO = 3		/* I/O or system failure (disk full, EIO, out of
				 * memory), which a driver may retry */
};

/* The exit code for a failure with errno e: SR_EXIT_IO for a failing
 * device or exhausted resource (EIO, ENOSPC, EDQUOT, EFBIG, ENOMEM,
 * ENOBUFS, EMFILE, ENFILE, EAGAIN, EINTR, ESTALE, ETIMEDOUT), else
 * SR_EXIT_DATA (a missing file, a permission, a directory as a file). */
int sr_exit_for_errno(int e);

/* Name the messages start with; set once by sr_init(). */
extern const char *sr_progname;

/* Sets the program name (basename of argv0). */
void sr_init(const char *argv0);

/* Prints "prog: message" to stderr (stdout flushed first), removes any
 * uncommitted output files and exits with code. */
_Noreturn void sr_die(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* As sr_die(sr_exit_for_errno(errno), ...) with ": strerror(errno)"
 * appended. */
_Noreturn void sr_die_errno(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* As sr_die_errno, but always SR_EXIT_IO: a write, sync, rename or read
 * failure of a file already open (errno 0 reads "I/O error"). */
_Noreturn void sr_die_io(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* Prints "prog: message" to stderr and returns. */
void sr_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Usage error: prints the message, then "Try 'prog --help'." and exits 2. */
_Noreturn void sr_usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* Reports what getopt_long stopped at (c is '?' or ':', the optstring
 * starting with ':') and exits 2. */
_Noreturn void sr_getopt_fail(int c, char **argv);

/* Checked allocation: these never return NULL; a failure is out of
 * memory (exit 3), a size that overflows size_t a request no memory can
 * meet (exit 1). */
void *sr_malloc(size_t n);
void *sr_calloc(size_t count, size_t size);
void *sr_reallocarray(void *p, size_t count, size_t size);
char *sr_strdup(const char *s);

/* Writes a printf-style message of at most SR_ERRLEN bytes to errbuf (if
 * not NULL): how the library's pure functions report their errors. */
void sr_seterr(char *errbuf, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#ifndef SR_ERRLEN
#define SR_ERRLEN 256
#endif

/* Hook run by sr_die before exiting (set by the output module). */
extern void (*sr_cleanup_hook)(void);

/* Test hook, NULL in every tool: the fuzzing harnesses (test/fuzz) set it
 * to a function that longjmps out, so that a refusal ends one input rather
 * than the process. sr_die and the other exits call it with the exit code
 * after printing the message, before anything else; if it returns, the
 * exit goes on as usual. */
extern void (*sr_die_hook)(int code);

#endif
