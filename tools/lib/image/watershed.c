/* watershed.c - cv::watershed on a tile masked by a bit plane (see
 * watershed.h). The flooding is OpenCV's, step for step, so that the
 * labels and lines come out the same:
 *  - the frame of the markers becomes -1 (lines);
 *  - an unknown pixel (0; a negative inner pixel becomes 0 first) with a
 *    marker among its 4 neighbours is queued, in raster order, at the
 *    priority of its smallest colour difference to those neighbours (the
 *    largest absolute difference over the 3 channels), and marked -2;
 *  - the first pixel of the lowest non-empty queue is popped: it takes
 *    its 4 neighbours' label if they have one, -1 if they have two, and
 *    when labelled queues its unknown neighbours (left, right, top,
 *    bottom) at their colour difference to it; the lowest queue to look
 *    at falls to the smallest priority pushed.
 * Only the order of pops decides the result, and each of the 256 queues
 * is first in, first out, as OpenCV's linked lists are.
 *
 * The colour of inner pixel i is rgb's where bit i of the mask is set
 * and black elsewhere; frame pixels are never queued and never labelled,
 * so their colour (black in OpenCV's image) is never needed.
 */
#define _DEFAULT_SOURCE		/* MAP_ANONYMOUS */
#include "image/watershed.h"
#include "core/err.h"
#include "image/bits.h"

#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>

enum { NQ = 256, IN_QUEUE = -2, LINE = -1 };

/* A queue is a list of segments of pixel indices (4 KiB each), taken
 * from and given back to a list of spare ones: its memory follows the
 * number of pixels queued at once, with no copy as it grows. The
 * segments are cut from private mappings of SLAB_SEGS segments, unmapped
 * at the end, not from the heap: seg-run's heap keeps the holes its
 * planes leave for planes of their sizes (exec/arena.c), and thousands
 * of small blocks placed in them would push the next plane to the top. */
#define SEG_N		1022
#define SLAB_SEGS	256	/* 1 MiB */

typedef struct seg {
	struct seg *next;
	uint32_t v[SEG_N];
} seg;

typedef struct {
	seg *head, *tail;	/* NULL when empty */
	unsigned hi, ti;	/* next pop in head, next push in tail */
} fifo;

typedef struct slab {
	struct slab *next;	/* in the slab's first segment */
} slab;

typedef struct {
	fifo q[NQ];
	seg *spare;
	slab *slabs;
	seg *fresh;		/* the rest of the newest slab */
	size_t nfresh;
} queues;

static seg *
seg_get(queues *s)
{
	seg *g = s->spare;
	slab *b;
	void *p;

	if (g)
		s->spare = g->next;
	else {
		if (s->nfresh == 0) {
			p = mmap(NULL, SLAB_SEGS * sizeof *g, PROT_READ |
			    PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p == MAP_FAILED)
				sr_die(SR_EXIT_IO, "out of memory (asked for "
				    "%zu bytes)", SLAB_SEGS * sizeof *g);
			b = p;
			b->next = s->slabs;
			s->slabs = b;
			s->fresh = (seg *)p + 1;
			s->nfresh = SLAB_SEGS - 1;
		}
		g = s->fresh++;
		s->nfresh--;
	}
	g->next = NULL;
	return g;
}

static void
seg_put(queues *s, seg *g)
{
	g->next = s->spare;
	s->spare = g;
}

static inline void
push(queues *s, int k, uint32_t p)
{
	fifo *q = &s->q[k];

	if (!q->tail) {
		q->head = q->tail = seg_get(s);
		q->hi = q->ti = 0;
	} else if (q->ti == SEG_N) {
		q->tail->next = seg_get(s);
		q->tail = q->tail->next;
		q->ti = 0;
	}
	q->tail->v[q->ti++] = p;
}

static inline uint32_t
pop(queues *s, int k)
{
	fifo *q = &s->q[k];
	uint32_t p = q->head->v[q->hi++];
	seg *g = q->head;

	if (g == q->tail) {
		if (q->hi == q->ti) {
			seg_put(s, g);
			q->head = q->tail = NULL;
		}
	} else if (q->hi == SEG_N) {
		q->head = g->next;
		q->hi = 0;
		seg_put(s, g);
	}
	return p;
}

static const uint8_t black[3];

/* The colour of inner pixel i (tile order). */
static inline const uint8_t *
colour(const uint8_t *rgb, const uint64_t *in, size_t i)
{
	return sr_bit_at(in, i) ? rgb + 3 * i : black;
}

static inline int
absdiff(int a, int b)
{
	return a > b ? a - b : b - a;
}

/* The largest absolute difference over the 3 channels. */
static inline int
cdiff(const uint8_t *a, const uint8_t *b)
{
	int d = absdiff(a[0], b[0]), t = absdiff(a[1], b[1]);

	if (t > d)
		d = t;
	t = absdiff(a[2], b[2]);
	return t > d ? t : d;
}

/* The smallest colour difference between pixel p (tile index i, colour
 * c) and those of its 4 neighbours that are markers; NQ when none is. */
static inline int
to_markers(const uint8_t *rgb, const uint64_t *in, const uint8_t *c,
    const int32_t *mk, size_t p, size_t i, const ptrdiff_t *off,
    const ptrdiff_t *toff)
{
	int k, t, idx = NQ;

	for (k = 0; k < 4; k++)
		if (mk[p + off[k]] > 0 &&
		    (t = cdiff(c, colour(rgb, in, i + toff[k]))) < idx)
			idx = t;
	return idx;
}

/* The initial phase: the frame becomes lines, and the unknown pixels
 * next to a marker are queued. */
static void
seed(const uint8_t *rgb, const uint64_t *in, size_t w, size_t h,
    int32_t *mk, const ptrdiff_t *off, const ptrdiff_t *toff, queues *s)
{
	size_t W = w + 2, H = h + 2, x, y, i, p;
	int idx;

	for (x = 0; x < W; x++)
		mk[x] = mk[(H - 1) * W + x] = LINE;
	for (y = 1; y + 1 < H; y++)
		mk[y * W] = mk[y * W + W - 1] = LINE;
	for (y = 1, i = 0; y + 1 < H; y++)
		for (x = 1, p = y * W + 1; x + 1 < W; x++, p++, i++) {
			if (mk[p] < 0)
				mk[p] = 0;
			if (mk[p] != 0)
				continue;
			idx = to_markers(rgb, in, colour(rgb, in, i), mk, p, i,
			    off, toff);
			if (idx == NQ)
				continue;
			push(s, idx, (uint32_t)p);
			mk[p] = IN_QUEUE;
		}
}

/* Queues neighbour pixel r (tile index j) of the labelled pixel of colour
 * c if it is unknown; returns the lowest queue to look at next. */
static inline int
spread(const uint8_t *rgb, const uint64_t *in, const uint8_t *c,
    int32_t *mk, size_t r, size_t j, queues *s, int active)
{
	int t;

	if (mk[r] != 0)
		return active;
	t = cdiff(c, colour(rgb, in, j));
	push(s, t, (uint32_t)r);
	mk[r] = IN_QUEUE;
	return t < active ? t : active;
}

void
sr_watershed_masked(const uint8_t *rgb, const uint64_t *in, size_t w,
    size_t h, int32_t *mk)
{
	size_t W = w + 2, p, y, i;
	/* left, right, top, bottom: in the markers, in the tile */
	const ptrdiff_t off[4] = { -1, 1, -(ptrdiff_t)W, (ptrdiff_t)W };
	const ptrdiff_t toff[4] = { -1, 1, -(ptrdiff_t)w, (ptrdiff_t)w };
	queues s = { .spare = NULL };
	const uint8_t *c;
	int active = 0, lab, t, k;
	slab *b;

	if (W * (h + 2) >= (size_t)INT32_MAX)
		sr_die(SR_EXIT_DATA, "watershed: image of %zu x %zu pixels is "
		    "too large", w, h);
	seed(rgb, in, w, h, mk, off, toff, &s);
	for (;;) {
		while (active < NQ && !s.q[active].head)
			active++;
		if (active == NQ)
			break;
		p = pop(&s, active);
		lab = 0;
		for (k = 0; k < 4; k++)
			if ((t = mk[p + off[k]]) > 0)
				lab = lab == 0 ? t : t != lab ? LINE : lab;
		mk[p] = lab;
		if (lab == LINE)
			continue;
		y = p / W;
		i = (y - 1) * w + (p - y * W - 1);
		c = colour(rgb, in, i);
		for (k = 0; k < 4; k++)
			active = spread(rgb, in, c, mk, p + off[k], i + toff[k],
			    &s, active);
	}
	while ((b = s.slabs) != NULL) {
		s.slabs = b->next;
		munmap(b, SLAB_SEGS * sizeof(seg));
	}
}
