/* segopts.c - seg-run's command line (segopts.h). */
#include "exec/segopts.h"
#include "core/err.h"
#include "core/mem.h"
#include "core/opt.h"
#include "core/out.h"
#include "core/path.h"
#include "image/image.h"
#include "image/tiles.h"
#include "sa/cancel.h"

#include <getopt.h>
#include <string.h>

enum {
	OPT_WORKFLOW = SR_SEGOUT_OPT_END, OPT_INSTANCES, OPT_BUCKETS, OPT_BUCKET,
	OPT_TILES, OPT_REF_SUFFIX, OPT_TARGET, OPT_FORCE, OPT_ESTIMATE,
	OPT_MAX_MEMORY, OPT_LEDGER, OPT_CANCEL, OPT_METRIC, OPT_TILE_ORDER,
	OPT_SCRATCH, OPT_COMMAND_LOGS, OPT_TASK_TIMEOUT, OPT_THREADS_PER_PATH,
	OPT_COMMAND_MEM,
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
	{ "scratch", required_argument, NULL, OPT_SCRATCH },
	{ "command-logs", required_argument, NULL, OPT_COMMAND_LOGS },
	{ "task-timeout", required_argument, NULL, OPT_TASK_TIMEOUT },
	{ "threads-per-path", required_argument, NULL, OPT_THREADS_PER_PATH },
	{ "command-mem", required_argument, NULL, OPT_COMMAND_MEM },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	SR_OPT_HELP_ENTRIES(OPT_VERSION)
};

/* --command-mem SIZE: bytes, as --max-memory takes them. */
static void
command_mem(sr_segopts *o, const char *arg)
{
	const char *why = sr_parse_size(arg, &o->command_mem);

	if (why)
		sr_usage_error("--command-mem '%s': %s", arg, why);
	o->command_mem_set = 1;
}

/* The options of --estimate-memory: --tiles, --active-paths, and
 * --workflow with --command-mem only. */
static void
check_estimate(const sr_segopts *o, const sr_segout *u)
{
	if (!o->tiles)
		sr_usage_error("--estimate-memory needs --tiles");
	if (o->command_mem_set && !o->workflow)
		sr_usage_error("--command-mem needs --workflow");
	if (o->instances || o->buckets || o->bucket >= 0 ||
	    u->results || u->timings || u->ref || u->masks || u->save_norm ||
	    u->geojson || u->chunk >= 0 ||
	    o->target || o->force || !u->normalize || !u->prefault || u->png8 ||
	    o->scratch || o->command_logs || o->task_timeout > 0)
		sr_usage_error("--estimate-memory takes only --tiles, "
		    "--active-paths, --workflow, --command-mem (and "
		    "--max-memory)");
}

static void
check_run(const sr_segopts *o, const sr_segout *u)
{
	if (o->command_mem_set)
		sr_usage_error("--command-mem goes with --estimate-memory");
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

void
sr_segopts_parse(int argc, char **argv, sr_segopts *o, void (*usage)(FILE *))
{
	sr_segout *u = &o->out;
	int c;

	memset(o, 0, sizeof *o);
	o->bucket = -1;
	o->threads_per_path = 1;
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
		case OPT_METRIC: o->tune.metric = optarg; o->tuneopt = 1; break;
		case OPT_TILE_ORDER: o->shuffle = sr_tiles_order_parse(
		    "--tile-order", optarg, &o->seed); break;
		case OPT_SCRATCH: o->scratch = optarg; break;
		case OPT_COMMAND_LOGS: o->command_logs = optarg; break;
		case OPT_TASK_TIMEOUT: o->task_timeout = sr_opt_seconds(
		    "--task-timeout", optarg); break;
		case OPT_THREADS_PER_PATH: o->threads_per_path = (int)sr_opt_count(
		    "--threads-per-path", optarg, 1, 4096); break;
		case OPT_COMMAND_MEM: command_mem(o, optarg); break;
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
