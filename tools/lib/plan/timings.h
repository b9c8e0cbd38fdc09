/* timings.h - seg-run's timings.tsv (timings(5)): the one writer and the
 * one reader, and reuse-tree node costs from it. One row per executed
 * task node and tile:
 *   bucket tile depth task instances seconds bytes
 * after "#bucket=I tiles=N", "#memory heap=H peak_rss=P", "#normalize=no"
 * when the tiles were used as read (seg-run --no-normalize: the
 * normalization rows then measure no normalization) and, per tile,
 * "#read tile=NAME seconds=S" (and "#prefault tile=NAME seconds=S",
 * "#saved tile=NAME seconds=S"). */
#ifndef SR_TIMINGS_H
#define SR_TIMINGS_H

#include <stddef.h>
#include <stdio.h>

#include "core/hash.h"
#include "plan/reuse_tree.h"
#include "plan/workflow.h"

struct sr_tsv;

/* The columns, in order. */
#define SR_TIMINGS_BUCKET	"bucket"
#define SR_TIMINGS_TILE		"tile"
#define SR_TIMINGS_DEPTH	"depth"
#define SR_TIMINGS_TASK		"task"
#define SR_TIMINGS_INSTANCES	"instances"
#define SR_TIMINGS_SECONDS	"seconds"
#define SR_TIMINGS_BYTES	"bytes"

/* The comment line (without its '#') of timings whose normalization rows
 * are not measurements of a normalization. */
#define SR_TIMINGS_NO_NORMALIZE	"normalize=no"

/* ---- writing ------------------------------------------------------------- */

/* "#bucket=B tiles=N" and "#memory heap=H peak_rss=P". */
void sr_timings_write_meta(FILE *fp, long bucket, size_t ntiles, size_t heap,
    size_t peak_rss);
/* "#saved tile=NAME seconds=S": writing the tile as normalized. */
void sr_timings_write_saved(FILE *fp, const char *tile, double seconds);
/* "#normalize=no". */
void sr_timings_write_no_normalize(FILE *fp);
/* "#read tile=NAME seconds=S" (prefault 0) or "#prefault ..." (1). */
void sr_timings_write_tile(FILE *fp, int prefault, const char *tile,
    double seconds);
void sr_timings_write_header(FILE *fp);
/* One row; the instances inst[0..n) as a comma list in that order. */
void sr_timings_write_row(FILE *fp, long bucket, const char *tile,
    size_t depth, const char *task, const size_t *inst, size_t n,
    double seconds, size_t bytes);

/* ---- reading ------------------------------------------------------------- */

/* What sr_timings_next read. */
enum sr_timings_kind {
	SR_TIMINGS_END,		/* end of file */
	SR_TIMINGS_ROW,		/* a task node's row */
	SR_TIMINGS_READ,	/* a #read line: decoding a tile */
	SR_TIMINGS_PREFAULT	/* a #prefault line: touching the heap */
};

typedef struct sr_timings_in {
	struct sr_tsv *t;	/* the row's other columns: sr_tsv_str(t, ...) */
	const char *path;	/* as in messages */
	int cb, ct, ck, ci, cs;	/* bucket, tile, task, instances, seconds */
	/* the record read: */
	long bucket;		/* a row's bucket; a #read line's is the last
				 * #bucket= line before it (-1: none) */
	const char *tile;	/* the tile (valid until the next call) */
	const char *task;	/* a row's task */
	double seconds;		/* >= 0 */
	size_t seen;		/* comment lines taken */
	int row_pending;	/* a row read, its comments not all taken */
	int eof;		/* the last row read */
	char *name;		/* a #read line's tile */
	long last_bucket;	/* the last #bucket= value */
	int no_normalize;	/* a #normalize=no line seen (before the
				 * first row: every row is after it) */
	sr_interner rows;	/* (bucket, tile, task, instances) of the
				 * rows read */
	size_t *row_line;	/* line of each of rows' keys */
	char *key;		/* the current row's key */
	size_t keycap;
} sr_timings_in;

/* Whether t's header is exactly the timings header. */
int sr_timings_header(const struct sr_tsv *t);

/* Opens TIMINGS.tsv ("-" stdin); dies unless its header has bucket, tile,
 * task, instances and seconds. */
sr_timings_in *sr_timings_open(const char *path);
/* Reads the next record in file order: the #read and #prefault lines
 * before a row come before it. Dies naming file, line and column on a
 * bad row (negative bucket or seconds), a row whose bucket, tile, task
 * and instances repeat an earlier row's (found through a hash set), or a
 * bad #read line. */
enum sr_timings_kind sr_timings_next(sr_timings_in *r);
void sr_timings_close(sr_timings_in *r);

/* Reads TIMINGS.tsv and sets the cost of every node of tree (the reuse
 * tree of stage st): the node's mean seconds per measurement times the
 * number of tiles, found through the first instance of each row; a node
 * never measured gets its task's mean. Rows of other stages' tasks are
 * skipped. Returns how many nodes were not measured; dies naming file,
 * line and column on bad rows or a task with no timing at all. */
size_t sr_rtree_timings(sr_rtree *tree, const sr_stage *st, const char *path);

/* The node of tree at task k (from 0) that the current row's instances
 * (comma list in column col of t) share: that of the first, which goes to
 * *first; with shared set, all of them must share it. Dies naming the row
 * and column on an instance not of the tree, an empty list, or (shared)
 * instances that do not share the task; hint (NULL: none) ends the
 * message of timings that seem to be of other instances. */
size_t sr_timings_node(const struct sr_tsv *t, int col, const sr_rtree *tree,
    size_t k, int shared, const char *hint, size_t *first);

#endif
