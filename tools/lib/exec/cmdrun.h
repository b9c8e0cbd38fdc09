/* cmdrun.h - the task nodes of a workflow of commands (workflow(5),
 * column run) as the runner executes them: a node's command rendered
 * from its template with the node's values, run to its end through
 * spawn.h (never a shell), its output checked and its metrics read.
 *
 * Each node works in a directory of its own in the bucket's scratch
 * directory, SCRATCH/TILE-INDEX/NODE/: its output ({out}, {out.EXT} or
 * {out/}), {metrics}, {scratch} and, unless logs are kept elsewhere, its
 * log. The runner removes a node's directory when no pending child
 * reads its output (sr_cmd_node_free), so that the scratch holds at most
 * active paths x depth node directories.
 *
 * A command fails a node when it cannot be started, exits non-zero,
 * dies of a signal, runs past the timeout, does not create its output,
 * or writes a metric line that is not NAME<TAB>number of a metric it
 * declares (or leaves one out). The reason and the last lines of its log
 * go to standard error; the runs below the node fail on that tile, and
 * its siblings go on. */
#ifndef SR_CMDRUN_H
#define SR_CMDRUN_H

#include <stddef.h>

#include "image/raster.h"
#include "plan/instances.h"
#include "plan/workflow.h"

typedef struct {
	const sr_workflow *w;
	size_t st;		/* the stage of commands */
	size_t np;		/* values per instance: w->nparam */
	char *scratch;		/* the bucket's scratch directory */
	const char *logs;	/* keep each command's log there; NULL: in
				 * the node's directory, removed with it */
	double timeout;		/* seconds per command; 0: none */
	int threads;		/* {threads}: the CPUs of one path */
	size_t **pcol;		/* per task: its params' workflow columns */
	const sr_instances *inst;	/* {NAME} as its text there (a word
				 * enum's word); NULL: as a number */
	size_t *moff;		/* per task: its first metric in w->metric */
} sr_cmdjob;

/* What a node made. */
typedef struct {
	char *dir;		/* its directory; NULL: none (not run) */
	char *out;		/* its output */
	double *metric;		/* its task's metrics (NaN: none) */
} sr_cmdnode;

/* Sets j up for stage st of w: a scratch directory of this process
 * (seg-run.HOST.PID.XXXXXX) made under parent (NULL: $TMPDIR, else
 * /tmp), after removing those of this host's seg-runs that are gone (a
 * kill -9 leaves its directory); removed when this process exits or
 * dies (sr_die). Dies, naming the workflow's line, when a command is
 * not found in PATH. */
void sr_cmdjob_init(sr_cmdjob *j, const sr_workflow *w, size_t st,
    const char *parent);
/* Removes the scratch directory and frees j. */
void sr_cmdjob_free(sr_cmdjob *j);

/* The input of tile t's first task: img written as an RGB PNG into the
 * tile's directory when img is not NULL, else path itself. NULL with err
 * set when it cannot be written. */
char *sr_cmd_tile(const sr_cmdjob *j, size_t t, const sr_rgb *img,
    const char *path, char *err);
/* Removes tile t's directory and frees in. */
void sr_cmd_tile_free(const sr_cmdjob *j, size_t t, char *in);

/* One node to run: task `task` of the stage, on tile `tile` (name and
 * reference path, NULL without one), reading in, with the values of an
 * instance below it (np of them). */
typedef struct {
	size_t tile, node, task;
	const char *name, *ref, *in;
	const double *value;
} sr_cmdnode_in;

/* Runs the node into *out: 0, or -1 when it failed (reason set, and the
 * reason and the log's last lines written to stderr). *maxrss its peak
 * resident bytes, *secs its wall time. */
int sr_cmd_node(const sr_cmdjob *j, const sr_cmdnode_in *in, sr_cmdnode *out,
    double *secs, size_t *maxrss, char *reason, size_t size);
/* Removes the node's directory and frees it. */
void sr_cmd_node_free(sr_cmdnode *n);

/* path made absolute (the commands may change directory); free it. */
char *sr_cmd_abs(const char *path);

/* Removes path and everything under it; 0, or -1 with errno. */
int sr_remove_tree(const char *path);

#endif
