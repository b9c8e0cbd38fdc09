/* seg-run - execute one bucket of the nuclei-segmentation workflow, or
 * of a workflow of commands. */
#include <stdio.h>
#include <unistd.h>

#include "core/err.h"
#include "core/out.h"
#include "exec/arena.h"
#include "exec/cmdrun.h"
#include "exec/outputs.h"
#include "exec/runner.h"
#include "exec/segopts.h"
#include "exec/segplan.h"
#include "exec/spawn.h"
#include "exec/tune.h"
#include "image/opencv.h"
#include "image/tiles.h"

static void
usage(FILE *fp)
{
	fputs(
"Usage: seg-run --workflow WF --instances INSTANCES.tsv --buckets BUCKETS.tsv\n"
"         --bucket I --tiles TILES.list -o RESULTS.tsv --timings TIMINGS.tsv\n"
"         [--ref DIR [--ref-suffix S]] [--masks DIR] [options]\n"
"       seg-run --estimate-memory --tiles TILES.list [--active-paths N]\n"
"         [--workflow WF [--command-mem SIZE]]\n"
"Execute bucket I of a plan of the nuclei-segmentation workflow, or of a\n"
"workflow of commands, on every tile: each tile normalized once, the\n"
"bucket's merged task tree walked depth-first with at most N paths at once.\n"
"\n"
"      --workflow FILE      the workflow (share/workflows/nuclei.wf)\n"
"      --instances FILE     stage instances (wf-compact)\n"
"      --buckets FILE       the bucket plan (reuse-merge)\n"
"      --bucket I           the row of BUCKETS to execute, from 0\n"
"      --tiles FILE         tiles list (an image path a line) or tile table\n"
"      --ref DIR            compare with DIR/TILE.tif or DIR/TILE.png, else\n"
"                           a slide's tile with DIR/SLIDE.geojson\n"
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
"      --metric NAME        dice, jaccard, object_dice, aji, or a metric of\n"
"                           the commands [dice]\n"
"      --scratch DIR        commands' outputs under DIR [$TMPDIR, /tmp]\n"
"      --task-timeout S     a command running longer fails [none]\n"
"      --threads-per-path N the commands' {threads} [1]\n"
"      --command-logs DIR   keep each command's output in DIR\n"
"      --command-mem SIZE   --estimate-memory: the commands' per path\n"
"  -o, --output FILE        results: one row per run and tile\n"
"      --timings FILE       one row per executed task node and tile\n"
"  -q, --quiet              no progress on a terminal\n"
"  -h, --help               this help\n"
"      --version            version\n", fp);
}

/* The job of a workflow of commands: its scratch directory, the
 * commands found, their reaper started (before any thread). */
static const sr_cmdjob *
commands(sr_cmdjob *c, const sr_segopts *o, const sr_segplan *p)
{
	char err[SR_ERRLEN];

	if (o->command_logs)
		sr_make_dirs(o->command_logs);
	sr_cmdjob_init(c, p->w, p->st, o->scratch);
	c->logs = o->command_logs;
	c->timeout = o->task_timeout;
	c->threads = o->threads_per_path;
	c->inst = p->in;
	if (sr_spawn_init(err) < 0)
		sr_die(SR_EXIT_DATA, "%s", err);
	return c;
}

/* Runs the bucket and writes its outputs (results last: their presence
 * marks a complete bucket). */
static void
run(const sr_segopts *o, const sr_segplan *p, const sr_tiles *tiles,
    char **ref, int argc, char **argv)
{
	sr_runjob job;
	sr_runout r;
	sr_tune *tune = NULL;
	sr_cmdjob cmd = { 0 };
	FILE *ft, *fr;

	sr_tileref *georef = sr_ref_georefs(ref, tiles);

	sr_segout_job(&job, &o->out, p, tiles, ref, o->target,
	    !o->quiet && isatty(STDERR_FILENO));
	job.georef = georef;
	fr = sr_out_open(o->out.results);	/* primary: committed last */
	ft = sr_out_open(o->out.timings);
	if (p->commands)	/* its cleanup chained after the outputs' */
		job.cmd = commands(&cmd, o, p);
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
	sr_cmdjob_free(&cmd);
	sr_ref_georefs_free(georef, tiles->n);
}

int
main(int argc, char **argv)
{
	sr_segopts o;
	sr_segplan *p;
	sr_tiles *tiles;
	char **ref;

	sr_init(argv[0]);
	sr_arena_keep();
	sr_segopts_parse(argc, argv, &o, usage);
	if (o.estimate) {
		tiles = sr_tiles_read(o.tiles);
		printf("%zu\n", sr_segplan_estimate(o.workflow, tiles, o.out.active,
		    o.command_mem, o.command_mem_set));
		sr_tiles_free(tiles);
		sr_out_commit_all();
		return SR_EXIT_OK;
	}
	sr_opencv_init();
	p = sr_segplan_read(o.workflow, o.instances, o.buckets, o.bucket);
	if (p->commands && !p->has_norm)
		o.out.normalize = 0;
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
