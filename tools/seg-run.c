/* seg-run - execute one bucket of the nuclei-segmentation workflow. */
#define _XOPEN_SOURCE 700	/* realpath */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image/opencv.h"
#include "core/err.h"
#include "exec/arena.h"
#include "image/image.h"
#include "image/nuclei.h"
#include "core/num.h"
#include "core/out.h"
#include "exec/runner.h"
#include "plan/merge.h"
#include "plan/stage_keys.h"
#include "image/tiles.h"
#include "core/tsv.h"
#include "plan/workflow.h"

enum {
	OPT_WORKFLOW = CHAR_MAX + 1, OPT_INSTANCES, OPT_BUCKETS, OPT_BUCKET,
	OPT_TILES, OPT_REF, OPT_REF_SUFFIX, OPT_ACTIVE, OPT_MASKS,
	OPT_MASK_FORMAT, OPT_TIMINGS, OPT_TARGET, OPT_NO_NORMALIZE, OPT_FORCE,
	OPT_SAVE_NORM, OPT_NO_PREFAULT, OPT_VERSION
};

static const struct option longopts[] = {
	{ "workflow", required_argument, NULL, OPT_WORKFLOW },
	{ "instances", required_argument, NULL, OPT_INSTANCES },
	{ "buckets", required_argument, NULL, OPT_BUCKETS },
	{ "bucket", required_argument, NULL, OPT_BUCKET },
	{ "tiles", required_argument, NULL, OPT_TILES },
	{ "ref", required_argument, NULL, OPT_REF },
	{ "ref-suffix", required_argument, NULL, OPT_REF_SUFFIX },
	{ "active-paths", required_argument, NULL, OPT_ACTIVE },
	{ "masks", required_argument, NULL, OPT_MASKS },
	{ "mask-format", required_argument, NULL, OPT_MASK_FORMAT },
	{ "timings", required_argument, NULL, OPT_TIMINGS },
	{ "target-image", required_argument, NULL, OPT_TARGET },
	{ "no-normalize", no_argument, NULL, OPT_NO_NORMALIZE },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "save-normalized", required_argument, NULL, OPT_SAVE_NORM },
	{ "no-prefault", no_argument, NULL, OPT_NO_PREFAULT },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

#define MAX_ACTIVE 1024

struct opts {
	const char *workflow, *instances, *buckets, *tiles, *ref, *ref_suffix;
	const char *masks, *timings, *output, *target, *save_norm;
	long bucket;
	size_t active;
	int png8, normalize, prefault, force, quiet;
};

static void
usage(FILE *fp)
{
	fputs(
"Usage: seg-run --workflow WF --instances INSTANCES.tsv --buckets BUCKETS.tsv\n"
"         --bucket I --tiles TILES.list -o RESULTS.tsv --timings TIMINGS.tsv\n"
"         [--ref DIR [--ref-suffix S]] [--masks DIR] [options]\n"
"Execute bucket I of a plan of the nuclei-segmentation workflow on every\n"
"tile: each tile normalized once, the bucket's merged task tree walked\n"
"depth-first with at most N paths holding images at once.\n"
"\n"
"      --workflow FILE      the workflow (share/workflows/nuclei.wf)\n"
"      --instances FILE     stage instances (wf-compact)\n"
"      --buckets FILE       the bucket plan (reuse-merge)\n"
"      --bucket I           the row of BUCKETS to execute, from 0\n"
"      --tiles FILE         tiles list: one image path per line\n"
"      --ref DIR            compare with DIR/TILE.tif or DIR/TILE.png\n"
"      --ref-suffix S       compare with DIR/TILE + S instead\n"
"      --active-paths N     paths (and threads) at once [1]\n"
"      --masks DIR          write each run's labels as DIR/RUN/TILE.tif\n"
"      --mask-format F      tif32 (32-bit labels) or png8 (0/255) [tif32]\n"
"      --target-image IMG   normalize to IMG's colour statistics\n"
"      --no-normalize       use the tiles as they are\n"
"      --save-normalized DIR  write each tile as normalized to DIR/TILE.tif\n"
"      --no-prefault        leave page faults to the tasks\n"
"      --force              redo a bucket whose outputs are complete\n"
"  -o, --output FILE        results: one row per run and tile\n"
"      --timings FILE       one row per executed task node and tile\n"
"  -q, --quiet              no progress on a terminal\n"
"  -h, --help               this help\n"
"      --version            version\n", fp);
}

/* Whether paths a and b name the same file (they need not exist): their
 * directories resolved, their last components compared. */
static int
same_file(const char *a, const char *b)
{
	char *ra = NULL, *rb = NULL, *da = sr_strdup(a), *db = sr_strdup(b);
	const char *ba = strrchr(a, '/'), *bb = strrchr(b, '/');
	int same;

	*(ba ? da + (ba - a) + 1 : da) = '\0';
	*(bb ? db + (bb - b) + 1 : db) = '\0';
	ra = realpath(*da ? da : ".", NULL);
	rb = realpath(*db ? db : ".", NULL);
	same = strcmp(ba ? ba + 1 : a, bb ? bb + 1 : b) == 0 &&
	    (ra && rb ? strcmp(ra, rb) == 0 : strcmp(da, db) == 0);
	free(ra);
	free(rb);
	free(da);
	free(db);
	return same;
}

static void
parse(int argc, char **argv, struct opts *o)
{
	long v;
	int c;

	memset(o, 0, sizeof *o);
	o->bucket = -1;
	o->active = 1;
	o->normalize = 1;
	o->prefault = 1;
	while ((c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_WORKFLOW: o->workflow = optarg; break;
		case OPT_INSTANCES: o->instances = optarg; break;
		case OPT_BUCKETS: o->buckets = optarg; break;
		case OPT_TILES: o->tiles = optarg; break;
		case OPT_REF: o->ref = optarg; break;
		case OPT_REF_SUFFIX: o->ref_suffix = optarg; break;
		case OPT_MASKS: o->masks = optarg; break;
		case OPT_TIMINGS: o->timings = optarg; break;
		case OPT_TARGET: o->target = optarg; break;
		case OPT_NO_NORMALIZE: o->normalize = 0; break;
		case OPT_NO_PREFAULT: o->prefault = 0; break;
		case OPT_FORCE: o->force = 1; break;
		case OPT_SAVE_NORM: o->save_norm = optarg; break;
		case 'o': o->output = optarg; break;
		case 'q': o->quiet = 1; break;
		case OPT_BUCKET:
			if (sr_parse_long(optarg, &v) || v < 0)
				sr_usage_error("--bucket '%s': a bucket number "
				    "from 0", optarg);
			o->bucket = v;
			break;
		case OPT_ACTIVE:
			if (sr_parse_long(optarg, &v) || v < 1 || v > MAX_ACTIVE)
				sr_usage_error("--active-paths '%s': an integer "
				    "from 1 to %d", optarg, MAX_ACTIVE);
			o->active = (size_t)v;
			break;
		case OPT_MASK_FORMAT:
			if (strcmp(optarg, "png8") == 0)
				o->png8 = 1;
			else if (strcmp(optarg, "tif32") == 0)
				o->png8 = 0;
			else
				sr_usage_error("--mask-format '%s': tif32 or png8",
				    optarg);
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case OPT_VERSION:
			sr_print_version();
		default:
			sr_getopt_fail(c, argv);
		}
	}
	if (optind < argc)
		sr_usage_error("unexpected argument '%s'", argv[optind]);
	if (!o->workflow || !o->instances || !o->buckets || o->bucket < 0 ||
	    !o->tiles || !o->output || !o->timings)
		sr_usage_error("--workflow, --instances, --buckets, --bucket, "
		    "--tiles, -o and --timings are required");
	if (o->ref_suffix && !o->ref)
		sr_usage_error("--ref-suffix needs --ref");
	if (o->target && !o->normalize)
		sr_usage_error("--target-image and --no-normalize exclude each "
		    "other");
	if (strcmp(o->output, "-") == 0 || strcmp(o->timings, "-") == 0 ||
	    same_file(o->output, o->timings))
		sr_usage_error("-o and --timings must be two different files");
}

/* ---- the workflow ------------------------------------------------------- */

/* Whether task t of the workflow reads exactly the parameters nuclei task
 * k reads. */
static int
same_params(const sr_task *t, int k)
{
	size_t n = 0, i;
	const int *p = sr_nuc_task_param[k];

	for (; p[n] >= 0; n++) {
		for (i = 0; i < t->nparam; i++)
			if (strcmp(t->param[i], sr_nuc_param_name[p[n]]) == 0)
				break;
		if (i == t->nparam)
			return 0;
	}
	return n == t->nparam;
}

/* The segment stage: the one whose tasks are Seg0..Seg6 with nscale's
 * parameters, after a stage of parameter-free tasks (normalization) and
 * before at most one more (comparison). Dies naming what differs. */
static size_t
segment_stage(const sr_workflow *w, int *param_col)
{
	size_t s, t, k;

	for (s = 0; s < w->nstage; s++)
		if (w->stage[s].ntask == SR_NUC_NTASK &&
		    strcmp(w->stage[s].task[0].name, sr_nuc_task_name[0]) == 0)
			break;
	if (s == w->nstage || s != 1 || w->nstage > 3)
		sr_die(SR_EXIT_DATA, "%s: not the nuclei workflow: seg-run "
		    "executes a normalization stage, a stage of tasks Seg0 to "
		    "Seg6, and optionally a comparison stage", w->path);
	for (t = 0; t < SR_NUC_NTASK; t++) {
		const sr_task *task = &w->stage[s].task[t];
		if (strcmp(task->name, sr_nuc_task_name[t]) != 0 ||
		    !same_params(task, (int)t))
			sr_die(SR_EXIT_DATA, "%s:%zu: task %s: seg-run's task %s "
			    "reads other parameters", w->path, task->line,
			    task->name, sr_nuc_task_name[t]);
	}
	for (k = 0; k < w->nstage; k++)
		for (t = 0; k != s && t < w->stage[k].ntask; t++)
			if (w->stage[k].task[t].nparam > 0)
				sr_die(SR_EXIT_DATA, "%s:%zu: task %s: seg-run "
				    "runs no parameters outside stage %s", w->path,
				    w->stage[k].task[t].line,
				    w->stage[k].task[t].name, w->stage[s].name);
	for (k = 0; k < SR_NUC_NPARAM; k++)
		param_col[k] = sr_workflow_param(w, sr_nuc_param_name[k]);
	return s;
}

/* ---- the bucket --------------------------------------------------------- */

/* Reads row I of the plan: its instances (ids within the stage) and its
 * task count; *line gets the row's line. */
static size_t *
read_bucket(const struct opts *o, const sr_workflow *w, size_t st,
    size_t nstage, size_t *n, long *tasks, size_t *line)
{
	sr_tsv *t = sr_tsv_open(o->buckets);
	int cb = sr_tsv_need(t, "bucket"), ci = sr_tsv_need(t, "instances");
	int ct = sr_tsv_need(t, "tasks");
	char *stage = sr_tsv_meta(t, "stage"), item[32];
	size_t row, *inst = NULL;
	unsigned char *seen = sr_calloc(nstage, 1);
	const char *f;
	long id;
	int rc;

	if (stage && strcmp(stage, w->stage[st].name) != 0)
		sr_die(SR_EXIT_DATA, "%s: a plan of stage %s, not %s", o->buckets,
		    stage, w->stage[st].name);
	free(stage);
	for (row = 0;; row++) {
		if (!sr_tsv_next(t)) {
			if (row == 0)
				sr_die(SR_EXIT_DATA, "%s: no buckets", o->buckets);
			sr_die(SR_EXIT_DATA, "%s: --bucket %ld: the plan has "
			    "buckets 0 to %zu", o->buckets, o->bucket, row - 1);
		}
		if (row == (size_t)o->bucket)
			break;
	}
	if (sr_tsv_long(t, cb) != o->bucket)
		sr_tsv_die(t, cb, "row %ld is bucket %ld", o->bucket,
		    sr_tsv_long(t, cb));
	*n = 0;
	f = sr_tsv_str(t, ci);
	while ((rc = sr_list_next(&f, item, sizeof item)) > 0) {
		if (sr_parse_long(item, &id) || id < 0 || (size_t)id >= nstage)
			sr_tsv_die(t, ci, "'%s' is not an instance of stage %s "
			    "(0 to %zu)", item, w->stage[st].name, nstage - 1);
		if (seen[id]++)
			sr_tsv_die(t, ci, "instance %ld twice", id);
		inst = sr_reallocarray(inst, *n + 1, sizeof *inst);
		inst[(*n)++] = (size_t)id;
	}
	if (rc < 0 || *n == 0)
		sr_tsv_die(t, ci, "'%.40s' is not a list of instances",
		    sr_tsv_str(t, ci));
	*tasks = sr_tsv_long(t, ct);
	*line = t->lineno;
	sr_tsv_close(t);
	free(seen);
	return inst;
}

/* The 15 parameter values of each of the bucket's instances; dies naming
 * the instances file, line and column of a value off its domain. */
static double *
bucket_params(const sr_instances *in, size_t st, const size_t *inst, size_t n,
    const int *col, const char *path)
{
	double *p = sr_calloc(n, SR_NUC_NPARAM * sizeof *p);
	size_t i, k;

	for (i = 0; i < n; i++) {
		size_t g = in->first[st] + inst[i];
		for (k = 0; k < SR_NUC_NPARAM; k++) {
			double v = in->inst[g].value[col[k]];
			const char *why = sr_nuc_param_check((int)k, v);
			if (why)
				sr_die(SR_EXIT_DATA, "%s:%zu: column %s: value "
				    "%.17g: %s", path, in->line[g],
				    sr_nuc_param_name[k], v, why);
			p[i * SR_NUC_NPARAM + k] = v;
		}
	}
	return p;
}

/* The reuse keys of the bucket's instances, from the stage's. */
static uint64_t *
bucket_keys(const sr_instances *in, size_t st, const size_t *inst, size_t n)
{
	uint64_t *all = sr_stage_keys(in, st);
	uint64_t *key = sr_calloc(n, SR_NUC_NTASK * sizeof *key);
	size_t i;

	for (i = 0; i < n; i++)
		memcpy(key + i * SR_NUC_NTASK, all + inst[i] * SR_NUC_NTASK,
		    SR_NUC_NTASK * sizeof *key);
	free(all);
	return key;
}

/* Dies unless the plan's task count is the bucket's: a plan made from
 * another instances file would run other work than it costed. */
static size_t
check_tasks(const struct opts *o, const uint64_t *key, size_t n, long tasks,
    size_t line)
{
	sr_rtree *t = sr_rtree_build(n, SR_NUC_NTASK, key, NULL);
	size_t k = t->nnodes - 1;

	if (tasks < 0 || (size_t)tasks != k)
		sr_die(SR_EXIT_DATA, "%s:%zu: column tasks: %ld, but the bucket's "
		    "instances share %zu tasks: a plan of another instances "
		    "file?", o->buckets, line, tasks, k);
	sr_rtree_free(t);
	return k;
}

/* ---- tiles and references ------------------------------------------------ */

static char *
join(const char *a, const char *b, const char *c)
{
	size_t n = strlen(a) + strlen(b) + strlen(c) + 2;
	char *s = sr_malloc(n);

	snprintf(s, n, "%s/%s%s", a, b, c);
	return s;
}

/* Checks every tile can be opened before any work starts. */
static void
check_tiles(const sr_tiles *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (access(t->path[i], R_OK) != 0)
			sr_die(SR_EXIT_DATA, "%s:%zu: %s: %s", t->list, t->line[i],
			    t->path[i], strerror(errno));
}

/* The reference mask of every tile: DIR/TILE + suffix, or .tif then .png. */
static char **
ref_paths(const struct opts *o, const sr_tiles *t)
{
	char **ref = sr_calloc(t->n, sizeof *ref);
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (o->ref_suffix)
			ref[i] = join(o->ref, t->name[i], o->ref_suffix);
		else {
			ref[i] = join(o->ref, t->name[i], ".tif");
			if (access(ref[i], F_OK) != 0) {
				free(ref[i]);
				ref[i] = join(o->ref, t->name[i], ".png");
			}
		}
		if (access(ref[i], R_OK) != 0)
			sr_die(SR_EXIT_DATA, "%s: no reference mask for tile %s "
			    "(%s:%zu): %s", ref[i], t->name[i], t->list, t->line[i],
			    strerror(errno));
	}
	return ref;
}

/* ---- masks ----------------------------------------------------------------- */

/* What the mask callback needs. */
struct maskctx {
	const struct opts *o;
	const sr_instances *in;
	size_t st;
	const size_t *inst;	/* the bucket's instances */
	const sr_tiles *tiles;
};

/* Temporary mask files being written, removed if the run dies or is
 * killed: one fixed slot per thread (each writes one mask at a time),
 * allocated before the run, so a signal handler can walk them. */
struct tmpslot {
	char *name;		/* PATH_MAX bytes */
	volatile sig_atomic_t live;
	int taken;
};
static struct tmpslot *slot;
static size_t nslot;
static pthread_mutex_t slot_mu = PTHREAD_MUTEX_INITIALIZER;
static void (*next_hook)(void);

static void
remove_tmps(void)
{
	size_t i;

	for (i = 0; i < nslot; i++)
		if (slot[i].live)
			unlink(slot[i].name);
	if (next_hook)
		next_hook();
}

/* Sets up n slots and chains remove_tmps before the output module's
 * cleanup (call after the outputs are opened). */
static void
slots_init(size_t n)
{
	size_t i;

	slot = sr_calloc(n, sizeof *slot);
	for (i = 0; i < n; i++)
		slot[i].name = sr_malloc(PATH_MAX);
	nslot = n;
	next_hook = sr_cleanup_hook;
	sr_cleanup_hook = remove_tmps;
}

static void
slots_free(void)
{
	size_t i;

	sr_cleanup_hook = next_hook;
	for (i = 0; i < nslot; i++)
		free(slot[i].name);
	free(slot);
	nslot = 0;
}

/* Takes a free slot. */
static struct tmpslot *
slot_take(void)
{
	size_t i;

	pthread_mutex_lock(&slot_mu);
	for (i = 0; slot[i].taken; i++)
		;
	slot[i].taken = 1;
	pthread_mutex_unlock(&slot_mu);
	return &slot[i];
}

static void
slot_give(struct tmpslot *s)
{
	s->live = 0;
	pthread_mutex_lock(&slot_mu);
	s->taken = 0;
	pthread_mutex_unlock(&slot_mu);
}

/* Makes DIR/RUN if missing. */
static void
make_dir(const char *d)
{
	if (mkdir(d, 0777) != 0 && errno != EEXIST)
		sr_die_errno("%s", d);
}

/* Writes one image file atomically: a temporary beside it, renamed; a
 * mask (px) or, when px is NULL, an RGB image. */
static void
write_image(const struct maskctx *c, const char *path, const uint32_t *px,
    size_t w, size_t h, const sr_rgb *rgb)
{
	struct tmpslot *s;
	const char *base = strrchr(path, '/');
	char err[SR_ERRLEN];
	FILE *fp;
	int fd, rc;

	base = base ? base + 1 : path;
	if (strlen(path) + 16 > PATH_MAX)
		sr_die(SR_EXIT_DATA, "%s: path too long", path);
	s = slot_take();
	snprintf(s->name, PATH_MAX, "%.*s.%s.tmp.XXXXXX", (int)(base - path),
	    path, base);
	s->live = 1;
	if ((fd = mkstemp(s->name)) < 0)
		sr_die_errno("%s", s->name);
	fchmod(fd, 0666 & ~sr_current_umask());
	if (!(fp = fdopen(fd, "w+b")))
		sr_die_errno("%s", s->name);
	if (!px)
		rc = sr_rgb_write_tiff(fp, path, rgb, 0, 0, err);
	else
		rc = c->o->png8 ? sr_mask_write_png(fp, path, px, w, h, err) :
		    sr_labels_write_tiff(fp, path, px, w, h, err);
	if (rc < 0)
		sr_die(SR_EXIT_DATA, "%s", err);
	if (fflush(fp) != 0 || fsync(fileno(fp)) != 0 || ferror(fp))
		sr_die_errno("%s", path);
	if (fclose(fp) != 0)
		sr_die_errno("%s", path);
	if (rename(s->name, path) != 0)
		sr_die_errno("%s", path);
	slot_give(s);
}

/* The runner's mask callback: DIR/RUN/TILE.tif (or .png) for every run of
 * the instance. */
static void
on_mask(void *ctx, size_t i, size_t tile, const uint32_t *labels, size_t w,
    size_t h)
{
	struct maskctx *c = ctx;
	const sr_instance *x = &c->in->inst[c->in->first[c->st] + c->inst[i]];
	char run[32], *dir, *path;
	uint32_t *zero = NULL;
	size_t r;

	if (!labels)		/* an empty mask */
		labels = zero = sr_calloc(w * h, sizeof *zero);
	for (r = 0; r < x->nruns; r++) {
		snprintf(run, sizeof run, "%zu", x->runs[r]);
		dir = join(c->o->masks, run, "");
		make_dir(dir);
		path = join(dir, c->tiles->name[tile], c->o->png8 ? ".png" :
		    ".tif");
		write_image(c, path, labels, w, h, NULL);
		free(path);
		free(dir);
	}
	free(zero);
}

/* The runner's normalized-tile callback: DIR/TILE.tif. */
static void
on_normalized(void *ctx, size_t tile, const sr_rgb *img)
{
	struct maskctx *c = ctx;
	char *path = join(c->o->save_norm, c->tiles->name[tile], ".tif");

	write_image(c, path, NULL, img->w, img->h, img);
	free(path);
}

/* ---- outputs ------------------------------------------------------------- */

/* The results' first metadata line: what a complete bucket must match. */
static const char *
done_line(const struct opts *o, size_t n, size_t runs, size_t tiles,
    size_t tasks)
{
	static char line[160];

	snprintf(line, sizeof line, "#bucket=%ld instances=%zu runs=%zu "
	    "tiles=%zu tasks=%zu\n", o->bucket, n, runs, tiles, tasks);
	return line;
}

/* Whether the bucket's outputs are complete from an earlier run: both
 * files present and the results made for this bucket (same bucket,
 * instances, runs, tiles and tasks). */
static int
already_done(const struct opts *o, const char *want)
{
	FILE *fp;
	char line[256];
	int done = 0, n = 0;

	if (access(o->timings, F_OK) != 0 || !(fp = fopen(o->output, "r")))
		return 0;
	while (!done && n++ < 8 && fgets(line, sizeof line, fp))
		done = strcmp(line, want) == 0;
	fclose(fp);
	return done;
}

/* The runs the bucket's instances serve. */
static size_t
count_runs(const sr_instances *in, size_t st, const size_t *inst, size_t n)
{
	size_t i, r = 0;

	for (i = 0; i < n; i++)
		r += in->inst[in->first[st] + inst[i]].nruns;
	return r;
}

/* The comma list of instances below node v. */
static void
put_node_instances(FILE *fp, const sr_runout *r, const size_t *inst, size_t v)
{
	size_t k, *ids, n = r->node_first[v + 1] - r->node_first[v];

	ids = sr_calloc(n, sizeof *ids);
	for (k = 0; k < n; k++)
		ids[k] = inst[r->node_inst[r->node_first[v] + k]];
	qsort(ids, n, sizeof *ids, sr_cmp_size);
	for (k = 0; k < n; k++)
		fprintf(fp, "%s%zu", k ? "," : "", ids[k]);
	free(ids);
}

/* The distinct upstream (normalization) instances of the bucket. */
static void
put_upstream(FILE *fp, const sr_instances *in, size_t st, const size_t *inst,
    size_t n)
{
	size_t *up = sr_calloc(n, sizeof *up), k, m = 0;

	for (k = 0; k < n; k++)
		up[k] = in->inst[in->first[st] + inst[k]].upstream;
	qsort(up, n, sizeof *up, sr_cmp_size);
	for (k = 0; k < n; k++)
		if (k == 0 || up[k] != up[k - 1])
			fprintf(fp, "%s%zu", m++ ? "," : "", up[k]);
	free(up);
}

/* The comparison instances (stage st + 1) downstream of the instances
 * below node v. */
static void
put_compare(FILE *fp, const sr_instances *in, size_t st, const sr_runout *r,
    const size_t *inst, size_t v)
{
	size_t c, k, m = 0;

	for (c = in->first[st + 1]; c < in->first[st + 2]; c++)
		for (k = r->node_first[v]; k < r->node_first[v + 1]; k++)
			if (in->inst[c].upstream == inst[r->node_inst[k]])
				fprintf(fp, "%s%zu", m++ ? "," : "", in->inst[c].id);
}

static void
write_timings(FILE *fp, const struct opts *o, const sr_instances *in,
    size_t st, const size_t *inst, size_t n, const sr_tiles *tiles,
    const sr_runout *r, int argc, char **argv)
{
	const sr_workflow *w = in->w;
	int has_compare = st + 1 < w->nstage;
	size_t i, k;

	sr_out_provenance(fp, argc, argv);
	fprintf(fp, "#bucket=%ld tiles=%zu\n", o->bucket, tiles->n);
	fprintf(fp, "#memory heap=%zu peak_rss=%zu\n", sr_arena_size(),
	    sr_peak_rss());
	for (i = 0; i < tiles->n; i++) {
		fprintf(fp, "#read tile=%s seconds=", tiles->name[i]);
		sr_put_double(fp, r->read_seconds[i]);
		fputc('\n', fp);
		if (o->prefault) {
			fprintf(fp, "#prefault tile=%s seconds=", tiles->name[i]);
			sr_put_double(fp, r->prefault_seconds[i]);
			fputc('\n', fp);
		}
	}
	fputs("bucket\ttile\tdepth\ttask\tinstances\tseconds\tbytes\n", fp);
	for (k = 0; k < r->ntiming; k++) {
		const sr_runtiming *t = &r->timing[k];
		if (t->task == SR_NUC_NTASK && !has_compare)
			continue;
		fprintf(fp, "%ld\t%s\t", o->bucket, tiles->name[t->tile]);
		if (t->task < 0) {
			fprintf(fp, "1\t%s\t", w->stage[st - 1].task[0].name);
			put_upstream(fp, in, st, inst, n);
		} else if (t->task == SR_NUC_NTASK) {
			fprintf(fp, "1\t%s\t", w->stage[st + 1].task[0].name);
			put_compare(fp, in, st, r, inst, t->node);
		} else {
			fprintf(fp, "%d\t%s\t", t->task + 1,
			    w->stage[st].task[t->task].name);
			put_node_instances(fp, r, inst, t->node);
		}
		fputc('\t', fp);
		sr_put_double(fp, t->seconds);
		fprintf(fp, "\t%zu\n", t->bytes);
	}
}

/* A run and the bucket's instance that serves it. */
struct runref {
	size_t run, i;
};

static int
cmp_runref(const void *a, const void *b)
{
	const struct runref *x = a, *y = b;

	return (x->run > y->run) - (x->run < y->run);
}

static void
write_results(FILE *fp, const struct opts *o, const sr_instances *in,
    size_t st, const size_t *inst, size_t n, const sr_tiles *tiles,
    const sr_runout *r, int argc, char **argv)
{
	struct runref *rr = NULL;
	size_t nr = 0, i, k, t;

	for (i = 0; i < n; i++) {
		const sr_instance *x = &in->inst[in->first[st] + inst[i]];
		rr = sr_reallocarray(rr, nr + x->nruns, sizeof *rr);
		for (k = 0; k < x->nruns; k++)
			rr[nr++] = (struct runref){ x->runs[k], i };
	}
	qsort(rr, nr, sizeof *rr, cmp_runref);
	sr_out_provenance(fp, argc, argv);
	fputs(done_line(o, n, nr, tiles->n, r->tree->nnodes - 1), fp);
	fprintf(fp, "#active_paths=%zu normalize=%s\n", o->active,
	    !o->normalize ? "none" : o->target ? "target-image" : "reinhard");
	for (t = 0; t < tiles->n; t++)
		if (o->normalize && !r->normalized[t])
			fprintf(fp, "#unnormalized tile=%s foreground=%.4f\n",
			    tiles->name[t], r->foreground[t]);
	fprintf(fp, "run\ttile\tstatus%s\tobjects\tseconds\n",
	    o->ref ? "\tdice\tjaccard" : "");
	for (k = 0; k < nr; k++)
		for (t = 0; t < tiles->n; t++) {
			const sr_runresult *res = &r->result[rr[k].i * tiles->n + t];
			fprintf(fp, "%zu\t%s\t%s", rr[k].run, tiles->name[t],
			    sr_nuc_status_name[res->status]);
			if (o->ref) {
				fputc('\t', fp);
				sr_put_double(fp, res->dice);
				fputc('\t', fp);
				sr_put_double(fp, res->jaccard);
			}
			fprintf(fp, "\t%zu\t", res->objects);
			sr_put_double(fp, res->seconds);
			fputc('\n', fp);
		}
	free(rr);
}

int
main(int argc, char **argv)
{
	struct opts o;
	sr_workflow *w;
	sr_instances *in;
	sr_tiles *tiles;
	sr_runjob job;
	sr_runout r;
	struct maskctx mc;
	int col[SR_NUC_NPARAM];
	size_t st, n, line, nstage, i, ntasks;
	size_t *inst;
	long tasks;
	char **ref = NULL;
	FILE *ft, *fr;

	sr_init(argv[0]);
	sr_arena_keep();
	memset(&job, 0, sizeof job);
	parse(argc, argv, &o);
	sr_opencv_init();
	w = sr_workflow_read(o.workflow);
	st = segment_stage(w, col);
	in = sr_instances_read(o.instances, w);
	nstage = in->first[st + 1] - in->first[st];
	if (nstage == 0)
		sr_die(SR_EXIT_DATA, "%s: no instances of stage %s", o.instances,
		    w->stage[st].name);
	inst = read_bucket(&o, w, st, nstage, &n, &tasks, &line);
	tiles = sr_tiles_read(o.tiles);
	check_tiles(tiles);
	if (o.ref)
		ref = ref_paths(&o, tiles);
	job.param = bucket_params(in, st, inst, n, col, o.instances);
	job.key = bucket_keys(in, st, inst, n);
	ntasks = check_tasks(&o, job.key, n, tasks, line);
	if (!o.force && already_done(&o, done_line(&o, n, count_runs(in, st,
	    inst, n), tiles->n, ntasks))) {
		if (!o.quiet)
			sr_warn("bucket %ld: %s and %s are complete; --force "
			    "redoes them", o.bucket, o.output, o.timings);
		goto done;
	}

	job.ntiles = tiles->n;
	job.tile_path = tiles->path;
	job.ref_path = ref;
	job.normalize = o.normalize;
	memcpy(job.mean, sr_norm_target_mean, sizeof job.mean);
	memcpy(job.sd, sr_norm_target_std, sizeof job.sd);
	if (o.target) {
		sr_rgb timg;
		char err[SR_ERRLEN];
		double fg;
		if (sr_rgb_read(o.target, &timg, err) < 0)
			sr_die(SR_EXIT_DATA, "%s", err);
		if (sr_norm_stats(&timg, job.mean, job.sd, &fg) < 0)
			sr_die(SR_EXIT_DATA, "%s: no foreground pixels to take "
			    "the colour statistics from", o.target);
		sr_rgb_free(&timg);
	}
	job.ninst = n;
	job.threads = o.active;
	job.prefault = o.prefault;
	job.progress = !o.quiet && isatty(STDERR_FILENO);
	memset(&mc, 0, sizeof mc);
	mc.o = &o;
	mc.in = in;
	mc.st = st;
	mc.inst = inst;
	mc.tiles = tiles;
	job.ctx = &mc;
	if (o.masks) {
		make_dir(o.masks);
		job.mask = on_mask;
	}
	if (o.save_norm) {
		make_dir(o.save_norm);
		job.normalized = on_normalized;
	}
	ft = sr_out_open(o.timings);	/* results last: their presence */
	fr = sr_out_open(o.output);	/* marks a complete bucket */
	if (o.masks || o.save_norm)
		slots_init(o.active);
	sr_run_bucket(&job, &r);
	write_timings(ft, &o, in, st, inst, n, tiles, &r, argc, argv);
	write_results(fr, &o, in, st, inst, n, tiles, &r, argc, argv);
	for (i = 0; i < tiles->n; i++)
		if (o.normalize && !r.normalized[i])
			sr_warn("%s: not normalized: %.2f %% foreground (at least "
			    "%.1f %% needed, or no colour spread)", tiles->path[i],
			    100 * r.foreground[i], 100 * SR_NORM_MIN_FOREGROUND);
	if (o.masks || o.save_norm)
		slots_free();
	sr_out_commit_all();
	sr_runout_free(&r);
done:
	free((void *)job.param);
	free((void *)job.key);
	if (ref)
		for (i = 0; i < tiles->n; i++)
			free(ref[i]);
	free(ref);
	sr_tiles_free(tiles);
	free(inst);
	sr_instances_free(in);
	sr_workflow_free(w);
	return 0;
}
