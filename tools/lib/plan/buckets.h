/* buckets.h - buckets.tsv (buckets(5)), the bucket plan: the one reader
 * and the one writer. One row per bucket, row i = bucket i = array task
 * i: `bucket instances runs tasks cost`, after a metadata line naming
 * the algorithm and the stage (`#algorithm=A stage=S ...`) and one
 * `#stats key=value ...` line. */
#ifndef SR_BUCKETS_H
#define SR_BUCKETS_H

#include <stddef.h>
#include <stdio.h>

struct sr_tsv;

/* The columns, in order. */
#define SR_BUCKETS_BUCKET	"bucket"
#define SR_BUCKETS_INSTANCES	"instances"
#define SR_BUCKETS_RUNS		"runs"
#define SR_BUCKETS_TASKS	"tasks"
#define SR_BUCKETS_COST		"cost"

/* ---- writing ------------------------------------------------------------- */

/* The #stats line's values (keys in this order, see buckets(5)). */
typedef struct {
	size_t runs, instances;
	double tasks_noreuse, tasks_stage;
	size_t tasks_merged, buckets, max_bucket_tasks;
	double max_bucket_cost, seconds;
} sr_buckets_stats;

/* Writes "#stats runs=... seconds=S" and the header line. */
void sr_buckets_write_stats(FILE *fp, const sr_buckets_stats *s);
/* Writes one row: bucket b, its instances inst[0..n) in that order, its
 * runs runs[0..nruns) (sorted by the caller), its task nodes and cost. */
void sr_buckets_write_row(FILE *fp, size_t b, const size_t *inst, size_t n,
    const size_t *runs, size_t nruns, size_t tasks, double cost);

/* ---- reading ------------------------------------------------------------- */

/* One bucket as read. */
typedef struct {
	size_t bucket;		/* its number, = its row from 0 */
	size_t *inst;		/* the stage's instances it holds (ids 0..n-1) */
	size_t ninst;
	long tasks;		/* task nodes; -1 without a tasks column */
	size_t line;		/* its line in the file */
} sr_bucket_row;

typedef struct sr_buckets_in {
	struct sr_tsv *t;
	const char *path;	/* as in messages ("<stdin>" for "-") */
	char *stage;		/* the #stage= metadata, NULL without */
	size_t rows;		/* rows read so far */
	size_t ninst;		/* instances of the stage (sr_buckets_stage) */
	const char *stage_name;
	size_t *owner;		/* per instance: its bucket + 1, 0 none yet */
	int cb, ci, ct;
	sr_bucket_row row;
} sr_buckets_in;

/* Opens BUCKETS.tsv ("-" stdin): dies unless the header has bucket and
 * instances (and tasks when need_tasks). ->stage is the plan's stage
 * from its metadata. */
sr_buckets_in *sr_buckets_open(const char *path, int need_tasks);
/* The stage the rows' instances belong to: n instances (ids 0..n-1),
 * name for messages (NULL: "the stage"). Call before reading rows. */
void sr_buckets_stage(sr_buckets_in *b, size_t n, const char *name);
/* The #stats line's values (read after the header: every comment line
 * before it) into s, 0 for those it lacks: 0, or -1 without a #stats
 * line or with one that lacks runs, tasks_noreuse, tasks_stage or
 * tasks_merged as numbers (s untouched then). */
int sr_buckets_read_stats(const sr_buckets_in *b, sr_buckets_stats *s);
/* Reads the next bucket: NULL at the end (the row is valid until the
 * next call). Dies naming file, line and column when its number is not
 * its row, an instance is not of the stage or is in two buckets, or the
 * list is empty. */
const sr_bucket_row *sr_buckets_next(sr_buckets_in *b);
/* Skips the next row without reading its instances: 0 at the end. */
int sr_buckets_skip(sr_buckets_in *b);
void sr_buckets_close(sr_buckets_in *b);

/* Dies unless a bucket's tasks column (tasks, line of path; tasks < 0:
 * no column) is the count of task nodes its instances share: a plan made
 * from another instances file would run other work than it costed. */
void sr_buckets_check_tasks(const char *path, size_t line, long tasks,
    size_t shared);

#endif
