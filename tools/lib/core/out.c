/* out.c - atomic output files (temp + rename) and provenance lines. */
#include "core/out.h"
#include "core/err.h"
#include "core/fault.h"
#include "core/path.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_OUTPUTS 16

struct output {
	char *path;	/* final name */
	char *tmp;	/* temporary name, NULL once renamed */
	FILE *fp;
	int err;	/* the first failed sr_out_write's errno */
};

static struct output outputs[MAX_OUTPUTS];
static size_t noutputs;
static int stdout_err;		/* the first failed sr_out_write's errno */
static size_t primary = SIZE_MAX;	/* the first sr_out_open's file */
static int primary_seen;		/* sr_out_open was called */
static char *volatile temps[MAX_OUTPUTS];	/* sr_out_temp_add's, or NULL */
static volatile sig_atomic_t in_cleanup;

/* Removes every temporary not yet renamed; safe in a signal handler for
 * the unlink part (names are fixed before the handler is installed). */
static void
remove_temporaries(void)
{
	size_t i;

	in_cleanup = 1;
	for (i = 0; i < MAX_OUTPUTS; i++)	/* the one being opened too */
		if (outputs[i].tmp)
			unlink(outputs[i].tmp);
	for (i = 0; i < MAX_OUTPUTS; i++)
		if (temps[i])
			unlink(temps[i]);
}

unsigned
sr_current_umask(void)
{
	mode_t m = umask(0);

	umask(m);
	return (unsigned)m;
}

static void
on_signal(int sig)
{
	if (sr_cleanup_hook)	/* remove_temporaries, or a tool's chain */
		sr_cleanup_hook();
	else
		remove_temporaries();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
install_handlers(void)
{
	static int done;
	struct sigaction sa;

	if (done)
		return;
	done = 1;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sr_cleanup_hook = remove_temporaries;
}

void
sr_out_temp_add(const char *path)
{
	char *copy = sr_strdup(path);	/* complete before a handler sees it */
	size_t i;

	install_handlers();
	for (i = 0; i < MAX_OUTPUTS; i++)
		if (temps[i] == NULL) {
			temps[i] = copy;
			return;
		}
	free(copy);
	sr_die(SR_EXIT_DATA, "too many temporary files");
}

void
sr_out_temp_forget(const char *path)
{
	size_t i;
	char *p;

	for (i = 0; i < MAX_OUTPUTS; i++)
		if ((p = temps[i]) != NULL && strcmp(p, path) == 0) {
			temps[i] = NULL;
			free(p);
			return;
		}
}

size_t
sr_out_temp_name(char *buf, size_t size, const char *path, const char *kind)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	const char *base = path + dirlen;
	size_t keep = strlen(base);

	if (keep > SR_OUT_TEMP_BASE_MAX) {
		keep = SR_OUT_TEMP_BASE_MAX;	/* not inside a UTF-8 sequence */
		while (keep > 0 && ((unsigned char)base[keep] & 0xC0) == 0x80)
			keep--;
	}
	return (size_t)snprintf(buf, size, "%.*s.%.*s%s%.4s.tmp.XXXXXX",
	    (int)dirlen, path, (int)keep, base, kind ? "." : "",
	    kind ? kind : "");
}

/* Holds the stop signals off while a temporary is made and recorded (a
 * stop between the two left the file behind, found by a stopped
 * campaign's test), and lets them through after: the handler then
 * knows the file. */
static void
hold_stops(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

static void
release_stops(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* A new temporary for path (sr_out_temp_name): its descriptor, mode as
 * for a new file, and its name in *name; dies if it cannot be made. */
static int
make_temp(const char *path, const char *kind, char **name)
{
	size_t n = sr_out_temp_name(NULL, 0, path, kind) + 1;
	int fd;

	*name = sr_malloc(n);
	sr_out_temp_name(*name, n, path, kind);
	if ((fd = mkstemp(*name)) < 0) {
		free(*name);
		*name = NULL;
		sr_die_errno("%s: cannot create output", path);
	}
	fchmod(fd, (mode_t)(0666 & ~sr_current_umask()));
	return fd;
}

/* Whether path is an existing file other than a regular one (a device,
 * a FIFO), which is written in place. */
static int
in_place(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

static void
refuse_twice(const char *path)
{
	sr_die(SR_EXIT_USAGE, "%s: named twice as an output", path);
}

void
sr_out_refuse_twice(const char *const *outs, size_t n)
{
	size_t a, b;

	for (a = 0; a < n; a++)
		for (b = a + 1; b < n; b++)
			if (outs[a] && outs[b] && strcmp(outs[a], outs[b]) == 0)
				refuse_twice(outs[a]);
}

/* The next free output slot, dying on a name given twice. */
static struct output *
new_output(const char *path)
{
	size_t i;

	for (i = 0; i < noutputs; i++)
		if (strcmp(outputs[i].path, path) == 0)
			refuse_twice(path);
	if (noutputs == MAX_OUTPUTS)
		sr_die(SR_EXIT_DATA, "too many output files");
	install_handlers();
	return &outputs[noutputs];
}

FILE *
sr_out_open(const char *path)
{
	struct output *o;
	char *tmp;
	int fd;

	if (path == NULL || strcmp(path, "-") == 0) {
		primary_seen = 1;
		return stdout;
	}
	o = new_output(path);
	o->path = sr_strdup(path);
	if (in_place(path)) {
		/* renaming a file over a device or a FIFO would replace it */
		if ((o->fp = fopen(path, "w")) == NULL)
			sr_die_errno("%s: cannot open output", path);
		o->tmp = NULL;
	} else {
		sigset_t old;
		hold_stops(&old);
		fd = make_temp(path, NULL, &tmp);
		if (sr_fault("out-temp-stop"))	/* a stop right here */
			raise(SIGTERM);
		o->tmp = tmp;	/* complete before the handler sees it */
		release_stops(&old);
		o->fp = fdopen(fd, "w");
	}
	if (!primary_seen) {
		primary_seen = 1;
		primary = noutputs;
	}
	noutputs++;
	if (o->fp == NULL)
		sr_die_errno("%s: cannot open output", path);
	return o->fp;
}

int
sr_out_open_fd(const char *path, const char *kind, char **tmp)
{
	sigset_t old;
	int fd;

	*tmp = NULL;
	if (in_place(path)) {
		if ((fd = open(path, O_WRONLY | O_TRUNC)) < 0)
			sr_die_errno("%s: cannot open output", path);
		return fd;
	}
	install_handlers();
	hold_stops(&old);
	fd = make_temp(path, kind, tmp);
	sr_out_temp_add(*tmp);
	release_stops(&old);
	return fd;
}

void
sr_out_adopt(const char *tmp, const char *path)
{
	struct output *o = new_output(path);

	o->path = sr_strdup(path);
	o->tmp = sr_strdup(tmp);
	o->fp = NULL;
	noutputs++;
	sr_out_temp_forget(tmp);
}

size_t
sr_out_write(FILE *fp, const void *buf, size_t n)
{
	size_t i, w = fwrite(buf, 1, n, fp);
	int e = errno ? errno : EIO;

	if (w == n)
		return w;
	if (fp == stdout && !stdout_err)
		stdout_err = e;
	for (i = 0; i < noutputs; i++)
		if (outputs[i].fp == fp && !outputs[i].err)
			outputs[i].err = e;
	return w;
}

/* Flushes, syncs (a temporary) and closes one output; dies on an error. */
static void
close_one(struct output *o)
{
	int bad;

	if (o->fp == NULL)	/* adopted: complete and synced */
		return;
	errno = 0;
	bad = fflush(o->fp) != 0 || ferror(o->fp);
	if (bad && o->err)	/* why the data written before failed */
		errno = o->err;
	if (!bad && o->tmp && fsync(fileno(o->fp)) != 0 && errno != EINVAL)
		bad = 1;
	if (fclose(o->fp) != 0)
		bad = 1;
	o->fp = NULL;
	if (bad)
		sr_die_io("%s: write error", o->path);
}

/* Renames one complete output into place. */
static void
rename_one(struct output *o)
{
	if (o->tmp == NULL)	/* written in place */
		return;
	if (rename(o->tmp, o->path) != 0)
		sr_die_io("%s: cannot rename %s into place", o->path, o->tmp);
	free(o->tmp);
	o->tmp = NULL;
}

void
sr_out_commit_all(void)
{
	size_t i;

	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (stdout_err)
			errno = stdout_err;
		sr_die_io("standard output: write error");
	}
	for (i = 0; i < noutputs; i++)
		close_one(&outputs[i]);
	for (i = 0; i < noutputs; i++)
		if (i != primary)
			rename_one(&outputs[i]);
	if (primary < noutputs)
		rename_one(&outputs[primary]);
	for (i = 0; i < noutputs; i++)
		free(outputs[i].path);
	noutputs = 0;
	primary = SIZE_MAX;
	primary_seen = 0;
	errno = 0;
	if (fclose(stdout) != 0) {
		sr_cleanup_hook = NULL;
		sr_die_io("standard output: write error");
	}
}

/* Whether out and in are one regular file: the same name (sr_path_same)
 * or the same inode (a link). */
static int
same_file(const char *out, const char *in)
{
	struct stat so, si;

	if (stat(out, &so) == 0) {
		if (!S_ISREG(so.st_mode))
			return 0;
		if (stat(in, &si) == 0 && so.st_dev == si.st_dev &&
		    so.st_ino == si.st_ino)
			return 1;
	}
	return sr_path_same(out, in);
}

void
sr_out_refuse_inputs(const char *const *outs, size_t nout,
    const char *const *ins, size_t nin)
{
	size_t i, j;

	for (i = 0; i < nout; i++)
		for (j = 0; j < nin; j++)
			if (outs[i] && ins[j] && strcmp(outs[i], "-") != 0 &&
			    strcmp(ins[j], "-") != 0 && same_file(outs[i], ins[j]))
				sr_usage_error("output %s is the input %s: it would "
				    "be replaced", outs[i], ins[j]);
}

/* Writes s, single-quoted when it holds anything a shell would expand. */
static void
put_quoted(FILE *fp, const char *s)
{
	const char *safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789-_=+.,:/@%";

	if (*s && strspn(s, safe) == strlen(s)) {
		fputs(s, fp);
		return;
	}
	fputc('\'', fp);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", fp);
		else if (*s == '\n' || *s == '\t')
			fputc(' ', fp);
		else
			fputc(*s, fp);
	}
	fputc('\'', fp);
}

void
sr_out_provenance(FILE *fp, int argc, char **argv)
{
	int i;

	fprintf(fp, "#%s %s\n#command line:", sr_progname, SR_VERSION);
	for (i = 0; i < argc; i++) {
		fputc(' ', fp);
		put_quoted(fp, i == 0 ? sr_progname : argv[i]);
	}
	fputc('\n', fp);
}

void
sr_print_version(void)
{
	printf("%s (sareuse) %s\n", sr_progname, SR_VERSION);
	sr_out_commit_all();
	exit(SR_EXIT_OK);
}
