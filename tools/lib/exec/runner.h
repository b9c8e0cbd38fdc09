/* runner.h - executing one bucket of the nuclei workflow, or of a
 * workflow of commands (cmdrun.h): each tile read and normalized once, then the bucket's merged task tree (shared
 * prefixes once) walked depth-first by N threads, each on its own
 * root-to-leaf path; an idle thread takes the shallowest waiting node of
 * another thread's path. A node's images live until its subtree is done,
 * so at most N paths hold images at once whatever the bucket's size (the
 * RMSR scheduler of the papers).
 *
 * Errors (an unreadable tile, out of memory) die through sr_die.
 */
#ifndef SR_RUNNER_H
#define SR_RUNNER_H

#include <stddef.h>
#include <stdint.h>

#include "exec/cmdrun.h"
#include "image/georef.h"
#include "image/nuclei.h"
#include "image/tiles.h"
#include "plan/reuse_tree.h"

/* The IoU at which objects match in the object-level scores: that of
 * compare-dice's default. */
#define SR_RUN_IOU 0.5

struct sr_runresult;
struct sr_runout;

/* A tile's reference from its slide's GeoJSON: the annotations (shared
 * by the slide's tiles) and where the tile lies (level-0 top-left, its
 * level's downsample). */
typedef struct {
	sr_georef *g;		/* NULL: the tile has a mask */
	double x0, y0, ds;
	int first;		/* the tile that read (and frees) g */
} sr_tileref;

typedef struct {
	size_t ntiles;
	const sr_tiles *tiles;		/* images or slide regions, read on
					 * demand (sr_tile_read) */
	char *const *ref_path;		/* reference masks; NULL: no comparison */
	const sr_tileref *georef;	/* per tile, for the paths of GeoJSON
					 * (sr_ref_georefs); NULL: none */
	int normalize;			/* 0: tiles used as read */
	double mean[3], sd[3];		/* lαβ target of the normalization */
	size_t ninst;			/* the bucket's instances */
	size_t m;			/* tasks on a path (SR_NUC_NTASK) */
	size_t np;			/* values per instance (SR_NUC_NPARAM) */
	const double *param;		/* ninst x np values */
	const uint64_t *key;		/* ninst x m reuse keys */
	/* The commands' job (NULL: the nuclei tasks): a task node runs its
	 * command (sr_cmd_node); a tile is decoded only to be normalized or
	 * cut from a slide; a run's last output is read as labels to be
	 * compared or reported (mask). */
	const sr_cmdjob *cmd;
	size_t nmetric;			/* the commands' metrics (w->nmetric) */
	size_t threads;			/* active paths */
	int prefault;			/* touch the heap a tile needs first */
	int progress;			/* report progress on stderr */
	/* Called from the worker threads, without any lock held, once per
	 * instance and tile when its mask is final (labels NULL: empty). */
	void (*mask)(void *ctx, size_t inst, size_t tile, const uint32_t *labels,
	    size_t w, size_t h);
	/* Called likewise once per tile with the tile as normalized (NULL:
	 * not called). */
	void (*normalized)(void *ctx, size_t tile, const sr_rgb *img);
	void *ctx;
	/* Tuning (NULL: every instance on every tile, tiles overlapping).
	 * With gate set, the tiles run one at a time in index order. Before
	 * tile t, gate(ctx, t, alive, out) sets alive[inst] (1: the
	 * instance runs on t; it may fill out->result[inst * ntiles + t],
	 * and their metrics, of those it leaves out, such as results read
	 * back from a ledger); a node
	 * runs only while an alive instance is below it, and a tile where
	 * none is runs nothing (it is not even read). After tile t,
	 * tile_done(ctx, t, out) sees its results final. Both are called
	 * from one thread, with no other work in flight. */
	void (*gate)(void *ctx, size_t tile, unsigned char *alive,
	    struct sr_runout *out);
	void (*tile_done)(void *ctx, size_t tile, const struct sr_runout *out);
} sr_runjob;

/* The status of a result whose run was not executed on the tile (not
 * alive there: cancelled). */
#define SR_RESULT_NOT_RUN (-2)

typedef struct sr_runresult {
	int status;			/* enum sr_nuc_status, SR_RESULT_NOT_RUN */
	double dice, jaccard;		/* NaN without a reference */
	double object_dice, aji;	/* likewise (compare-dice's) */
	size_t objects;
	double seconds;			/* normalize + tasks + compare of this run */
} sr_runresult;
/* A failed command fails the runs below it (SR_RUN_ERROR, sa/metrics.h). */

/* One executed task node on one tile. */
typedef struct {
	size_t tile;
	size_t node;			/* node of the tree; 0: normalize */
	int task;			/* -1 normalize, 0..m-1 the tasks (Seg0..
					 * Seg6), m compare */
	double seconds;
	size_t bytes;			/* bytes its outputs held; a
					 * command's peak resident bytes */
} sr_runtiming;

typedef struct sr_runout {
	sr_rtree *tree;			/* the bucket's merged task tree */
	size_t *node_inst;		/* instances below node v: */
	size_t *node_first;		/* node_inst[node_first[v]..node_first[v+1]) */
	sr_runresult *result;		/* [inst * ntiles + tile] */
	double *metric;			/* the commands' metrics of each result:
					 * [(inst * ntiles + tile) * nmetric] */
	sr_runtiming *timing;		/* by tile, then depth-first order */
	size_t ntiming;
	int *normalized;		/* per tile: 1 normalized, 0 left as read,
					 * -1 not read (no instance ran there) */
	double *foreground;		/* per tile: foreground fraction */
	double *read_seconds;		/* per tile: decoding the image(s) */
	double *prefault_seconds;	/* per tile: touching the heap */
	double *save_seconds;		/* per tile: writing it as normalized
					 * (job->normalized), not counted in
					 * the normalization's seconds */
} sr_runout;

/* The heap that the first path of each tile in flight (at most threads
 * of tiles) needs on tiles of w x h pixels, with reference masks when
 * ref: the low end of seg-run's measured peaks (see runner.c), what
 * prefault touches. */
size_t sr_run_heap_bytes(size_t w, size_t h, size_t threads, size_t tiles,
    int ref);

/* Runs the job; fills *out (free with sr_runout_free). */
void sr_run_bucket(const sr_runjob *job, sr_runout *out);
void sr_runout_free(sr_runout *out);

#endif
