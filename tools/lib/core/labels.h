/* labels.h - labels placed beside their points, clear of one another,
 * of the points, of boxes (other text) and of lines: each label tries a
 * few spots around its point; a greedy pass places them, the most
 * important first, then passes move each to its best spot given all the
 * others until none moves. Pixel coordinates, y up. */
#ifndef SR_LABELS_H
#define SR_LABELS_H

#include <stddef.h>

typedef struct {
	double x0, y0, x1, y1;
} sr_box;

/* The segment from (x0, y0) to (x1, y1). */
typedef struct {
	double x0, y0, x1, y1;
} sr_segment;

/* What the labels must avoid: leaving the area (0, 0)-(w, h), the k
 * points (px, py), the boxes and the segments. */
typedef struct {
	double w, h;
	const double *px, *py;
	size_t k;
	const sr_box *box;
	size_t nbox;
	const sr_segment *line;
	size_t nline;
} sr_label_scene;

/* A label's place: its text's anchor, offset from its point, the text
 * justified there (0 left, 1 right, 2 centred), and its box. */
typedef struct {
	double dx, dy;
	int just;
	sr_box box;
} sr_label_spot;

/* Places n labels: label i belongs to point point[i] of s and is wide[i]
 * by high pixels; the first are placed first. Its place in out[i]. What
 * costs most is two labels overlapping, then a label on a box, a point
 * or a line, then one leaving the area. */
void sr_labels_place(const sr_label_scene *s, const size_t *point,
    const double *wide, double high, size_t n, sr_label_spot *out);

/* The area two boxes share, in square pixels (0: none). */
double sr_box_overlap(sr_box a, sr_box b);

/* The length of the segment l inside the box b. */
double sr_box_segment(sr_box b, sr_segment l);

#endif
