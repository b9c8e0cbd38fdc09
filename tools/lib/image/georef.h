/* georef.h - slide-level references from GeoJSON: the annotations of a
 * whole slide as polygons in level-0 pixel coordinates (QuPath's export
 * of annotations or detections), rasterized into the reference label
 * image of any tile of the slide at its level.
 *
 * A file is a FeatureCollection, a JSON array of Features (QuPath's
 * export without "FeatureCollection"), or one Feature. Each Feature whose
 * geometry is a Polygon or a MultiPolygon is one object, numbered from 1
 * in the file's order; features of any other geometry (points, lines,
 * none) are skipped and counted. Rings are closed (first position equal
 * to the last) with at least four positions of at least two finite
 * numbers, x then y. The rule is stated once: a pixel of a tile belongs
 * to an object when its centre, mapped to level 0, lies inside the
 * object by the even-odd rule over all of its rings (so a hole is a
 * ring, and a hole's island another); where objects overlap, the later
 * one in the file wins. */
#ifndef SR_GEOREF_H
#define SR_GEOREF_H

#include <stddef.h>
#include <stdint.h>

/* A file's JSON is held in memory while it is read: refused when its
 * size times this exceeds the memory budget of the readers (raster.h). */
#define SR_GEOREF_BYTES_PER_BYTE 32

typedef struct {
	size_t nobj;		/* objects (polygon features) */
	size_t skipped;		/* features of other geometries */
	size_t *edge0;		/* nobj + 1: object k's edges are
				 * edge0[k] .. edge0[k + 1] - 1 */
	double *edge;		/* 4 per edge: x0, y0, x1, y1 (level 0) */
	double *box;		/* 4 per object: xmin, ymin, xmax, ymax */
} sr_georef;

/* Reads path into g (sr_georef_free). Returns 0, or -1 with a one-line
 * message in errbuf (SR_ERRLEN bytes) naming the file and, for a bad
 * feature, its index from 0 (and errno: ENOMEM for a file beyond the
 * budget). Never dies. */
int sr_georef_read(const char *path, sr_georef *g, char *errbuf);
void sr_georef_free(sr_georef *g);

/* The w x h labels of the tile whose top-left pixel corner lies at
 * level-0 (x0, y0), its pixels ds level-0 pixels wide: 0 where no object
 * covers a pixel's centre, else the object's number. Returns the number
 * of objects that cover a pixel of the tile. */
size_t sr_georef_raster(const sr_georef *g, double x0, double y0, double ds,
    size_t w, size_t h, uint32_t *lab);

#endif
