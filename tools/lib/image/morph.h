/* morph.h - the morphology OpenCV lacks or does poorly, written in C:
 * grey-scale reconstruction (Vincent's fast hybrid algorithm), regional
 * minima, the h-minima transform, and erosion and dilation by elements
 * of centred rows such as disks (hole filling and object selection by
 * seeds: runs.h).
 *
 * Images are w x h, row-major, no padding. Binary images are 0
 * (background) or non-zero (foreground); binary outputs are 0 or 255.
 * conn is 4 or 8. Nothing outside the image exists: no pixel propagates
 * across the border. Allocation failures die through sr_malloc; nothing
 * else can fail.
 */
#ifndef SR_MORPH_H
#define SR_MORPH_H

#include <stddef.h>
#include <stdint.h>

/* Reconstruction by dilation of marker under mask, in place in marker:
 * the result is the largest image <= mask that equals min(marker, mask)'s
 * conn-connected geodesic dilation to stability (marker is first clipped
 * to mask). */
void sr_reconstruct_u8(uint8_t *marker, const uint8_t *mask, size_t w,
    size_t h, int conn);
void sr_reconstruct_f32(float *marker, const float *mask, size_t w,
    size_t h, int conn);

/* Erosion (dilation) of src into dst by a flat element symmetric about
 * its centre whose row dy (-r..r) holds columns -half[dy + r] ..
 * half[dy + r] (each half[i] >= 0): the minimum (maximum) over the
 * element, pixels outside the image left out, as OpenCV's erode
 * (dilate) with BORDER_CONSTANT and its default border value computes
 * it. src and dst may not overlap. */
void sr_erode_rows(const uint8_t *src, uint8_t *dst, size_t w, size_t h,
    const int *half, int r);
void sr_dilate_rows(const uint8_t *src, uint8_t *dst, size_t w, size_t h,
    const int *half, int r);

/* Regional minima: out is 255 on every conn-connected plateau of equal
 * values none of whose conn-neighbours is smaller, 0 elsewhere. */
void sr_regional_minima_f32(const float *img, uint8_t *out, size_t w,
    size_t h, int conn);

/* The h-minima transform in place: suppresses every minimum shallower
 * than hval, i.e. img = -R(-img - hval, -img), R the reconstruction by
 * dilation with connectivity conn (MATLAB's imhmin). */
void sr_hmin_f32(float *img, size_t w, size_t h, float hval, int conn);

/* ---- framed planes --------------------------------------------------------
 * The layout the functions above copy their images into: row y, column x
 * of a w x h image is element (y + 1) * sr_framed_stride(w) + x + 1 of a
 * plane of (h + 2) rows, so that callers that need several passes (and
 * OpenCV, through a region of interest with that stride) can keep an
 * image framed and save the copies and their memory. */
size_t sr_framed_stride(size_t w);
/* A framed float plane, frame and inside unset (dies if w x h is too
 * large for the framed indices). */
float *sr_framed_f32(size_t w, size_t h);

/* The watershed markers of nscale's Seg5 in place, with two float planes
 * instead of five: on entry c (framed) holds -img inside; returns a new
 * framed u8 plane (frame 0, free it with free) of the local minima
 * (nscale's localMinima, see nuclei.c, connectivity conn: 255, 0
 * elsewhere) of the h-minima transform (depth hval, connectivity hconn)
 * of img, exactly as sr_hmin_f32, then sr_regional_minima_f32 and the
 * reconstruction test would compute them on unframed copies; c is
 * destroyed. Dies (sr_malloc) when out of memory. */
uint8_t *sr_hmin_local_minima_framed_f32(float *c, size_t w, size_t h,
    float hval, int hconn, int conn);

#endif
