/* tissue.c - tissue detection on a low-resolution level (see tissue.h). */
#include "image/tissue.h"
#include "image/format.h"
#include "image/opencv.h"
#include "core/err.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void
sr_tissueopts_init(sr_tissueopts *o)
{
	memset(o, 0, sizeof *o);
	o->threshold = -1;
	o->min_region = SR_TISSUE_MIN_REGION;
	o->max_hole = SR_TISSUE_MAX_HOLE;
}

void
sr_tissue_free(sr_tissue *t)
{
	if (t == NULL)
		return;
	free(t->mask);
	free(t->rgb);
	memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------ the mask */

/* HSV saturation of each pixel, 0..255, as OpenCV computes it. */
static void
saturation(const uint8_t *rgb, size_t n, uint8_t *sat)
{
	size_t i;
	int mx, mn;

	for (i = 0; i < n; i++) {
		const uint8_t *p = rgb + 3 * i;

		mx = p[0] > p[1] ? p[0] : p[1];
		mx = mx > p[2] ? mx : p[2];
		mn = p[0] < p[1] ? p[0] : p[1];
		mn = mn < p[2] ? mn : p[2];
		sat[i] = (uint8_t)(mx ? (255 * (mx - mn) + mx / 2) / mx : 0);
	}
}

/* Morphological closing of mask by a square of side SR_TISSUE_CLOSE. */
static int
close_mask(uint8_t *mask, uint8_t *tmp, size_t w, size_t h, char *errbuf)
{
	uint8_t k[SR_TISSUE_CLOSE * SR_TISSUE_CLOSE];

	memset(k, 1, sizeof k);
	if (sr_opencv_dilate(mask, tmp, w, h, k, SR_TISSUE_CLOSE,
	    SR_TISSUE_CLOSE, errbuf) < 0)
		return -1;
	return sr_opencv_erode(tmp, mask, w, h, k, SR_TISSUE_CLOSE,
	    SR_TISSUE_CLOSE, errbuf);
}

/* The area of each label 1..n of lab (w x h) into area[1..n]; whether
 * each touches the border into edge[1..n] (edge may be NULL). */
static void
label_areas(const int32_t *lab, size_t w, size_t h, size_t *area,
    uint8_t *edge)
{
	size_t x, y;
	int32_t l;

	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			if ((l = lab[y * w + x]) <= 0)
				continue;
			area[l]++;
			if (edge && (x == 0 || y == 0 || x == w - 1 || y == h - 1))
				edge[l] = 1;
		}
}

/* Sets to value the pixels of mask whose label in lab is one of those
 * marked in drop. */
static void
paint_labels(uint8_t *mask, const int32_t *lab, size_t n,
    const uint8_t *drop, uint8_t value)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (lab[i] > 0 && drop[lab[i]])
			mask[i] = value;
}

/* Fills the holes smaller than max_px mask pixels (background regions,
 * 4-connected, away from the border), then removes the regions smaller
 * than min_px (8-connected). tmp holds w x h bytes. */
static int
filter_regions(uint8_t *mask, uint8_t *tmp, size_t w, size_t h,
    double max_px, double min_px, char *errbuf)
{
	size_t n = w * h, nl, i, *area = NULL;
	int32_t *lab = sr_image_alloc(n, 1, sizeof *lab, "tissue", errbuf);
	uint8_t *flag = NULL;
	int pass, rc = lab ? 0 : -1;

	for (pass = 0; rc == 0 && pass < 2; pass++) {
		for (i = 0; i < n; i++)	/* pass 0: the background */
			tmp[i] = pass ? mask[i] : !mask[i];
		if ((rc = sr_opencv_label(tmp, lab, w, h, pass ? 8 : 4, &nl,
		    errbuf)) < 0)
			break;
		area = sr_reallocarray(area, nl + 1, sizeof *area);
		flag = sr_reallocarray(flag, nl + 1, 2);
		memset(area, 0, (nl + 1) * sizeof *area);
		memset(flag, 0, 2 * (nl + 1));
		label_areas(lab, w, h, area, flag + nl + 1);
		for (i = 1; i <= nl; i++)
			flag[i] = pass ? (double)area[i] < min_px :
			    !flag[nl + 1 + i] && (double)area[i] < max_px;
		paint_labels(mask, lab, n, flag, pass ? 0 : 1);
	}
	free(lab);
	free(area);
	free(flag);
	return rc;
}

/* The mask from t->rgb: saturation, median, threshold, closing, holes
 * and small regions. */
static int
make_mask(const sr_tissueopts *o, sr_tissue *t, char *errbuf)
{
	size_t n = t->w * t->h, i;
	uint8_t *sat = malloc(n), *med = malloc(n);
	double area = t->sx * t->sy;
	int rc = -1;

	if (!sat || !med) {
		sr_seterr(errbuf, "tissue detection: out of memory");
		errno = ENOMEM;
		goto out;
	}
	saturation(t->rgb, n, sat);
	if (sr_opencv_median(sat, med, t->w, t->h, SR_TISSUE_MEDIAN, errbuf) < 0)
		goto out;
	t->threshold = o->threshold;
	if (t->threshold < 0) {
		if (sr_opencv_otsu(med, t->w, t->h, &t->threshold, errbuf) < 0)
			goto out;
		if (t->threshold < SR_TISSUE_OTSU_FLOOR)
			t->threshold = SR_TISSUE_OTSU_FLOOR;
	}
	for (i = 0; i < n; i++)
		t->mask[i] = med[i] > t->threshold;
	if (close_mask(t->mask, sat, t->w, t->h, errbuf) < 0)
		goto out;
	rc = filter_regions(t->mask, sat, t->w, t->h, o->max_hole / area,
	    o->min_region / area, errbuf);
out:
	free(sat);
	free(med);
	return rc;
}

int
sr_tissue_detect(sr_slide *s, const sr_tissueopts *o, sr_tissue *t,
    char *errbuf)
{
	sr_slide_small small;

	memset(t, 0, sizeof *t);
	if (sr_slide_read_small(s, SR_TISSUE_DOWNSAMPLE, o->progress, o->ctx,
	    &small, errbuf) < 0)
		return -1;
	t->rgb = small.img.rgb;
	t->w = small.img.w;
	t->h = small.img.h;
	t->sx = small.sx;
	t->sy = small.sy;
	t->level = small.level;
	t->mask = sr_image_alloc(t->w, t->h, 1, s->path, errbuf);
	if (!t->mask || make_mask(o, t, errbuf) < 0) {
		sr_tissue_free(t);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------- queries */

/* The overlap of [a, b) with mask pixel i's [i, i + 1). */
static double
overlap(double a, double b, size_t i)
{
	double lo = a > (double)i ? a : (double)i;
	double hi = b < (double)i + 1 ? b : (double)i + 1;

	return hi > lo ? hi - lo : 0;
}

double
sr_tissue_fraction(const sr_tissue *t, double x, double y, double w,
    double h)
{
	double a = x / t->sx, b = (x + w) / t->sx, c = y / t->sy;
	double d = (y + h) / t->sy, sum = 0, ox;
	size_t i, j, i0 = (size_t)floor(a), j0 = (size_t)floor(c);
	size_t i1 = (size_t)ceil(b), j1 = (size_t)ceil(d);

	if (w <= 0 || h <= 0)
		return 0;
	i1 = i1 > t->w ? t->w : i1;
	j1 = j1 > t->h ? t->h : j1;
	for (j = j0; j < j1; j++)
		for (i = i0; i < i1; i++)
			if (t->mask[j * t->w + i] && (ox = overlap(a, b, i)) > 0)
				sum += ox * overlap(c, d, j);
	return sum / ((b - a) * (d - c));
}

/* ------------------------------------------------------------- picture */

static void
put_px(sr_rgb *out, long x, long y, const uint8_t c[3])
{
	if (x >= 0 && y >= 0 && (size_t)x < out->w && (size_t)y < out->h)
		memcpy(out->rgb + 3 * ((size_t)y * out->w + (size_t)x), c, 3);
}

/* Outlines the rectangle [x0, x1] x [y0, y1] of out, thick pixels wide. */
static void
outline(sr_rgb *out, long x0, long y0, long x1, long y1, int thick,
    const uint8_t c[3])
{
	long x, y;
	int k;

	for (k = 0; k < thick; k++) {
		for (x = x0; x <= x1; x++) {
			put_px(out, x, y0 + k, c);
			put_px(out, x, y1 - k, c);
		}
		for (y = y0; y <= y1; y++) {
			put_px(out, x0 + k, y, c);
			put_px(out, x1 - k, y, c);
		}
	}
}

/* Whether the mask is tissue at the level-0 point (x, y). */
static int
mask_at(const sr_tissue *t, double x, double y)
{
	double mx = floor(x / t->sx), my = floor(y / t->sy);

	if (mx < 0 || my < 0 || mx >= (double)t->w || my >= (double)t->h)
		return 0;
	return t->mask[(size_t)my * t->w + (size_t)mx];
}

/* Whether picture pixel (x, y) of scale (px, py) is tissue. */
static int
pic_mask(const sr_tissue *t, const sr_slide_small *p, long x, long y)
{
	if (x < 0 || y < 0 || (size_t)x >= p->img.w || (size_t)y >= p->img.h)
		return 0;
	return mask_at(t, ((double)x + 0.5) * p->sx, ((double)y + 0.5) * p->sy);
}

int
sr_tissue_picture(const sr_tissue *t, const sr_slide_small *p,
    const double *rect, size_t nrect, sr_rgb *out, char *errbuf)
{
	static const uint8_t green[3] = { 0, 150, 0 }, blue[3] = { 0, 60, 255 };
	size_t x, y, i;
	long lx, ly;
	int thick;

	out->w = p->img.w;
	out->h = p->img.h;
	if ((out->rgb = sr_image_alloc(out->w, out->h, 3, "picture", errbuf))
	    == NULL)
		return -1;
	thick = out->w > 1200 || out->h > 1200 ? 2 : 1;
	memcpy(out->rgb, p->img.rgb, 3 * out->w * out->h);
	for (y = 0; y < out->h; y++)
		for (x = 0; x < out->w; x++) {
			lx = (long)x;
			ly = (long)y;
			if (pic_mask(t, p, lx, ly) &&
			    (!pic_mask(t, p, lx - thick, ly) ||
			    !pic_mask(t, p, lx + thick, ly) ||
			    !pic_mask(t, p, lx, ly - thick) ||
			    !pic_mask(t, p, lx, ly + thick)))
				memcpy(out->rgb + 3 * (y * out->w + x), green, 3);
		}
	for (i = 0; i < nrect; i++) {
		const double *r = rect + 4 * i;

		outline(out, lround(r[0] / p->sx), lround(r[1] / p->sy),
		    lround((r[0] + r[2]) / p->sx) - 1,
		    lround((r[1] + r[3]) / p->sy) - 1, thick, blue);
	}
	return 0;
}
