/* plot.h - plots drawn with gnuplot(1): index bars, planes and heatmaps,
 * lines, small multiples. */
#ifndef SR_PLOT_H
#define SR_PLOT_H

#include <stddef.h>

/* One series of a bar chart: a value and an error half-width (NaN: none)
 * for each of k parameters, and flags (NULL: none) that put a star on
 * the bar (significance). */
typedef struct {
	const char *title;
	const double *value, *err;
	const int *mark;
} sr_plot_series;

/* Each plot is one of the tool's outputs (out.h): drawn into a temporary
 * that sr_out_commit_all() renames to path with the other outputs, so
 * call that after the plot; a device is written in place. Each dies if
 * gnuplot fails or is missing.
 *
 * Writes a PNG bar chart of the series, grouped by parameter, the key
 * outside on the right, to path. */
void sr_plot_bars(const char *path, const char *title, const char *ylabel,
    char **names, size_t k, const sr_plot_series *s, size_t ns);

/* Writes a PNG of horizontal bars of the k values from 0, with error
 * half-widths err (NULL: none), sorted: the largest on top. */
void sr_plot_hbars(const char *path, const char *title, const char *xlabel,
    char **names, size_t k, const double *value, const double *err);

/* Writes a PNG of the Morris plane, sigma y against mu* x from 0, the
 * lines sigma/mu* = 0.1, 0.5, 1, the nlabel (at most 16) points of
 * largest x labelled beside them, clear of one another, of the points,
 * the lines and their labels (labels.h), and the others' names listed
 * on the right. When no y is defined (all NaN: one trajectory), the
 * points lie on the x axis, without the lines, under a note saying so. */
void sr_plot_plane(const char *path, const char *title, char **names,
    size_t k, const double *x, const double *y, size_t nlabel);

/* Writes a PNG heatmap of the pairs i < j of the k x k row-major m (the
 * upper triangle), the values written in the cells when k <= 10, on a
 * scale symmetric about 0; a "?" after the value (or alone, k > 10) in
 * the cells whose mark (k x k, NULL: none) is set (uncertain values). */
void sr_plot_heatmap(const char *path, const char *title, const char *cblabel,
    char **names, size_t k, const double *m, const int *mark);

/* One line of a line plot: n points (x[i], y[i]). */
typedef struct {
	const char *title;
	const double *x, *y;
	size_t n;
} sr_plot_line;

/* Writes a PNG of the lines, points joined, log-log when logxy. */
void sr_plot_lines(const char *path, const char *title, const char *xlabel,
    const char *ylabel, int logxy, const sr_plot_line *l, size_t nl);

/* A panel's axis of discrete values: n tick positions at[], ascending,
 * and their labels (the labels go to gnuplot as an argument, never in
 * its script). n 0: a continuous axis. */
typedef struct {
	size_t n;
	const double *at;
	char *const *label;
} sr_plot_ticks;

/* Small multiples of n points y[i] in groups (group[i] < ng, titled
 * groups[g], each its own colour and point type: a filled circle, an
 * open triangle, a cross, ...): a wide first panel of the points
 * against x0[i] under a step line (lx, ly, nl points: a best so far),
 * then one small panel of the points against each column x[j][i],
 * titled names[j] (np of them, four to a row). Points whose y is NaN
 * are left out; best < n marks that point in every panel. A panel whose
 * ticks[j].n is not 0 has only those ticks, labelled, on an x axis from
 * half a step before the first to half a step after the last (values
 * or the positions of categories). */
typedef struct {
	const char *title, *xlabel, *ylabel, *linetitle;
	const double *lx, *ly;
	size_t nl;
	const double *x0, *y;
	const int *group;
	size_t n, best;
	const char *const *groups;
	size_t ng;
	char **names;
	const double *const *x;
	size_t np;
	const sr_plot_ticks *ticks;	/* np; NULL: all continuous */
} sr_plot_multiples;

/* Writes the small multiples m as a PNG to path; dies if no point has a
 * y, or if gnuplot fails or is missing. */
void sr_plot_panels(const char *path, const sr_plot_multiples *m);

#endif
