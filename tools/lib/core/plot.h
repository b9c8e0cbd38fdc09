/* plot.h - plots drawn with gnuplot(1): index bars and scatters, lines. */
#ifndef SR_PLOT_H
#define SR_PLOT_H

#include <stddef.h>

/* One series of a bar chart: a value and an error half-width (NaN: none)
 * for each of k parameters. */
typedef struct {
	const char *title;
	const double *value, *err;
} sr_plot_series;

/* Each plot is one of the tool's outputs (out.h): drawn into a temporary
 * that sr_out_commit_all() renames to path with the other outputs, so
 * call that after the plot; a device is written in place.
 *
 * Writes a PNG bar chart of the series, grouped by parameter, to path.
 * Dies if gnuplot fails or is missing. */
void sr_plot_bars(const char *path, const char *title, char **names,
    size_t k, const sr_plot_series *s, size_t ns);

/* Writes a PNG scatter of y against x, each point labelled (MOAT: mu*
 * against sigma). */
void sr_plot_scatter(const char *path, const char *title, char **names,
    size_t k, const double *x, const double *y, const char *xlabel,
    const char *ylabel);

/* One line of a line plot: n points (x[i], y[i]). */
typedef struct {
	const char *title;
	const double *x, *y;
	size_t n;
} sr_plot_line;

/* Writes a PNG of the lines, points joined, log-log when logxy. */
void sr_plot_lines(const char *path, const char *title, const char *xlabel,
    const char *ylabel, int logxy, const sr_plot_line *l, size_t nl);

/* Small multiples of n points y[i] in groups (group[i] < ng, titled
 * groups[g], one colour each): a wide first panel of the points against
 * x0[i] under a step line (lx, ly, nl points: a best so far), then one
 * small panel of the points against each column x[j][i], titled
 * names[j] (np of them, four to a row). Points whose y is NaN are
 * left out; best < n marks that point in every panel. */
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
} sr_plot_multiples;

/* Writes the small multiples m as a PNG to path; dies if no point has a
 * y, or if gnuplot fails or is missing. */
void sr_plot_panels(const char *path, const sr_plot_multiples *m);

#endif
