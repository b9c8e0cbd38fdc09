/* format.h - what the format modules (tiff.c, png.c) share, in raster.c:
 * the size checks every reader and writer makes, allocation, errno
 * messages. Private to image/: tools include image.h.
 */
#ifndef SR_IMAGE_FORMAT_H
#define SR_IMAGE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* Refuses a declared size of 0 or above SR_IMAGE_MAX_PIXELS, or one
 * beyond the memory budget (sr_image_budget), before anything of the
 * image is allocated: -1 with errbuf naming path. */
int sr_image_check_size(const char *path, uint64_t w, uint64_t h,
    char *errbuf);

/* Refuses bytes above the memory budget: -1 with "PATH: WHAT would need
 * N MiB, above the memory budget of M MiB (...)" in errbuf. */
int sr_image_check_budget(const char *path, const char *what,
    uint64_t bytes, char *errbuf);

/* Refuses a size a writer cannot store: 0, or a side above max. */
int sr_image_check_write_size(const char *name, size_t w, size_t h,
    size_t max, char *errbuf);

/* malloc(a * b * c) (at least 1 byte), or NULL with "PATH: out of
 * memory" in errbuf (if not NULL) when the product overflows or malloc
 * fails. */
void *sr_image_alloc(size_t a, size_t b, size_t c, const char *path,
    char *errbuf);

/* Sets errbuf to "PATH: strerror(e)", or "PATH: WHAT: strerror(e)" when
 * what is not NULL (thread-safe); returns -1. */
int sr_image_errno_fail(char *errbuf, const char *path, const char *what,
    int e);

#endif
