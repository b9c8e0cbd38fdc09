/* outputs.h - what seg-run writes for a bucket: results.tsv (results.h),
 * timings.tsv (timings.h), the masks and normalized tiles, and whether
 * the outputs of an earlier run are complete. */
#ifndef SR_OUTPUTS_H
#define SR_OUTPUTS_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include "exec/runner.h"
#include "exec/segplan.h"
#include "image/tiles.h"

/* How the bucket was run and where its outputs go. */
typedef struct {
	const char *results, *timings;	/* files */
	const char *masks, *save_norm;	/* directories, or NULL */
	const char *geojson;		/* directory of the polygons, or NULL */
	long chunk;			/* --chunk, -1 when not given */
	const char *ref;		/* NULL: no comparison */
	size_t active;			/* active paths */
	int png8;			/* masks as 0/255 PNGs, else 32-bit TIFFs */
	int norm_codec;			/* --normalized-format: SR_TIFF_* */
	int normalize, target, prefault;
} sr_segout;

/* ---- options -------------------------------------------------------- */

/* seg-run's options of its outputs, long-only codes from CHAR_MAX + 1
 * (the tool's own codes start at SR_SEGOUT_OPT_END), as getopt_long
 * entries for its table. */
enum {
	SR_SEGOUT_OPT_REF = CHAR_MAX + 1, SR_SEGOUT_OPT_ACTIVE,
	SR_SEGOUT_OPT_MASKS, SR_SEGOUT_OPT_MASK_FORMAT, SR_SEGOUT_OPT_GEOJSON,
	SR_SEGOUT_OPT_CHUNK, SR_SEGOUT_OPT_TIMINGS, SR_SEGOUT_OPT_NO_NORMALIZE,
	SR_SEGOUT_OPT_NO_PREFAULT, SR_SEGOUT_OPT_SAVE_NORM,
	SR_SEGOUT_OPT_NORM_FORMAT, SR_SEGOUT_OPT_END
};
#define SR_SEGOUT_LONGOPTS \
	{ "ref", required_argument, NULL, SR_SEGOUT_OPT_REF }, \
	{ "active-paths", required_argument, NULL, SR_SEGOUT_OPT_ACTIVE }, \
	{ "masks", required_argument, NULL, SR_SEGOUT_OPT_MASKS }, \
	{ "mask-format", required_argument, NULL, SR_SEGOUT_OPT_MASK_FORMAT }, \
	{ "geojson", required_argument, NULL, SR_SEGOUT_OPT_GEOJSON }, \
	{ "chunk", required_argument, NULL, SR_SEGOUT_OPT_CHUNK }, \
	{ "timings", required_argument, NULL, SR_SEGOUT_OPT_TIMINGS }, \
	{ "no-normalize", no_argument, NULL, SR_SEGOUT_OPT_NO_NORMALIZE }, \
	{ "no-prefault", no_argument, NULL, SR_SEGOUT_OPT_NO_PREFAULT }, \
	{ "save-normalized", required_argument, NULL, SR_SEGOUT_OPT_SAVE_NORM }, \
	{ "normalized-format", required_argument, NULL, \
	    SR_SEGOUT_OPT_NORM_FORMAT }

/* The most active paths, and the largest chunk (four digits). */
#define SR_SEGOUT_MAX_ACTIVE 1024
#define SR_SEGOUT_MAX_CHUNK 9999

/* Sets u to the defaults: one active path, normalized, prefaulted, no
 * optional output. */
void sr_segout_init(sr_segout *u);
/* Takes option c (a code above) with its argument into u: 1, or 0 when c
 * is not one of them. A bad value is a usage error. */
int sr_segout_option(sr_segout *u, int c, const char *arg);
/* Usage errors between these options once all are read: --chunk without
 * --geojson. */
void sr_segout_check_options(const sr_segout *u);

/* Whether the bucket's outputs are complete from an earlier run: both
 * files present and the results made for this bucket (same bucket,
 * instances, runs, tiles and tasks). */
int sr_segout_done(const sr_segout *o, const sr_segplan *p, size_t ntiles);

/* The timings: provenance, metadata, one row per executed task node. */
void sr_segout_timings(FILE *fp, const sr_segout *o, const sr_segplan *p,
    const sr_tiles *tiles, const sr_runout *r, int argc, char **argv);
/* The results: provenance, metadata, one row per run and tile, by run. */
void sr_segout_results(FILE *fp, const sr_segout *o, const sr_segplan *p,
    const sr_tiles *tiles, const sr_runout *r, int argc, char **argv);

/* Warns about every tile left as read (too little foreground to
 * normalize). */
void sr_segout_warn(const sr_segout *o, const sr_tiles *tiles,
    const sr_runout *r);

/* Sets job's mask and normalized-tile callbacks (and makes their
 * directories) as o asks; mask files are written atomically, and those
 * being written are removed when the run dies (sr_segout_masks_end
 * after the run). Call after the outputs are opened (sr_out_open), so
 * that the temporaries go before them. */
void sr_segout_masks(sr_runjob *job, const sr_segout *o, const sr_segplan *p,
    const sr_tiles *tiles);
void sr_segout_masks_end(void);

/* The job of the plan's bucket on the tiles (ref: the reference masks'
 * paths or NULL; target: an image to normalize to, or NULL); dies first
 * when the largest tile needs more than the memory budget for the active
 * paths (sr_segplan_check_memory: from the headers, nothing decoded). */
void sr_segout_job(sr_runjob *job, const sr_segout *u, const sr_segplan *p,
    const sr_tiles *tiles, char **ref, const char *target, int progress);

/* ---- paths ---------------------------------------------------------- */

/* Usage error (exit 2) when an output would replace an input: results or
 * timings naming one of inputs[0..nin) (NULL skipped), a tile or a
 * reference mask; a normalized tile (--save-normalized DIR: DIR/TILE.tif)
 * naming a tile or a reference mask; a mask (--masks DIR:
 * DIR/RUN/TILE.EXT, RUN a run of bucket p) naming any of them. */
void sr_segout_check_paths(const sr_segout *o, const sr_segplan *p,
    const char *const *inputs, size_t nin, const sr_tiles *t, char **ref);

/* Makes directory d if missing; sr_make_dirs its parents too. */
void sr_make_dir(const char *d);
void sr_make_dirs(const char *d);
/* Dies naming list and line unless every tile can be read. */
void sr_tiles_check(const sr_tiles *t);
/* The reference of every tile: its mask DIR/TILE + suffix, or DIR/TILE.tif
 * then .png (suffix NULL); else, for a tile of a tile table, its
 * slide's annotations DIR/SLIDE.geojson (SLIDE the slide's file name
 * without extension); dies naming a tile without either (refs.c). */
char **sr_ref_paths(const char *dir, const char *suffix, const sr_tiles *t);
void sr_ref_paths_free(char **ref, size_t n);

/* Of the references ref (sr_ref_paths), reads each GeoJSON once, dying
 * naming the file on a bad one: per tile, or NULL when no tile has a
 * GeoJSON reference. */
sr_tileref *sr_ref_georefs(char *const *ref, const sr_tiles *t);
void sr_ref_georefs_free(sr_tileref *r, size_t n);

#endif
