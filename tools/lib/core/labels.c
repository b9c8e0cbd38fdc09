/* labels.c - labels placed beside their points (labels.h). */
#include "core/labels.h"
#include "core/err.h"

#include <math.h>
#include <stdlib.h>

/* The spots a label may take beside its point: pixel offsets of its
 * anchor and the justification (0 left, 1 right, 2 centre), the
 * preferred first. */
static const struct {
	double dx, dy;
	int just;
} spots[] = {
	{ 9, 0, 0 }, { 7, 12, 0 }, { 7, -12, 0 }, { -9, 0, 1 },
	{ -7, 12, 1 }, { -7, -12, 1 }, { 0, 16, 2 }, { 0, -16, 2 },
	{ 12, 24, 0 }, { 12, -24, 0 }, { -12, 24, 1 }, { -12, -24, 1 },
	{ 0, 32, 2 }, { 0, -32, 2 }, { 16, 36, 0 }, { -16, -36, 1 },
	{ 16, -36, 0 }, { -16, 36, 1 }, { 0, 48, 2 }, { 0, -48, 2 },
};
#define NSPOT (sizeof spots / sizeof *spots)

/* How much each kind of collision costs, per square pixel; and, once,
 * a label on another label (any overlap, however small, costs more than
 * a label on points), on a box, on a line. */
#define COST_LABEL	8.0
#define COST_BOX	6.0
#define COST_LINE	4.0
#define COST_POINT	2.0
#define COST_OUTSIDE	1.0
#define ONCE_LABEL	4000.0
#define ONCE_BOX	2000.0
#define ONCE_LINE	1000.0
#define POINT_HALF	5.0	/* a point's half size, pixels */

/* The cost of an overlap of a (square pixels) at per, plus once when
 * there is one. */
static double
collision(double a, double per, double once)
{
	return a > 0 ? once + per * a : 0;
}

double
sr_box_overlap(sr_box a, sr_box b)
{
	double w = fmin(a.x1, b.x1) - fmax(a.x0, b.x0);
	double h = fmin(a.y1, b.y1) - fmax(a.y0, b.y0);

	return w > 0 && h > 0 ? w * h : 0;
}

/* Clips the parameter range [*t0, *t1] of a segment to p t <= q (one
 * side of a box, Liang-Barsky); 0 when nothing is left. */
static int
clip(double p, double q, double *t0, double *t1)
{
	double r;

	if (p == 0)
		return q >= 0;
	r = q / p;
	if (p < 0) {
		if (r > *t1)
			return 0;
		if (r > *t0)
			*t0 = r;
	} else {
		if (r < *t0)
			return 0;
		if (r < *t1)
			*t1 = r;
	}
	return 1;
}

double
sr_box_segment(sr_box b, sr_segment l)
{
	double dx = l.x1 - l.x0, dy = l.y1 - l.y0, t0 = 0, t1 = 1;

	if (!clip(-dx, l.x0 - b.x0, &t0, &t1) || !clip(dx, b.x1 - l.x0, &t0, &t1) ||
	    !clip(-dy, l.y0 - b.y0, &t0, &t1) || !clip(dy, b.y1 - l.y0, &t0, &t1) ||
	    t1 <= t0)
		return 0;
	return (t1 - t0) * hypot(dx, dy);
}

/* The box of a label w x h at spot k of the point (x, y). */
static sr_box
spot_box(double x, double y, double w, double h, size_t k)
{
	double ax = x + spots[k].dx, ay = y + spots[k].dy;
	double x0 = spots[k].just == 0 ? ax : spots[k].just == 1 ? ax - w :
	    ax - w / 2;

	return (sr_box){ x0, ay - h / 2, x0 + w, ay + h / 2 };
}

/* The cost of label i's box b among the scene and the other labels'
 * boxes (placed[j] for j < nplaced, j != i). */
static double
box_cost(const sr_label_scene *s, sr_box b, const sr_box *placed,
    size_t nplaced, size_t i)
{
	sr_box area = { 0, 0, s->w, s->h };
	double c = 0, h = b.y1 - b.y0;
	size_t j;

	for (j = 0; j < nplaced; j++)
		if (j != i)
			c += collision(sr_box_overlap(b, placed[j]), COST_LABEL,
			    ONCE_LABEL);
	for (j = 0; j < s->nbox; j++)
		c += collision(sr_box_overlap(b, s->box[j]), COST_BOX, ONCE_BOX);
	for (j = 0; j < s->nline; j++)	/* a line across: its length x h */
		c += collision(h * sr_box_segment(b, s->line[j]), COST_LINE,
		    ONCE_LINE);
	for (j = 0; j < s->k; j++)
		c += COST_POINT * sr_box_overlap(b, (sr_box){
		    s->px[j] - POINT_HALF, s->py[j] - POINT_HALF,
		    s->px[j] + POINT_HALF, s->py[j] + POINT_HALF });
	return c + COST_OUTSIDE * ((b.x1 - b.x0) * h - sr_box_overlap(b, area));
}

/* The best spot of label i (point p, w x h) given the others; its cost
 * in *cost. Ties go to the earlier spot, a spot's rank costing a
 * little. */
static size_t
best_spot(const sr_label_scene *s, size_t p, double w, double h,
    const sr_box *placed, size_t nplaced, size_t i, double *cost)
{
	size_t k, best = 0;
	double c, min = HUGE_VAL;

	for (k = 0; k < NSPOT; k++) {
		c = box_cost(s, spot_box(s->px[p], s->py[p], w, h, k), placed,
		    nplaced, i) + (double)k;
		if (c < min) {
			min = c;
			best = k;
		}
	}
	*cost = min;
	return best;
}

void
sr_labels_place(const sr_label_scene *s, const size_t *point,
    const double *wide, double high, size_t n, sr_label_spot *out)
{
	sr_box *placed = sr_calloc(n + 1, sizeof *placed);
	size_t *at = sr_calloc(n + 1, sizeof *at), i, pass, k;
	double c, now;
	int moved = 1;

	for (i = 0; i < n; i++) {	/* greedy: each among those before */
		at[i] = best_spot(s, point[i], wide[i], high, placed, i, i, &c);
		placed[i] = spot_box(s->px[point[i]], s->py[point[i]], wide[i],
		    high, at[i]);
	}
	for (pass = 0; pass < 10 && moved; pass++)	/* among all */
		for (moved = 0, i = 0; i < n; i++) {
			now = box_cost(s, placed[i], placed, n, i) + (double)at[i];
			k = best_spot(s, point[i], wide[i], high, placed, n, i, &c);
			if (c < now) {
				at[i] = k;
				placed[i] = spot_box(s->px[point[i]],
				    s->py[point[i]], wide[i], high, k);
				moved = 1;
			}
		}
	for (i = 0; i < n; i++)
		out[i] = (sr_label_spot){ spots[at[i]].dx, spots[at[i]].dy,
		    spots[at[i]].just, placed[i] };
	free(placed);
	free(at);
}
