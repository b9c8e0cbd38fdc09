/* plot_script.h - the machinery of plot.c that its files share: one plot
 * under way (its data, script and image temporaries), gnuplot run on it,
 * and lists of strings passed as one -c argument. */
#ifndef SR_PLOT_SCRIPT_H
#define SR_PLOT_SCRIPT_H

#include <stddef.h>
#include <stdio.h>

#define SEP '\037'	/* joins a list of strings into one argument */

/* One plot under way: its target and its three temporaries. */
struct plot {
	const char *path;
	char *data, *script, *png;
	FILE *d, *g;
	FILE *msg;	/* gnuplot's stderr, shown only if it fails */
	int pngfd;
};

/* Starts a plot of path: the data and script streams, the image file. */
void sr_plot_begin(struct plot *p, const char *path);
/* Closes the data and script, runs gnuplot on them with args, removes
 * them, checks the image is complete, and hands the synced image to
 * out.c, committed with the tool's other outputs (sr_out_adopt); dies
 * (leaving no file) if gnuplot fails or a write of the image did.
 * gnuplot's stderr is kept aside: shown (before the error) only when it
 * fails, its warnings on a plot it drew never. */
void sr_plot_finish(struct plot *p, char **args, size_t nargs);
/* Writes the script lines that split argument ARGi, a list of n strings
 * joined by SEP, into the array name[1..n]. */
void sr_plot_put_split(FILE *g, const char *name, int arg, size_t n);
/* The n strings joined by SEP (a SEP inside one becomes a space), newly
 * allocated. */
char *sr_plot_join(const char *const *s, size_t n, size_t stride);

#endif
