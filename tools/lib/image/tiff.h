/* tiff.h - TIFF through libtiff: strips, tiles, BigTIFF; 8-bit RGB and
 * RGBA, grey, palette, 16-bit scaled to 8 bits; label images of 1 to 32
 * bits. The readers take an open descriptor from image.c's dispatch; the
 * writers (sr_labels_write_tiff, sr_rgb_write_tiff) are public (image.h
 * includes this header).
 */
#ifndef SR_IMAGE_TIFF_H
#define SR_IMAGE_TIFF_H

#include <stdio.h>

#include "image/raster.h"

/* Reads the TIFF on fd (any position; the descriptor is closed) as RGB
 * into img, which is left untouched on failure. */
int sr_tiff_read_rgb(int fd, const char *path, sr_rgb *img, char *errbuf);

/* Reads the TIFF on fd (closed here) as labels into img, which is left
 * untouched on failure. */
int sr_tiff_read_labels(int fd, const char *path, sr_labels *img,
    char *errbuf);

/* The width and height of the TIFF's first directory on fd (closed
 * here), from its tags, without decoding the pixels. */
int sr_tiff_probe(int fd, const char *path, size_t *w, size_t *h,
    char *errbuf);

/* Refuses, before OpenSlide 3.4.1 reads it, a TIFF whose tiled
 * directories are not a pyramid: a tiled directory wider or taller than
 * the first tiled one makes OpenSlide divide by a downsample rounded to
 * 0 (SIGFPE, found by fuzzing). -1 with "PATH: why" in errbuf; 0 for a
 * pyramid, and for anything libtiff cannot walk (OpenSlide judges that
 * itself: NDPI files are TIFF-like, not TIFF). At most 1024
 * directories are looked at. */
int sr_tiff_check_pyramid(const char *path, char *errbuf);

/* Starts a sequence of libtiff calls made by another library (OpenSlide)
 * on this thread: libtiff's handlers in place (nothing printed), no
 * message yet. sr_tiff_message is then libtiff's first error since, ""
 * when none. */
void sr_tiff_begin(void);
const char *sr_tiff_message(void);

/* Sets errbuf to "PATH: WHAT (libtiff: MESSAGE)", where libtiff's own
 * "PATH: " is cut out of MESSAGE, or "PATH: WHAT (FALLBACK)" when libtiff
 * said nothing since sr_tiff_begin; returns -1 (tiff.c, tiff_write.c). */
int sr_tiff_fail(const char *path, const char *what, const char *fallback,
    char *errbuf);

/* Writes labels as a 32-bit unsigned single-channel TIFF (deflate) to fp,
 * an open, seekable file (it is not closed); name is for messages.
 * Every writer here returns 0, or -1 with "NAME: why" in errbuf and errno
 * the system error that stopped it (ENOSPC, EIO, ENOMEM: an exit status
 * by sr_exit_for_errno, "NAME: write error: strerror" in errbuf), 0 for
 * an image that cannot be stored. */
int sr_labels_write_tiff(FILE *fp, const char *name, const uint32_t *px,
    size_t w, size_t h, char *errbuf);
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
