/* png.h - PNG through libpng: grey, grey+alpha, palette, RGB and RGBA of
 * 1 to 16 bits, interlaced or not. The readers take a descriptor from
 * image.c's dispatch, positioned just past the 8-byte signature; the
 * writers (sr_mask_write_png, sr_rgb_write_png) are public (image.h
 * includes this header).
 */
#ifndef SR_IMAGE_PNG_H
#define SR_IMAGE_PNG_H

#include <stdio.h>

#include "image/raster.h"

/* Reads the PNG on fd (just past its signature; the descriptor is
 * closed) as 8-bit RGB into img, which is left untouched on failure. */
int sr_png_read_rgb(int fd, const char *path, sr_rgb *img, char *errbuf);

/* Reads the grey PNG on fd (just past its signature; closed here) as
 * labels into img, which is left untouched on failure. */
int sr_png_read_labels(int fd, const char *path, sr_labels *img,
    char *errbuf);

/* The width and height in the PNG's header on fd (just past its
 * signature; closed here), without decoding the pixels. */
int sr_png_probe(int fd, const char *path, size_t *w, size_t *h,
    char *errbuf);

/* The writers' contract is sr_labels_write_tiff's (tiff.h). */
/* Writes the mask px > 0 as an 8-bit PNG of 0 and 255 to fp. */
int sr_mask_write_png(FILE *fp, const char *name, const uint32_t *px,
    size_t w, size_t h, char *errbuf);
/* Writes an 8-bit RGB PNG (for tests and benchmarks that build tiles). */
int sr_rgb_write_png(FILE *fp, const char *name, const sr_rgb *img,
    char *errbuf);

#endif
