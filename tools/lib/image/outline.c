/* outline.c - the pixel-edge outlines of labelled objects (outline.h).
 *
 * Hand-written rather than OpenCV's findContours: findContours puts its
 * vertices at pixel centres, so its polygons leave out half of every
 * border pixel (a one-pixel-wide object has no area) and cannot cover
 * the mask's pixels; following the cracks between pixels does (QuPath
 * traces label images into ROIs the same way). */
#include "image/outline.h"
#include "core/err.h"

#include <stdlib.h>
#include <string.h>

/* Directions of a crack edge: east, south, west, north (y grows down).
 * An edge is stored with the object's pixel on its right as drawn (the
 * "owner"), so exteriors run clockwise on screen, positive in numbers. */
static const int dx[4] = { 1, 0, -1, 0 }, dy[4] = { 0, 1, 0, -1 };

typedef struct {
	const uint32_t *lab;
	long w, h;
	uint8_t *seen;		/* per pixel: bit d, its edge of direction d
				 * traced */
	/* rings as traced */
	size_t nring, cap_ring, nvert, cap_vert;
	size_t *start;		/* [nring + 1] */
	uint32_t *label;	/* per ring */
	long *seed;		/* per ring: the owner pixel it started from */
	uint32_t *xy;
} tracer;

static int
inside(const tracer *t, long x, long y, uint32_t v)
{
	return x >= 0 && y >= 0 && x < t->w && y < t->h &&
	    t->lab[(size_t)y * (size_t)t->w + (size_t)x] == v;
}

/* Bit d set when pixel (x, y) of label v has a boundary edge of
 * direction d (the neighbour on that side is not v). */
static unsigned
boundary(const tracer *t, long x, long y, uint32_t v)
{
	return (!inside(t, x, y - 1, v) ? 1u : 0) |
	    (!inside(t, x + 1, y, v) ? 2u : 0) |
	    (!inside(t, x, y + 1, v) ? 4u : 0) |
	    (!inside(t, x - 1, y, v) ? 8u : 0);
}

static void
push_vertex(tracer *t, long x, long y)
{
	if (t->nvert == t->cap_vert) {
		t->cap_vert = t->cap_vert ? 2 * t->cap_vert : 256;
		t->xy = sr_reallocarray(t->xy, t->cap_vert, 2 * sizeof *t->xy);
	}
	t->xy[2 * t->nvert] = (uint32_t)x;
	t->xy[2 * t->nvert + 1] = (uint32_t)y;
	t->nvert++;
}

/* Follows the ring through the edge of direction d owned by pixel (x, y)
 * of label v, marking its edges, and records its turning corners. At a
 * corner where the object's pixels meet only diagonally the ring turns
 * left, keeping them in one ring (8-connected objects). */
static void
trace_ring(tracer *t, long x, long y, int d, uint32_t v)
{
	static const int corner[4] = { 0, 1, 1 + 2, 2 };	/* start vertex */
	long ox = x, oy = y, vx, vy, alx, aly, arx, ary;
	int od = d, nd;

	/* the start vertex of the edge: E top-left, S top-right, W
	 * bottom-right, N bottom-left corner of the owner */
	vx = x + ((corner[d] & 1) ? 1 : 0);
	vy = y + ((corner[d] & 2) ? 1 : 0);
	if (t->nring == t->cap_ring) {
		t->cap_ring = t->cap_ring ? 2 * t->cap_ring : 64;
		t->start = sr_reallocarray(t->start, t->cap_ring + 1,
		    sizeof *t->start);
		t->label = sr_reallocarray(t->label, t->cap_ring, sizeof *t->label);
		t->seed = sr_reallocarray(t->seed, t->cap_ring, sizeof *t->seed);
	}
	t->start[t->nring] = t->nvert;
	t->label[t->nring] = v;
	t->seed[t->nring] = y * t->w + x;
	do {
		t->seen[(size_t)y * (size_t)t->w + (size_t)x] |= (uint8_t)(1u << d);
		vx += dx[d];
		vy += dy[d];
		/* the pixels ahead of the vertex, left and right of d */
		arx = vx - (d == 1 || d == 2);
		ary = vy - (d == 2 || d == 3);
		alx = vx - (d == 2 || d == 3);
		aly = vy - (d == 0 || d == 3);
		if (inside(t, alx, aly, v)) {
			nd = (d + 3) % 4;
			x = alx;
			y = aly;
		} else if (inside(t, arx, ary, v)) {
			nd = d;
			x = arx;
			y = ary;
		} else
			nd = (d + 1) % 4;
		if (nd != d)
			push_vertex(t, vx, vy);
		d = nd;
	} while (x != ox || y != oy || d != od);
	t->nring++;
	t->start[t->nring] = t->nvert;
}

/* Pass 1: every ring, in raster order of the pixel it starts from. */
static void
trace_all(tracer *t)
{
	long x, y;
	unsigned b;
	uint32_t v;
	int d;

	for (y = 0; y < t->h; y++)
		for (x = 0; x < t->w; x++) {
			v = t->lab[(size_t)y * (size_t)t->w + (size_t)x];
			if (v == 0)
				continue;
			b = boundary(t, x, y, v) &
			    ~(unsigned)t->seen[(size_t)y * (size_t)t->w + (size_t)x];
			for (d = 0; d < 4; d++)
				if (b & (1u << d) && !(t->seen[(size_t)y *
				    (size_t)t->w + (size_t)x] & (1u << d)))
					trace_ring(t, x, y, d, v);
		}
}

static int64_t
area2(const uint32_t *xy, size_t a, size_t b)
{
	int64_t s = 0;
	size_t i, j;

	for (i = a; i < b; i++) {
		j = i + 1 < b ? i + 1 : a;
		s += (int64_t)xy[2 * i] * xy[2 * j + 1] -
		    (int64_t)xy[2 * j] * xy[2 * i + 1];
	}
	return s;
}

int64_t
sr_outlines_ring_area2(const sr_outlines *o, size_t r)
{
	return area2(o->xy, o->ring_vert[r], o->ring_vert[r + 1]);
}

/* Whether the centre of pixel p lies inside ring r (even-odd; the rings
 * are rectilinear, so only vertical edges cross a row). */
static int
ring_holds(const tracer *t, size_t r, long p)
{
	double cx = (double)(p % t->w) + 0.5, cy = (double)(p / t->w) + 0.5;
	size_t a = t->start[r], b = t->start[r + 1], i, j;
	int in = 0;
	double x0, y0, y1;

	for (i = a; i < b; i++) {
		j = i + 1 < b ? i + 1 : a;
		x0 = t->xy[2 * i];
		y0 = t->xy[2 * i + 1];
		y1 = t->xy[2 * j + 1];
		if (x0 == t->xy[2 * j] && x0 > cx &&
		    ((y0 < cy && cy < y1) || (y1 < cy && cy < y0)))
			in = !in;
	}
	return in;
}

static const tracer *sort_t;	/* for by_label (qsort has no context) */

static int
by_label(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	if (sort_t->label[i] != sort_t->label[j])
		return sort_t->label[i] < sort_t->label[j] ? -1 : 1;
	return i < j ? -1 : i > j;	/* discovery order: the exterior first */
}

/* The exterior among ring[0..n) that holds hole h: the smallest one
 * holding its seed pixel (the object's pixel it was traced from). */
static size_t
owner_of(const tracer *t, const size_t *ring, size_t n, size_t h)
{
	size_t k, best = ring[0];
	int64_t a, best_a = -1;

	for (k = 0; k < n; k++) {
		a = area2(t->xy, t->start[ring[k]], t->start[ring[k] + 1]);
		if (a > 0 && ring_holds(t, ring[k], t->seed[h]) &&
		    (best_a < 0 || a < best_a)) {
			best = ring[k];
			best_a = a;
		}
	}
	return best;
}

/* Appends ring r of the tracer to o (its counters in *nr, *nv). */
static void
copy_ring(const tracer *t, sr_outlines *o, size_t r, size_t *nr, size_t *nv)
{
	size_t a = t->start[r], b = t->start[r + 1];

	memcpy(o->xy + 2 * *nv, t->xy + 2 * a, 2 * (b - a) * sizeof *o->xy);
	*nv += b - a;
	o->exterior[*nr] = area2(t->xy, a, b) > 0;
	o->ring_vert[++*nr] = *nv;
}

/* Pass 2: the rings grouped by label, each exterior followed by its
 * holes. */
static void
group(const tracer *t, sr_outlines *o)
{
	size_t *ord = sr_malloc((t->nring ? t->nring : 1) * sizeof *ord);
	size_t i, j, k, e, nr = 0, nv = 0, next;

	for (i = 0; i < t->nring; i++)
		ord[i] = i;
	sort_t = t;
	qsort(ord, t->nring, sizeof *ord, by_label);
	o->label = sr_malloc((t->nring ? t->nring : 1) * sizeof *o->label);
	o->obj_ring = sr_malloc((t->nring + 1) * sizeof *o->obj_ring);
	o->ring_vert = sr_malloc((t->nring + 1) * sizeof *o->ring_vert);
	o->exterior = sr_malloc(t->nring ? t->nring : 1);
	o->xy = sr_malloc((t->nvert ? t->nvert : 1) * 2 * sizeof *o->xy);
	o->ring_vert[0] = 0;
	for (i = 0; i < t->nring; i = next) {
		for (next = i + 1; next < t->nring &&
		    t->label[ord[next]] == t->label[ord[i]]; next++)
			;
		o->label[o->n] = t->label[ord[i]];
		o->obj_ring[o->n++] = nr;
		for (j = i; j < next; j++) {
			e = ord[j];
			if (area2(t->xy, t->start[e], t->start[e + 1]) <= 0)
				continue;
			copy_ring(t, o, e, &nr, &nv);
			for (k = i; k < next; k++)
				if (area2(t->xy, t->start[ord[k]],
				    t->start[ord[k] + 1]) < 0 &&
				    owner_of(t, ord + i, next - i, ord[k]) == e)
					copy_ring(t, o, ord[k], &nr, &nv);
		}
	}
	o->obj_ring[o->n] = nr;
	free(ord);
}

void
sr_outlines_trace(const uint32_t *labels, size_t w, size_t h,
    sr_outlines *o)
{
	tracer t;

	memset(o, 0, sizeof *o);
	memset(&t, 0, sizeof t);
	if (w >= (1UL << 31) || h >= (1UL << 31))
		sr_die(SR_EXIT_DATA, "%zux%zu: too large to outline", w, h);
	t.lab = labels;
	t.w = (long)w;
	t.h = (long)h;
	t.seen = sr_calloc(w * h + 1, 1);
	t.start = sr_malloc(sizeof *t.start);
	t.start[0] = 0;
	trace_all(&t);
	group(&t, o);
	free(t.seen);
	free(t.start);
	free(t.label);
	free(t.seed);
	free(t.xy);
}

void
sr_outlines_free(sr_outlines *o)
{
	free(o->label);
	free(o->obj_ring);
	free(o->ring_vert);
	free(o->exterior);
	free(o->xy);
	memset(o, 0, sizeof *o);
}
