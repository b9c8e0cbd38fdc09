/* plot_panels.c - small multiples drawn by gnuplot (plot.h): a wide
 * panel of points against the work done, then one panel per parameter;
 * out of plot.c, whose script machinery (plot_script.h) it shares. */
#include "core/plot.h"
#include "core/plot_script.h"
#include "core/err.h"
#include "core/tsv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small multiples ---------------------------------------------------------- */
#define PANEL_COLUMNS 4
#define PANEL_WIDTH 300	/* pixels */
#define PANEL_HEIGHT 250
#define TOP_HEIGHT 440

/* Writes point i's row of block 1: group, y, x0, x[0..np). */
static void
put_point(FILE *d, const sr_plot_multiples *m, size_t i)
{
	size_t j;

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

/* The data of small multiples: block 0 the line, block 1 one row per
 * point (group, y, x0, x[0..np)), block 2 the best point's row again. */
static void
put_multiples_data(FILE *d, const sr_plot_multiples *m)
{
	size_t i;

	for (i = 0; i < m->nl; i++) {
		sr_put_double(d, m->lx[i]);
		fputc('\t', d);
		sr_put_double(d, m->ly[i]);
		fputc('\n', d);
	}
	fputs("\n\n", d);
	for (i = 0; i < m->n; i++)
		put_point(d, m, i);
	fputs("\n\n", d);
	if (m->best < m->n)
		put_point(d, m, m->best);
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
 * panel's): the groups used, each in its colour and point type (PAL,
 * PT, PS), the best point, the line in the first. */
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
		int s = use[k] % 6 + 1;

		fprintf(g, "%sARG1 index 1 using (column(%s)):($1 == %d ? $2 : NaN) "
		    "with points pt PT[%d] ps PS[%d] lc rgb PAL[%d] %s", sep, c,
		    use[k], s, s, s, key ? "title G[" : "notitle");
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

/* Whether the n labels of t fit side by side under a small panel: n
 * times the longest, a 9-point character about 6 pixels, in about 220. */
static int
ticks_fit_level(const sr_plot_ticks *t)
{
	size_t i, len, longest = 0;

	for (i = 0; i < t->n; i++)
		if ((len = strlen(t->label[i])) > longest)
			longest = len;
	return (double)t->n * (double)(longest + 2) * 6 <= 220;
}

/* The x axis of a small panel: continuous (t NULL or without ticks), its
 * labels slanted, or the ticks of t labelled L[first + 1..], level when
 * they fit, from half a step before the first to half a step after the
 * last. */
static void
put_panel_axis(FILE *g, const sr_plot_ticks *t, size_t first)
{
	size_t i;
	double pad;

	if (t == NULL || t->n == 0) {
		fputs("set xrange [*:*]\nset xtics autofreq rotate by 40 right\n",
		    g);
		return;
	}
	pad = t->n > 1 ? (t->at[t->n - 1] - t->at[0]) / (double)(t->n - 1) / 2 :
	    0.5;
	if (!(pad > 0))
		pad = 0.5;
	fprintf(g, "set xrange [%.9g:%.9g]\nset xtics (", t->at[0] - pad,
	    t->at[t->n - 1] + pad);
	for (i = 0; i < t->n; i++)
		fprintf(g, "%sL[%zu] %.9g", i ? ", " : "", first + i + 1, t->at[i]);
	fputs(ticks_fit_level(t) ? ") norotate center\n" :
	    ") rotate by 40 right\n", g);
}

/* Every panel's tick labels, in panel order, joined into one argument;
 * their number in *n. */
static char *
join_tick_labels(const sr_plot_multiples *m, size_t *n)
{
	size_t j, i, k = 0;
	const char **all;
	char *s;

	for (j = 0; m->ticks && j < m->np; j++)
		k += m->ticks[j].n;
	all = sr_calloc(k + 1, sizeof *all);
	k = 0;
	for (j = 0; m->ticks && j < m->np; j++)
		for (i = 0; i < m->ticks[j].n; i++)
			all[k++] = m->ticks[j].label[i];
	s = sr_plot_join(all, k, sizeof *all);
	free(all);
	*n = k;
	return s;
}

/* The script's settings before the panels: the terminal, the lists
 * (parameter names N, group titles G, tick labels L) and the groups'
 * colours PAL, point types PT and sizes PS: a filled circle, an open
 * triangle, a cross, ... */
static void
put_panels_head(FILE *g, const sr_plot_multiples *m, size_t w, size_t h,
    size_t nlabel)
{
	fprintf(g, "set terminal pngcairo size %zu,%zu noenhanced font \",9\"\n"
	    "set datafile separator \"\\t\"\nset datafile missing \"NaN\"\n", w, h);
	sr_plot_put_split(g, "N", 5, m->np);
	sr_plot_put_split(g, "G", 6, m->ng);
	sr_plot_put_split(g, "L", 8, nlabel);
	fputs("array PAL[6] = [\"#1f77b4\", \"#ff7f0e\", \"#2ca02c\", "
	    "\"#d62728\", \"#9467bd\", \"#8c564b\"]\n"
	    "array PT[6] = [7, 8, 2, 5, 9, 13]\n"
	    "array PS[6] = [0.7, 1.1, 1.1, 0.7, 0.9, 0.9]\n"
	    "set multiplot title ARG2\nset grid\n"
	    "set offsets graph 0.04, graph 0.04, graph 0.06, graph 0.06\n", g);
}

void
sr_plot_panels(const char *path, const sr_plot_multiples *m)
{
	struct plot p;
	char *args[7], col[32];
	int *use = sr_calloc(m->ng + 1, sizeof *use);
	size_t nuse = used_groups(m, use), cols, rows, j, w, h, nlabel, first;
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
	sr_plot_begin(&p, path);
	put_multiples_data(p.d, m);
	args[6] = join_tick_labels(m, &nlabel);
	put_panels_head(p.g, m, w, h, nlabel);
	fprintf(p.g, "set origin 0, %.6f\nset size 1, %.6f\n"
	    "set xlabel ARG3\nset ylabel ARG4\nset key outside right top\n",
	    1 - top, top * 0.94);
	put_panel_plot(p.g, "3", use, nuse, best, m->nl > 0, 1);
	fputs("set key off\n", p.g);
	for (j = first = 0; j < m->np; j++) {
		fprintf(p.g, "set origin %.6f, %.6f\nset size %.6f, %.6f\n"
		    "set xlabel N[%zu]\nset ylabel %s\n",
		    (double)(j % cols) / (double)cols,
		    (1 - top) * (double)(rows - 1 - j / cols) / (double)rows,
		    1.0 / (double)cols, (1 - top) / (double)rows, j + 1,
		    j % cols ? "\"\"" : "ARG4");
		put_panel_axis(p.g, m->ticks ? &m->ticks[j] : NULL, first);
		first += m->ticks ? m->ticks[j].n : 0;
		snprintf(col, sizeof col, "%zu", 4 + j);
		put_panel_plot(p.g, col, use, nuse, best, 0, 0);
	}
	fputs("unset multiplot\n", p.g);
	args[0] = (char *)m->title;
	args[1] = (char *)m->xlabel;
	args[2] = (char *)m->ylabel;
	args[3] = sr_plot_join((const char *const *)m->names, m->np, sizeof *m->names);
	args[4] = sr_plot_join(m->groups, m->ng, sizeof *m->groups);
	args[5] = (char *)(m->linetitle ? m->linetitle : "");
	sr_plot_finish(&p, args, 7);
	free(args[3]);
	free(args[4]);
	free(args[6]);
	free(use);
}
