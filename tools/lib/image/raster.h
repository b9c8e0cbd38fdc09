/* raster.h - the images of the image library: sr_rgb and sr_labels, the
 * limits and the memory budget every reader holds to (raster.c), under
 * the readers and writers of each format (png.h, tiff.h) and their
 * dispatch (image.h), which include it.
 */
#ifndef SR_IMAGE_RASTER_H
#define SR_IMAGE_RASTER_H

#include <stddef.h>
#include <stdint.h>

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

/* Frees the pixels of img (NULL is nothing) and zeroes it. */
void sr_rgb_free(sr_rgb *img);
void sr_labels_free(sr_labels *img);

#endif
