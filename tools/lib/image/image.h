/* image.h - reading and writing images: TIFF (libtiff: strips, tiles,
 * BigTIFF) and PNG (libpng).
 *
 * Pure library code: no exits. Functions that can fail return -1 with a
 * one-line message naming the file in errbuf (SR_ERRLEN bytes), never
 * crash on a corrupt or truncated file, and free whatever they allocated.
 */
#ifndef SR_IMAGE_H
#define SR_IMAGE_H

#include <stddef.h>

#include "image/raster.h"
#include "image/png.h"
#include "image/tiff.h"

/* The types, limits and budget are in raster.h, the writers in png.h
 * and tiff.h: image.h includes them all. */

/* Reads PATH (TIFF or PNG, told apart by their signatures, not the name)
 * as 8-bit RGB: grey, grey+alpha, palette, RGB and RGBA (alpha dropped)
 * are accepted; 16-bit samples are scaled to 8 bits. */
int sr_rgb_read(const char *path, sr_rgb *img, char *errbuf);

/* Reads PATH as one channel of 1, 8, 16 or 32-bit unsigned integers
 * (binary masks and label images); a colour image is an error. */
int sr_labels_read(const char *path, sr_labels *img, char *errbuf);
/* After a failed read, errno is the system error that stopped it (EIO,
 * ENOMEM: an exit status by sr_exit_for_errno), 0 for bad data. */

/* Width and height of the PNG or TIFF (its first image) at path, from its
 * header, without decoding it. Returns 0, or -1 with "PATH: why" in errbuf
 * (SR_ERRLEN bytes): unreadable, neither PNG nor TIFF, a bad header, a
 * size beyond what the readers accept or the memory budget, or a PNG too
 * short for its declared size. */
int sr_image_probe(const char *path, size_t *w, size_t *h, char *errbuf);
/* Whether the file at path is a PNG, by its signature (0 when it cannot
 * be read). */
int sr_image_is_png(const char *path);

#endif
