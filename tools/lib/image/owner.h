/* owner.h - which of overlapping tiles owns an object, so that a slide
 * cut into tiles that share a band of overlap pixels counts, scores and
 * outlines each object once.
 *
 * A tile of a grid (wsi-tiles --overlap O) shares O pixels of its level
 * with each neighbour, and a pixel lies in at most four tiles (O is at
 * most half the tile size). Halfway across each band, floor(O/2) pixels
 * from its start, lies the line between the two tiles' cores: the cores
 * of a whole grid share no pixel and cover the slide. A pixel belongs to
 * the kept tile holding it whose core is nearest (in pixels across plus
 * down; the first in raster order, top to bottom then left to right, of
 * those as near): the one whose core holds it when the table kept that
 * tile; a neighbour only where a tile was left out, or along the slide's
 * edges. An object belongs to the tile that owns the pixel holding its
 * centroid (the mean of its pixels' centres). So each tile decides alone,
 * from its own pixels and which of its eight neighbours are kept, and
 * every tile decides alike; an object whose centroid lies in its owner's
 * core and that reaches less than O/2 beyond it is whole in its owner.
 *
 * A tile of a list, or with overlap 0, owns all it finds. */
#ifndef SR_OWNER_H
#define SR_OWNER_H

#include <stddef.h>
#include <stdint.h>

/* A tile's neighbours, one bit each, in raster order. */
enum {
	SR_NEAR_NW = 1, SR_NEAR_N = 2, SR_NEAR_NE = 4, SR_NEAR_W = 8,
	SR_NEAR_E = 16, SR_NEAR_SW = 32, SR_NEAR_S = 64, SR_NEAR_SE = 128
};

typedef struct {
	size_t overlap;		/* pixels of the level shared with a
				 * neighbour; 0: the tile owns all */
	unsigned near;		/* the neighbours kept, SR_NEAR_* */
} sr_tileown;

/* Whether the w x h tile of o owns its pixel (x, y). */
int sr_tile_owns(const sr_tileown *o, size_t w, size_t h, size_t x,
    size_t y);

/* Keeps, of the objects 1..n of the w x h numbered image lab
 * (sr_objects_number), those the tile of o owns, renumbered 1..m in
 * their order; the rest become background. Returns m. */
size_t sr_labels_keep_owned(uint32_t *lab, size_t w, size_t h, size_t n,
    const sr_tileown *o);

/* The neighbours column of tiletable(5): "-", or the names of the kept
 * ones among nw, n, ne, w, e, sw, s, se, in that order, joined by
 * commas. sr_near_parse returns 0, or -1 on a name not among them, a
 * repeated one, an order other than that or an empty list. */
int sr_near_parse(const char *s, unsigned *near);
/* Writes the column into buf (at least SR_NEAR_LEN bytes). */
#define SR_NEAR_LEN 32
void sr_near_format(unsigned near, char *buf);

/* Whether the w x h tile of o has room for its bands: a neighbour on a
 * side needs more than o->overlap pixels across, one on the far side
 * (east, south) at least twice o->overlap. Returns NULL, or why not. */
const char *sr_tileown_check(const sr_tileown *o, size_t w, size_t h);

#endif
