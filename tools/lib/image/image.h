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
#include <stdint.h>
#include <stdio.h>

#include "core/mem.h"

#ifndef SR_ERRLEN
#define SR_ERRLEN 256
#endif

/* The largest image read: width x height pixels (a declared size above it,
 * or a width or height of 0, is refused before anything is allocated). */
#define SR_IMAGE_MAX_PIXELS ((size_t)1 << 30)

/* The memory budget of the readers, in bytes: an image whose pixels
 * would need more to read (4 bytes a pixel and a pointer a row, the most
 * any reader takes), or a TIFF strip or tile that would, is refused
 * before anything is allocated, naming the file and what it would need.
 * 0 (the default) is the machine's physical memory. source, a static
 * string, says where the budget came from in those messages
 * (sr_memory_budget's). Set it before any thread reads an image. */
void sr_image_set_budget(sr_budget budget);
size_t sr_image_budget(void);
const char *sr_image_budget_source(void);

/* A compressed TIFF strip or tile decoding to more than
 * SR_TIFF_RATIO_MIN_BYTES is refused when it decodes to more than
 * SR_TIFF_MAX_RATIO times its compressed bytes (a decompression bomb);
 * smaller ones (a 2048 x 2048 RGB tile, say) always pass. */
#define SR_TIFF_MAX_RATIO 256
#define SR_TIFF_RATIO_MIN_BYTES ((size_t)16 << 20)

/* An RGB colour image: 3 bytes per pixel (R, G, B), rows top to bottom,
 * no padding. */
typedef struct {
	size_t w, h;
	uint8_t *rgb;
} sr_rgb;

/* A single-channel image of labels or a mask: one uint32 per pixel, 0 is
 * background. */
typedef struct {
	size_t w, h;
	uint32_t *px;
} sr_labels;

/* Reads PATH (TIFF or PNG, told apart by their signatures, not the name)
 * as 8-bit RGB: grey, grey+alpha, palette, RGB and RGBA (alpha dropped)
 * are accepted; 16-bit samples are scaled to 8 bits. */
int sr_rgb_read(const char *path, sr_rgb *img, char *errbuf);
void sr_rgb_free(sr_rgb *img);

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
void sr_labels_free(sr_labels *img);

/* Writes labels as a 32-bit unsigned single-channel TIFF (deflate) to fp,
 * an open, seekable file (it is not closed); name is for messages.
 * Every writer here returns 0, or -1 with "NAME: why" in errbuf and errno
 * the system error that stopped it (ENOSPC, EIO, ENOMEM: an exit status
 * by sr_exit_for_errno, "NAME: write error: strerror" in errbuf), 0 for
 * an image that cannot be stored. */
int sr_labels_write_tiff(FILE *fp, const char *name, const uint32_t *px,
    size_t w, size_t h, char *errbuf);
/* Writes the mask px > 0 as an 8-bit PNG of 0 and 255 to fp. */
int sr_mask_write_png(FILE *fp, const char *name, const uint32_t *px,
    size_t w, size_t h, char *errbuf);
/* Writes an 8-bit RGB PNG (for tests and benchmarks that build tiles). */
int sr_rgb_write_png(FILE *fp, const char *name, const sr_rgb *img,
    char *errbuf);
/* Writes an 8-bit RGB TIFF, tiled (tile edge a multiple of 16) when
 * tile > 0, else in strips; BigTIFF when bigtiff is non-zero. */
int sr_rgb_write_tiff(FILE *fp, const char *name, const sr_rgb *img,
    size_t tile, int bigtiff, char *errbuf);
/* The same with a choice of compression (the others write deflate):
 * deflate or ZSTD with horizontal differencing, or none. A 4096 x 4096
 * H&E tile: 31.5 MiB deflate, 30.5 MiB ZSTD, 48 MiB none; read in
 * 0.62 s, 0.37 s, 0.13 s (docs/BENCHMARKS.md). */
enum { SR_TIFF_DEFLATE, SR_TIFF_ZSTD, SR_TIFF_NONE };
int sr_rgb_write_tiff_codec(FILE *fp, const char *name, const sr_rgb *img,
    size_t tile, int bigtiff, int codec, char *errbuf);

#endif
