/* nuclei.c - the nuclei-segmentation workflow (nscale's segmentNuclei in 7
 * tasks) and Reinhard's colour normalization. */
#include "image/nuclei.h"
#include "image/opencv.h"
#include "core/err.h"
#include "image/bits.h"
#include "image/distance.h"
#include "image/morph.h"
#include "image/runs.h"
#include "image/watershed.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const sr_nuc_param_name[SR_NUC_NPARAM] = {
	"B", "G", "R", "T1", "T2", "G1", "G2", "minSize", "maxSize",
	"minSizePl", "minSizeSeg", "maxSizeSeg", "FillHoles", "MorphRecon",
	"Watershed"
};

const char *const sr_nuc_task_name[SR_NUC_NTASK] = {
	"Seg0", "Seg1", "Seg2", "Seg3", "Seg4", "Seg5", "Seg6"
};

const int sr_nuc_task_param[SR_NUC_NTASK][6] = {
	{ SR_NP_B, SR_NP_G, SR_NP_R, SR_NP_T1, SR_NP_T2, -1 },
	{ SR_NP_MORPHRECON, -1 },
	{ SR_NP_FILLHOLES, SR_NP_G1, -1 },
	{ SR_NP_MINSIZE, SR_NP_MAXSIZE, -1 },
	{ SR_NP_G2, -1 },
	{ SR_NP_MINSIZEPL, SR_NP_WATERSHED, -1 },
	{ SR_NP_MINSIZESEG, SR_NP_MAXSIZESEG, SR_NP_FILLHOLES, -1 },
};

const char *
sr_nuc_param_check(int p, double v)
{
	if (!isfinite(v))
		return "not a finite number";
	switch (p) {
	case SR_NP_B: case SR_NP_G: case SR_NP_R: case SR_NP_G1: case SR_NP_G2:
		if (v != floor(v) || v < 0 || v > 255)
			return "not an integer from 0 to 255";
		return NULL;
	case SR_NP_T1: case SR_NP_T2:
		if (v < 0 || v > 1e9)
			return "not a ratio from 0 to 1e9";
		return NULL;
	case SR_NP_FILLHOLES: case SR_NP_MORPHRECON: case SR_NP_WATERSHED:
		if (v != 4 && v != 8)
			return "not a connectivity (4 or 8)";
		return NULL;
	default:			/* object sizes in pixels */
		if (v != floor(v) || v < 0 || v > 2147483647.0)
			return "not a pixel count from 0 to 2147483647";
		return NULL;
	}
}

/* Seg0's rbc and Seg2's diff are read by Seg4, recon by Seg2, bw1 by
 * Seg3 (so it goes early), cand by Seg4, open by Seg5, sep by Seg6. */
const int sr_nuc_last_reader[SR_NUC_NTASK] = { 4, 2, 4, 4, 5, 6,
    SR_NUC_NTASK };

const int sr_nuc_early_reader[SR_NUC_NTASK] = { -1, -1, 3, -1, -1, -1,
    -1 };

void
sr_nuc_out_drop_early(sr_nuc_out *o)
{
	free(o->bw1);
	o->bw1 = NULL;
}

void
sr_nuc_out_drop(sr_nuc_out *o)
{
	int status = o->status;
	size_t objects = o->objects;

	sr_nuc_out_free(o);
	o->status = status;
	o->objects = objects;
}

void
sr_nuc_out_free(sr_nuc_out *o)
{
	free(o->rbc);
	free(o->recon);
	free(o->diff);
	free(o->bw1);
	free(o->cand);
	free(o->open);
	free(o->sep);
	free(o->labels);
	memset(o, 0, sizeof *o);
}

/* ---- helpers --------------------------------------------------------------- */

/* The tasks' large buffers are allocated at two sizes: a framed u8
 * plane's (morph.h) for the u8 planes, a framed float plane's for those
 * of 4 bytes a pixel (Seg6's labels, Seg5's float planes and markers),
 * so that each one freed leaves a hole that any later one of its kind
 * fits. With several paths at once, the hole of a 64 MiB label image was
 * a little short of a framed float plane, which then went on top of the
 * heap. */
static uint8_t *
u8_alloc(size_t w, size_t h)
{
	return sr_reallocarray(NULL, h + 2, sr_framed_stride(w));
}

static void *
wide_alloc(size_t w, size_t h)
{
	return sr_framed_f32(w, h);
}

/* A new 8-bit plane of t's size (uninitialised). */
static uint8_t *
new_plane(const sr_rgb *t)
{
	return u8_alloc(t->w, t->h);
}

/* The 19 x 19 disk of radius 10 of MATLAB's strel('disk', 10) that nscale
 * uses (OpenCV's ellipse differs): centred rows of these half-widths
 * (widths 11, 13, 15, 17, 19 x 11, 17, 15, 13, 11). */
static const int disk_radius10[19] = {
	5, 6, 7, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 8, 7, 6, 5
};

/* OpenCV's 3 x 3 ellipse: the cross. */
static const uint8_t cross3[9] = { 0, 1, 0, 1, 1, 1, 0, 1, 0 };

/* Opening of src into dst by the element of centred rows of half-widths
 * half[0..2r] (morph.h: OpenCV's erode and dilate with that element,
 * computed row by row). */
static void
opening_rows(const uint8_t *src, uint8_t *dst, size_t w, size_t h,
    const int *half, int r)
{
	uint8_t *tmp = sr_malloc(w * h);

	sr_erode_rows(src, tmp, w, h, half, r);
	sr_dilate_rows(tmp, dst, w, h, half, r);
	free(tmp);
}

/* Opening of src into dst by the kw x kh element k. */
static int
opening(const uint8_t *src, uint8_t *dst, size_t w, size_t h,
    const uint8_t *k, int kw, int kh, char *errbuf)
{
	uint8_t *tmp = sr_malloc(w * h);
	int rc = sr_opencv_erode(src, tmp, w, h, k, kw, kh, errbuf);

	if (rc == 0)
		rc = sr_opencv_dilate(tmp, dst, w, h, k, kw, kh, errbuf);
	free(tmp);
	return rc;
}

/* ---- the tasks -------------------------------------------------------------- */

/* Frees the buffers of up[k] where the task may (own, see sr_nuc_task):
 * called once the task has read them. */
static void
drop_own(sr_nuc_out *const *up, unsigned own, int k)
{
	if (own & 1u << k)
		sr_nuc_out_drop(up[k]);
}

/* Seg0's per-pixel tests of two channels, tabulated: bit 0 of
 * tab[a << 8 | b] is a / (b + FLT_EPSILON) > t1 in float, bit 1 the same
 * against t2, bit 2 a / (b + FLT_EPSILON) <= 1 (the very float
 * expressions of the per-pixel tests, once for each of the 65,536 pairs
 * instead of twice for each pixel). */
static void
ratio_table(float t1, float t2, uint8_t tab[65536])
{
	int a, b;

	for (a = 0; a < 256; a++)
		for (b = 0; b < 256; b++) {
			float r = (float)a / ((float)b + FLT_EPSILON);
			tab[a << 8 | b] = (uint8_t)((r > t1) | (r > t2) << 1 |
			    (r <= 1.0f) << 2);
		}
}

/* Seg0: background test, then red blood cells: R/G > T2 connected (8) to
 * R/G > T1, where R/B > 1 (ratios in float with FLT_EPSILON added to the
 * divisor, as nscale). The thresholds R, G, B are whole numbers (checked),
 * so px > p is px > (int)p. */
static int
seg0(const sr_rgb *t, const double *p, sr_nuc_out *o)
{
	size_t n = t->w * t->h, i, bg = 0, seeds = 0;
	const uint8_t *px = t->rgb;
	int tr = (int)p[SR_NP_R], tg = (int)p[SR_NP_G], tb = (int)p[SR_NP_B];
	uint8_t *bw1, *bw2, *tab, *rbc;
	float ratio;

	for (i = 0; i < n; i++)
		bg += (px[3 * i] > tr) & (px[3 * i + 1] > tg) &
		    (px[3 * i + 2] > tb);
	ratio = (float)bg / (float)n;
	if (ratio >= 0.99f) {
		o->status = SR_NUC_BACKGROUND;
		return 0;
	}
	if (ratio >= 0.9f) {
		o->status = SR_NUC_BACKGROUND_LIKELY;
		return 0;
	}
	tab = sr_malloc(65536);
	ratio_table((float)p[SR_NP_T1], (float)p[SR_NP_T2], tab);
	bw1 = new_plane(t);
	bw2 = new_plane(t);
	for (i = 0; i < n; i++) {
		uint8_t b = tab[px[3 * i] << 8 | px[3 * i + 1]];
		bw1[i] = b & 1;
		bw2[i] = b >> 1 & 1;
		seeds += b & 1;
	}
	rbc = new_plane(t);
	if (seeds > 0) {
		sr_select(bw2, bw1, rbc, t->w, t->h, 8);
		for (i = 0; i < n; i++)
			if (tab[px[3 * i] << 8 | px[3 * i + 2]] & 4)
				rbc[i] = 0;
	} else
		memset(rbc, 0, n);
	free(tab);
	free(bw1);
	free(bw2);
	o->rbc = sr_bits_pack(rbc, n);
	free(rbc);
	o->bytes = sr_bits_words(n) * sizeof *o->rbc;
	o->status = SR_NUC_CONTINUE;
	return 0;
}

/* 255 - R. */
static uint8_t *
red_complement(const sr_rgb *t)
{
	size_t n = t->w * t->h, i;
	uint8_t *rc = new_plane(t);

	for (i = 0; i < n; i++)
		rc[i] = (uint8_t)(255 - t->rgb[3 * i]);
	return rc;
}

/* Seg1: rc = 255 - R opened by the disk of radius 10, reconstructed under
 * rc (MorphRecon connectivity). */
static int
seg1(const sr_rgb *t, const double *p, sr_nuc_out *o)
{
	uint8_t *rc = red_complement(t);

	o->recon = new_plane(t);
	opening_rows(rc, o->recon, t->w, t->h, disk_radius10, 9);
	sr_reconstruct_u8(o->recon, rc, t->w, t->h, (int)p[SR_NP_MORPHRECON]);
	free(rc);
	o->bytes = t->w * t->h;
	o->status = SR_NUC_CONTINUE;
	return 0;
}

/* Seg2: diff = rc - recon; bw1 = diff > G1 with holes filled (FillHoles
 * connectivity). */
static int
seg2(const sr_rgb *t, const sr_nuc_out *const *up, const double *p,
    sr_nuc_out *o)
{
	size_t n = t->w * t->h, i;
	const uint8_t *recon = up[1]->recon;
	uint8_t g1 = (uint8_t)p[SR_NP_G1], *bw1 = new_plane(t);

	o->diff = new_plane(t);
	for (i = 0; i < n; i++) {
		o->diff[i] = (uint8_t)(255 - t->rgb[3 * i] - recon[i]);
		bw1[i] = o->diff[i] > g1 ? 255 : 0;
	}
	sr_fill_holes(bw1, t->w, t->h, (int)p[SR_NP_FILLHOLES]);
	o->bw1 = sr_bits_pack(bw1, n);
	free(bw1);
	o->bytes = n + sr_bits_words(n) * sizeof *o->bw1;
	o->status = SR_NUC_CONTINUE;
	return 0;
}

/* Seg3: the 8-connected objects of bw1 with minSize <= area < maxSize. */
static int
seg3(const sr_rgb *t, const sr_nuc_out *const *up, const double *p,
    sr_nuc_out *o)
{
	uint8_t *bw1 = new_plane(t);

	sr_bits_unpack(up[2]->bw1, bw1, t->w * t->h);
	o->cand = new_plane(t);
	o->objects = sr_runs_area_keep(bw1, o->cand, t->w, t->h, 8,
	    p[SR_NP_MINSIZE], p[SR_NP_MAXSIZE]);
	free(bw1);
	o->bytes = t->w * t->h;
	if (o->objects == 0) {
		free(o->cand);
		o->cand = NULL;
		o->bytes = 0;
		o->status = SR_NUC_NO_CANDIDATES;
	} else
		o->status = SR_NUC_CONTINUE;
	return 0;
}

/* Seg4: the 8-connected objects of diff > G2 that touch a candidate,
 * minus red blood cells; holes filled (4); opened by the 3 x 3 cross. */
static int
seg4(const sr_rgb *t, const sr_nuc_out *const *up, const double *p,
    sr_nuc_out *o, char *errbuf)
{
	size_t n = t->w * t->h, i;
	const uint8_t *diff = up[2]->diff;
	const uint64_t *rbc = up[0]->rbc;
	uint8_t g2 = (uint8_t)p[SR_NP_G2];
	uint8_t *bw2 = new_plane(t), *sel = new_plane(t);
	uint64_t word;
	int rc;

	for (i = 0; i < n; i++)
		bw2[i] = diff[i] > g2;
	sr_select(bw2, up[3]->cand, sel, t->w, t->h, 8);
	for (i = 0; i < sr_bits_words(n); i++)	/* off the red blood cells */
		for (word = rbc[i]; word; word &= word - 1)
			sel[i * 64 + (size_t)__builtin_ctzll(word)] = 0;
	sr_fill_holes(sel, t->w, t->h, 4);
	rc = opening(sel, bw2, t->w, t->h, cross3, 3, 3, errbuf);
	free(sel);
	o->open = sr_bits_pack(bw2, n);
	free(bw2);
	o->bytes = sr_bits_words(n) * sizeof *o->open;
	o->status = SR_NUC_CONTINUE;
	return rc;
}

/* nscale's localMinima (sr_hmin_local_minima_framed_f32 computes it with
 * the h-minima transform before it): with c = -img, the pixels where the
 * reconstruction of c - 1 under c stays at c - 1 (no higher point is
 * reachable without dropping by 1 or more), less the plateaus among them
 * that have a higher neighbour. Such a plateau is not a regional maximum
 * of c, and a regional maximum's pixels all pass or all fail the first
 * test, so this is the regional minima of img that pass it: the minima
 * whose dynamic is at least 1. After an h-minima transform with h = 1
 * that keeps the minima at least 2 deep in the original, which is what
 * nscale computes (and what its published scores come from). */

/* Cleans the lines of an OpenCV watershed (padded labels, -1 on lines) as
 * nscale's NeighborOperations::border: a pixel below a line pixel whose
 * left (right) neighbour is a line pixel not below a line pixel closes the
 * diagonal gap and becomes a line pixel. Decisions read the original
 * values; rows are done bottom-up with one row of scratch. */
static void
clean_lines(int32_t *lab, size_t W, size_t H)
{
	int32_t *row = sr_malloc(W * sizeof *row);
	size_t y, x;

	for (y = H - 1; y >= 1; y--) {
		const int32_t *up = lab + (y - 1) * W;
		int32_t *cur = lab + y * W;

		memcpy(row, cur, W * sizeof *row);
		for (x = 1; x + 1 < W; x++)
			if (up[x] == -1 && cur[x] != -1 &&
			    ((up[x - 1] != -1 && cur[x - 1] == -1) ||
			    (up[x + 1] != -1 && cur[x + 1] == -1)))
				row[x] = -1;
		memcpy(cur, row, W * sizeof *row);
	}
	free(row);
}

/* Seg5: objects of at least minSizePl pixels, dilated by the cross
 * (seg_big); markers are the regional minima (Watershed connectivity) of
 * the h-minima (h = 1) of minus the distance to the background, the
 * background itself at -FLT_MAX; the watershed of the tile masked by
 * seg_big from them; seg_big off the cleaned watershed lines. The float
 * planes stay framed (morph.h) from the distance to the markers, and the
 * markers are labelled straight into the watershed's padded plane.
 * seg_big is kept as bits once the distance has it, and Seg4's output
 * goes once read where no other task reads it (own). The peak of a path
 * is the two float planes of the h-minima step (8 bytes a pixel, the
 * minima waiting as bits); the watershed reads the tile through seg_big
 * (watershed.h) instead of a masked copy, and holds the markers' plane
 * and its queue (4 bytes a pixel, and under 1 at most). */
static int
seg5(const sr_rgb *t, sr_nuc_out *const *up, unsigned own, const double *p,
    sr_nuc_out *o, char *errbuf)
{
	size_t w = t->w, h = t->h, W = w + 2, H = h + 2, i, y, x, nmin;
	size_t FW = sr_framed_stride(w);
	int conn = (int)p[SR_NP_WATERSHED], rc = -1;
	uint8_t *open = new_plane(t), *big_t = new_plane(t), *big = NULL;
	uint8_t *minima = NULL;
	uint64_t *bits = NULL;
	float *c = NULL;
	int32_t *mark = NULL;

	sr_bits_unpack(up[4]->open, open, w * h);
	drop_own(up, own, 4);
	sr_runs_area_keep(open, big_t, w, h, 8, p[SR_NP_MINSIZEPL], INFINITY);
	free(open);
	open = NULL;
	big = new_plane(t);
	if (sr_opencv_dilate(big_t, big, w, h, cross3, 3, 3, errbuf) < 0)
		goto out;
	free(big_t);
	big_t = NULL;
	c = sr_framed_f32(w, h);
	sr_distance_l2(big, w, h, c + FW + 1, FW);
	/* c = -img, img = -distance on seg_big, -FLT_MAX elsewhere */
	for (y = 0; y < h; y++) {
		float *cr = c + (y + 1) * FW + 1;
		const uint8_t *br = big + y * w;
		for (x = 0; x < w; x++)
			cr[x] = br[x] ? cr[x] : FLT_MAX;
	}
	bits = sr_bits_pack(big, w * h);
	free(big);
	big = NULL;
	minima = sr_hmin_local_minima_framed_f32(c, w, h, 1.0f, 8, conn);
	free(c);
	c = NULL;
	/* a one-pixel frame of unknown (0) markers and black, as nscale: the
	 * watershed puts its own frame of lines there, not on the tile */
	mark = wide_alloc(w, h);
	memset(mark, 0, W * sizeof *mark);
	memset(mark + (H - 1) * W, 0, W * sizeof *mark);
	for (y = 1; y + 1 < H; y++)
		mark[y * W] = mark[y * W + W - 1] = 0;
	if (sr_opencv_label_roi(minima + FW + 1, FW, mark + W + 1, W, w, h,
	    conn, &nmin, errbuf) < 0)
		goto out;
	free(minima);
	minima = NULL;
	sr_watershed_masked(t->rgb, bits, w, h, mark);
	clean_lines(mark, W, H);
	for (y = 0; y < h; y++)	/* seg_big off the lines, in place */
		for (i = 0; i < w; i++)
			if (mark[(y + 1) * W + 1 + i] < 0)
				sr_bit_clear(bits, y * w + i);
	o->sep = bits;
	bits = NULL;
	o->bytes = sr_bits_words(w * h) * sizeof *o->sep;
	o->status = SR_NUC_CONTINUE;
	rc = 0;
out:
	free(open);
	free(big_t);
	free(big);
	free(bits);
	free(c);
	free(minima);
	free(mark);
	return rc;
}

/* Seg6: the 4-connected objects with minSizeSeg <= area < maxSizeSeg,
 * holes filled (FillHoles connectivity), labelled 8-connected. Seg5's
 * output goes once read where no other task reads it (own). */
static int
seg6(const sr_rgb *t, sr_nuc_out *const *up, unsigned own, const double *p,
    sr_nuc_out *o, char *errbuf)
{
	size_t n = t->w * t->h, kept;
	uint8_t *sep = new_plane(t), *seg;
	int32_t *lab;

	sr_bits_unpack(up[5]->sep, sep, n);
	drop_own(up, own, 5);
	seg = new_plane(t);
	kept = sr_runs_area_keep(sep, seg, t->w, t->h, 4, p[SR_NP_MINSIZESEG],
	    p[SR_NP_MAXSIZESEG]);
	free(sep);
	if (kept == 0) {
		free(seg);
		o->status = SR_NUC_NO_CANDIDATES;
		return 0;
	}
	sr_fill_holes(seg, t->w, t->h, (int)p[SR_NP_FILLHOLES]);
	lab = wide_alloc(t->w, t->h);
	if (sr_opencv_label(seg, lab, t->w, t->h, 8, &o->objects, errbuf) < 0) {
		free(seg);
		free(lab);
		return -1;
	}
	free(seg);
	o->labels = (uint32_t *)lab;	/* labels are >= 0 */
	o->bytes = n * sizeof *lab;
	o->status = SR_NUC_OK;
	return 0;
}

int
sr_nuc_task(int t, const sr_rgb *tile, sr_nuc_out *const *up, unsigned own,
    const double *param, sr_nuc_out *out, char *errbuf)
{
	const sr_nuc_out *const *in = (const sr_nuc_out *const *)up;
	int rc;

	memset(out, 0, sizeof *out);
	switch (t) {
	case 0: rc = seg0(tile, param, out); break;
	case 1: rc = seg1(tile, param, out); break;
	case 2: rc = seg2(tile, in, param, out); break;
	case 3: rc = seg3(tile, in, param, out); break;
	case 4: rc = seg4(tile, in, param, out, errbuf); break;
	case 5: rc = seg5(tile, up, own, param, out, errbuf); break;
	case 6: rc = seg6(tile, up, own, param, out, errbuf); break;
	default:
		sr_seterr(errbuf, "no task %d", t);
		rc = -1;
	}
	if (rc < 0)
		sr_nuc_out_free(out);
	return rc;
}

/* ---- colour normalization ---------------------------------------------- */

const double sr_norm_target_mean[3] = { -0.632356, -0.0516004, 0.0376543 };
const double sr_norm_target_std[3] = { 0.26235, 0.0514831, 0.0114217 };

/* Foreground by nscale's Fisher discriminant on raw RGB (in float). */
static int
is_foreground(const uint8_t *px)
{
	float r = px[0], g = px[1], b = px[2];
	float d1 = -0.154f * r + 0.035f * g + 0.549f * b - 45.718f;
	float d2 = -0.057f * r - 0.817f * g + 1.170f * b - 49.887f;

	return d1 < d2;
}

/* RGB (0..255) to Reinhard's lαβ: LMS, log10, decorrelation. */
static void
rgb2lab(const uint8_t *px, double lab[3])
{
	double r = px[0] / 255.0, g = px[1] / 255.0, b = px[2] / 255.0;
	double l = log10(0.3811 * r + 0.5783 * g + 0.0402 * b);
	double m = log10(0.1967 * r + 0.7244 * g + 0.0782 * b);
	double s = log10(0.0241 * r + 0.1288 * g + 0.8444 * b);

	lab[0] = (l + m + s) / sqrt(3.0);
	lab[1] = (l + m - 2 * s) / sqrt(6.0);
	lab[2] = (l - m) / sqrt(2.0);
}

/* lαβ back to 8-bit RGB, rounded half up and clamped (nscale's lab2BGR). */
static void
lab2rgb(const double lab[3], uint8_t *px)
{
	double a = lab[0] / sqrt(3.0), b = lab[1] / sqrt(6.0),
	    c = lab[2] / sqrt(2.0);
	double l = pow(10.0, a + b + c), m = pow(10.0, a + b - c),
	    s = pow(10.0, a - 2 * b);
	double v[3];
	int k;

	v[0] = 4.4687 * l - 3.5887 * m + 0.1196 * s;
	v[1] = -1.2197 * l + 2.3831 * m - 0.1626 * s;
	v[2] = 0.0585 * l - 0.2611 * m + 1.2057 * s;
	for (k = 0; k < 3; k++) {
		double x = isfinite(v[k]) ? v[k] * 255.0 : 0.0;
		x = x < 0 ? 0 : x > 255 ? 255 : x;
		px[k] = (uint8_t)floor(x + 0.5);
	}
}

/* Colours are counted and mapped through a direct table of all 2^24 RGB
 * colours (64 MiB, of which a tile touches what its colours need: about
 * 35 MiB for a 4096 x 4096 H&E tile of 650,000 colours). Written by hand
 * because mapping each distinct colour once instead of each pixel saves
 * ~10^8 log10 and pow calls per tile, and a direct table is twice as fast
 * as hashing at these sizes. A tile of up to 2^20 pixels has its colours
 * sorted instead (SORTED_MAX_PIXELS): there the direct table's first
 * touches, a page fault for each 4 KiB of it where a colour lands, cost
 * more than the sort. sr_normalize on MoNuSeg crops, table / sorted:
 * 128^2 38 / 2 ms, 256^2 82 / 10, 512^2 121 / 51, 1000^2 167 / 159,
 * 1448^2 179 / 267. Both give the same colours, counts and order
 * (test/unit/norm_test.c). */
#define NCOLOURS ((size_t)1 << 24)
#define SORTED_MAX_PIXELS ((size_t)1 << 20)
#define BACKGROUND UINT32_MAX	/* no colour's key */

/* The table index of an RGB colour, and back. */
static uint32_t
colour_key(const uint8_t *px)
{
	return (uint32_t)px[0] << 16 | (uint32_t)px[1] << 8 | px[2];
}

static void
colour_of_key(uint32_t key, uint8_t *px)
{
	px[0] = (uint8_t)(key >> 16);
	px[1] = (uint8_t)(key >> 8);
	px[2] = (uint8_t)key;
}

/* The colours of a tile. Direct (key NULL): tab counts every colour
 * present (entries of absent colours are never written, so it needs no
 * clearing: 64 MiB not zeroed), seen has a bit for each present colour,
 * so that they are found in key order without scanning tab. Sorted:
 * key[0..nkey) are the tile's colours in key order and tab[j] is key[j]'s
 * entry. Each foreground colour (nscale's Fisher test, made once per
 * colour instead of once per pixel) with its lαβ, computed once, is in
 * fg[0..nfg), in key order. */
typedef struct {
	uint32_t key;
	uint32_t count;
	double lab[3];
} fg_colour;

typedef struct {
	uint32_t *tab;
	uint64_t *seen;
	uint32_t *key;
	size_t nkey;
	fg_colour *fg;
	size_t nfg;		/* foreground colours */
	size_t fgpx;		/* foreground pixels */
} colours;

/* The entry of a colour the tile has. */
static uint32_t *
colour_entry(const colours *c, uint32_t key)
{
	size_t lo = 0, hi = c->nkey, mid;

	if (!c->key)
		return &c->tab[key];
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (c->key[mid] <= key)
			lo = mid;
		else
			hi = mid;
	}
	return &c->tab[lo];
}

/* Sorts the n keys of k (24 bits) in three passes of 8 bits, through
 * tmp (n keys); the result is in k. */
static void
sort_keys(uint32_t *k, uint32_t *tmp, size_t n)
{
	size_t count[256], i, sum, t;
	uint32_t *from = k, *to = tmp, *swap;
	int shift;

	for (shift = 0; shift < 24; shift += 8) {
		memset(count, 0, sizeof count);
		for (i = 0; i < n; i++)
			count[from[i] >> shift & 255]++;
		for (i = 0, sum = 0; i < 256; i++) {
			t = count[i];
			count[i] = sum;
			sum += t;
		}
		for (i = 0; i < n; i++)
			to[count[from[i] >> shift & 255]++] = from[i];
		swap = from;
		from = to;
		to = swap;
	}
	if (from != k)
		memcpy(k, from, n * sizeof *k);
}

/* Counts the colours of a small tile into c->key and c->tab. */
static void
count_sorted(const sr_rgb *img, colours *c)
{
	size_t n = img->w * img->h, i, j;
	uint32_t *tmp;

	c->key = sr_reallocarray(NULL, n ? n : 1, sizeof *c->key);
	tmp = sr_reallocarray(NULL, n ? n : 1, sizeof *tmp);
	for (i = 0; i < n; i++)
		c->key[i] = colour_key(img->rgb + 3 * i);
	sort_keys(c->key, tmp, n);
	for (i = 0, j = 0; i < n; i++)
		if (j > 0 && c->key[j - 1] == c->key[i])
			tmp[j - 1]++;
		else {
			c->key[j] = c->key[i];
			tmp[j++] = 1;
		}
	c->nkey = j;
	c->tab = tmp;
}

/* Counts the colours of img into c: c->tab and c->seen, or sorted. */
static void
count_colours(const sr_rgb *img, colours *c)
{
	size_t n = img->w * img->h, i;
	const uint8_t *px = img->rgb;
	uint32_t key;
	uint64_t bit;

	c->tab = NULL;
	c->seen = NULL;
	c->key = NULL;
	c->nkey = 0;
	if (n <= SORTED_MAX_PIXELS) {
		count_sorted(img, c);
		return;
	}
	c->tab = sr_reallocarray(NULL, NCOLOURS, sizeof *c->tab);
	c->seen = sr_calloc(NCOLOURS / 64, sizeof *c->seen);
	for (i = 0; i < n; i++, px += 3) {
		key = colour_key(px);
		bit = (uint64_t)1 << (key & 63);
		if (c->seen[key >> 6] & bit)
			c->tab[key]++;
		else {
			c->seen[key >> 6] |= bit;
			c->tab[key] = 1;
		}
	}
}

/* Adds colour key, of count *entry, to c->fg if it is foreground; its
 * entry becomes BACKGROUND if not. */
static void
add_colour(colours *c, uint32_t key, uint32_t *entry, size_t *cap)
{
	uint8_t px[3];

	colour_of_key(key, px);
	if (!is_foreground(px)) {
		*entry = BACKGROUND;
		return;
	}
	if (c->nfg == *cap) {
		*cap *= 2;
		c->fg = sr_reallocarray(c->fg, *cap, sizeof *c->fg);
	}
	c->fg[c->nfg].key = key;
	c->fg[c->nfg].count = *entry;
	rgb2lab(px, c->fg[c->nfg].lab);
	c->fgpx += *entry;
	c->nfg++;
}

/* Lists the foreground colours of c in key order with their lαβ; the
 * entries of background colours become BACKGROUND. */
static void
list_fg_colours(colours *c)
{
	size_t cap = 1024, j;
	uint64_t word;
	uint32_t key;

	c->fg = sr_reallocarray(NULL, cap, sizeof *c->fg);
	c->nfg = c->fgpx = 0;
	if (c->key) {
		for (j = 0; j < c->nkey; j++)
			add_colour(c, c->key[j], &c->tab[j], &cap);
		return;
	}
	for (j = 0; j < NCOLOURS / 64; j++)
		for (word = c->seen[j]; word; word &= word - 1) {
			key = (uint32_t)(j * 64 + (size_t)__builtin_ctzll(word));
			add_colour(c, key, &c->tab[key], &cap);
		}
}

static void
colours_free(colours *c)
{
	free(c->tab);
	free(c->seen);
	free(c->key);
	free(c->fg);
}

/* Mean and sd of lαβ over the foreground colours, weighted by their
 * counts, with finite lαβ; returns the number of pixels used. The sums
 * run in key order, as they always have (the same bits). */
static double
lab_moments(const colours *c, double mean[3], double sd[3])
{
	double sum[3] = { 0, 0, 0 }, sq[3] = { 0, 0, 0 }, cnt = 0;
	const double *lab;
	size_t j;
	int k;

	for (j = 0; j < c->nfg; j++) {
		lab = c->fg[j].lab;
		if (!isfinite(lab[0]) || !isfinite(lab[1]) || !isfinite(lab[2]))
			continue;
		for (k = 0; k < 3; k++) {
			sum[k] += c->fg[j].count * lab[k];
			sq[k] += c->fg[j].count * lab[k] * lab[k];
		}
		cnt += c->fg[j].count;
	}
	for (k = 0; k < 3 && cnt > 0; k++) {
		double var;
		mean[k] = sum[k] / cnt;
		var = sq[k] / cnt - mean[k] * mean[k];
		sd[k] = var > 0 ? sqrt(var) : 0;
	}
	return cnt;
}

int
sr_norm_stats(const sr_rgb *img, double mean[3], double sd[3], double *fg)
{
	colours c;
	double used;

	count_colours(img, &c);
	list_fg_colours(&c);
	used = lab_moments(&c, mean, sd);
	*fg = (double)c.fgpx / (double)(img->w * img->h);
	colours_free(&c);
	return used > 0 ? 0 : -1;
}

int
sr_normalize(sr_rgb *img, const double tmean[3], const double tsd[3],
    double *fg)
{
	return sr_normalize_from(img, NULL, NULL, tmean, tsd, fg);
}

int
sr_normalize_from(sr_rgb *img, const double *smean, const double *ssd,
    const double tmean[3], const double tsd[3], double *fg)
{
	size_t n = img->w * img->h, i, j;
	double mean[3], sd[3], lab[3];
	uint8_t px[3], *p;
	uint32_t last = BACKGROUND, lastto = BACKGROUND;
	colours c;
	int k, done = 0;

	count_colours(img, &c);
	list_fg_colours(&c);
	*fg = (double)c.fgpx / (double)n;
	if (*fg < SR_NORM_MIN_FOREGROUND || lab_moments(&c, mean, sd) <= 0)
		goto out;
	if (smean && ssd)	/* the slide's, not the tile's */
		for (k = 0; k < 3; k++) {
			mean[k] = smean[k];
			sd[k] = ssd[k];
		}
	if (sd[0] <= 0 || sd[1] <= 0 || sd[2] <= 0)
		goto out;
	/* map each foreground colour once: its count becomes its new colour */
	for (j = 0; j < c.nfg; j++) {
		const double *l = c.fg[j].lab;
		colour_of_key(c.fg[j].key, px);
		if (isfinite(l[0]) && isfinite(l[1]) && isfinite(l[2])) {
			for (k = 0; k < 3; k++)
				lab[k] = (l[k] - mean[k]) * (tsd[k] / sd[k]) +
				    tmean[k];
			lab2rgb(lab, px);
		}
		*colour_entry(&c, c.fg[j].key) = colour_key(px);
	}
	for (i = 0, p = img->rgb; i < n; i++, p += 3) {
		uint32_t key = colour_key(p), to;
		if (key == last)	/* neighbours often share a colour */
			to = lastto;
		else
			to = *colour_entry(&c, key);
		last = key;
		lastto = to;
		if (to != BACKGROUND)
			colour_of_key(to, p);
	}
	done = 1;
out:
	colours_free(&c);
	return done;
}
