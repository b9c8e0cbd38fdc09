/* trials_plot.c - the search drawn (sr_trials_plot, trials.h): the mean
 * of every set against the work done, then against each varied
 * parameter, an enum's values as categories and a grid's few values as
 * its ticks. */
#include "plan/trials.h"
#include "core/err.h"
#include "core/num.h"
#include "core/plot.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The most values of an enum drawn as categories, and of an int or real
 * grid or list drawn on its ticks; more: a continuous axis. */
#define ENUM_TICKS_MAX 24
#define GRID_TICKS_MAX 12

/* The legend's titles of the sets of each status (sr_trial_status). */
static const char *const group_title[SR_NTRIAL] = {
	"complete", "cancelled: mean of the tiles run",
	"failed: mean of the tiles with a value"
};

/* The columns of d whose values differ between runs. */
static size_t
varied_columns(const sr_design *d, size_t *col)
{
	size_t j, r, n = 0;

	for (j = 0; j < d->ncol; j++)
		for (r = 1; r < d->nrun; r++)
			if (d->x[r * d->ncol + j] != d->x[j]) {
				col[n++] = j;
				break;
			}
	return n;
}

/* The best complete mean after each set, in run order, at the seconds of
 * work done then (x0): the line's points from the first complete set. */
static size_t
best_so_far(const sr_trials *t, const double *x0, double *lx, double *ly)
{
	size_t r, n = 0;
	double best = NAN;

	for (r = 0; r < t->n; r++) {
		if (t->set[r].status == SR_TRIAL_COMPLETE &&
		    (isnan(best) || t->set[r].mean > best))
			best = t->set[r].mean;
		if (!isnan(best)) {
			lx[n] = x0[r];
			ly[n++] = best;
		}
	}
	return n;
}

static int
by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Adds v to the m levels lv (room for max) unless there; returns the new
 * count, or max + 1 when there is no room. */
static size_t
add_level(double *lv, size_t m, size_t max, double v)
{
	size_t i;

	for (i = 0; i < m; i++)
		if (lv[i] == v)
			return m;
	if (m == max)
		return max + 1;
	lv[m] = v;
	return m + 1;
}

/* The levels of a discrete axis of p, whose n values are x: p's values
 * and any other value x holds (an off-grid default), ascending, into lv
 * (room for n + the values); their number, or 0 for a continuous axis:
 * a real range, or more than ENUM_TICKS_MAX values of an enum of
 * numbers, GRID_TICKS_MAX of an int or a real. A word enum's codes are
 * always levels. */
static size_t
axis_levels(const sr_param *p, const double *x, size_t n, double *lv)
{
	size_t count = sr_param_count(p), max, m = 0, i;

	if (p->word)
		max = count + n;
	else
		max = p->type == SR_ENUM ? ENUM_TICKS_MAX : GRID_TICKS_MAX;
	if (count == 0 || count > max)
		return 0;
	for (i = 0; i < count; i++)
		m = add_level(lv, m, max, sr_param_value(p, i));
	for (i = 0; i < n && m <= max; i++)
		m = add_level(lv, m, max, x[i]);
	if (m > max)
		return 0;
	qsort(lv, m, sizeof *lv, by_double);
	return m;
}

/* The ticks of the panel of p, whose n values are x (rewritten: an
 * enum's values become their positions 0, 1, ... among the levels); a
 * continuous axis leaves t zeroed. */
static void
panel_ticks(sr_plot_ticks *t, const sr_param *p, double *x, size_t n)
{
	size_t count = sr_param_count(p), m, i, k;
	double *lv = sr_calloc(count + n + 1, sizeof *lv), *at;
	char **label, num[SR_NUMLEN];

	memset(t, 0, sizeof *t);
	if ((m = axis_levels(p, x, n, lv)) == 0) {
		free(lv);
		return;
	}
	at = sr_calloc(m, sizeof *at);
	label = sr_calloc(m, sizeof *label);
	for (k = 0; k < m; k++) {
		at[k] = p->type == SR_ENUM ? (double)k : lv[k];
		label[k] = sr_strdup(sr_param_text(p, lv[k], num));
	}
	for (i = 0; p->type == SR_ENUM && i < n; i++)
		for (k = 0; k < m; k++)
			if (x[i] == lv[k]) {
				x[i] = (double)k;
				break;
			}
	*t = (sr_plot_ticks){ m, at, label };
	free(lv);
}

/* Frees the ticks of np panels. */
static void
free_ticks(sr_plot_ticks *t, size_t np)
{
	size_t j, k;

	for (j = 0; j < np; j++) {
		for (k = 0; k < t[j].n; k++)
			free(t[j].label[k]);
		free((void *)t[j].at);
		free((void *)t[j].label);
	}
	free(t);
}

void
sr_trials_plot(const char *path, const sr_trials *t, const sr_design *d)
{
	size_t n = t->n, r, j, *col = sr_calloc(d->ncol + 1, sizeof *col);
	size_t np = varied_columns(d, col);
	double *x0 = sr_calloc(n + 1, sizeof *x0), *y = sr_calloc(n + 1, sizeof *y);
	double *lx = sr_calloc(n + 1, sizeof *lx), *ly = sr_calloc(n + 1, sizeof *ly);
	double *xs = sr_calloc(np * n + 1, sizeof *xs), work = 0;
	const double **x = sr_calloc(np + 1, sizeof *x);
	sr_plot_ticks *ticks = sr_calloc(np + 1, sizeof *ticks);
	char **names = sr_calloc(np + 1, sizeof *names), title[256], ylabel[128];
	int *group = sr_calloc(n + 1, sizeof *group);

	for (r = 0; r < n; r++) {
		work += t->set[r].seconds;
		x0[r] = work;
		y[r] = t->set[r].mean;
		group[r] = t->set[r].status;
		for (j = 0; j < np; j++)
			xs[j * n + r] = d->x[r * d->ncol + col[j]];
	}
	for (j = 0; j < np; j++) {
		x[j] = xs + j * n;
		names[j] = d->name[col[j]];
		if (d->cparam)
			panel_ticks(&ticks[j], d->cparam[col[j]], xs + j * n, n);
	}
	snprintf(title, sizeof title, "sa-trials: %s of %zu sets on %zu tiles "
	    "(%zu complete, %zu cancelled, %zu failed)", t->metric, n, t->ntiles,
	    t->count[SR_TRIAL_COMPLETE], t->count[SR_TRIAL_CANCELLED],
	    t->count[SR_TRIAL_FAILED]);
	snprintf(ylabel, sizeof ylabel, "mean %s over the tiles", t->metric);
	sr_plot_panels(path, &(sr_plot_multiples){ title,
	    "seconds of work done, the sets in run order", ylabel,
	    "best complete set so far", lx, ly, best_so_far(t, x0, lx, ly), x0, y,
	    group, n, sr_trials_best(t), group_title, SR_NTRIAL, names,
	    x, np, ticks });
	free(col);
	free(x0);
	free(y);
	free(lx);
	free(ly);
	free(xs);
	free(x);
	free_ticks(ticks, np);
	free(names);
	free(group);
}
