/* slide.h - whole-slide images through OpenSlide (every format it reads:
 * Aperio SVS, Hamamatsu, MIRAX, Leica SCN, Ventana, generic tiled TIFF
 * whose levels are directories of SUBFILETYPE reduced-image, ...): the
 * pyramid's levels, dimensions, downsamples, microns per pixel, vendor and
 * background colour, and regions read as RGB.
 *
 * Pure library code: no exits. A failure returns NULL or -1 with a
 * one-line message naming the slide in errbuf (SR_ERRLEN bytes). OpenSlide
 * handles are thread-safe: several threads may read regions of one slide
 * at once.
 */
#ifndef SR_SLIDE_H
#define SR_SLIDE_H

#include <stddef.h>
#include <stdint.h>

#include "image/image.h"

struct _openslide;

/* The most levels a slide may have (OpenSlide's formats have a few dozen
 * at most). */
#define SR_SLIDE_MAX_LEVELS 64

typedef struct {
	char *path;			/* as given */
	struct _openslide *osr;
	int nlevel;
	uint64_t w[SR_SLIDE_MAX_LEVELS];	/* level dimensions */
	uint64_t h[SR_SLIDE_MAX_LEVELS];
	double ds[SR_SLIDE_MAX_LEVELS];	/* downsample of each level */
	int narrow[SR_SLIDE_MAX_LEVELS];	/* the level is narrower or
					 * shorter than its tiles */
	double mpp;			/* microns per level-0 pixel (the mean of
					 * x and y); NaN when the slide has none */
	char vendor[32];		/* openslide.vendor, "-" when none */
	uint8_t bg[3];			/* openslide.background-color, else white */
	int failed;			/* OpenSlide failed a read: the handle is
					 * dead (OpenSlide's rule) */
} sr_slide;

/* Opens path: NULL with "PATH: why" in errbuf for a file that is missing
 * or unreadable, one no OpenSlide driver recognises, or one it recognises
 * but cannot open (a truncated or corrupt slide, OpenSlide's message
 * given). */
sr_slide *sr_slide_open(const char *path, char *errbuf);
void sr_slide_close(sr_slide *s);

/* Reads the w x h pixels of level at level-0 coordinates (x, y) in one
 * openslide_read_region call into argb (w h pixels: OpenSlide's
 * premultiplied ARGB). Returns 0, or -1 with "PATH: why" in errbuf (a
 * level that does not exist, a size OpenSlide cannot take, OpenSlide
 * failing to decode a tile: the slide is then failed for good). */
int sr_slide_read_argb(sr_slide *s, int level, int64_t x, int64_t y,
    size_t w, size_t h, uint32_t *argb, char *errbuf);

/* n premultiplied ARGB pixels as RGB (3 n bytes; rgb may be argb itself,
 * converted in place): composited over the slide's background colour,
 * so opaque pixels keep their colour and transparent ones (outside the
 * scanned area, beyond the slide) take the background, as
 * openslide-python's DeepZoom generator does. */
void sr_slide_argb_to_rgb(const sr_slide *s, const uint32_t *argb, size_t n,
    uint8_t *rgb);

/* The region as a new RGB image (sr_rgb_free), held to the memory budget
 * of image.h (4 bytes a pixel while it is read). */
int sr_slide_read(sr_slide *s, int level, int64_t x, int64_t y, size_t w,
    size_t h, sr_rgb *img, char *errbuf);

/* The slide made about ds times smaller: the level with the largest
 * downsample at most ds, box-averaged by the whole factor f nearest to
 * ds over that downsample (at least 1), read in bands of rows (16 MiB of
 * ARGB at most), so that memory stays that of the small image. */
typedef struct {
	sr_rgb img;
	double sx, sy;		/* level-0 pixels per pixel of img */
	int level;		/* the level read */
	size_t f;		/* its box factor */
} sr_slide_small;

/* Fills small (free small->img with sr_rgb_free); progress (NULL: none)
 * is called after each band with the fraction read. */
int sr_slide_read_small(sr_slide *s, double ds,
    void (*progress)(void *ctx, double done), void *ctx,
    sr_slide_small *small, char *errbuf);

/* The level whose microns per pixel are closest to mpp (ties: the finer
 * level); -1 when the slide has no mpp. */
int sr_slide_level_for_mpp(const sr_slide *s, double mpp);

/* The level with the largest downsample at most ds (level 0 when none
 * is), passing over a level narrower or shorter than its tiles. */
int sr_slide_level_for_downsample(const sr_slide *s, double ds);

/* Up to max slides open at once, shared by threads: sr_slidepool_get
 * opens path or finds it open (reference counted), sr_slidepool_put
 * hands it back; when max are open, the least recently used one nobody
 * holds is closed to make room (all held: one more is opened). Memory
 * stays bounded by the slides open (OpenSlide keeps a tile cache of
 * 32 MiB per open slide), however many slides a tile table names. A
 * slide whose read failed is closed when handed back. */
typedef struct sr_slidepool sr_slidepool;

sr_slidepool *sr_slidepool_new(size_t max);
/* NULL with "PATH: why" in errbuf when the slide cannot be opened. */
sr_slide *sr_slidepool_get(sr_slidepool *p, const char *path, char *errbuf);
void sr_slidepool_put(sr_slidepool *p, sr_slide *s);
void sr_slidepool_free(sr_slidepool *p);

#endif
