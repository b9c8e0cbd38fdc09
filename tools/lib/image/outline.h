/* outline.h - the outlines of the objects of a label image as polygons
 * along pixel edges: vertices at pixel corners (integer coordinates, the
 * tile's top-left corner at (0, 0), pixel (x, y) the unit square from
 * (x, y) to (x + 1, y + 1)), so that a polygon covers exactly its
 * object's pixels: a pixel's centre lies inside the polygon (even-odd
 * rule over all its rings) if and only if the pixel is the object's.
 *
 * An object is the set of pixels of one non-zero label. Its pixels are
 * taken as 8-connected (the workflow's labels are), so a piece touching
 * another only at a corner stays one ring through that corner; the
 * background is 4-connected, so a hole is a 4-connected region of other
 * labels or background enclosed by the object. An object of one
 * 8-connected piece is a polygon (one exterior ring, then its holes); an
 * object of several pieces has one polygon per piece, each hole given
 * to the smallest exterior that encloses it.
 *
 * Rings follow RFC 7946's right-hand rule on the numbers themselves: an
 * exterior's shoelace area is positive (clockwise as drawn on screen,
 * where y grows downwards), a hole's negative. Vertices are the corners
 * where a ring turns (no collinear vertices); rings are stored open, the
 * first vertex not repeated at the end.
 */
#ifndef SR_OUTLINE_H
#define SR_OUTLINE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	size_t n;		/* objects, in ascending label order */
	uint32_t *label;	/* [n] */
	size_t *obj_ring;	/* [n + 1]: object k's rings are obj_ring[k] to
				 * obj_ring[k + 1] - 1, each exterior followed
				 * by its holes */
	size_t *ring_vert;	/* [rings + 1]: ring r's vertices are
				 * ring_vert[r] to ring_vert[r + 1] - 1 */
	unsigned char *exterior;	/* [rings]: 1 exterior, 0 hole */
	uint32_t *xy;		/* x, y of every vertex */
} sr_outlines;

/* Traces every object of the w x h label image (row-major; 0 is
 * background; w and h below 2^31) into *o (free with
 * sr_outlines_free). Needs w h bytes besides the outlines; dies (exit 3)
 * when memory runs out. Thread-safe. */
void sr_outlines_trace(const uint32_t *labels, size_t w, size_t h,
    sr_outlines *o);
void sr_outlines_free(sr_outlines *o);

/* Twice the signed area of ring r (shoelace). */
int64_t sr_outlines_ring_area2(const sr_outlines *o, size_t r);

#endif
