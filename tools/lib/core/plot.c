/* plot.c - plots drawn by gnuplot(1), run without a shell as
 * "gnuplot -c SCRIPT DATA ARG...": the script is fixed text with numbers
 * only; every user string (paths, titles, parameter names) reaches
 * gnuplot as a -c argument (ARG1..ARG9), lists of them joined by the
 * ASCII unit separator and split into arrays by the script. gnuplot writes
 * the PNG to its standard output, a temporary file beside the target that
 * becomes one of the tool's outputs, renamed into place with the others
 * at sr_out_commit_all() (a device, /dev/null, is written in place) once
 * it is checked complete: gnuplot exits 0 when a write of its image fails
 * (a full disk), so an image without its PNG end is a write error. The
 * data, script and image temporaries are registered with out.c, so that
 * a failed or killed run leaves none. gnuplot's stderr goes to an
 * anonymous temporary (tmpfile), copied to ours only when it fails: its
 * warnings on a plot it drew ("empty x range") are of no use to a user
 * and would break a tool's silence on success. */
#include "core/plot.h"
#include "core/plot_script.h"
#include "core/err.h"
#include "core/labels.h"
#include "core/out.h"
#include "core/tsv.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;


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
void
sr_plot_begin(struct plot *p, const char *path)
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
void
sr_plot_put_split(FILE *g, const char *name, int arg, size_t n)
{
	fprintf(g, "array %s[%zu]\nrest = ARG%d\n"
	    "do for [i = 1:%zu] {\n\tp = strstrt(rest, \"\\037\")\n"
	    "\t%s[i] = p ? rest[1:p - 1] : rest\n"
	    "\trest = p ? rest[p + 1:] : \"\"\n}\n",
	    name, n ? n : 1, arg, n, name);
}

/* The n strings joined by SEP (a SEP inside one becomes a space). */
char *
sr_plot_join(const char *const *s, size_t n, size_t stride)
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
	if ((p->msg = tmpfile()) != NULL)	/* else stderr, as it is */
		posix_spawn_file_actions_adddup2(&fa, fileno(p->msg), 2);
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

/* Copies what gnuplot wrote on its stderr (p->msg) to ours, stdout
 * flushed first, and closes it. */
static void
show_messages(struct plot *p)
{
	char buf[4096];
	size_t n;

	if (p->msg == NULL)
		return;
	fflush(stdout);
	rewind(p->msg);
	while ((n = fread(buf, 1, sizeof buf, p->msg)) > 0)
		fwrite(buf, 1, n, stderr);
	fclose(p->msg);
	p->msg = NULL;
}

/* Whether the PNG on fd (open for reading too) ends with its IEND
 * chunk: gnuplot exits 0 even when writing its image failed (a full
 * disk), leaving it cut short or empty. */
static int
png_complete(int fd)
{
	static const unsigned char iend[12] = { 0, 0, 0, 0, 'I', 'E', 'N',
	    'D', 0xae, 0x42, 0x60, 0x82 };
	unsigned char tail[sizeof iend];
	struct stat sb;

	return fstat(fd, &sb) == 0 && sb.st_size >= 8 + (off_t)sizeof tail &&
	    pread(fd, tail, sizeof tail, sb.st_size - (off_t)sizeof tail) ==
	    (ssize_t)sizeof tail && memcmp(tail, iend, sizeof iend) == 0;
}

/* Whether the file system of fd has no space left (statvfs). */
static int
fs_full(int fd)
{
	struct statvfs vs;

	return fstatvfs(fd, &vs) == 0 && vs.f_bavail == 0;
}

/* Dies with exit 3 (SR_EXIT_IO) when gnuplot, exiting with status st,
 * left the image temporary incomplete because a write failed: always
 * when it exited 0 (it ignores its write errors), and, when it failed,
 * if the file system is full. An image written in place (a device) is
 * not checked. */
static void
check_image(const struct plot *p, int st)
{
	struct stat sb;
	int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;

	if (p->png == NULL || png_complete(p->pngfd))
		return;
	if (fs_full(p->pngfd)) {
		errno = ENOSPC;
		sr_die_io("%s: write error", p->path);
	}
	if (ok)
		sr_die(SR_EXIT_IO, "%s: write error: gnuplot's image is "
		    "incomplete (%jd bytes)", p->path, fstat(p->pngfd, &sb) ?
		    (intmax_t)-1 : (intmax_t)sb.st_size);
}

/* Closes the data and script, runs gnuplot on them with args, removes
 * them, checks the image is complete, and hands the synced image to
 * out.c, committed with the tool's other outputs (sr_out_adopt); dies
 * (leaving no file) if gnuplot fails or a write of the image did. */
void
sr_plot_finish(struct plot *p, char **args, size_t nargs)
{
	int st;

	errno = 0;
	if (fclose(p->d) || fclose(p->g))
		sr_die_io("%s: cannot write the plot script", p->path);
	st = spawn_gnuplot(p, args, nargs);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		show_messages(p);
	else if (p->msg) {
		fclose(p->msg);
		p->msg = NULL;
	}
	if (!WIFSIGNALED(st))	/* before the drops free space */
		check_image(p, st);
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
	fprintf(g, "set encoding utf8\n"
	    "set terminal pngcairo size %zu,%zu noenhanced font \",10\"\n"
	    "set datafile separator \"\\t\"\nset datafile missing \"NaN\"\n"
	    "set title ARG2\n", w, h);
}

/* Whether a flag of s is set on a bar of sign neg (1: below 0) among k. */
static int
any_mark(const sr_plot_series *s, size_t k, int neg)
{
	size_t i;

	for (i = 0; s->mark && i < k; i++)
		if (s->mark[i] && (s->value[i] < 0) == neg)
			return 1;
	return 0;
}

/* The plots of series j's stars (columns c..c+2 of the data: value, error,
 * mark), on the marked bars of sign neg, in a clustered histogram of ns
 * series with a gap of 2: bar j of cluster i is centred at
 * i + (j - (ns - 1) / 2) / (ns + 2). Above a bar, or below it when
 * neg, beyond its error bar. */
static void
put_stars(FILE *g, size_t j, size_t ns, int neg)
{
	size_t c = 1 + 3 * j;
	double dx = ((double)j - (double)(ns - 1) / 2) / (double)(ns + 2);

	fprintf(g, ", ARG1 using ($0 + %.6f):($%zu %s 0 && $%zu != 0 ? $%zu %s "
	    "($%zu == $%zu ? $%zu : 0) : NaN):(\"*\") with labels offset 0,%s "
	    "font \",14\" notitle", dx, c, neg ? "<" : ">=", c + 2, c,
	    neg ? "-" : "+", c + 1, c + 1, c + 1, neg ? "-0.9" : "0.6");
}

void
sr_plot_bars(const char *path, const char *title, const char *ylabel,
    char **names, size_t k, const sr_plot_series *s, size_t ns)
{
	struct plot p;
	char *args[4];
	size_t i, j;
	int stars = 0;

	sr_plot_begin(&p, path);
	for (i = 0; i < k; i++) {
		for (j = 0; j < ns; j++) {
			if (j)
				fputc('\t', p.d);
			sr_put_double(p.d, s[j].value[i]);
			fputc('\t', p.d);
			sr_put_double(p.d, s[j].err ? s[j].err[i] : 0);
			fprintf(p.d, "\t%d", s[j].mark ? s[j].mark[i] : 0);
		}
		fputc('\n', p.d);
	}
	for (j = 0; j < ns; j++)
		stars |= any_mark(&s[j], k, 0) | any_mark(&s[j], k, 1);
	put_head(p.g, 560 + 40 * k, 520);
	sr_plot_put_split(p.g, "N", 3, k);
	sr_plot_put_split(p.g, "S", 4, ns);
	fputs("set style data histogram\n"
	    "set style histogram errorbars gap 2 lw 1\n"
	    "set style fill solid 0.7 border -1\n"
	    "set key outside right top vertical\nset ylabel ARG5\n"
	    "set grid ytics\nset xtics rotate by 40 right nomirror\n"
	    "set xzeroaxis lt -1\nset offsets 0, 0, graph 0.08, graph 0.02\n",
	    p.g);
	if (stars)
		fputs("set label \"* p < 0.05\" at graph 1.03, graph 0.05 left\n",
		    p.g);
	fputs("plot ", p.g);
	for (j = 0; j < ns; j++)
		fprintf(p.g, "%sARG1 using %zu:%zu:xtic(N[int($0) + 1]) "
		    "title S[%zu]", j ? ", " : "", 1 + 3 * j, 2 + 3 * j, j + 1);
	for (j = 0; j < ns; j++) {
		if (any_mark(&s[j], k, 0))
			put_stars(p.g, j, ns, 0);
		if (any_mark(&s[j], k, 1))
			put_stars(p.g, j, ns, 1);
	}
	fputc('\n', p.g);
	args[0] = (char *)title;
	args[1] = sr_plot_join((const char *const *)names, k, sizeof *names);
	args[2] = sr_plot_join(&s[0].title, ns, sizeof *s);
	args[3] = (char *)ylabel;
	sr_plot_finish(&p, args, 4);
	free(args[1]);
	free(args[2]);
}

/* ---- sorted horizontal bars -------------------------------------------------- */

/* Whether none of the k values is a number. */
static int
all_nan(const double *v, size_t k)
{
	size_t i;

	for (i = 0; i < k; i++)
		if (!isnan(v[i]))
			return 0;
	return 1;
}

/* The values being sorted (qsort has no context argument). */
static const double *sort_value;

/* Orders indices by decreasing value, NaN last, then by index. */
static int
by_value_down(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	double x = sort_value[i], y = sort_value[j];

	if (x == x && y == y && x != y)
		return x < y ? 1 : -1;
	if ((x == x) != (y == y))
		return x == x ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* The k indices into order[], by decreasing value. */
static void
sort_down(size_t *order, const double *value, size_t k)
{
	size_t i;

	for (i = 0; i < k; i++)
		order[i] = i;
	sort_value = value;
	qsort(order, k, sizeof *order, by_value_down);
	sort_value = NULL;
}

void
sr_plot_hbars(const char *path, const char *title, const char *xlabel,
    char **names, size_t k, const double *value, const double *err)
{
	struct plot p;
	char *args[3];
	size_t *order = sr_calloc(k ? k : 1, sizeof *order), i;

	sort_down(order, value, k);
	sr_plot_begin(&p, path);
	for (i = k; i-- > 0; ) {	/* the largest last: on top */
		fprintf(p.d, "%zu\t", k - 1 - i);
		sr_put_double(p.d, value[order[i]]);
		fputc('\t', p.d);
		sr_put_double(p.d, err ? err[order[i]] : 0);
		fprintf(p.d, "\t%zu\n", order[i] + 1);
	}
	put_head(p.g, 800, 140 + 26 * (k < 8 ? 8 : k));
	sr_plot_put_split(p.g, "N", 3, k);
	fprintf(p.g, "set xlabel ARG4\nset xrange [0:*]\n"
	    "set yrange [-0.6:%zu.4]\nset ytics nomirror scale 0\n"
	    "set style fill solid 0.7 border -1\nset grid xtics\n"
	    "set offsets 0, graph 0.05, 0, 0\n"
	    "plot ARG1 using (0):1:(0):2:($1 - 0.35):($1 + 0.35):"
	    "ytic(N[int($4)]) with boxxyerror lc rgb \"#4c72b0\" notitle",
	    k ? k - 1 : 0);
	if (err && !all_nan(err, k))	/* none: no error bars (one trajectory) */
		fputs(", ARG1 using 2:1:3 with xerrorbars pt 0 lw 1.5 lc rgb "
		    "\"black\" notitle", p.g);
	fputc('\n', p.g);
	args[0] = (char *)title;
	args[1] = sr_plot_join((const char *const *)names, k, sizeof *names);
	args[2] = (char *)xlabel;
	sr_plot_finish(&p, args, 3);
	free(args[1]);
	free(order);
}

void
sr_plot_lines(const char *path, const char *title, const char *xlabel,
    const char *ylabel, int logxy, const sr_plot_line *l, size_t nl)
{
	struct plot p;
	char *args[4];
	size_t i, j;

	sr_plot_begin(&p, path);
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
	sr_plot_put_split(p.g, "S", 5, nl);
	fprintf(p.g, "set xlabel ARG3\nset ylabel ARG4\n%sset grid\n"
	    "set key top right\nplot ", logxy ? "set logscale xy\n" : "");
	for (j = 0; j < nl; j++)
		fprintf(p.g, "%sARG1 index %zu using 1:2 with linespoints pt 7 "
		    "title S[%zu]", j ? ", " : "", j, j + 1);
	fputc('\n', p.g);
	args[0] = (char *)title;
	args[1] = (char *)xlabel;
	args[2] = (char *)ylabel;
	args[3] = sr_plot_join(&l[0].title, nl, sizeof *l);
	sr_plot_finish(&p, args, 4);
	free(args[3]);
}

/* ---- the mu*-sigma plane ------------------------------------------------------ */

#define PLANE_W 605.0	/* the plot area in pixels, about */
#define PLANE_H 520.0
#define CHAR_W 7.0	/* a character of the 10-point font, about */
#define CHAR_H 15.0

/* The ratios of the plane's lines sigma = c mu*. */
static const double ratio[] = { 0.1, 0.5, 1 };
#define NRATIO (sizeof ratio / sizeof *ratio)

/* Whether the line sigma = c mu* leaves the plane (0..xmax, 0..ymax) by
 * the right side (else by the top). */
static int
leaves_right(double c, double xmax, double ymax)
{
	return c * xmax <= ymax;
}

/* The box of the label of line c, where put_ratio_lines writes it. */
static sr_box
ratio_box(double c, double xmax, double ymax)
{
	double w = CHAR_W * 11, x, y;

	if (leaves_right(c, xmax, ymax)) {
		x = PLANE_W - 0.5 * CHAR_W;
		y = c * xmax / ymax * PLANE_H + 0.7 * CHAR_H;
	} else {
		x = ymax / c / xmax * PLANE_W - 0.8 * CHAR_W;
		y = PLANE_H - 0.8 * CHAR_H;
	}
	return (sr_box){ x - w, y - CHAR_H / 2, x, y + CHAR_H / 2 };
}

/* The line sigma = c mu* in pixels, from the origin to where it leaves
 * the plane. */
static sr_segment
ratio_segment(double c, double xmax, double ymax)
{
	if (leaves_right(c, xmax, ymax))
		return (sr_segment){ 0, 0, PLANE_W, c * xmax / ymax * PLANE_H };
	return (sr_segment){ 0, 0, ymax / c / xmax * PLANE_W, PLANE_H };
}

/* The characters of the UTF-8 text s. */
static size_t
text_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* Places the labels of the n (at most 16) first points of order (pixel
 * positions px, py of k points; axes up to lim[0], lim[1]) clear of one
 * another, of the points, of the lines and of their labels: into
 * spot[]. */
static void
place_labels(char **names, const size_t *order, size_t n, const double *px,
    const double *py, size_t k, const double *lim, sr_label_spot *spot)
{
	sr_box box[NRATIO];
	sr_segment line[NRATIO];
	double wide[16];
	size_t i;

	for (i = 0; i < NRATIO; i++) {
		box[i] = ratio_box(ratio[i], lim[0], lim[1]);
		line[i] = ratio_segment(ratio[i], lim[0], lim[1]);
	}
	for (i = 0; i < n && i < 16; i++)
		wide[i] = CHAR_W * (double)text_chars(names[order[i]]);
	sr_labels_place(&(sr_label_scene){ PLANE_W, PLANE_H, px, py, k, box,
	    NRATIO, line, NRATIO }, order, wide, CHAR_H, n < 16 ? n : 16, spot);
}

/* The largest of the k values (NaN skipped) times 1.12, or 1 when none
 * is positive. */
static double
axis_max(const double *v, size_t k)
{
	double m = 0;
	size_t i;

	for (i = 0; i < k; i++)
		if (v[i] > m)
			m = v[i];
	return m > 0 ? m * 1.12 : 1;
}

/* The names of the points after the nlabel first of order, one a line
 * (at most 30), after a heading. */
static char *
others_text(char **names, const size_t *order, size_t k, size_t nlabel)
{
	size_t len = 64, i;
	char *t, *q;

	for (i = nlabel; i < k; i++)
		len += strlen(names[order[i]]) + 1;
	t = q = sr_malloc(len);
	*q = '\0';
	if (k <= nlabel)
		return t;
	q += sprintf(q, "others, by μ*:");
	for (i = nlabel; i < k && i < nlabel + 30; i++)
		q += sprintf(q, "\n%s", names[order[i]]);
	if (i < k)
		sprintf(q, "\n... and %zu more", k - i);
	return t;
}

/* Writes the labels of the lines sigma = c mu*, on axes up to xmax,
 * ymax. */
static void
put_ratio_lines(FILE *g, double xmax, double ymax)
{
	size_t i;

	for (i = 0; i < NRATIO; i++) {
		if (leaves_right(ratio[i], xmax, ymax))
			fprintf(g, "set label \"σ/μ* = %g\" at %.9g, %.9g right "
			    "offset -0.5, 0.7 tc rgb \"#666666\"\n", ratio[i],
			    xmax, ratio[i] * xmax);
		else
			fprintf(g, "set label \"σ/μ* = %g\" at %.9g, %.9g right "
			    "offset -0.8, -0.8 tc rgb \"#666666\"\n", ratio[i],
			    ymax / ratio[i], ymax);
	}
}

/* The plane's axes and its lines; without y (noy), the x axis alone
 * under a note. */
static void
put_plane_axes(FILE *g, double xmax, double ymax, int noy)
{
	fprintf(g, "set xlabel \"μ*\"\nset ylabel \"σ%s\"\nset grid\n"
	    "set xrange [0:%.9g]\nset yrange [0:%.9g]\nset rmargin at screen "
	    "0.76\nset label ARG4 at screen 0.78, graph 1 left front\n",
	    noy ? " (undefined)" : "", xmax, ymax);
	if (noy) {
		fputs("unset ytics\nset label \"σ is undefined with one "
		    "trajectory:\\nthe points show μ* alone, on its axis\" at "
		    "graph 0.5, graph 0.6 center tc rgb \"#b40426\"\nplot ",
		    g);
		return;
	}
	put_ratio_lines(g, xmax, ymax);
	fputs("set style line 9 lc rgb \"#999999\" dt 2 lw 1.2\nplot "
	    "0.1 * x ls 9 notitle, 0.5 * x ls 9 notitle, x ls 9 notitle, ", g);
}

void
sr_plot_plane(const char *path, const char *title, char **names, size_t k,
    const double *x, const double *y, size_t nlabel)
{
	struct plot p;
	char *args[4];
	size_t *order = sr_calloc(k ? k : 1, sizeof *order), i;
	sr_label_spot spot[16];
	int just, noy = all_nan(y, k);
	double *px = sr_calloc(k ? k : 1, sizeof *px);
	double *py = sr_calloc(k ? k : 1, sizeof *py);
	double *zero = sr_calloc(k ? k : 1, sizeof *zero);
	double xmax, ymax;

	y = noy ? zero : y;
	xmax = axis_max(x, k);
	ymax = axis_max(y, k);
	nlabel = nlabel < k ? nlabel : k;
	nlabel = nlabel < 16 ? nlabel : 16;
	sort_down(order, x, k);
	for (i = 0; i < k; i++) {
		px[i] = x[i] / xmax * PLANE_W;
		py[i] = y[i] / ymax * PLANE_H;
	}
	place_labels(names, order, nlabel, px, py, k, (double[]){ xmax, ymax },
	    spot);
	sr_plot_begin(&p, path);
	for (i = 0; i < k; i++) {	/* x, y, label x, y, just, name */
		size_t j = order[i];
		sr_label_spot s = i < nlabel ? spot[i] : (sr_label_spot){ 0 };

		sr_put_double(p.d, x[j]);
		fputc('\t', p.d);
		sr_put_double(p.d, y[j]);
		fputc('\t', p.d);
		sr_put_double(p.d, x[j] + s.dx / PLANE_W * xmax);
		fputc('\t', p.d);
		sr_put_double(p.d, y[j] + s.dy / PLANE_H * ymax);
		fprintf(p.d, "\t%d\t%zu\n", i < nlabel ? s.just : -1, j + 1);
	}
	put_head(p.g, 900, 620);
	sr_plot_put_split(p.g, "N", 3, k);
	put_plane_axes(p.g, xmax, ymax, noy);
	fputs("ARG1 using 1:2 with points pt 7 ps 1.1 lc rgb \"#4c72b0\" "
	    "notitle", p.g);
	/* a plot of labels per justification that some label has (an
	 * empty one would make gnuplot warn of a file without points) */
	for (just = 0; just < 3; just++) {
		for (i = 0; i < nlabel && spot[i].just != just; i++)
			;
		if (i < nlabel)
			fprintf(p.g, ", ARG1 using 3:($5 == %d ? $4 : NaN):"
			    "(N[int($6)]) with labels %s notitle", just,
			    just == 0 ? "left" : just == 1 ? "right" : "center");
	}
	fputc('\n', p.g);
	args[0] = (char *)title;
	args[1] = sr_plot_join((const char *const *)names, k, sizeof *names);
	args[2] = others_text(names, order, k, nlabel);
	sr_plot_finish(&p, args, 3);
	free(args[1]);
	free(args[2]);
	free(order);
	free(px);
	free(py);
	free(zero);
}

/* ---- a heatmap of pairs -------------------------------------------------------- */

void
sr_plot_heatmap(const char *path, const char *title, const char *cblabel,
    char **names, size_t k, const double *m, const int *mark)
{
	struct plot p;
	char *args[3];
	size_t i, j;
	double top = 0;
	int marks = 0;

	sr_plot_begin(&p, path);
	for (i = 0; i < k; i++)
		for (j = i + 1; j < k; j++) {
			fprintf(p.d, "%zu\t%zu\t", i, j);
			sr_put_double(p.d, m[i * k + j]);
			fprintf(p.d, "\t%d\n", mark ? mark[i * k + j] : 0);
			marks |= mark && mark[i * k + j];
			if (fabs(m[i * k + j]) > top)
				top = fabs(m[i * k + j]);
		}
	put_head(p.g, 260 + 44 * (k < 8 ? 8 : k), 200 + 40 * (k < 8 ? 8 : k));
	sr_plot_put_split(p.g, "N", 3, k);
	fprintf(p.g, "set xrange [-0.5:%zu.5]\nset yrange [%zu.5:-0.5]\n"
	    "set size ratio -1\nset cblabel ARG4\nset cbrange [%.9g:%.9g]\n"
	    "set palette defined (-1 \"#3b4cc0\", 0 \"#f7f7f7\", 1 \"#b40426\")\n"
	    "set xtics () rotate by 40 right nomirror scale 0\n"
	    "set ytics () nomirror scale 0\nset tics front\n"
	    "do for [i = 1:%zu] {\n\tset xtics add (N[i] i - 1)\n"
	    "\tset ytics add (N[i] i - 1)\n}\n"
	    "plot ARG1 using 2:1:(0.5):(0.5):3 with boxxyerror fc palette "
	    "fs solid 1 border lc rgb \"white\" notitle",
	    k ? k - 1 : 0, k ? k - 1 : 0, top > 0 ? -top : -1,
	    top > 0 ? top : 1, k);
	if (k <= 10)
		fputs(", ARG1 using 2:1:(sprintf(\"%.2f%s\", $3, $4 != 0 ? \"?\" "
		    ": \"\")) with labels notitle", p.g);
	else if (marks)
		fputs(", ARG1 using 2:1:($4 != 0 ? \"?\" : \"\") with labels "
		    "notitle", p.g);
	fputc('\n', p.g);
	args[0] = (char *)title;
	args[1] = sr_plot_join((const char *const *)names, k, sizeof *names);
	args[2] = (char *)cblabel;
	sr_plot_finish(&p, args, 3);
	free(args[1]);
}
