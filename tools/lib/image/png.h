/* png.h - PNG through libpng: grey, grey+alpha, palette, RGB and RGBA of
 * 1 to 16 bits, interlaced or not. The readers take a descriptor from
 * image.c's dispatch, positioned just past the 8-byte signature; the
 * writers (sr_mask_write_png, sr_rgb_write_png) are public, in image.h.
 */
#ifndef SR_IMAGE_PNG_H
#define SR_IMAGE_PNG_H

#include "image/image.h"

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

#endif
