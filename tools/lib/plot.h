/* plot.h - index plots drawn with gnuplot(1). */
#ifndef SR_PLOT_H
#define SR_PLOT_H

#include <stddef.h>

/* One series of a bar chart: a value and an error half-width (NaN: none)
 * for each of k parameters. */
typedef struct {
	const char *title;
	const double *value, *err;
} sr_plot_series;

/* Writes a PNG bar chart of the series, grouped by parameter, to path
 * (atomically). Dies if gnuplot fails or is missing. */
void sr_plot_bars(const char *path, const char *title, char **names,
    size_t k, const sr_plot_series *s, size_t ns);

/* Writes a PNG scatter of y against x, each point labelled (MOAT: mu*
 * against sigma). */
void sr_plot_scatter(const char *path, const char *title, char **names,
    size_t k, const double *x, const double *y, const char *xlabel,
    const char *ylabel);

#endif
