/* geojson_out.h - seg-run --geojson DIR: the objects of every run as
 * GeoJSON polygons (image/geojson.h) in level-0 slide coordinates, one
 * file per run and slide of the bucket's tiles, DIR/RUN/SLIDE.CCCC.geojson
 * (CCCC the chunk, --chunk), holding the features of every tile of that
 * slide in the order of the tiles. SLIDE is the slide's file name
 * without directory and extension for a tile table's tiles, the tile's
 * name for an image of a tiles list (whose coordinates are then its own
 * pixels).
 *
 * Each (instance, tile) mask is traced once, by the thread that made it,
 * into a temporary fragment in DIR; at the end every run's file is
 * assembled from its instance's fragments in tile order (so the file is
 * the same whatever the threads did), written to a temporary, synced and
 * renamed; fragments and temporaries are removed if the run dies or is
 * killed. */
#ifndef SR_GEOJSON_OUT_H
#define SR_GEOJSON_OUT_H

#include <stddef.h>
#include <stdint.h>

#include "exec/outputs.h"

/* Groups the tiles by slide (dies, exit 1, naming the table's lines when
 * two slides have one name), reads each region's downsample, makes DIR
 * and chains the cleanup. After sr_tiles_check. */
void sr_geojson_out_start(const sr_segout *o, const sr_segplan *p,
    const sr_tiles *t);

/* The mask of bucket instance inst on tile (labels NULL: empty).
 * Thread-safe for distinct (inst, tile). */
void sr_geojson_out_tile(size_t inst, size_t tile, const uint32_t *labels,
    size_t w, size_t h);

/* Writes every run's files, removes the fragments, unchains the
 * cleanup. */
void sr_geojson_out_end(void);

#endif
