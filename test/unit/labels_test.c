/* labels_test.c - unit tests of tools/lib/core/labels.c: box overlap and
 * a segment's length in a box against worked values; labels placed
 * clear of a line through their first spot, of a box, of the area's
 * edge; two points at one place and clusters of random points whose
 * labels overlap none of the others. Exits 0 on success; prints
 * "FAIL: ..." and exits 1 otherwise. */
#include "core/labels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#define CHECK_SEED 0x3c6ef372fe94f82bULL
#include "check.h"

#define W 605.0
#define H 520.0
#define TEXT_H 15.0

static int
near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

static void
geometry(void)
{
	sr_box b = { 0, 0, 10, 10 };

	if (!near(sr_box_overlap(b, (sr_box){ 5, 5, 20, 20 }), 25))
		fail("overlap of two corners: %g, not 25",
		    sr_box_overlap(b, (sr_box){ 5, 5, 20, 20 }));
	if (sr_box_overlap(b, (sr_box){ 10, 0, 20, 10 }) != 0)
		fail("boxes that touch overlap");
	if (!near(sr_box_segment(b, (sr_segment){ -5, -5, 20, 20 }),
	    10 * sqrt(2)))
		fail("the diagonal: %g", sr_box_segment(b,
		    (sr_segment){ -5, -5, 20, 20 }));
	if (!near(sr_box_segment(b, (sr_segment){ 5, 5, 5, 40 }), 5))
		fail("a segment from inside: %g", sr_box_segment(b,
		    (sr_segment){ 5, 5, 5, 40 }));
	if (sr_box_segment(b, (sr_segment){ 0, 11, 10, 30 }) != 0)
		fail("a segment above the box is in it");
	if (sr_box_segment(b, (sr_segment){ 20, 0, 30, 10 }) != 0)
		fail("a segment beside the box is in it");
}

/* Whether any two of the n labels overlap; reports them as what. */
static int
any_overlap(const sr_label_spot *s, size_t n, const char *what)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (sr_box_overlap(s[i].box, s[j].box) > 0) {
				fail("%s: labels %zu and %zu overlap", what, i, j);
				return 1;
			}
	return 0;
}

/* The sigma = mu* line through a point's first spot (right of it), a
 * box over the spot above, the area's right edge. */
static void
obstacles(void)
{
	double px[] = { 300, 600 }, py[] = { 310, 100 }, wide[] = { 14, 70 };
	size_t point[] = { 0, 1 };
	sr_segment line = { 0, 0, W, W };
	sr_box box = { 300, 314, 380, 330 };
	sr_label_spot s[2];

	sr_labels_place(&(sr_label_scene){ W, H, px, py, 2, NULL, 0, &line, 1 },
	    point, wide, TEXT_H, 2, s);
	if (sr_box_segment(s[0].box, line) > 0)
		fail("the label is on the line (box %g,%g-%g,%g)", s[0].box.x0,
		    s[0].box.y0, s[0].box.x1, s[0].box.y1);
	if (s[1].box.x1 > W || s[1].just != 1)
		fail("a label at the right edge leaves the area (x1 %g)",
		    s[1].box.x1);
	sr_labels_place(&(sr_label_scene){ W, H, px, py, 2, &box, 1, &line, 1 },
	    point, wide, TEXT_H, 1, s);
	if (sr_box_overlap(s[0].box, box) > 0 || sr_box_segment(s[0].box, line) > 0)
		fail("the label is on the box or the line");
	/* without the line the first spot, right of the point */
	sr_labels_place(&(sr_label_scene){ W, H, px, py, 2, NULL, 0, NULL, 0 },
	    point, wide, TEXT_H, 1, s);
	if (s[0].dx != 9 || s[0].dy != 0 || s[0].just != 0)
		fail("a free label is not right of its point");
}

/* Two points at one place: their labels apart. */
static void
same_place(void)
{
	double px[] = { 200, 200 }, py[] = { 200, 200 }, wide[] = { 49, 49 };
	size_t point[] = { 0, 1 };
	sr_label_spot s[2];

	sr_labels_place(&(sr_label_scene){ W, H, px, py, 2, NULL, 0, NULL, 0 },
	    point, wide, TEXT_H, 2, s);
	any_overlap(s, 2, "two points at one place");
}

/* rounds clusters of n random points in a square of side pixels,
 * labels of 2 to 8 characters of 7 pixels: no label overlaps another. */
static void
clusters(size_t n, double side, size_t rounds)
{
	double px[16], py[16], wide[16];
	size_t point[16], i, r;
	sr_label_spot s[16];
	char what[64];

	for (r = 0; r < rounds; r++) {
		for (i = 0; i < n; i++) {
			px[i] = 200 + (double)rnd(1000) / 1000 * side;
			py[i] = 200 + (double)rnd(1000) / 1000 * side;
			wide[i] = 7.0 * (double)(2 + rnd(7));
			point[i] = i;
		}
		sr_labels_place(&(sr_label_scene){ W, H, px, py, n, NULL, 0,
		    NULL, 0 }, point, wide, TEXT_H, n, s);
		snprintf(what, sizeof what, "cluster %zu of %zu points in %g px",
		    r, n, side);
		if (any_overlap(s, n, what))
			return;
	}
}

int
main(void)
{
	geometry();
	obstacles();
	same_place();
	clusters(5, 60, 200);
	clusters(16, 200, 300);
	clusters(8, 100, 200);
	clusters(16, 300, 100);
	if (failures)
		return 1;
	printf("labels: ok\n");
	return 0;
}
