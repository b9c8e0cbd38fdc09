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

/* ---- small multiples ---------------------------------------------------------- */

#define PANEL_COLUMNS 4
#define PANEL_WIDTH 300	/* pixels */
#define PANEL_HEIGHT 250
#define TOP_HEIGHT 440

/* The data of small multiples: block 0 the line, block 1 one row per
 * point (group, y, x0, x[0..np)), block 2 the best point's row again. */
static void
put_multiples_data(FILE *d, const sr_plot_multiples *m)
{
	size_t i, j;

	for (i = 0; i < m->nl; i++) {
		sr_put_double(d, m->lx[i]);
		fputc('\t', d);
		sr_put_double(d, m->ly[i]);
		fputc('\n', d);
	}
	fputs("\n\n", d);
	for (i = 0; i < m->n; i++) {
		fprintf(d, "%d\t", m->group[i]);
		sr_put_double(d, m->y[i]);
		fputc('\t', d);
		sr_put_double(d, m->x0[i]);
		for (j = 0; j < m->np; j++) {
			fputc('\t', d);
			sr_put_double(d, m->x[j][i]);
		}
		fputc('\n', d);
	}
	fputs("\n\n", d);
	if (m->best < m->n) {
		fprintf(d, "%d\t", m->group[m->best]);
		sr_put_double(d, m->y[m->best]);
		fputc('\t', d);
		sr_put_double(d, m->x0[m->best]);
		for (j = 0; j < m->np; j++) {
			fputc('\t', d);
			sr_put_double(d, m->x[j][m->best]);
		}
		fputc('\n', d);
	}
}

/* The groups that have a point with a y (gnuplot refuses a plot
 * without one), into use[]; returns their number. */
static size_t
used_groups(const sr_plot_multiples *m, int *use)
{
	size_t g, i, k = 0;

	for (g = 0; g < m->ng; g++)
		for (i = 0; i < m->n; i++)
			if (m->group[i] == (int)g && m->y[i] == m->y[i]) {
				use[k++] = (int)g;
				break;
			}
	return k;
}

/* The plot command of one panel (column c of block 1 as x, 3 the first
 * panel's): the groups used, the best point, the line in the first. */
static void
put_panel_plot(FILE *g, const char *c, const int *use, size_t nuse,
    int best, int line, int key)
{
	size_t k;
	const char *sep = "";

	fputs("plot ", g);
	if (line) {
		fputs("ARG1 index 0 using 1:2 with steps lw 2 lc rgb \"#333333\" "
		    "title ARG7", g);
		sep = ", ";
	}
	for (k = 0; k < nuse; k++) {
		fprintf(g, "%sARG1 index 1 using (column(%s)):($1 == %d ? $2 : NaN) "
		    "with points pt 7 ps 0.7 lc rgb PAL[%d] %s", sep, c, use[k],
		    use[k] % 6 + 1, key ? "title G[" : "notitle");
		if (key)
			fprintf(g, "%d]", use[k] + 1);
		sep = ", ";
	}
	if (best)
		fprintf(g, "%sARG1 index 2 using (column(%s)):2 with points pt 6 "
		    "ps 2.2 lw 2 lc rgb \"black\" %s", sep, c,
		    key ? "title \"best\"" : "notitle");
	fputc('\n', g);
}

void
sr_plot_panels(const char *path, const sr_plot_multiples *m)
{
	struct plot p;
	char *args[6], col[32];
	int *use = sr_calloc(m->ng + 1, sizeof *use);
	size_t nuse = used_groups(m, use), cols, rows, j, w, h;
	int best = m->best < m->n && m->y[m->best] == m->y[m->best];
	double top;

	if (nuse == 0)
		sr_die(SR_EXIT_DATA, "%s: nothing to plot: no point has a value",
		    path);
	cols = m->np < PANEL_COLUMNS ? m->np : PANEL_COLUMNS;
	rows = (m->np + PANEL_COLUMNS - 1) / PANEL_COLUMNS;
	w = cols * PANEL_WIDTH > 1000 ? cols * PANEL_WIDTH : 1000;
	h = TOP_HEIGHT + rows * PANEL_HEIGHT;
	top = (double)TOP_HEIGHT / (double)h;
	plot_begin(&p, path);
	put_multiples_data(p.d, m);
	fprintf(p.g, "set terminal pngcairo size %zu,%zu noenhanced font \",9\"\n"
	    "set datafile separator \"\\t\"\nset datafile missing \"NaN\"\n", w, h);
	put_split(p.g, "N", 5, m->np);
	put_split(p.g, "G", 6, m->ng);
	fputs("array PAL[6] = [\"#1f77b4\", \"#ff7f0e\", \"#2ca02c\", "
	    "\"#d62728\", \"#9467bd\", \"#8c564b\"]\n"
	    "set multiplot title ARG2\nset grid\n"
	    "set offsets graph 0.04, graph 0.04, graph 0.06, graph 0.06\n", p.g);
	fprintf(p.g, "set origin 0, %.6f\nset size 1, %.6f\n"
	    "set xlabel ARG3\nset ylabel ARG4\nset key outside right top\n",
	    1 - top, top * 0.94);
	put_panel_plot(p.g, "3", use, nuse, best, m->nl > 0, 1);
	fputs("set key off\nset xtics rotate by 40 right\n", p.g);
	for (j = 0; j < m->np; j++) {
		fprintf(p.g, "set origin %.6f, %.6f\nset size %.6f, %.6f\n"
		    "set xlabel N[%zu]\nset ylabel %s\n",
		    (double)(j % cols) / (double)cols,
		    (1 - top) * (double)(rows - 1 - j / cols) / (double)rows,
		    1.0 / (double)cols, (1 - top) / (double)rows, j + 1,
		    j % cols ? "\"\"" : "ARG4");
		snprintf(col, sizeof col, "%zu", 4 + j);
		put_panel_plot(p.g, col, use, nuse, best, 0, 0);
	}
	fputs("unset multiplot\n", p.g);
	args[0] = (char *)m->title;
	args[1] = (char *)m->xlabel;
	args[2] = (char *)m->ylabel;
	args[3] = join((const char *const *)m->names, m->np, sizeof *m->names);
	args[4] = join(m->groups, m->ng, sizeof *m->groups);
	args[5] = (char *)(m->linetitle ? m->linetitle : "");
	plot_finish(&p, args, 6);
	free(args[3]);
	free(args[4]);
	free(use);
}
