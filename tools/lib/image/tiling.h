/* tiling.h - a slide cut into tiles: the level chosen (by number or by
 * microns per pixel), the grid of tiles of a size with an overlap (the
 * partial tiles at the right and bottom borders kept with their real
 * size), each tile's tissue fraction, and the tiles with enough tissue
 * as rows of a tile table. What wsi-tiles does per slide.
 */
#ifndef SR_TILING_H
#define SR_TILING_H

#include <stddef.h>

#include "image/slide.h"
#include "image/tiletable.h"
#include "image/tissue.h"

typedef struct {
	size_t size;		/* tile side, pixels of the level */
	size_t overlap;		/* pixels of the level shared by neighbours */
	int level;		/* < 0: by mpp */
	double mpp;		/* > 0: the level closest to it */
	double min_tissue;	/* tiles with less are left out */
	double min_coverage;	/* share of the tissue the kept tiles should
				 * hold (the suggestion's goal) */
} sr_tilingopts;

typedef struct {
	int level;
	size_t nx, ny;		/* the grid */
	sr_tilerow *row;	/* the tiles kept, row by row */
	size_t n;
	char *comment;		/* the slide's provenance line (tiletable.h) */
	double tissue_area;	/* the tissue, level-0 pixels */
	double covered;		/* its share in the kept tiles; NaN: none */
	double suggest;		/* below o->min_coverage: the highest
				 * min_tissue of min_tissue / 2, / 4, ...,
				 * 1/256, then any tissue (0), whose tiles
				 * hold o->min_coverage of it; NaN: none */
	int has_norm;		/* norm holds the slide's colour moments */
	double norm[6];		/* lαβ mean, then sd, of the foreground of
				 * SR_TILING_NORM_SAMPLES regions of
				 * SR_TILING_NORM_SIDE pixels of the level
				 * square centred on as many of the tissue's
				 * pixels, spread evenly in raster order:
				 * the same whatever the tile size */
} sr_tiling;

/* The share of a slide's tissue the kept tiles should hold, unless told
 * otherwise (wsi-tiles --min-coverage); the report marks a slide below. */
#define SR_TILING_MIN_COVERAGE 0.95

#define SR_TILING_NORM_SAMPLES 16
#define SR_TILING_NORM_SIDE 256

/* Refuses (a usage error) two slides of one name, whose tiles' names
 * would clash, naming both; and a slide whose path or name a table's
 * field cannot hold (empty, tabs, line breaks). */
void sr_tiling_check_names(char *const *slide, size_t n);

/* The level of o on slide s: -1 with "PATH: why" in errbuf for a level
 * the slide does not have, or --mpp on a slide without mpp. */
int sr_tiling_level(const sr_slide *s, const sr_tilingopts *o, char *errbuf);

/* Cuts slide s at level into the grid of o, scores each tile against
 * the tissue t and keeps those with at least o->min_tissue: rows named
 * NAME_X_Y (X, Y their level-0 coordinates), their slide column the
 * string slide; the tissue's area and the share of it the kept tiles
 * hold (a mask pixel of t counts as held when its centre lies in a
 * kept tile), with a lower min_tissue to suggest when that share is
 * below o->min_coverage; the slide's colour moments, which its tiles are
 * normalized from (nuclei.h); the slide's provenance comment line. Dies
 * when a sampled region cannot be read. Free with sr_tiling_free. */
void sr_tiling_make(sr_slide *s, int level, const sr_tilingopts *o,
    const sr_tissue *t, const char *name, const char *slide, sr_tiling *out);
void sr_tiling_free(sr_tiling *g);

/* Says on stderr (unless quiet) how much tissue slide s has and the
 * share of it g's tiles hold; warns when that share is below
 * o->min_coverage and dies (exit 1) when it has tissue but no tile is
 * kept, each naming half the tile size or g->suggest to try; warns of a
 * slide without tissue. */
void sr_tiling_check_coverage(const sr_slide *s, const sr_tilingopts *o,
    const sr_tiling *g, int quiet);

/* The thumbnail of g for a person to check (sr_rgb_free): the slide at
 * about side pixels on its longest side, the tissue t and the kept
 * tiles drawn (sr_tissue_picture). */
int sr_tiling_picture(sr_slide *s, const sr_tissue *t, const sr_tiling *g,
    double side, sr_rgb *pic, char *errbuf);

#endif
