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

/* Point i's word in each panel of words, after the x columns (column
 * 4 + np + j for panel j): the word of its code, "" off the list. */
static void
put_words(FILE *d, const sr_plot_multiples *m, size_t i)
{
	size_t j, k, nw;

	for (j = 0; m->words && j < m->np; j++) {
		fputc('\t', d);
		if (m->words[j] == NULL || !(m->x[j][i] >= 0))
			continue;
		for (nw = 0; m->words[j][nw]; nw++)
			;
		k = (size_t)m->x[j][i];
		if (k < nw && (double)k == m->x[j][i])
			fputs(m->words[j][k], d);
	}
}

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
		put_words(d, m, i);
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
		put_words(d, m, m->best);
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
    int best, int line, int key, size_t words)
{
	char tic[48] = "";

	if (words)	/* the words as tick labels, from their column */
		snprintf(tic, sizeof tic, ":xtic(%zu)", words);
	size_t k;
	const char *sep = "";

	fputs("plot ", g);
	if (line) {
		fputs("ARG1 index 0 using 1:2 with steps lw 2 lc rgb \"#333333\" "
		    "title ARG7", g);
		sep = ", ";
	}
	for (k = 0; k < nuse; k++) {
		fprintf(g, "%sARG1 index 1 using (column(%s)):($1 == %d ? $2 : NaN)%s "
		    "with points pt 7 ps 0.7 lc rgb PAL[%d] %s", sep, c, use[k],
		    tic, use[k] % 6 + 1, key ? "title G[" : "notitle");
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
	sr_plot_begin(&p, path);
	put_multiples_data(p.d, m);
	fprintf(p.g, "set terminal pngcairo size %zu,%zu noenhanced font \",9\"\n"
	    "set datafile separator \"\\t\"\nset datafile missing \"NaN\"\n", w, h);
	sr_plot_put_split(p.g, "N", 5, m->np);
	sr_plot_put_split(p.g, "G", 6, m->ng);
	fputs("array PAL[6] = [\"#1f77b4\", \"#ff7f0e\", \"#2ca02c\", "
	    "\"#d62728\", \"#9467bd\", \"#8c564b\"]\n"
	    "set multiplot title ARG2\nset grid\n"
	    "set offsets graph 0.04, graph 0.04, graph 0.06, graph 0.06\n", p.g);
	fprintf(p.g, "set origin 0, %.6f\nset size 1, %.6f\n"
	    "set xlabel ARG3\nset ylabel ARG4\nset key outside right top\n",
	    1 - top, top * 0.94);
	put_panel_plot(p.g, "3", use, nuse, best, m->nl > 0, 1, 0);
	fputs("set key off\nset xtics rotate by 40 right\n", p.g);
	for (j = 0; j < m->np; j++) {
		fprintf(p.g, "set origin %.6f, %.6f\nset size %.6f, %.6f\n"
		    "set xlabel N[%zu]\nset ylabel %s\n",
		    (double)(j % cols) / (double)cols,
		    (1 - top) * (double)(rows - 1 - j / cols) / (double)rows,
		    1.0 / (double)cols, (1 - top) / (double)rows, j + 1,
		    j % cols ? "\"\"" : "ARG4");
		snprintf(col, sizeof col, "%zu", 4 + j);
		put_panel_plot(p.g, col, use, nuse, best, 0, 0, m->words &&
		    m->words[j] ? 4 + m->np + j : 0);
	}
	fputs("unset multiplot\n", p.g);
	args[0] = (char *)m->title;
	args[1] = (char *)m->xlabel;
	args[2] = (char *)m->ylabel;
	args[3] = sr_plot_join((const char *const *)m->names, m->np, sizeof *m->names);
	args[4] = sr_plot_join(m->groups, m->ng, sizeof *m->groups);
	args[5] = (char *)(m->linetitle ? m->linetitle : "");
	sr_plot_finish(&p, args, 6);
	free(args[3]);
	free(args[4]);
	free(use);
}
