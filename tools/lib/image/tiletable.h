/* tiletable.h - the tile table (tiletable(5)), wsi-tiles' output and a
 * form of tiles input wherever a tiles list is accepted: one row per
 * tile, `tile slide level x y width height tissue`, the tile a name
 * unique in the table, slide a path relative to the table's directory
 * unless absolute, x and y in level-0 pixels, width and height in
 * pixels of the level, tissue the fraction detected; optionally then
 * `overlap neighbours`, the pixels of the level the tile shares with
 * each neighbour and which of its eight neighbours the table holds
 * (owner.h: who owns an object); one provenance comment line per
 * slide. This module is its only reader and writer.
 */
#ifndef SR_TILETABLE_H
#define SR_TILETABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "image/owner.h"
#include "image/slide.h"

#define SR_TILETABLE_TILE	"tile"
#define SR_TILETABLE_SLIDE	"slide"
#define SR_TILETABLE_LEVEL	"level"
#define SR_TILETABLE_X		"x"
#define SR_TILETABLE_Y		"y"
#define SR_TILETABLE_WIDTH	"width"
#define SR_TILETABLE_HEIGHT	"height"
#define SR_TILETABLE_TISSUE	"tissue"
#define SR_TILETABLE_OVERLAP	"overlap"
#define SR_TILETABLE_NEIGHBOURS	"neighbours"

/* The largest width or height of a tile, and the largest level-0
 * coordinate (2^53: exact in a double). */
#define SR_TILETABLE_MAX_SIDE	((1L << 31) - 1)
#define SR_TILETABLE_MAX_COORD	(1LL << 53)

typedef struct {
	char *tile;		/* the tile's name */
	char *slide;		/* the slide as the table names it */
	int level;
	uint64_t x, y;		/* level-0 top-left */
	uint64_t w, h;		/* pixels of the level */
	double tissue;		/* 0..1 */
	sr_tileown own;		/* overlap and neighbours (0: none) */
	size_t line;		/* line in the table (reading) */
	double norm[6];		/* its slide's colour moments (lαβ mean, then
				 * sd) from the slide's "#slide" line; NaN:
				 * none (reading) */
} sr_tilerow;

typedef struct {
	char *file;		/* the table's path */
	sr_tilerow *row;
	size_t n;
} sr_tiletable;

/* Whether path's first line that is neither blank nor a comment starts
 * with the tile table's first two columns, "tile<TAB>slide" (0 also when
 * path cannot be read: the tiles list reader reports that). */
int sr_tiletable_sniff(const char *path);

/* Reads the table strictly; dies naming file, line and column on a
 * header other than the table's, an empty tile or slide, a tile name
 * with '/' or one that is "." or "..", a repeated tile name (naming
 * both lines), a level outside 0..63, a coordinate below 0 or above
 * 2^53, a width or height outside 1..2^31-1, a tissue fraction outside
 * [0, 1], an overlap that is no whole number below 2^31, a neighbours
 * column sr_near_parse refuses or a tile too small for its bands
 * (sr_tileown_check), or no rows; or a "#slide" line whose norm_mean or norm_sd
 * is not three finite numbers (sd positive). Each row gets its slide's
 * moments (the "#slide" line of the slide's file name without
 * extension). The slides are not opened. */
sr_tiletable *sr_tiletable_read(const char *path);
void sr_tiletable_free(sr_tiletable *t);

/* Writers: the header (with overlap and neighbours when own); one
 * slide's provenance comment ("#slide NAME:
 * WxH levels=N downsamples=... mpp=... vendor=... level=L tile_size=S
 * overlap=O tiles=KEPT/GRID tissue_threshold=T tissue_area=A covered=C
 * [norm_mean=L,A,B norm_sd=L,A,B]", A in level-0 pixels, C the share of
 * it in the kept tiles, '-' when the slide has no tissue; norm, when not
 * NULL, the six moments the slide's tiles are normalized from); a row
 * (its overlap and neighbours when own). */
void sr_tiletable_write_header(FILE *fp, int own);
void sr_tiletable_write_slide(FILE *fp, const char *name, const sr_slide *s,
    int level, size_t size, size_t overlap, size_t kept, size_t grid,
    double threshold, double tissue_area, double covered, const double *norm);
void sr_tiletable_write_row(FILE *fp, const sr_tilerow *r, int own);

#endif
