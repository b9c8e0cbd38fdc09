/* tiles.h - the tiles a tool works on, from a tiles list (one image path
 * per line, relative to the list's directory; '#' comments and blank
 * lines skipped) or a tile table (tiletable(5): regions of whole-slide
 * images, read from the slide on demand), told apart by the table's
 * header. */
#ifndef SR_TILES_H
#define SR_TILES_H

#include <stddef.h>
#include <stdint.h>

#include "image/image.h"
#include "image/owner.h"
#include "image/slide.h"

/* A tile of a tile table: the region of its slide. */
typedef struct {
	int level;
	uint64_t x, y;		/* level-0 top-left */
	uint64_t w, h;		/* pixels of the level */
	sr_tileown own;		/* what of it the tile owns (owner.h) */
} sr_tileregion;

typedef struct {
	char **path;		/* the image, or the tile's slide; as resolved
				 * (the list's directory prefixed) */
	char **name;		/* the tile's name: the image's file name
				 * without directory and extension, or the
				 * table's tile column */
	size_t *line;		/* line in the list */
	size_t n;
	char *list;		/* the list's path */
	sr_tileregion *region;	/* a tile table's regions; NULL for a list */
	double *norm;		/* a tile table's: 6 per tile, its slide's
				 * colour moments (NaN: none); NULL for a
				 * list */
	sr_slidepool *pool;	/* the slides open (a tile table) */
} sr_tiles;

/* Reads the list or table; dies naming file and line on an empty list,
 * an empty name, two tiles of the same name (their results could not be
 * told apart), or a table row tiletable(5) refuses. Neither images nor
 * slides are opened. */
sr_tiles *sr_tiles_read(const char *list);
void sr_tiles_free(sr_tiles *t);

/* Reads tile i as RGB: the image, or the region of its slide (through
 * OpenSlide, held to the memory budget of image.h). Returns 0, or -1
 * with a one-line message in errbuf naming the tile (and errno, as for
 * sr_rgb_read). Thread-safe. */
int sr_tile_read(const sr_tiles *t, size_t i, sr_rgb *img, char *errbuf);
/* The colour moments tile i is normalized from (lαβ mean, then sd: its
 * slide's, tiletable(5)), or NULL: its own. */
const double *sr_tile_norm(const sr_tiles *t, size_t i);

/* What of its objects tile i owns (owner.h), or NULL: all. */
const sr_tileown *sr_tile_own(const sr_tiles *t, size_t i);

/* The width and height of tile i without reading its pixels: the
 * image's header (sr_image_probe), or the table's (held to the memory
 * budget). */
int sr_tile_size(const sr_tiles *t, size_t i, size_t *w, size_t *h,
    char *errbuf);

/* How messages name tile i into buf: its path, or "SLIDE (tile NAME)". */
const char *sr_tile_label(const sr_tiles *t, size_t i, char *buf,
    size_t size);

/* Of a tile table, opens every slide once and dies (exit 1) naming the
 * table, line and tile of a row whose slide cannot be opened, whose
 * level the slide does not have or whose region reaches beyond its
 * level. Nothing for a tiles list. */
void sr_tiles_check_slides(const sr_tiles *t);

/* The reference of tile i in dir: DIR/NAME+suffix, or without a suffix
 * DIR/NAME.tif, else DIR/NAME.png; for a tile table's tile whose mask
 * cannot be read, its slide's annotations DIR/SLIDE.geojson when they
 * can be. Newly allocated; *err is 0 when it can be read, else the errno
 * of the mask (the path returned is the mask's, for a message). */
char *sr_tile_ref_path(const sr_tiles *t, size_t i, const char *dir,
    const char *suffix, int *err);

/* Puts the tiles in the order of a shuffle seeded by seed (<=
 * SR_SEED_MAX): GSL's gsl_ran_shuffle on mt19937, so the same list and
 * seed give the same order everywhere (every bucket of a tuning campaign
 * walks the tiles in one order). */
void sr_tiles_shuffle(sr_tiles *t, unsigned long seed);

/* Parses a tile order, "list" (0) or "shuffle:SEED" (1, the seed into
 * *seed); a usage error naming opt otherwise. */
int sr_tiles_order_parse(const char *opt, const char *arg,
    unsigned long *seed);

#endif
