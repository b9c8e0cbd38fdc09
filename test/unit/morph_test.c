/* morph_test.c - unit tests of tools/lib/image/morph.c and runs.c.
 *
 * Compares every function with a deliberately simple brute-force
 * reference written here (geodesic dilation iterated to stability,
 * propagation from the border or the seeds repeated until nothing
 * changes, a naive flood of each pixel's plateau, objects flooded with
 * a stack for the area filter, the minimum or maximum over the element
 * for erosion and dilation) on random images of 1x1
 * to 40x40 pixels (1xN and Nx1 included) and strips up to 200 pixels
 * long (many SIMD chunks a row), with few grey levels, so that
 * plateaus occur, under both connectivities, with -FLT_MAX and FLT_MAX
 * (and infinities) among the float values; then checks hand-made cases
 * with known answers (rings and diagonals where 4 and 8 differ, a
 * staircase and MATLAB's imhmin example, a queue phase with a wide
 * front, nscale's disk against OpenCV's erode and dilate). The random cases reach every way out of the reconstruction's
 * repeated scans (morph.c: stable after 1 to 4 pairs; a queue left after
 * 1, 2, 3 pairs, and after the 4th, the most; counted once by hand: 4015,
 * 466, 124, 37 and 67, 55, 21, 22 calls). Every comparison is exact.
 * Build it with -DSR_MORPH_NO_SIMD on morph.c too to test the portable
 * code on x86.
 * Exits 0 on success; prints "FAIL: ..." and exits 1 otherwise.
 */
#include "image/morph.h"
#include "image/runs.h"
#include "image/opencv.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CHECK_SEED 0x9e3779b97f4a7c15ULL
#include "check.h"

#define MAXSIDE	40	/* of a square-ish image */
#define MAXPIX	(MAXSIDE * MAXSIDE)	/* of any image */
#define NRANDOM	600	/* random cases per function and kind */


/* Checked allocation for the test itself. */
static void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (p == NULL) {
		printf("FAIL: out of memory\n");
		exit(1);
	}
	return p;
}

/* Neighbour k (0..8, 4 = the pixel itself) of (x, y): returns 0 if it
 * lies outside the image or is a diagonal under conn 4. */
static int
nbr(size_t w, size_t h, size_t x, size_t y, int k, int conn, size_t *j)
{
	long nx = (long)x + k % 3 - 1, ny = (long)y + k / 3 - 1;

	if (conn == 4 && k % 3 != 1 && k / 3 != 1)
		return 0;
	if (nx < 0 || ny < 0 || nx >= (long)w || ny >= (long)h)
		return 0;
	*j = (size_t)ny * w + (size_t)nx;
	return 1;
}

/* Reference reconstruction: m = min(marker, mask), then m = min(dilate(m),
 * mask) until it no longer changes. */
static void
ref_recon(float *m, const float *mask, size_t w, size_t h, int conn)
{
	size_t n = w * h, i, j;
	float *d = xcalloc(n, sizeof *d);
	int k, changed = 1;

	for (i = 0; i < n; i++)
		if (mask[i] < m[i])
			m[i] = mask[i];
	while (changed) {
		for (i = 0; i < n; i++) {
			d[i] = m[i];
			for (k = 0; k < 9; k++)
				if (nbr(w, h, i % w, i / w, k, conn, &j) &&
				    m[j] > d[i])
					d[i] = m[j];
			if (mask[i] < d[i])
				d[i] = mask[i];
		}
		changed = memcmp(d, m, n * sizeof *m) != 0;
		memcpy(m, d, n * sizeof *m);
	}
	free(d);
}

/* Reference propagation: reached grows into pass pixels next to reached
 * ones until it no longer changes. */
static void
ref_spread(uint8_t *reached, const uint8_t *pass, size_t w, size_t h,
    int conn)
{
	size_t n = w * h, i, j;
	int k, changed = 1;

	while (changed)
		for (changed = 0, i = 0; i < n; i++)
			for (k = 0; k < 9 && pass[i] && !reached[i]; k++)
				if (nbr(w, h, i % w, i / w, k, conn, &j) &&
				    reached[j])
					reached[i] = changed = 1;
}

/* Reference hole filling: flood the background from the border's. */
static void
ref_fill_holes(const uint8_t *bin, uint8_t *out, size_t w, size_t h,
    int conn)
{
	size_t n = w * h, i, x, y;
	uint8_t *bg = xcalloc(n, 1), *reached = xcalloc(n, 1);

	for (i = 0; i < n; i++) {
		x = i % w;
		y = i / w;
		bg[i] = bin[i] == 0;
		reached[i] = bg[i] && (x == 0 || y == 0 || x == w - 1 ||
		    y == h - 1);
	}
	ref_spread(reached, bg, w, h, conn);
	for (i = 0; i < n; i++)
		out[i] = reached[i] ? 0 : 255;
	free(bg);
	free(reached);
}

/* Reference bwselect: flood the foreground from the seeds on it. */
static void
ref_select(const uint8_t *bin, const uint8_t *seed, uint8_t *out, size_t w,
    size_t h, int conn)
{
	size_t n = w * h, i;

	for (i = 0; i < n; i++)
		out[i] = bin[i] && seed[i];
	ref_spread(out, bin, w, h, conn);
	for (i = 0; i < n; i++)
		out[i] = out[i] ? 255 : 0;
}

/* Reference regional minima: floods each pixel's plateau on its own and
 * looks for a smaller neighbour. */
static void
ref_minima(const float *img, uint8_t *out, size_t w, size_t h, int conn)
{
	size_t n = w * h, i, j, r, head, tail,
	    *queue = xcalloc(n, sizeof *queue);
	uint8_t *seen = xcalloc(n, 1);
	int k, ismin;

	for (i = 0; i < n; i++) {
		memset(seen, 0, n);
		queue[0] = i;
		seen[i] = 1;
		ismin = 1;
		for (head = 0, tail = 1; head < tail; head++) {
			r = queue[head];
			for (k = 0; k < 9; k++) {
				if (!nbr(w, h, r % w, r / w, k, conn, &j))
					continue;
				if (img[j] < img[r])
					ismin = 0;
				if (img[j] == img[r] && !seen[j]) {
					seen[j] = 1;
					queue[tail++] = j;
				}
			}
		}
		out[i] = ismin ? 255 : 0;
	}
	free(queue);
	free(seen);
}

/* Reference h-minima: -R(-img - hval, -img). */
static void
ref_hmin(float *img, size_t w, size_t h, float hval, int conn)
{
	size_t n = w * h, i;
	float *m = xcalloc(n, sizeof *m), *mask = xcalloc(n, sizeof *mask);

	for (i = 0; i < n; i++) {
		mask[i] = -img[i];
		m[i] = -img[i] - hval;
	}
	ref_recon(m, mask, w, h, conn);
	for (i = 0; i < n; i++)
		img[i] = -m[i];
	free(m);
	free(mask);
}

/* A random side: often 1, 2 or 3, otherwise up to MAXSIDE. */
static size_t
rand_side(void)
{
	size_t r = rnd(8);

	return r < 3 ? r + 1 : rnd(MAXSIDE) + 1;
}

/* Random dimensions: mostly both up to MAXSIDE, sometimes a strip up to
 * 200 pixels long (several SIMD chunks per row) and at most 8 across. */
static void
rand_dims(size_t *w, size_t *h)
{
	size_t r = rnd(10);

	*w = rand_side();
	*h = rand_side();
	if (r == 0) {
		*w = rnd(200) + 1;
		*h = rnd(MAXPIX / 200) + 1;
	} else if (r == 1) {
		*w = rnd(MAXPIX / 200) + 1;
		*h = rnd(200) + 1;
	}
}

/* Fills a with random levels 0..nlev-1: independent pixels, or blocks of
 * random size (so that long plateaus and long propagations occur) with
 * some noise. */
static void
rand_levels(int *a, size_t w, size_t h, int nlev)
{
	size_t x, y, bw = rnd(8) + 1, bh = rnd(8) + 1;
	int blocky = (int)rnd(2), cell[MAXSIDE][MAXSIDE];

	for (y = 0; y < MAXSIDE; y++)
		for (x = 0; x < MAXSIDE; x++)
			cell[y][x] = (int)rnd((size_t)nlev);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++)
			a[y * w + x] = blocky && rnd(10) ?
			    cell[y / bh % MAXSIDE][x / bw % MAXSIDE] :
			    (int)rnd((size_t)nlev);
}

/* A random u8 image over nlev grey levels spread on 0..255. */
static void
rand_u8(uint8_t *img, size_t w, size_t h)
{
	int lev[MAXPIX], nlev = (int)rnd(5) + 2, step, i;
	size_t n = w * h;

	step = 255 / (nlev - 1);
	rand_levels(lev, w, h, nlev);
	for (i = 0; i < (int)n; i++)
		img[i] = (uint8_t)(lev[i] * step);
}

/* A random float image over a few values, -FLT_MAX or FLT_MAX among
 * them in many images, infinities in some. */
static void
rand_f32(float *img, size_t w, size_t h)
{
	static const float vals[] = { -FLT_MAX, FLT_MAX, -FLT_MAX, FLT_MAX,
	    -INFINITY, INFINITY, -3.5f, -1, 0, 0.25f, 1, 2, 3, 7.5f };
	float pick[6];
	int lev[MAXPIX], nlev = (int)rnd(5) + 2, i;

	for (i = 0; i < nlev; i++)
		pick[i] = vals[rnd(sizeof vals / sizeof vals[0])];
	rand_levels(lev, w, h, nlev);
	for (i = 0; i < (int)(w * h); i++)
		img[i] = pick[lev[i]];
}

/* A random binary image: foreground any non-zero value, not just 255. */
static void
rand_bin(uint8_t *img, size_t w, size_t h)
{
	int lev[MAXPIX], i, dens = (int)rnd(9) + 1;

	rand_levels(lev, w, h, 10);
	for (i = 0; i < (int)(w * h); i++)
		img[i] = lev[i] < dens ? (uint8_t)(1 + rnd(255)) : 0;
}

/* Reports the first pixel where two u8 images differ. */
static void
cmp_u8(const char *what, size_t c, int conn, const uint8_t *got,
    const uint8_t *want, size_t w, size_t h)
{
	size_t i;

	for (i = 0; i < w * h; i++)
		if (got[i] != want[i]) {
			fail("%s case %zu (%zux%zu conn %d): pixel (%zu,%zu) "
			    "is %d, want %d", what, c, w, h, conn, i % w,
			    i / w, got[i], want[i]);
			return;
		}
}

/* Reports the first pixel where two float images differ. */
static void
cmp_f32(const char *what, size_t c, int conn, const float *got,
    const float *want, size_t w, size_t h)
{
	size_t i;

	for (i = 0; i < w * h; i++)
		if (!(got[i] == want[i])) {
			fail("%s case %zu (%zux%zu conn %d): pixel (%zu,%zu) "
			    "is %g, want %g", what, c, w, h, conn, i % w,
			    i / w, (double)got[i], (double)want[i]);
			return;
		}
}

/* A random u8 marker for mask: independent, mask minus noise, or
 * sparse. */
static void
rand_marker_u8(uint8_t *m, const uint8_t *mask, size_t w, size_t h)
{
	size_t i, mode = rnd(3);
	int v;

	if (mode == 0)
		rand_u8(m, w, h);
	for (i = 0; i < w * h && mode > 0; i++) {
		v = mode == 1 ? mask[i] - (int)rnd(80) :
		    rnd(12) ? 0 : (int)rnd(256);
		m[i] = (uint8_t)(v < 0 ? 0 : v);
	}
}

/* Reconstruction, u8, against the reference. */
static void
random_recon_u8(size_t c, int conn)
{
	size_t w, h, i;
	uint8_t m[MAXPIX], mask[MAXPIX], want[MAXPIX];
	float fm[MAXPIX] = { 0 }, fmask[MAXPIX] = { 0 };

	rand_dims(&w, &h);
	if (rnd(3))
		rand_u8(mask, w, h);
	else		/* open, but for low barriers */
		for (i = 0; i < w * h; i++)
			mask[i] = rnd(6) ? 255 : (uint8_t)rnd(60);
	rand_marker_u8(m, mask, w, h);
	for (i = 0; i < w * h; i++) {
		fm[i] = m[i];
		fmask[i] = mask[i];
	}
	ref_recon(fm, fmask, w, h, conn);
	for (i = 0; i < w * h; i++)
		want[i] = (uint8_t)fm[i];
	sr_reconstruct_u8(m, mask, w, h, conn);
	cmp_u8("reconstruct_u8", c, conn, m, want, w, h);
}

/* Reconstruction, u8, of sparse seeds along a strip of one or two rows
 * up to 200 pixels long, open but for low barriers: a row's scans
 * must stop a high value at a barrier anywhere within a SIMD chunk. */
static void
random_strip_u8(size_t c, int conn)
{
	size_t w = rnd(200) + 1, h = rnd(2) + 1, i;
	uint8_t m[400], mask[400], want[400];
	float fm[400] = { 0 }, fmask[400] = { 0 };

	for (i = 0; i < w * h; i++) {
		mask[i] = rnd(8) ? 200 + (uint8_t)rnd(56) : (uint8_t)rnd(60);
		m[i] = rnd(10) ? (uint8_t)rnd(30) : mask[i];
		fm[i] = m[i];
		fmask[i] = mask[i];
	}
	ref_recon(fm, fmask, w, h, conn);
	for (i = 0; i < w * h; i++)
		want[i] = (uint8_t)fm[i];
	sr_reconstruct_u8(m, mask, w, h, conn);
	cmp_u8("reconstruct_u8 strip", c, conn, m, want, w, h);
}

/* Reconstruction, float, against the reference. */
static void
random_recon_f32(size_t c, int conn)
{
	size_t w, h, i, mode = rnd(3);
	float m[MAXPIX], mask[MAXPIX], want[MAXPIX];

	rand_dims(&w, &h);
	rand_f32(mask, w, h);
	if (mode == 0)
		rand_f32(m, w, h);
	for (i = 0; i < w * h && mode > 0; i++)
		m[i] = mode == 1 ? mask[i] - (float)rnd(4) :
		    rnd(12) ? -FLT_MAX : (float)rnd(8);
	memcpy(want, m, w * h * sizeof *m);
	ref_recon(want, mask, w, h, conn);
	sr_reconstruct_f32(m, mask, w, h, conn);
	cmp_f32("reconstruct_f32", c, conn, m, want, w, h);
}

/* Hole filling and bwselect against the references. */
static void
random_binary(size_t c, int conn)
{
	size_t w, h, i;
	uint8_t bin[MAXPIX], seed[MAXPIX], got[MAXPIX], want[MAXPIX];

	rand_dims(&w, &h);
	rand_bin(bin, w, h);
	for (i = 0; i < w * h; i++)
		seed[i] = rnd(15) == 0 ? (uint8_t)(1 + rnd(255)) : 0;
	ref_select(bin, seed, want, w, h, conn);
	sr_select(bin, seed, got, w, h, conn);
	cmp_u8("select", c, conn, got, want, w, h);
	ref_fill_holes(bin, want, w, h, conn);
	sr_fill_holes(bin, w, h, conn);
	cmp_u8("fill_holes", c, conn, bin, want, w, h);
}

/* Reference area filter: each object flooded from its first pixel with
 * a stack, its pixels counted, kept when lo <= area < hi. */
static size_t
ref_area_keep(const uint8_t *bin, uint8_t *out, size_t w, size_t h,
    int conn, double lo, double hi)
{
	size_t n = w * h, i, j, p, top, area, kept = 0;
	size_t *stack = xcalloc(n, sizeof *stack), *obj = xcalloc(n, sizeof *obj);
	uint8_t *seen = xcalloc(n, 1);
	int k;

	memset(out, 0, n);
	for (i = 0; i < n; i++) {
		if (!bin[i] || seen[i])
			continue;
		seen[i] = 1;
		stack[0] = i;
		for (top = 1, area = 0; top > 0;) {
			p = stack[--top];
			obj[area++] = p;
			for (k = 0; k < 9; k++)
				if (nbr(w, h, p % w, p / w, k, conn, &j) &&
				    bin[j] && !seen[j]) {
					seen[j] = 1;
					stack[top++] = j;
				}
		}
		if ((double)area >= lo && (double)area < hi) {
			kept++;
			for (j = 0; j < area; j++)
				out[obj[j]] = 255;
		}
	}
	free(stack);
	free(obj);
	free(seen);
	return kept;
}

/* The area filter against the reference: bounds from none to all. */
static void
random_area_keep(size_t c, int conn)
{
	size_t w, h, kept, want_kept;
	uint8_t bin[MAXPIX], got[MAXPIX], want[MAXPIX];
	double lo = (double)rnd(12), hi = rnd(4) ? lo + (double)rnd(60) :
	    INFINITY;

	rand_dims(&w, &h);
	rand_bin(bin, w, h);
	want_kept = ref_area_keep(bin, want, w, h, conn, lo, hi);
	kept = sr_runs_area_keep(bin, got, w, h, conn, lo, hi);
	cmp_u8("runs_area_keep", c, conn, got, want, w, h);
	if (kept != want_kept)
		fail("runs_area_keep case %zu (%zux%zu conn %d): %zu objects "
		    "kept, want %zu", c, w, h, conn, kept, want_kept);
}

/* Reference erosion (dilation: dil set) by centred rows: the minimum
 * (maximum) over the element's pixels inside the image. */
static void
ref_erode_rows(const uint8_t *src, uint8_t *out, size_t w, size_t h,
    const int *half, int r, int dil)
{
	long x, y, dx, dy;
	int v, s;

	for (y = 0; y < (long)h; y++)
		for (x = 0; x < (long)w; x++) {
			v = dil ? 0 : 255;
			for (dy = -r; dy <= r; dy++)
				for (dx = -half[dy + r]; dx <= half[dy + r]; dx++) {
					if (y + dy < 0 || y + dy >= (long)h ||
					    x + dx < 0 || x + dx >= (long)w)
						continue;
					s = src[(y + dy) * (long)w + x + dx];
					v = dil ? (s > v ? s : v) : (s < v ? s : v);
				}
			out[y * (long)w + x] = (uint8_t)v;
		}
}

/* Erosion and dilation by random centred-row elements (rows 1 to 9,
 * half-widths 0 to 6, wider than the image too) against the reference. */
static void
random_erode_rows(size_t c, int conn)
{
	size_t w, h;
	uint8_t src[MAXPIX], got[MAXPIX], want[MAXPIX];
	int half[9], r = (int)rnd(5), i, dil;

	(void)conn;
	rand_dims(&w, &h);
	rand_u8(src, w, h);
	for (i = 0; i <= 2 * r; i++)
		half[i] = (int)rnd(7);
	for (dil = 0; dil <= 1; dil++) {
		ref_erode_rows(src, want, w, h, half, r, dil);
		(dil ? sr_dilate_rows : sr_erode_rows)(src, got, w, h, half, r);
		cmp_u8(dil ? "dilate_rows" : "erode_rows", c, 0, got, want, w,
		    h);
	}
}

/* nscale's disk of radius 10 (seg-run's Seg1) on a random 300 x 211
 * image: the same bytes as OpenCV's erode and dilate with its 19 x 19
 * mask, which seg-run used before. */
static void
test_disk_opencv(void)
{
	static const int half[19] = { 5, 6, 7, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9,
	    9, 9, 8, 7, 6, 5 };
	size_t w = 300, h = 211, i;
	uint8_t k[19 * 19], *src = xcalloc(w * h, 1), *got = xcalloc(w * h, 1),
	    *want = xcalloc(w * h, 1);
	char err[256];
	int y, x, dil;

	for (y = 0; y < 19; y++)
		for (x = 0; x < 19; x++)
			k[y * 19 + x] = abs(x - 9) <= half[y];
	for (i = 0; i < w * h; i++)
		src[i] = (uint8_t)(rnd(4) ? 100 + rnd(100) : rnd(256));
	for (dil = 0; dil <= 1; dil++) {
		if ((dil ? sr_opencv_dilate : sr_opencv_erode)(src, want, w, h,
		    k, 19, 19, err) < 0) {
			fail("OpenCV: %s", err);
			break;
		}
		(dil ? sr_dilate_rows : sr_erode_rows)(src, got, w, h, half, 9);
		cmp_u8(dil ? "dilate_rows disk" : "erode_rows disk", 0, 0, got,
		    want, w, h);
	}
	free(src);
	free(got);
	free(want);
}

/* Regional minima and h-minima against the references. */
static void
random_minima(size_t c, int conn)
{
	static const float hs[] = { 0, 0.25f, 1, 2, 3.5f, 100 };
	size_t w, h;
	float img[MAXPIX], want[MAXPIX], hval;
	uint8_t got8[MAXPIX], want8[MAXPIX];

	rand_dims(&w, &h);
	rand_f32(img, w, h);
	ref_minima(img, want8, w, h, conn);
	sr_regional_minima_f32(img, got8, w, h, conn);
	cmp_u8("regional_minima", c, conn, got8, want8, w, h);
	hval = hs[rnd(sizeof hs / sizeof hs[0])];
	memcpy(want, img, w * h * sizeof *img);
	ref_hmin(want, w, h, hval, conn);
	sr_hmin_f32(img, w, h, hval, conn);
	cmp_f32("hmin", c, conn, img, want, w, h);
}

/* The framed h-minima and local minima of Seg5 against the straightforward
 * composition of the unframed functions (nscale's localMinima as
 * nuclei.c computed it before issue 17): images with a -FLT_MAX
 * background, as Seg5's. */
static void
random_hmin_local_minima(size_t c, int conn)
{
	size_t w, h, i, x, y, W;
	float img[MAXPIX], rec[MAXPIX], *framed;
	uint8_t want[MAXPIX], *got;

	rand_dims(&w, &h);
	rand_f32(img, w, h);
	for (i = 0; i < w * h; i++)
		if (rnd(3) == 0)
			img[i] = -FLT_MAX;
	W = sr_framed_stride(w);
	framed = sr_framed_f32(w, h);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++)
			framed[(y + 1) * W + 1 + x] = -img[y * w + x];
	got = sr_hmin_local_minima_framed_f32(framed, w, h, 1.0f, 8, conn);
	sr_hmin_f32(img, w, h, 1.0f, 8);
	sr_regional_minima_f32(img, want, w, h, conn);
	for (i = 0; i < w * h; i++) {
		img[i] = -img[i];
		rec[i] = img[i] - 1.0f;
	}
	sr_reconstruct_f32(rec, img, w, h, conn);
	for (i = 0; i < w * h; i++)
		if (img[i] - 1.0f < rec[i])
			want[i] = 0;
	for (y = 0; y < h; y++)
		memmove(got + y * w, got + (y + 1) * W + 1, w);
	cmp_u8("hmin_local_minima_framed", c, conn, got, want, w, h);
	free(framed);
	free(got);
}

/* Builds a w x h binary image from rows of '#' and '.'. */
static void
from_text(uint8_t *img, const char *const *rows, size_t w, size_t h)
{
	size_t x, y;

	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++)
			img[y * w + x] = rows[y][x] == '#' ? 255 : 0;
}

/* A diamond ring closes its inside under conn 4 only; a square ring
 * under both; a ring open to the border encloses nothing. */
static void
test_fill_holes_known(void)
{
	static const char *const diamond[] = { "..#..", ".#.#.", "#...#",
	    ".#.#.", "..#.." }, *const diamond_full[] = { "..#..", ".###.",
	    "#####", ".###.", "..#.." }, *const square[] = { "......",
	    ".####.", ".#..#.", ".#..#.", ".####.", "......" },
	    *const square_full[] = { "......", ".####.", ".####.", ".####.",
	    ".####.", "......" }, *const open[] = { "###", "#..", "###" };
	uint8_t img[36], want[36];
	int conn;

	from_text(img, diamond, 5, 5);
	sr_fill_holes(img, 5, 5, 8);
	from_text(want, diamond, 5, 5);
	cmp_u8("fill_holes diamond", 0, 8, img, want, 5, 5);
	sr_fill_holes(img, 5, 5, 4);
	from_text(want, diamond_full, 5, 5);
	cmp_u8("fill_holes diamond", 0, 4, img, want, 5, 5);
	for (conn = 4; conn <= 8; conn += 4) {
		from_text(img, square, 6, 6);
		sr_fill_holes(img, 6, 6, conn);
		from_text(want, square_full, 6, 6);
		cmp_u8("fill_holes square", 0, conn, img, want, 6, 6);
		from_text(img, open, 3, 3);
		sr_fill_holes(img, 3, 3, conn);
		from_text(want, open, 3, 3);
		cmp_u8("fill_holes open ring", 0, conn, img, want, 3, 3);
	}
}

/* A diagonal line is one object under conn 8, three under conn 4. */
static void
test_select_known(void)
{
	static const char *const diag[] = { "#...", ".#..", "..#.",
	    "...." }, *const first[] = { "#...", "....", "....", "...." };
	uint8_t bin[16], seed[16] = { 0 }, out[16], want[16];

	from_text(bin, diag, 4, 4);
	seed[0] = 1;
	seed[3] = 1;		/* on the background: selects nothing */
	sr_select(bin, seed, out, 4, 4, 8);
	cmp_u8("select diagonal", 0, 8, out, bin, 4, 4);
	sr_select(bin, seed, out, 4, 4, 4);
	from_text(want, first, 4, 4);
	cmp_u8("select diagonal", 0, 4, out, want, 4, 4);
}

/* A pit touching a deeper one diagonally is a minimum under conn 4
 * only; a flat image is one minimum, even at +inf (the frame's value). */
static void
test_minima_known(void)
{
	const float pit[9] = { 5, 5, 5, 5, 3, 5, 5, 5, 1 };
	const uint8_t want4[9] = { 0, 0, 0, 0, 255, 0, 0, 0, 255 },
	    want8[9] = { 0, 0, 0, 0, 0, 0, 0, 0, 255 };
	float flat[21];
	uint8_t out[21], all[21];
	int i, conn;

	sr_regional_minima_f32(pit, out, 3, 3, 4);
	cmp_u8("minima pit", 0, 4, out, want4, 3, 3);
	sr_regional_minima_f32(pit, out, 3, 3, 8);
	cmp_u8("minima pit", 0, 8, out, want8, 3, 3);
	memset(all, 255, sizeof all);
	for (conn = 4; conn <= 8; conn += 4) {
		for (i = 0; i < 21; i++)
			flat[i] = -FLT_MAX;
		sr_regional_minima_f32(flat, out, 1, 21, conn);
		cmp_u8("minima flat", 0, conn, out, all, 1, 21);
		for (i = 0; i < 21; i++)
			flat[i] = INFINITY;
		sr_regional_minima_f32(flat, out, 7, 3, conn);
		cmp_u8("minima flat +inf", 0, conn, out, all, 7, 3);
		sr_regional_minima_f32(flat, out, 21, 1, conn);
		cmp_u8("minima flat +inf", 0, conn, out, all, 21, 1);
	}
}

/* A staircase, MATLAB's imhmin example (a 3-deep minimum vanishes under
 * h = 4, an 8-deep one rises by 4), and minima at -FLT_MAX and between
 * FLT_MAX walls. */
static void
test_hmin_known(void)
{
	float stair[6] = { 1, 2, 3, 4, 5, 6 },
	    want_stair[6] = { 3, 3, 3, 4, 5, 6 },
	    deep[3] = { -FLT_MAX, 5, 5 }, want_deep[3] = { -FLT_MAX, 5, 5 },
	    walls[3] = { FLT_MAX, 3, FLT_MAX },
	    want_walls[3] = { FLT_MAX, 4, FLT_MAX }, a[100], want[100];
	size_t x, y;

	sr_hmin_f32(stair, 6, 1, 2, 4);
	cmp_f32("hmin staircase", 0, 4, stair, want_stair, 6, 1);
	sr_hmin_f32(deep, 1, 3, 1, 8);
	cmp_f32("hmin -FLT_MAX", 0, 8, deep, want_deep, 1, 3);
	sr_hmin_f32(walls, 3, 1, 1, 8);
	cmp_f32("hmin FLT_MAX walls", 0, 8, walls, want_walls, 3, 1);
	for (y = 0; y < 10; y++)
		for (x = 0; x < 10; x++) {
			a[y * 10 + x] = want[y * 10 + x] = 10;
			if (x >= 1 && x <= 3 && y >= 1 && y <= 3)
				a[y * 10 + x] = 7;
			if (x >= 5 && x <= 7 && y >= 5 && y <= 7) {
				a[y * 10 + x] = 2;
				want[y * 10 + x] = 6;
			}
		}
	sr_hmin_f32(a, 10, 10, 4, 8);
	cmp_f32("hmin imhmin example", 0, 8, a, want, 10, 10);
}

/* Clipping to the mask, and a diagonal path that only conn 8 follows. */
static void
test_recon_known(void)
{
	uint8_t m[6] = { 0, 3, 0, 0, 9, 0 }, mask[6] = { 5, 5, 5, 0, 7, 7 },
	    want[6] = { 3, 3, 3, 0, 7, 7 }, dm[9] = { 4 }, dmask[9] = { 9, 0,
	    0, 0, 9, 0, 0, 0, 9 }, want8[9] = { 9, 0, 0, 0, 9, 0, 0, 0, 9 },
	    want4[9] = { 4, 0, 0, 0, 0, 0, 0, 0, 0 };

	sr_reconstruct_u8(m, mask, 6, 1, 4);
	cmp_u8("reconstruct clip", 0, 4, m, want, 6, 1);
	dm[0] = 9;
	sr_reconstruct_u8(dm, dmask, 3, 3, 8);
	cmp_u8("reconstruct diagonal", 0, 8, dm, want8, 3, 3);
	memset(dm, 0, sizeof dm);
	dm[0] = 4;
	sr_reconstruct_u8(dm, dmask, 3, 3, 4);
	cmp_u8("reconstruct diagonal", 0, 4, dm, want4, 3, 3);
}

/* A front that widens: a corridor fed from its right end reaches,
 * through one gap, a row that only the queue phase can fill and from
 * which 1-pixel teeth hang, each reachable only from above; the teeth
 * fill in parallel, so the FIFO grows while it wraps around, and any
 * entry it lost would leave a tooth short. */
static void
test_wide_front(void)
{
	size_t w = 1024, h = 600, x, y;
	uint8_t *bin = xcalloc(w * h, 1), *seed = xcalloc(w * h, 1),
	    *out = xcalloc(w * h, 1);
	int conn;

	for (y = 1; y < h; y++)
		for (x = 0; x < w; x++)
			bin[y * w + x] = y == 1 || y == 3 ||
			    (y == 2 && x == w / 2) || (y > 3 && x % 2 == 0);
	seed[w + w - 1] = 1;
	for (conn = 4; conn <= 8; conn += 4) {
		sr_select(bin, seed, out, w, h, conn);
		for (x = 0; x < w * h; x++)
			if ((out[x] != 0) != (bin[x] != 0)) {
				fail("select wide front conn %d: pixel "
				    "(%zu,%zu) is %d", conn, x % w, x / w,
				    out[x]);
				break;
			}
	}
	free(bin);
	free(seed);
	free(out);
}

int
main(void)
{
	size_t c;
	int conn;

	test_recon_known();
	test_fill_holes_known();
	test_select_known();
	test_minima_known();
	test_hmin_known();
	test_wide_front();
	sr_opencv_init();
	test_disk_opencv();
	for (c = 0; c < NRANDOM; c++) {
		conn = c % 2 ? 8 : 4;
		random_recon_u8(c, conn);
		random_strip_u8(c, conn);
		random_recon_f32(c, conn);
		random_binary(c, conn);
		random_area_keep(c, conn);
		random_erode_rows(c, conn);
		random_minima(c, conn);
		random_hmin_local_minima(c, conn);
	}
	if (failures) {
		printf("FAIL: %d checks failed\n", failures);
		return 1;
	}
	printf("morph_test: all passed (%d random cases per function)\n",
	    NRANDOM);
	return 0;
}
