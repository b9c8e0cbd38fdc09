/* tiff.h - TIFF through libtiff: strips, tiles, BigTIFF; 8-bit RGB and
 * RGBA, grey, palette, 16-bit scaled to 8 bits; label images of 1 to 32
 * bits. The readers take an open descriptor from image.c's dispatch; the
 * writers (sr_labels_write_tiff, sr_rgb_write_tiff) are public, in
 * image.h.
 */
#ifndef SR_IMAGE_TIFF_H
#define SR_IMAGE_TIFF_H

#include "image/image.h"

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

#endif
