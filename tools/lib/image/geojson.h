/* geojson.h - objects of label images as GeoJSON (RFC 7946) polygons, the
 * form QuPath imports as detections: what seg-run --geojson writes per
 * (run, slide, chunk) and seg-merge --geojson joins per (run, slide).
 *
 * A file is one FeatureCollection written one line per feature, so that
 * files can be joined and checked a line at a time:
 *
 *   {"type":"FeatureCollection","sareuse":{"run":R,"slide":"S","chunk":C},"features":[
 *   {"type":"Feature","geometry":{...},"properties":{...}}
 *   ,{"type":"Feature",...}
 *   ]}
 *
 * the first feature line without a comma, every later one starting with
 * one; a joined file names "chunks":[C,...] (the chunks joined, in
 * order) instead of "chunk". A feature is one object: geometry a Polygon
 * (exterior then holes) or, for an object of several pieces, a
 * MultiPolygon (outline.h), rings closed, vertices at pixel corners
 * mapped to level-0 slide coordinates as x0 + ds X, y0 + ds Y;
 * properties objectType "detection", name "nucleus", label (the mask's
 * label) and tile (the tile's name). No classification.
 */
#ifndef SR_GEOJSON_H
#define SR_GEOJSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "image/outline.h"

/* Where a tile's pixel corners lie on the slide: level-0 coordinates of
 * its top-left corner and the level's downsample (0, 0, 1: the tile's
 * own pixels). */
typedef struct {
	double x0, y0, ds;
} sr_geoplace;

/* The first line of a chunk's file (chunk >= 0) or, chunk < 0, of a
 * joined file of nchunks chunks chunks[0..nchunks). */
void sr_geojson_header(FILE *fp, unsigned long run, const char *slide,
    long chunk, const long *chunks, size_t nchunks);
/* The last line. */
void sr_geojson_trailer(FILE *fp);

/* One line per object of o, every one starting with a comma (the caller
 * drops the first comma of a file), features of tile at place pl. */
void sr_geojson_features(FILE *fp, const sr_outlines *o, const char *tile,
    const sr_geoplace *pl);

/* Checks one feature line (len bytes, no newline, its comma removed):
 * a JSON object of type Feature whose geometry is a Polygon or
 * MultiPolygon of closed rings of at least 4 positions of 2 finite
 * numbers, with a properties object. Returns 0, or -1 with why in
 * errbuf (SR_ERRLEN bytes). */
int sr_geojson_check_feature(const char *line, size_t len, char *errbuf);

/* seg-merge --geojson: joins DIR/RUN/SLIDE.CCCC.geojson (RUN a run
 * number, CCCC four digits) into OUTDIR/RUN/SLIDE.geojson, chunks in
 * increasing order, a line at a time. Every input is checked first
 * (names, the header each one's name implies, every feature line, the
 * trailer and nothing after it); dies naming file and line (exit 1), and
 * then writes nothing. Outputs are written to temporaries and renamed
 * once all are complete. Returns the number of files written. */
size_t sr_geojson_join(const char *dir, const char *outdir);

#endif
