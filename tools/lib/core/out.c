/* out.c - atomic output files (temp + rename) and provenance lines. */
#include "core/out.h"
#include "core/err.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_OUTPUTS 16

struct output {
	char *path;	/* final name */
	char *tmp;	/* temporary name, NULL once renamed */
	FILE *fp;
};

static struct output outputs[MAX_OUTPUTS];
static size_t noutputs;
static char *volatile temps[MAX_OUTPUTS];	/* sr_out_temp_add's, or NULL */
static volatile sig_atomic_t in_cleanup;

/* Removes every temporary not yet renamed; safe in a signal handler for
 * the unlink part (names are fixed before the handler is installed). */
static void
remove_temporaries(void)
{
	size_t i;

	in_cleanup = 1;
	for (i = 0; i < noutputs; i++)
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

/* Builds "DIR/.BASE.tmp.XXXXXX" for path "DIR/BASE". */
static char *
temp_name_for(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	const char *base = path + dirlen;
	size_t n = strlen(path) + 16;
	char *tmp = sr_malloc(n);

	snprintf(tmp, n, "%.*s.%s.tmp.XXXXXX", (int)dirlen, path, base);
	return tmp;
}

FILE *
sr_out_open(const char *path)
{
	struct output *o;
	int fd;
	size_t i;

	struct stat st;

	if (path == NULL || strcmp(path, "-") == 0)
		return stdout;
	for (i = 0; i < noutputs; i++)
		if (strcmp(outputs[i].path, path) == 0)
			sr_die(SR_EXIT_USAGE, "%s: named twice as an output", path);
	if (noutputs == MAX_OUTPUTS)
		sr_die(SR_EXIT_DATA, "too many output files");
	install_handlers();
	o = &outputs[noutputs];
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* a device or a pipe (/dev/null, a FIFO) is written in place:
		 * renaming a file over it would replace it */
		if ((o->fp = fopen(path, "w")) == NULL)
			sr_die_errno("%s: cannot open output", path);
		o->path = sr_strdup(path);
		o->tmp = NULL;
		noutputs++;
		return o->fp;
	}
	o->path = sr_strdup(path);
	o->tmp = temp_name_for(path);
	if ((fd = mkstemp(o->tmp)) < 0) {
		free(o->tmp);
		o->tmp = NULL;
		sr_die_errno("%s: cannot create output", path);
	}
	noutputs++;
	fchmod(fd, (mode_t)(0666 & ~sr_current_umask()));
	if ((o->fp = fdopen(fd, "w")) == NULL)
		sr_die_errno("%s: cannot open output", path);
	return o->fp;
}

/* Flushes, syncs and closes one output, then renames it into place. */
static void
commit_one(struct output *o)
{
	int bad = fflush(o->fp) != 0 || ferror(o->fp);

	if (!bad && o->tmp && fsync(fileno(o->fp)) != 0 && errno != EINVAL)
		bad = 1;
	if (fclose(o->fp) != 0)
		bad = 1;
	o->fp = NULL;
	if (bad)
		sr_die_errno("%s: write error", o->path);
	if (o->tmp == NULL)	/* written in place */
		return;
	if (rename(o->tmp, o->path) != 0)
		sr_die_errno("%s: cannot rename %s into place", o->path, o->tmp);
	free(o->tmp);
	o->tmp = NULL;
}

void
sr_out_commit_all(void)
{
	size_t i;

	if (fflush(stdout) != 0 || ferror(stdout))
		sr_die_errno("standard output: write error");
	for (i = 0; i < noutputs; i++)
		commit_one(&outputs[i]);
	for (i = 0; i < noutputs; i++)
		free(outputs[i].path);
	noutputs = 0;
	if (fclose(stdout) != 0) {
		sr_cleanup_hook = NULL;
		sr_die_errno("standard output: write error");
	}
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
