/* plot.c - plots: a data file and a script fed to gnuplot, whose PNG goes
 * to a temporary file renamed into place on success. */
#include "core/plot.h"
#include "core/err.h"
#include "core/out.h"
#include "core/tsv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* A temporary file beside path (or in TMPDIR); returns its open stream. */
static FILE *
temp_beside(const char *path, const char *tag, char *name, size_t len)
{
	int fd;
	FILE *fp;

	snprintf(name, len, "%s.%s.XXXXXX", path, tag);
	if ((fd = mkstemp(name)) < 0)
		sr_die_errno("%s: cannot create a temporary file", path);
	if ((fp = fdopen(fd, "w")) == NULL)
		sr_die_errno("%s", name);
	return fp;
}

/* Escapes a label for a gnuplot double-quoted string. */
static void
put_label(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\' || *s == '_' || *s == '^')
			fputc('\\', fp);
		fputc(*s, fp);
	}
}

/* Runs gnuplot on script, then renames png into path. */
static void
run_gnuplot(const char *path, const char *script, const char *data,
    const char *png)
{
	char cmd[4096];
	int st;

	snprintf(cmd, sizeof cmd, "gnuplot '%s' 1>&2", script);
	st = system(cmd);
	unlink(script);
	unlink(data);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		unlink(png);
		sr_die(SR_EXIT_DATA, "%s: gnuplot failed (exit %d); is gnuplot "
		    "installed?", path, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	}
	chmod(png, (mode_t)(0666 & ~sr_current_umask()));
	if (rename(png, path) != 0) {
		unlink(png);
		sr_die_errno("%s: cannot rename the plot into place", path);
	}
}

void
sr_plot_bars(const char *path, const char *title, char **names, size_t k,
    const sr_plot_series *s, size_t ns)
{
	char data[4096], script[4096], png[4096];
	FILE *d = temp_beside(path, "dat", data, sizeof data);
	FILE *g = temp_beside(path, "gp", script, sizeof script);
	size_t i, j;

	fclose(temp_beside(path, "png", png, sizeof png));
	for (i = 0; i < k; i++) {
		fprintf(d, "\"%s\"", names[i]);
		for (j = 0; j < ns; j++) {
			fputc('\t', d);
			sr_put_double(d, s[j].value[i]);
			fputc('\t', d);
			sr_put_double(d, s[j].err ? s[j].err[i] : 0);
		}
		fputc('\n', d);
	}
	fprintf(g, "set terminal pngcairo size %zu,480 noenhanced\n"
	    "set output '%s'\nset title \"", 480 + 40 * k, png);
	put_label(g, title);
	fprintf(g, "\"\nset style data histogram\n"
	    "set style histogram errorbars gap 2 lw 1\nset style fill solid 0.6 border -1\n"
	    "set key top right\nset grid ytics\nset xtics rotate by -45\n"
	    "set datafile missing 'NaN'\nplot ");
	for (j = 0; j < ns; j++) {
		fprintf(g, "%s'%s' using %zu:%zu:xtic(1) title \"", j ? ", " : "",
		    data, 2 + 2 * j, 3 + 2 * j);
		put_label(g, s[j].title);
		fputc('"', g);
	}
	fputc('\n', g);
	if (fclose(d) || fclose(g))
		sr_die_errno("%s: cannot write the plot script", path);
	run_gnuplot(path, script, data, png);
}

void
sr_plot_scatter(const char *path, const char *title, char **names, size_t k,
    const double *x, const double *y, const char *xlabel, const char *ylabel)
{
	char data[4096], script[4096], png[4096];
	FILE *d = temp_beside(path, "dat", data, sizeof data);
	FILE *g = temp_beside(path, "gp", script, sizeof script);
	size_t i;

	fclose(temp_beside(path, "png", png, sizeof png));
	for (i = 0; i < k; i++) {
		sr_put_double(d, x[i]);
		fputc('\t', d);
		sr_put_double(d, y[i]);
		fprintf(d, "\t\"%s\"\n", names[i]);
	}
	fprintf(g, "set terminal pngcairo size 640,480 noenhanced\n"
	    "set output '%s'\nset title \"", png);
	put_label(g, title);
	fprintf(g, "\"\nset xlabel \"%s\"\nset ylabel \"%s\"\nset grid\n"
	    "set datafile missing 'NaN'\nset offsets graph 0.05, graph 0.15, "
	    "graph 0.1, graph 0.05\nplot '%s' using 1:2 with points pt 7 "
	    "notitle, '' using 1:2:3 with labels offset 1,0.5 left notitle\n",
	    xlabel, ylabel, data);
	if (fclose(d) || fclose(g))
		sr_die_errno("%s: cannot write the plot script", path);
	run_gnuplot(path, script, data, png);
}

void
sr_plot_lines(const char *path, const char *title, const char *xlabel,
    const char *ylabel, int logxy, const sr_plot_line *l, size_t nl)
{
	char data[4096], script[4096], png[4096];
	FILE *d = temp_beside(path, "dat", data, sizeof data);
	FILE *g = temp_beside(path, "gp", script, sizeof script);
	size_t i, j;

	fclose(temp_beside(path, "png", png, sizeof png));
	for (j = 0; j < nl; j++) {	/* one data block (index) per line */
		for (i = 0; i < l[j].n; i++) {
			sr_put_double(d, l[j].x[i]);
			fputc('\t', d);
			sr_put_double(d, l[j].y[i]);
			fputc('\n', d);
		}
		fputs("\n\n", d);
	}
	fprintf(g, "set terminal pngcairo size 800,560 noenhanced\n"
	    "set output '%s'\nset title \"", png);
	put_label(g, title);
	fputs("\"\nset xlabel \"", g);
	put_label(g, xlabel);
	fputs("\"\nset ylabel \"", g);
	put_label(g, ylabel);
	fprintf(g, "\"\n%sset grid\nset key top right\n"
	    "set datafile missing 'NaN'\nplot ", logxy ? "set logscale xy\n" : "");
	for (j = 0; j < nl; j++) {
		fprintf(g, "%s'%s' index %zu using 1:2 with linespoints pt 7 "
		    "title \"", j ? ", " : "", data, j);
		put_label(g, l[j].title);
		fputc('"', g);
	}
	fputc('\n', g);
	if (fclose(d) || fclose(g))
		sr_die_errno("%s: cannot write the plot script", path);
	run_gnuplot(path, script, data, png);
}
