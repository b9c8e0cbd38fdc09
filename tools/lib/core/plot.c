/* plot.c - plots drawn by gnuplot(1), run without a shell as
 * "gnuplot -c SCRIPT DATA ARG...": the script is fixed text with numbers
 * only; every user string (paths, titles, parameter names) reaches
 * gnuplot as a -c argument (ARG1..ARG9), lists of them joined by the
 * ASCII unit separator and split into arrays by the script. gnuplot writes
 * the PNG to its standard output, a temporary file beside the target that
 * becomes one of the tool's outputs, renamed into place with the others
 * at sr_out_commit_all() (a device, /dev/null, is written in place). The
 * data, script and image temporaries are registered with out.c, so that
 * a failed or killed run leaves none. */
#include "core/plot.h"
#include "core/err.h"
#include "core/out.h"
#include "core/tsv.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define SEP '\037'	/* joins a list of strings into one argument */

/* One plot under way: its target and its three temporaries. */
struct plot {
	const char *path;
	char *data, *script, *png;
	FILE *d, *g;
	int pngfd;
};

static volatile pid_t gnuplot_pid;	/* the running gnuplot, or 0 */
static void (*next_hook)(void);

/* Cleanup on sr_die or a signal: stops gnuplot, then the usual removal. */
static void
stop_gnuplot(void)
{
	if (gnuplot_pid > 0)
		kill(gnuplot_pid, SIGTERM);
	if (next_hook)
		next_hook();
}

/* Creates a temporary of kind beside path (sr_out_temp_name), registered
 * for removal; returns its descriptor and its name in *name. */
static int
temp_beside(const char *path, const char *kind, char **name)
{
	size_t n = sr_out_temp_name(NULL, 0, path, kind) + 1;
	int fd;

	*name = sr_malloc(n);
	sr_out_temp_name(*name, n, path, kind);
	if ((fd = mkstemp(*name)) < 0)
		sr_die_errno("%s: cannot create a temporary file", path);
	sr_out_temp_add(*name);
	return fd;
}

/* Opens a stream on a new temporary of kind beside p->path. */
static FILE *
temp_stream(const struct plot *p, const char *kind, char **name)
{
	int fd = temp_beside(p->path, kind, name);
	FILE *fp = fdopen(fd, "w");

	if (fp == NULL)
		sr_die_errno("%s", *name);	/* out of memory */
	return fp;
}

/* Starts a plot of path: the data and script streams, the image file. */
static void
plot_begin(struct plot *p, const char *path)
{
	memset(p, 0, sizeof *p);
	p->path = path;
	p->d = temp_stream(p, "dat", &p->data);
	p->g = temp_stream(p, "gp", &p->script);
	p->pngfd = sr_out_open_fd(path, "plot", &p->png);
}

/* Removes and forgets a temporary. */
static void
drop(char *name)
{
	unlink(name);
	sr_out_temp_forget(name);
	free(name);
}

/* Writes the script lines that split argument ARGi, a list of n strings
 * joined by SEP, into the array name[1..n]. */
static void
put_split(FILE *g, const char *name, int arg, size_t n)
{
	fprintf(g, "array %s[%zu]\nrest = ARG%d\n"
	    "do for [i = 1:%zu] {\n\tp = strstrt(rest, \"\\037\")\n"
	    "\t%s[i] = p ? rest[1:p - 1] : rest\n"
	    "\trest = p ? rest[p + 1:] : \"\"\n}\n",
	    name, n ? n : 1, arg, n, name);
}

/* The n strings joined by SEP (a SEP inside one becomes a space). */
static char *
join(const char *const *s, size_t n, size_t stride)
{
	size_t len = 1, i;
	char *out, *q;

	for (i = 0; i < n; i++)
		len += strlen(*(const char *const *)((const char *)s +
		    i * stride)) + 1;
	out = q = sr_malloc(len);
	for (i = 0; i < n; i++) {
		const char *t = *(const char *const *)((const char *)s + i * stride);
		if (i)
			*q++ = SEP;
		for (; *t; t++)
			*q++ = *t == SEP ? ' ' : *t;
	}
	*q = '\0';
	return out;
}

/* Runs gnuplot on the plot's script with argv args[0..) after the data
 * path; dies if it cannot run or fails. */
static int
spawn_gnuplot(struct plot *p, char **args, size_t nargs)
{
	char *argv[16];
	posix_spawn_file_actions_t fa;
	pid_t pid;
	size_t i;
	int st = 0, e;

	argv[0] = "gnuplot";
	argv[1] = "-c";
	argv[2] = p->script;
	argv[3] = p->data;
	for (i = 0; i < nargs && i < 11; i++)
		argv[4 + i] = args[i];
	argv[4 + i] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, p->pngfd, 1);
	posix_spawn_file_actions_addclose(&fa, p->pngfd);
	next_hook = sr_cleanup_hook;
	sr_cleanup_hook = stop_gnuplot;
	e = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (e == 0) {
		gnuplot_pid = pid;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		gnuplot_pid = 0;
	}
	sr_cleanup_hook = next_hook;
	if (e != 0)	/* not installed: 1; no memory or processes: 3 */
		sr_die(sr_exit_for_errno(e), "%s: cannot run gnuplot: %s; is "
		    "gnuplot installed?", p->path, strerror(e));
	return st;
}

/* Closes the data and script, runs gnuplot on them with args, removes
 * them, and hands the synced image to out.c, committed with the tool's
 * other outputs (sr_out_adopt); dies (leaving no file) if gnuplot
 * fails. */
static void
plot_finish(struct plot *p, char **args, size_t nargs)
{
	int st;

	errno = 0;
	if (fclose(p->d) || fclose(p->g))
		sr_die_io("%s: cannot write the plot script", p->path);
	st = spawn_gnuplot(p, args, nargs);
	drop(p->script);
	drop(p->data);
	/* killed (by the kernel's OOM killer, an administrator): a system
	 * failure, 3; its own error (it printed why): 1 */
	if (WIFSIGNALED(st))
		sr_die(SR_EXIT_IO, "%s: gnuplot was killed by signal %d",
		    p->path, WTERMSIG(st));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		sr_die(SR_EXIT_DATA, "%s: gnuplot failed (exit %d); is gnuplot "
		    "installed?", p->path, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	if (p->png && fsync(p->pngfd) != 0 && errno != EINVAL)
		sr_die_io("%s: write error", p->path);
	if (close(p->pngfd) != 0)
		sr_die_io("%s: write error", p->path);
	if (p->png) {
		sr_out_adopt(p->png, p->path);
		free(p->png);
	}
}

/* The script's first lines: a PNG of w x h, tab-separated data, title
 * from ARG2. */
static void
put_head(FILE *g, size_t w, size_t h)
{
	fprintf(g, "set terminal pngcairo size %zu,%zu noenhanced\n"
	    "set datafile separator \"\\t\"\nset datafile missing \"NaN\"\n"
	    "set title ARG2\n", w, h);
}

void
sr_plot_bars(const char *path, const char *title, char **names, size_t k,
    const sr_plot_series *s, size_t ns)
{
	struct plot p;
	char *args[3];
	size_t i, j;

	plot_begin(&p, path);
	for (i = 0; i < k; i++) {
		for (j = 0; j < ns; j++) {
			if (j)
				fputc('\t', p.d);
			sr_put_double(p.d, s[j].value[i]);
			fputc('\t', p.d);
			sr_put_double(p.d, s[j].err ? s[j].err[i] : 0);
		}
		fputc('\n', p.d);
	}
	put_head(p.g, 480 + 40 * k, 480);
	put_split(p.g, "N", 3, k);
	put_split(p.g, "S", 4, ns);
	fputs("set style data histogram\n"
	    "set style histogram errorbars gap 2 lw 1\n"
	    "set style fill solid 0.6 border -1\nset key top right\n"
	    "set grid ytics\nset xtics rotate by -45\nplot ", p.g);
	for (j = 0; j < ns; j++)
		fprintf(p.g, "%sARG1 using %zu:%zu:xtic(N[int($0) + 1]) "
		    "title S[%zu]", j ? ", " : "", 1 + 2 * j, 2 + 2 * j, j + 1);
	fputc('\n', p.g);
	args[0] = (char *)title;
	args[1] = join((const char *const *)names, k, sizeof *names);
	args[2] = join(&s[0].title, ns, sizeof *s);
	plot_finish(&p, args, 3);
	free(args[1]);
	free(args[2]);
}

void
sr_plot_scatter(const char *path, const char *title, char **names, size_t k,
    const double *x, const double *y, const char *xlabel, const char *ylabel)
{
	struct plot p;
	char *args[4];
	size_t i;

	plot_begin(&p, path);
	for (i = 0; i < k; i++) {
		sr_put_double(p.d, x[i]);
		fputc('\t', p.d);
		sr_put_double(p.d, y[i]);
		fputc('\n', p.d);
	}
	put_head(p.g, 640, 480);
	put_split(p.g, "N", 3, k);
	fputs("set xlabel ARG4\nset ylabel ARG5\nset grid\n"
	    "set offsets graph 0.05, graph 0.15, graph 0.1, graph 0.05\n"
	    "plot ARG1 using 1:2 with points pt 7 notitle, "
	    "ARG1 using 1:2:(N[int($0) + 1]) with labels offset 1,0.5 left "
	    "notitle\n", p.g);
	args[0] = (char *)title;
	args[1] = join((const char *const *)names, k, sizeof *names);
	args[2] = (char *)xlabel;
	args[3] = (char *)ylabel;
	plot_finish(&p, args, 4);
	free(args[1]);
}

void
sr_plot_lines(const char *path, const char *title, const char *xlabel,
    const char *ylabel, int logxy, const sr_plot_line *l, size_t nl)
{
	struct plot p;
	char *args[4];
	size_t i, j;

	plot_begin(&p, path);
	for (j = 0; j < nl; j++) {	/* one data block (index) per line */
		for (i = 0; i < l[j].n; i++) {
			sr_put_double(p.d, l[j].x[i]);
			fputc('\t', p.d);
			sr_put_double(p.d, l[j].y[i]);
			fputc('\n', p.d);
		}
		fputs("\n\n", p.d);
	}
	put_head(p.g, 800, 560);
	put_split(p.g, "S", 5, nl);
	fprintf(p.g, "set xlabel ARG3\nset ylabel ARG4\n%sset grid\n"
	    "set key top right\nplot ", logxy ? "set logscale xy\n" : "");
	for (j = 0; j < nl; j++)
		fprintf(p.g, "%sARG1 index %zu using 1:2 with linespoints pt 7 "
		    "title S[%zu]", j ? ", " : "", j, j + 1);
	fputc('\n', p.g);
	args[0] = (char *)title;
	args[1] = (char *)xlabel;
	args[2] = (char *)ylabel;
	args[3] = join(&l[0].title, nl, sizeof *l);
	plot_finish(&p, args, 4);
	free(args[3]);
}
