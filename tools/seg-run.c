/* seg-run - execute one bucket of the nuclei-segmentation workflow. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/mem.h"
#include "core/opt.h"
#include "core/out.h"
#include "core/path.h"
#include "exec/arena.h"
#include "exec/outputs.h"
#include "exec/runner.h"
#include "exec/segplan.h"
#include "exec/tune.h"
#include "image/image.h"
#include "image/opencv.h"
#include "image/tiles.h"
#include "sa/cancel.h"

enum {
	OPT_WORKFLOW = SR_SEGOUT_OPT_END, OPT_INSTANCES, OPT_BUCKETS, OPT_BUCKET,
	OPT_TILES, OPT_REF_SUFFIX, OPT_TARGET, OPT_FORCE, OPT_ESTIMATE,
	OPT_MAX_MEMORY, OPT_LEDGER, OPT_CANCEL, OPT_METRIC, OPT_TILE_ORDER,
	OPT_VERSION
};

static const struct option longopts[] = {
	{ "workflow", required_argument, NULL, OPT_WORKFLOW },
	{ "instances", required_argument, NULL, OPT_INSTANCES },
	{ "buckets", required_argument, NULL, OPT_BUCKETS },
	{ "bucket", required_argument, NULL, OPT_BUCKET },
	{ "tiles", required_argument, NULL, OPT_TILES },
	{ "ref-suffix", required_argument, NULL, OPT_REF_SUFFIX },
	SR_SEGOUT_LONGOPTS,
	{ "target-image", required_argument, NULL, OPT_TARGET },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "estimate-memory", no_argument, NULL, OPT_ESTIMATE },
	{ "max-memory", required_argument, NULL, OPT_MAX_MEMORY },
	{ "ledger", required_argument, NULL, OPT_LEDGER },
	{ "cancel", required_argument, NULL, OPT_CANCEL },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "tile-order", required_argument, NULL, OPT_TILE_ORDER },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	SR_OPT_HELP_ENTRIES(OPT_VERSION)
};

struct opts {
	const char *workflow, *instances, *buckets, *tiles, *ref_suffix, *target;
	const char *max_memory;	/* --max-memory, else SR_MAX_MEMORY */
	sr_segout out;		/* results (-o), timings, masks, ... */
	sr_tuneopts tune;	/* --ledger (tune.ledger NULL: none), ... */
	unsigned long seed;	/* --tile-order shuffle:SEED (shuffle set) */
	long bucket;
	int force, quiet, estimate, tuneopt, shuffle;
};

static void
usage(FILE *fp)
{
	fputs(
"Usage: seg-run --workflow WF --instances INSTANCES.tsv --buckets BUCKETS.tsv\n"
"         --bucket I --tiles TILES.list -o RESULTS.tsv --timings TIMINGS.tsv\n"
"         [--ref DIR [--ref-suffix S]] [--masks DIR] [options]\n"
"       seg-run --estimate-memory --tiles TILES.list [--active-paths N]\n"
"Execute bucket I of a plan of the nuclei-segmentation workflow on every\n"
"tile: each tile normalized once, the bucket's merged task tree walked\n"
"depth-first with at most N paths holding images at once.\n"
"\n"
"      --workflow FILE      the workflow (share/workflows/nuclei.wf)\n"
"      --instances FILE     stage instances (wf-compact)\n"
"      --buckets FILE       the bucket plan (reuse-merge)\n"
"      --bucket I           the row of BUCKETS to execute, from 0\n"
"      --tiles FILE         tiles list (an image path a line) or tile table\n"
"      --ref DIR            compare with DIR/TILE.tif or DIR/TILE.png\n"
"      --ref-suffix S       compare with DIR/TILE + S instead\n"
"      --active-paths N     paths (and threads) at once [1]\n"
"      --masks DIR          write each run's labels as DIR/RUN/TILE.tif\n"
"      --mask-format F      tif32 (32-bit labels) or png8 (0/255) [tif32]\n"
"      --geojson DIR        each run's objects as DIR/RUN/SLIDE.CCCC.geojson\n"
"      --chunk C            the CCCC of --geojson's files [0]\n"
"      --target-image IMG   normalize to IMG's colour statistics\n"
"      --no-normalize       use the tiles as they are\n"
"      --save-normalized DIR  write each tile as normalized to DIR/TILE.tif\n"
"      --normalized-format F  its compression: zstd, deflate or none [zstd]\n"
"      --no-prefault        leave page faults to the tasks\n"
"      --force              redo a bucket whose outputs are complete\n"
"      --estimate-memory    print the MiB a bucket needs on these tiles\n"
"      --max-memory SIZE    refuse images needing more (16G) [$SR_MAX_MEMORY]\n"
"      --tile-order ORDER   list, or shuffle:SEED [list]\n"
"      --ledger FILE        tuning: share results and cancellations there\n"
"      --cancel RULE        none, stable, median, wilcoxon[:K=V,...] [none]\n"
"      --metric NAME        dice, jaccard, object_dice or aji [dice]\n"
"  -o, --output FILE        results: one row per run and tile\n"
"      --timings FILE       one row per executed task node and tile\n"
"  -q, --quiet              no progress on a terminal\n"
"  -h, --help               this help\n"
"      --version            version\n", fp);
}

/* The options of --estimate-memory: --tiles and --active-paths only. */
static void
check_estimate(const struct opts *o, const sr_segout *u)
{
	if (!o->tiles)
		sr_usage_error("--estimate-memory needs --tiles");
	if (o->workflow || o->instances || o->buckets || o->bucket >= 0 ||
	    u->results || u->timings || u->ref || u->masks || u->save_norm ||
	    u->geojson || u->chunk >= 0 ||
	    o->target || o->force || !u->normalize || !u->prefault || u->png8)
		sr_usage_error("--estimate-memory takes only --tiles and "
		    "--active-paths (and --max-memory)");
}

static void
check_run(const struct opts *o, const sr_segout *u)
{
	if (!o->workflow || !o->instances || !o->buckets || o->bucket < 0 ||
	    !o->tiles || !u->results || !u->timings)
		sr_usage_error("--workflow, --instances, --buckets, --bucket, "
		    "--tiles, -o and --timings are required");
	if (o->ref_suffix && !u->ref)
		sr_usage_error("--ref-suffix needs --ref");
	if (o->target && !u->normalize)
		sr_usage_error("--target-image and --no-normalize exclude each "
		    "other");
	if (strcmp(u->results, "-") == 0 || strcmp(u->timings, "-") == 0 ||
	    sr_path_same(u->results, u->timings))
		sr_usage_error("-o and --timings must be two different files");
	sr_segout_check_options(u);
	sr_tune_check(&o->tune, o->tuneopt, u);
}

static void
parse(int argc, char **argv, struct opts *o)
{
	sr_segout *u = &o->out;
	int c;

	memset(o, 0, sizeof *o);
	o->bucket = -1;
	sr_tuneopts_init(&o->tune);
	sr_segout_init(u);
	while ((c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_WORKFLOW: o->workflow = optarg; break;
		case OPT_INSTANCES: o->instances = optarg; break;
		case OPT_BUCKETS: o->buckets = optarg; break;
		case OPT_BUCKET: o->bucket = (long)sr_opt_count("--bucket",
		    optarg, 0, SR_COUNT_MAX); break;
		case OPT_TILES: o->tiles = optarg; break;
		case OPT_REF_SUFFIX: o->ref_suffix = optarg; break;
		case OPT_TARGET: o->target = optarg; break;
		case OPT_FORCE: o->force = 1; break;
		case OPT_ESTIMATE: o->estimate = 1; break;
		case OPT_MAX_MEMORY: o->max_memory = optarg; break;
		case OPT_LEDGER: o->tune.ledger = optarg; break;
		case OPT_CANCEL: sr_cancelrule_parse(&o->tune.rule, "--cancel",
		    optarg); o->tuneopt = 1; break;
		case OPT_METRIC: o->tune.metric = sr_opt_word("--metric", optarg,
		    sr_tune_metric_name, SR_TUNE_NMETRIC); o->tuneopt = 1; break;
		case OPT_TILE_ORDER: o->shuffle = sr_tiles_order_parse(
		    "--tile-order", optarg, &o->seed); break;
		case 'o': u->results = optarg; break;
		case 'q': o->quiet = 1; break;
		case 'h': sr_opt_help(usage);
		case OPT_VERSION: sr_print_version();
		default: if (!sr_segout_option(u, c, optarg))
			sr_getopt_fail(c, argv);
		}
	}
	if (optind < argc)
		sr_usage_error("unexpected argument '%s'", argv[optind]);
	u->target = o->target != NULL;
	(o->estimate ? check_estimate : check_run)(o, u);
	sr_image_set_budget(sr_memory_budget(o->max_memory));
}

/* Runs the bucket and writes its outputs (results last: their presence
 * marks a complete bucket). */
static void
run(const struct opts *o, const sr_segplan *p, const sr_tiles *tiles,
    char **ref, int argc, char **argv)
{
	sr_runjob job;
	sr_runout r;
	sr_tune *tune = NULL;
	FILE *ft, *fr;

	sr_segout_job(&job, &o->out, p, tiles, ref, o->target,
	    !o->quiet && isatty(STDERR_FILENO));
	fr = sr_out_open(o->out.results);	/* primary: committed last */
	ft = sr_out_open(o->out.timings);
	sr_segout_masks(&job, &o->out, p, tiles);
	if (o->tune.ledger)
		tune = sr_tune_start(&job, &o->tune, p, tiles);
	sr_run_bucket(&job, &r);
	sr_tune_free(tune);
	sr_segout_timings(ft, &o->out, p, tiles, &r, argc, argv);
	sr_segout_results(fr, &o->out, p, tiles, &r, argc, argv);
	sr_segout_warn(&o->out, tiles, &r);
	sr_segout_masks_end();
	sr_out_commit_all();
	sr_runout_free(&r);
}

int
main(int argc, char **argv)
{
	struct opts o;
	sr_segplan *p;
	sr_tiles *tiles;
	char **ref;

	sr_init(argv[0]);
	sr_arena_keep();
	parse(argc, argv, &o);
	if (o.estimate) {
		tiles = sr_tiles_read(o.tiles);
		printf("%zu\n", sr_segplan_memory_mib(tiles, o.out.active));
		sr_tiles_free(tiles);
		sr_out_commit_all();
		return SR_EXIT_OK;
	}
	sr_opencv_init();
	p = sr_segplan_read(o.workflow, o.instances, o.buckets, o.bucket);
	tiles = sr_tiles_read(o.tiles);
	if (o.shuffle)
		sr_tiles_shuffle(tiles, o.seed);
	sr_tiles_check(tiles);
	ref = o.out.ref ? sr_ref_paths(o.out.ref, o.ref_suffix, tiles) : NULL;
	sr_segout_check_paths(&o.out, p, (const char *[]){ o.workflow, o.instances,
	    o.buckets, o.tiles, o.target }, 5, tiles, ref);
	sr_segplan_check(p);
	if (!o.force && sr_segout_done(&o.out, p, tiles->n)) {
		if (!o.quiet)
			sr_warn("bucket %ld: %s and %s are complete; --force "
			    "redoes them", o.bucket, o.out.results, o.out.timings);
	} else
		run(&o, p, tiles, ref, argc, argv);
	sr_ref_paths_free(ref, tiles->n);
	sr_tiles_free(tiles);
	sr_segplan_free(p);
	return SR_EXIT_OK;
}
