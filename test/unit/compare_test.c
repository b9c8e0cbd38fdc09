/* compare_test.c - unit tests of compare.c (compare-dice's measures).
 *
 * Random small images of rectangles and noise, with sparse label values
 * up to 2^32-1, against a brute-force computation written here from the
 * definitions: the numbering of objects (labels by value, binary masks by
 * a naive 8-connected flood fill in raster order), every area and
 * pairwise intersection by a full scan per pair, pixel Dice and Jaccard,
 * object-level Dice, AJI, and the greedy matching at several IoU
 * thresholds (and, above 0.5, the count of pairs over the threshold).
 * Also: both images empty, one empty, and worked examples.
 * Exits 0 on success; prints "FAIL: ..." and exits 1 otherwise.
 */
#include "image/compare.h"
#include "image/opencv.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define MAXW	14
#define MAXPX	(MAXW * MAXW)
#define NCASES	10000


static int
near(double a, double b)
{
	return fabs(a - b) <= 1e-12;
}

/* ---- brute force ----------------------------------------------------------- */

/* Numbers the labels of px by rank of value, naively: the number of
 * distinct non-zero values not above it. Returns the number of objects. */
static size_t
naive_number_labels(const uint32_t *px, size_t n, uint32_t *out)
{
	size_t i, j, k, nobj = 0;

	for (i = 0; i < n; i++) {
		size_t rank = 0;
		if (px[i] == 0) {
			out[i] = 0;
			continue;
		}
		/* count distinct values <= px[i]: value v counted at its first
		 * position */
		for (j = 0; j < n; j++) {
			if (px[j] == 0 || px[j] > px[i])
				continue;
			for (k = 0; k < j && px[k] != px[j]; k++)
				;
			rank += k == j;
		}
		out[i] = (uint32_t)rank;
		if (rank > nobj)
			nobj = rank;
	}
	return nobj;
}

/* Floods the 8-connected object of (x, y) with label l (recursively). */
static void
flood(const uint32_t *px, uint32_t *out, size_t w, size_t h, long x, long y,
    uint32_t l)
{
	long dx, dy;

	if (x < 0 || y < 0 || x >= (long)w || y >= (long)h)
		return;
	if (px[y * w + x] == 0 || out[y * w + x] != 0)
		return;
	out[y * w + x] = l;
	for (dy = -1; dy <= 1; dy++)
		for (dx = -1; dx <= 1; dx++)
			flood(px, out, w, h, x + dx, y + dy, l);
}

/* Numbers the 8-connected components of px > 0 in raster order. */
static size_t
naive_number_components(const uint32_t *px, size_t w, size_t h, uint32_t *out)
{
	size_t i, n = 0;

	memset(out, 0, w * h * sizeof *out);
	for (i = 0; i < w * h; i++)
		if (px[i] != 0 && out[i] == 0)
			flood(px, out, w, h, (long)(i % w), (long)(i / w),
			    (uint32_t)++n);
	return n;
}

/* Whether px's non-zero values are all equal. */
static int
naive_is_binary(const uint32_t *px, size_t n)
{
	size_t i;
	uint32_t v = 0;

	for (i = 0; i < n; i++)
		if (px[i] != 0) {
			if (v != 0 && px[i] != v)
				return 0;
			v = px[i];
		}
	return 1;
}

/* Everything the brute force knows about two numbered images. */
struct naive {
	size_t ns, ng;			/* mask, ref objects */
	size_t as[MAXPX + 1], ag[MAXPX + 1];
	size_t inter[MAXPX + 1][MAXPX + 1];	/* [g][s] */
};

static struct naive nv;

static size_t
count_px(const uint32_t *px, size_t n, uint32_t l)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += px[i] == l;
	return c;
}

/* Areas and intersections, one full scan per object and per pair. */
static void
naive_overlaps(const uint32_t *m, size_t ns, const uint32_t *r, size_t ng,
    size_t n)
{
	size_t g, s, i;

	nv.ns = ns;
	nv.ng = ng;
	for (s = 1; s <= ns; s++)
		nv.as[s] = count_px(m, n, (uint32_t)s);
	for (g = 1; g <= ng; g++)
		nv.ag[g] = count_px(r, n, (uint32_t)g);
	for (g = 1; g <= ng; g++)
		for (s = 1; s <= ns; s++) {
			nv.inter[g][s] = 0;
			for (i = 0; i < n; i++)
				nv.inter[g][s] += r[i] == g && m[i] == s;
		}
}

static double
naive_iou(size_t g, size_t s)
{
	size_t c = nv.inter[g][s];

	return (double)c / (double)(nv.ag[g] + nv.as[s] - c);
}

static double
naive_pair_dice(size_t g, size_t s)
{
	return 2.0 * (double)nv.inter[g][s] / (double)(nv.ag[g] + nv.as[s]);
}

/* GlaS object Dice, straight from the definition. */
static double
naive_object_dice(void)
{
	double a = 0, b = 0, tg = 0, ts = 0;
	size_t g, s, best;

	if (nv.ng == 0 && nv.ns == 0)
		return 1;
	if (nv.ng == 0 || nv.ns == 0)
		return 0;
	for (g = 1; g <= nv.ng; g++)
		tg += (double)nv.ag[g];
	for (s = 1; s <= nv.ns; s++)
		ts += (double)nv.as[s];
	for (g = 1; g <= nv.ng; g++) {
		for (best = 0, s = 1; s <= nv.ns; s++)
			if (nv.inter[g][s] > (best ? nv.inter[g][best] : 0))
				best = s;
		if (best)
			a += (double)nv.ag[g] / tg * naive_pair_dice(g, best);
	}
	for (s = 1; s <= nv.ns; s++) {
		for (best = 0, g = 1; g <= nv.ng; g++)
			if (nv.inter[g][s] > (best ? nv.inter[best][s] : 0))
				best = g;
		if (best)
			b += (double)nv.as[s] / ts * naive_pair_dice(best, s);
	}
	return (a + b) / 2;
}

/* AJI, straight from Kumar et al.'s algorithm. */
static double
naive_aji(void)
{
	unsigned char used[MAXPX + 1] = { 0 };
	double c = 0, u = 0;
	size_t g, s, best;

	if (nv.ng == 0 && nv.ns == 0)
		return 1;
	for (g = 1; g <= nv.ng; g++) {
		for (best = 0, s = 1; s <= nv.ns; s++)
			if (nv.inter[g][s] > 0 && (!best ||
			    naive_iou(g, s) > naive_iou(g, best)))
				best = s;
		if (best) {
			c += (double)nv.inter[g][best];
			u += (double)(nv.ag[g] + nv.as[best] - nv.inter[g][best]);
			used[best] = 1;
		} else
			u += (double)nv.ag[g];
	}
	for (s = 1; s <= nv.ns; s++)
		if (!used[s])
			u += (double)nv.as[s];
	return c / u;
}

/* Greedy matching, naively: again and again the free pair of largest
 * IoU >= t (ties: lower ref, then mask). */
static size_t
naive_tp(double t)
{
	unsigned char gt[MAXPX + 1] = { 0 }, st[MAXPX + 1] = { 0 };
	size_t g, s, bg, bs, tp = 0;

	for (;;) {
		bg = bs = 0;
		for (g = 1; g <= nv.ng; g++)
			for (s = 1; s <= nv.ns; s++) {
				if (gt[g] || st[s] || nv.inter[g][s] == 0 ||
				    naive_iou(g, s) < t)
					continue;
				if (!bg || naive_iou(g, s) > naive_iou(bg, bs))
					bg = g, bs = s;
			}
		if (!bg)
			return tp;
		gt[bg] = st[bs] = 1;
		tp++;
	}
}

/* Pairs with IoU >= t (one to one when t > 0.5). */
static size_t
pairs_above(double t)
{
	size_t g, s, n = 0;

	for (g = 1; g <= nv.ng; g++)
		for (s = 1; s <= nv.ns; s++)
			n += nv.inter[g][s] > 0 && naive_iou(g, s) >= t;
	return n;
}

/* ---- checks ------------------------------------------------------------------ */

static const double thresholds[] = { 0.5, 0.3, 0.01, 0.75, 1, 1.0 / 3 };

/* Checks sr_overlap_count and sr_overlap_scores on numbered images
 * against the brute force. */
static void
check_numbered(const char *what, const uint32_t *m, size_t ns,
    const uint32_t *r, size_t ng, size_t n)
{
	sr_overlap *o = sr_overlap_count(m, ns, r, ng, n);
	sr_object_scores sc;
	size_t g, s, k, np = 0, ti;

	naive_overlaps(m, ns, r, ng, n);
	for (s = 1; s <= ns; s++)
		if (o->area_mask[s] != nv.as[s])
			fail("%s: area of mask object %zu: %zu, not %zu", what, s,
			    o->area_mask[s], nv.as[s]);
	for (g = 1; g <= ng; g++)
		if (o->area_ref[g] != nv.ag[g])
			fail("%s: area of ref object %zu: %zu, not %zu", what, g,
			    o->area_ref[g], nv.ag[g]);
	for (g = 1, k = 0; g <= ng; g++)
		for (s = 1; s <= ns; s++) {
			if (nv.inter[g][s] == 0)
				continue;
			np++;
			if (k >= o->npair || o->pair[k].ref != g ||
			    o->pair[k].mask != s ||
			    o->pair[k].count != nv.inter[g][s])
				fail("%s: pair %zu is not (%zu, %zu, %zu)", what, k,
				    g, s, nv.inter[g][s]);
			k++;
		}
	if (o->npair != np)
		fail("%s: %zu pairs, not %zu", what, o->npair, np);
	for (ti = 0; ti < sizeof thresholds / sizeof *thresholds; ti++) {
		double t = thresholds[ti];
		sr_overlap_scores(o, t, &sc);
		if (!near(sc.object_dice, naive_object_dice()))
			fail("%s: object_dice %.17g, not %.17g", what,
			    sc.object_dice, naive_object_dice());
		if (!near(sc.aji, naive_aji()))
			fail("%s: aji %.17g, not %.17g", what, sc.aji, naive_aji());
		if (sc.objects_mask != ns || sc.objects_ref != ng)
			fail("%s: %zu and %zu objects, not %zu and %zu", what,
			    sc.objects_mask, sc.objects_ref, ns, ng);
		if (sc.tp != naive_tp(t) || sc.fp != ns - sc.tp ||
		    sc.fn != ng - sc.tp)
			fail("%s: iou %g: tp %zu fp %zu fn %zu, not tp %zu", what,
			    t, sc.tp, sc.fp, sc.fn, naive_tp(t));
		if (t > 0.5 && sc.tp != pairs_above(t))
			fail("%s: iou %g: tp %zu, but %zu pairs above it", what, t,
			    sc.tp, pairs_above(t));
	}
	sr_overlap_free(o);
}

/* Numbers px (a copy) with sr_objects_number and checks the result
 * against the naive numbering; the naive numbering goes to out. */
static size_t
check_number(const char *what, const uint32_t *px, size_t w, size_t h,
    enum sr_objects_reading how, uint32_t *out)
{
	uint32_t got[MAXPX];
	char err[256];
	size_t n, want, i;
	int bin, want_bin = how == SR_OBJECTS_BINARY ||
	    (how == SR_OBJECTS_AUTO && naive_is_binary(px, w * h));

	memcpy(got, px, w * h * sizeof *px);
	if (sr_objects_number(got, w, h, how, &n, &bin, err) < 0) {
		fail("%s: %s", what, err);
		return 0;
	}
	want = want_bin ? naive_number_components(px, w, h, out) :
	    naive_number_labels(px, w * h, out);
	if (bin != want_bin)
		fail("%s: read as %s", what, bin ? "binary" : "labels");
	if (n != want)
		fail("%s: %zu objects, not %zu", what, n, want);
	for (i = 0; i < w * h; i++)
		if (got[i] != out[i]) {
			fail("%s: pixel %zu numbered %u, not %u", what, i, got[i],
			    out[i]);
			break;
		}
	return want;
}

/* The whole comparison of mask and ref against the brute force. */
static void
check_pair(const char *what, const uint32_t *mask, const uint32_t *ref,
    size_t w, size_t h, enum sr_objects_reading how)
{
	uint32_t m[MAXPX], r[MAXPX], nm[MAXPX], nr[MAXPX];
	size_t n = w * h, i, a = 0, b = 0, inter = 0, ns, ng;
	sr_comparison c;
	char err[256];
	double dice, jac;

	ns = check_number(what, mask, w, h, how, nm);
	ng = check_number(what, ref, w, h, how, nr);
	check_numbered(what, nm, ns, nr, ng, n);
	for (i = 0; i < n; i++) {
		a += mask[i] > 0;
		b += ref[i] > 0;
		inter += mask[i] > 0 && ref[i] > 0;
	}
	dice = a + b ? 2.0 * (double)inter / (double)(a + b) : 1;
	jac = a + b ? (double)inter / (double)(a + b - inter) : 1;
	memcpy(m, mask, n * sizeof *m);
	memcpy(r, ref, n * sizeof *r);
	if (sr_compare_images(m, r, w, h, "mask", "ref", how, 0.5, &c, err) < 0) {
		fail("%s: %s", what, err);
		return;
	}
	if (!near(c.dice, dice) || !near(c.jaccard, jac))
		fail("%s: dice %.17g jaccard %.17g, not %.17g %.17g", what, c.dice,
		    c.jaccard, dice, jac);
	naive_overlaps(nm, ns, nr, ng, n);
	if (!near(c.obj.object_dice, naive_object_dice()) ||
	    !near(c.obj.aji, naive_aji()) || c.obj.tp != naive_tp(0.5))
		fail("%s: sr_compare_images disagrees with the brute force", what);
}

/* A random image: rectangles of a few sparse label values, some noise. */
static void
random_image(uint32_t *px, size_t w, size_t h, const uint32_t *values,
    size_t nv_, int noise)
{
	size_t k, nrect = rnd(6), x, y, x0, y0, x1, y1;

	memset(px, 0, w * h * sizeof *px);
	for (k = 0; k < nrect; k++) {
		uint32_t v = values[rnd(nv_)];
		x0 = rnd(w);
		y0 = rnd(h);
		x1 = x0 + 1 + rnd(w - x0);
		y1 = y0 + 1 + rnd(h - y0);
		for (y = y0; y < y1; y++)
			for (x = x0; x < x1; x++)
				px[y * w + x] = v;
	}
	for (k = 0; noise && k < w * h / 8; k++)
		px[rnd(w * h)] = rnd(3) ? 0 : values[rnd(nv_)];
}

static void
random_cases(void)
{
	static const uint32_t pool[] = { 1, 2, 3, 255, 256, 65535, 65536,
	    0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu, 17, 4000000000u };
	uint32_t m[MAXPX], r[MAXPX], values[6];
	enum sr_objects_reading how;
	char what[64];
	size_t c, w, h, k, nval;

	for (c = 0; c < NCASES; c++) {
		w = 1 + rnd(MAXW);
		h = 1 + rnd(MAXW);
		nval = 1 + rnd(5);
		for (k = 0; k < nval; k++)
			values[k] = pool[rnd(sizeof pool / sizeof *pool)];
		random_image(m, w, h, values, nval, rnd(2));
		if (rnd(4) == 0)	/* the same objects, moved a little */
			for (k = 0; k < w * h; k++)
				r[k] = k % w + 1 < w ? m[k + 1] : 0;
		else
			random_image(r, w, h, values, nval, rnd(2));
		how = (enum sr_objects_reading)rnd(3);
		snprintf(what, sizeof what, "random case %zu (%zux%zu, %d)", c, w,
		    h, (int)how);
		check_pair(what, m, r, w, h, how);
	}
}

/* Both empty: everything 1, no objects; one empty: 0, all unmatched. */
static void
empty_cases(void)
{
	uint32_t z[64] = { 0 }, z2[64] = { 0 }, a[64] = { 0 }, a2[64];
	sr_comparison c;
	char err[256];

	if (sr_compare_images(z, z2, 8, 8, "z", "z2", SR_OBJECTS_AUTO, 0.5, &c,
	    err) < 0 || c.dice != 1 || c.jaccard != 1 || c.obj.object_dice != 1 ||
	    c.obj.aji != 1 || c.obj.objects_mask || c.obj.objects_ref ||
	    c.obj.tp || c.obj.fp || c.obj.fn)
		fail("both empty: not all 1 and no objects");
	a[3] = a[4] = 7;
	a[40] = 9;
	memcpy(a2, a, sizeof a);
	memset(z, 0, sizeof z);
	if (sr_compare_images(a, z, 8, 8, "a", "z", SR_OBJECTS_AUTO, 0.5, &c,
	    err) < 0 || c.dice != 0 || c.jaccard != 0 || c.obj.object_dice != 0 ||
	    c.obj.aji != 0 || c.obj.objects_mask != 2 || c.obj.fp != 2 ||
	    c.obj.tp || c.obj.fn)
		fail("empty reference: not all 0 with 2 false positives");
	memset(z, 0, sizeof z);
	if (sr_compare_images(z, a2, 8, 8, "z", "a", SR_OBJECTS_AUTO, 0.5, &c,
	    err) < 0 || c.dice != 0 || c.obj.object_dice != 0 ||
	    c.obj.aji != 0 || c.obj.objects_ref != 2 || c.obj.fn != 2 ||
	    c.obj.tp || c.obj.fp)
		fail("empty mask: not all 0 with 2 false negatives");
}

/* Draws the rectangle [x0, x1) x [y0, y1) of value v into a 40 x 40. */
static void
rect(uint32_t *px, uint32_t v, size_t x0, size_t y0, size_t x1, size_t y1)
{
	size_t x, y;

	for (y = y0; y < y1; y++)
		for (x = x0; x < x1; x++)
			px[y * 40 + x] = v;
}

/* The worked examples of the man page and the tests. */
static void
worked_examples(void)
{
	static uint32_t m[1600], r[1600];
	sr_comparison c;
	char err[256];

	/* a 10 x 10 square and the same shifted by 5 */
	memset(m, 0, sizeof m);
	memset(r, 0, sizeof r);
	rect(r, 255, 10, 10, 20, 20);
	rect(m, 255, 15, 10, 25, 20);
	sr_compare_images(m, r, 40, 40, "m", "r", SR_OBJECTS_AUTO, 0.5, &c, err);
	if (c.dice != 0.5 || !near(c.jaccard, 1.0 / 3) ||
	    c.obj.object_dice != 0.5 || !near(c.obj.aji, 1.0 / 3) ||
	    c.obj.tp != 0 || c.obj.fp != 1 || c.obj.fn != 1)
		fail("shifted square: dice %g jaccard %g object_dice %g aji %g "
		    "tp %zu", c.dice, c.jaccard, c.obj.object_dice, c.obj.aji,
		    c.obj.tp);
	/* the square split into halves 1 and 2, and a stray 5 x 5 object 3:
	 * AJI = 50 / (100 + 50 + 25) */
	memset(m, 0, sizeof m);
	memset(r, 0, sizeof r);
	rect(r, 255, 10, 10, 20, 20);
	rect(m, 1, 10, 10, 15, 20);
	rect(m, 2, 15, 10, 20, 20);
	rect(m, 3, 30, 30, 35, 35);
	sr_compare_images(m, r, 40, 40, "m", "r", SR_OBJECTS_AUTO, 0.5, &c, err);
	if (!near(c.obj.aji, 50.0 / 175) || !near(c.obj.object_dice, 0.6) ||
	    c.obj.tp != 1 || c.obj.fp != 2 || c.obj.fn != 0 ||
	    !near(c.dice, 200.0 / 225) || !near(c.jaccard, 0.8))
		fail("split square: aji %.17g object_dice %.17g tp %zu",
		    c.obj.aji, c.obj.object_dice, c.obj.tp);
	/* one label in two pieces: two objects read as binary (auto), one
	 * as labels */
	memset(m, 0, sizeof m);
	rect(m, 4, 0, 0, 3, 3);
	rect(m, 4, 10, 10, 13, 13);
	memcpy(r, m, sizeof r);
	sr_compare_images(m, r, 40, 40, "m", "r", SR_OBJECTS_AUTO, 0.5, &c, err);
	if (c.obj.objects_mask != 2 || !c.binary_mask)
		fail("one value in two pieces, auto: %zu objects",
		    c.obj.objects_mask);
	memset(m, 0, sizeof m);
	rect(m, 4, 0, 0, 3, 3);
	rect(m, 4, 10, 10, 13, 13);
	memcpy(r, m, sizeof r);
	sr_compare_images(m, r, 40, 40, "m", "r", SR_OBJECTS_LABELS, 0.5, &c,
	    err);
	if (c.obj.objects_mask != 1 || c.binary_mask || c.obj.tp != 1)
		fail("one value in two pieces, --labels: %zu objects",
		    c.obj.objects_mask);
	/* equal IoUs 25/175: (ref 1, mask 1), (1, 2), (2, 1); the greedy
	 * matching takes the lowest ref, then mask, first: one match */
	memset(m, 0, sizeof m);
	memset(r, 0, sizeof r);
	rect(r, 1, 0, 0, 10, 10);
	rect(r, 2, 20, 0, 30, 10);
	rect(m, 1, 5, 0, 25, 5);
	rect(m, 2, 5, 5, 15, 15);
	sr_compare_images(m, r, 40, 40, "m", "r", SR_OBJECTS_LABELS, 0.1, &c,
	    err);
	if (c.obj.tp != 1 || c.obj.fp != 1 || c.obj.fn != 1)
		fail("equal IoUs: tp %zu, not 1", c.obj.tp);
	/* diagonal neighbours are one object of a binary mask */
	memset(m, 0, sizeof m);
	m[0] = m[41] = m[82] = 1;
	memcpy(r, m, sizeof r);
	sr_compare_images(m, r, 40, 40, "m", "r", SR_OBJECTS_BINARY, 0.5, &c,
	    err);
	if (c.obj.objects_mask != 1)
		fail("a diagonal line: %zu objects", c.obj.objects_mask);
}

/* Many objects (the hash tables grow): every pixel its own random value;
 * numbering keeps the order of the values, and the image against itself
 * scores 1 with every object matched. */
static void
many_objects(void)
{
	enum { W = 150, N = W * W };
	static uint32_t px[N], m[N], r[N];
	sr_overlap *o;
	sr_object_scores sc;
	char err[256];
	size_t i, j, n, nr;

	for (i = 0; i < N; i++)
		px[i] = rnd(10) ? (uint32_t)(1 + rnd(0xfffffffeu)) : 0;
	memcpy(m, px, sizeof m);
	memcpy(r, px, sizeof r);
	if (sr_objects_number(m, W, W, SR_OBJECTS_AUTO, &n, NULL, err) < 0 ||
	    sr_objects_number(r, W, W, SR_OBJECTS_LABELS, &nr, NULL, err) < 0) {
		fail("many objects: %s", err);
		return;
	}
	for (i = 0; i < N; i++)
		for (j = i + 1; j < N && j < i + 40; j++)
			if ((px[i] < px[j]) != (m[i] < m[j]) ||
			    (px[i] == px[j]) != (m[i] == m[j]))
				fail("many objects: pixels %zu and %zu out of order",
				    i, j);
	o = sr_overlap_count(m, n, r, nr, N);
	sr_overlap_scores(o, 0.5, &sc);
	if (n < N / 2 || o->npair != n || sc.object_dice != 1 || sc.aji != 1 ||
	    sc.tp != n || sc.fp || sc.fn)
		fail("many objects: %zu objects, %zu pairs, tp %zu", n, o->npair,
		    sc.tp);
	sr_overlap_free(o);
}

int
main(void)
{
	sr_opencv_init();
	empty_cases();
	worked_examples();
	random_cases();
	many_objects();
	if (failures) {
		printf("%d failures\n", failures);
		return 1;
	}
	return 0;
}
