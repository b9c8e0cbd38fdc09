/* tissue.h - tissue detection on a low-resolution level of a slide, as
 * CLAM and PathML do it: the slide read at about 1/32 of level 0
 * (the level with the largest downsample at most 32, box-averaged down
 * to 32 when it is finer), HSV saturation, a median blur, a threshold
 * (Otsu's, or a fixed one), a morphological closing, holes and small
 * regions filtered; then the tissue fraction of any level-0 rectangle.
 *
 * The defaults and why (wsi-tiles(1) says the same):
 * - 1/32 of level 0 (read as sr_slide_read_small reads): CLAM works at 1/64; at 1/32 a fragment of 250 um
 *   (a MoNuSeg tile at 0.25 um/px) is still 31 pixels across, and a
 *   100,000-pixel slide makes a mask of 3125 x 3125.
 * - median blur 7 (CLAM's mthresh): isolated saturated specks go.
 * - Otsu's threshold (PathML's default), never below 8 (CLAM's fixed
 *   sthresh): on a slide of background alone Otsu would split the
 *   background's noise into tissue.
 * - closing by a 5 x 5 square (CLAM's close 4, made odd to centre it):
 *   gaps of a few mask pixels between tissue are bridged.
 * - holes smaller than 1024 x 1024 level-0 pixels filled, regions smaller
 *   than 512 x 512 removed: CLAM's a_h and a_t (16 and 100 reference
 *   patches of 512 x 512) would fill holes up to 2048 x 2048 and drop
 *   every fragment below 5120 x 5120, biopsies and MoNuSeg-sized
 *   fragments among them; PathML's 1500 and 5000 pixels are at its
 *   working level, whatever that is.
 *
 * Errors: -1 with a message naming the slide in errbuf (SR_ERRLEN).
 */
#ifndef SR_TISSUE_H
#define SR_TISSUE_H

#include <stddef.h>
#include <stdint.h>

#include "image/slide.h"

#define SR_TISSUE_DOWNSAMPLE	32	/* level-0 pixels per mask pixel */
#define SR_TISSUE_MEDIAN	7	/* median blur aperture, mask pixels */
#define SR_TISSUE_CLOSE		5	/* closing square, mask pixels */
#define SR_TISSUE_OTSU_FLOOR	8	/* Otsu's threshold at least this */
#define SR_TISSUE_MIN_REGION	(512.0 * 512.0)	/* level-0 pixels */
#define SR_TISSUE_MAX_HOLE	(1024.0 * 1024.0)	/* level-0 pixels */

typedef struct {
	double threshold;	/* saturation 0..255; < 0: Otsu's */
	double min_region;	/* level-0 pixels: smaller regions removed */
	double max_hole;	/* level-0 pixels: smaller holes filled */
	/* called after each band of the detection level is read, with the
	 * fraction read so far (NULL: not called) */
	void (*progress)(void *ctx, double done);
	void *ctx;
} sr_tissueopts;

/* The defaults above. */
void sr_tissueopts_init(sr_tissueopts *o);

typedef struct {
	size_t w, h;		/* the mask's size */
	double sx, sy;		/* level-0 pixels per mask pixel */
	uint8_t *mask;		/* w x h: 1 tissue, 0 background */
	uint8_t *rgb;		/* w x h x 3: the slide at that size */
	int level;		/* the level read */
	double threshold;	/* the saturation threshold used */
} sr_tissue;

/* Detects the tissue of slide s; fills t (sr_tissue_free). */
int sr_tissue_detect(sr_slide *s, const sr_tissueopts *o, sr_tissue *t,
    char *errbuf);
void sr_tissue_free(sr_tissue *t);

/* The fraction of the level-0 rectangle [x, x + w) x [y, y + h) that is
 * tissue: the mask's pixels weighted by their overlap with it. */
double sr_tissue_fraction(const sr_tissue *t, double x, double y, double w,
    double h);

/* A picture for a person to check: p (the slide made small,
 * sr_slide_read_small) with the tissue's outline drawn in green, and
 * the level-0 rectangles rect[4 i .. 4 i + 3] (x, y, w, h) outlined in
 * blue. */
int sr_tissue_picture(const sr_tissue *t, const sr_slide_small *p,
    const double *rect, size_t nrect, sr_rgb *out, char *errbuf);

#endif
