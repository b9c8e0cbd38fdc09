/* harness.c - libFuzzer harnesses of every reader of the library.
 *
 * Built once per reader with -DFUZZ_READER=fuzz_NAME (make fuzzbins):
 * each input is written to a file in a private temporary directory (in
 * /dev/shm when it can) and handed to the reader by path, as the tools
 * do. A refusal (sr_die) must not end the fuzzer: sr_die_hook longjmps
 * back here and track.c closes and frees what the refused read left
 * open. Fixed files a reader needs beside its input (a space, a
 * workflow, images named by a pairs file) are written into the directory
 * once; fixed structures (the workflow, the instances) are read once,
 * untracked. FUZZ_SRCDIR is the source tree, for those files. */
#define _GNU_SOURCE
#include "fuzz.h"
#include "core/err.h"
#include "core/hash.h"
#include "core/path.h"
#include "sa/space.h"
#include "sa/design.h"
#include "sa/metrics.h"
#include "sa/ledger.h"
#include "plan/workflow.h"
#include "plan/instances.h"
#include "plan/buckets.h"
#include "plan/results.h"
#include "plan/timings.h"
#include "plan/gather.h"
#include "plan/trials.h"
#include "sim/costs.h"
#include "sim/fit.h"
#include "sim/model.h"
#include "sim/results.h"
#include "image/image.h"
#include "image/tiles.h"
#include "image/slide.h"
#include "image/tiletable.h"
#include "image/georef.h"
#include "image/compare_table.h"
#include "campaign/campaign.h"

#include <math.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* each build runs one of the readers below */
#pragma clang diagnostic ignored "-Wunused-function"

#ifndef FUZZ_SRCDIR
#define FUZZ_SRCDIR "."
#endif

static char dir[64];
static char input[sizeof dir + 16];
static jmp_buf refused;
static const uint8_t *input_data;	/* the input's bytes, for readers that
					 * rewrite the file as they go */
static FILE *devnull;
static sr_workflow *fixed_wf;		/* share/workflows/nuclei.wf */
static sr_instances *fixed_in;		/* its instances of a MOAT design */

/* The files written into dir, removed at exit. */
static const char *const fixture[] = { "input", "space.tsv", "workflow.wf",
	"instances.tsv", "tiles.list", "a.png", "b.png", "ref/a.mask.png",
	NULL };

static void
die_hook(int code)
{
	(void)code;
	longjmp(refused, 1);
}

/* Writes n bytes to dir/name; aborts on failure (a harness fault). */
static void
put(const char *name, const void *data, size_t n)
{
	char path[sizeof input + 32];
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((fp = fopen(path, "wb")) == NULL || fwrite(data, 1, n, fp) != n ||
	    fclose(fp) != 0) {
		perror(path);
		abort();
	}
}

/* Copies FUZZ_SRCDIR/from to dir/name. */
static void
copy(const char *from, const char *name)
{
	char path[4096], *buf;
	FILE *fp;
	long n;

	snprintf(path, sizeof path, "%s/%s", FUZZ_SRCDIR, from);
	if ((fp = fopen(path, "rb")) == NULL || fseek(fp, 0, SEEK_END) != 0 ||
	    (n = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) != 0) {
		perror(path);
		abort();
	}
	buf = malloc((size_t)n + 1);
	if (buf == NULL || fread(buf, 1, (size_t)n, fp) != (size_t)n)
		abort();
	fclose(fp);
	put(name, buf, (size_t)n);
	free(buf);
}

static void
remove_fixtures(void)
{
	char path[sizeof input + 32];
	size_t i;

	for (i = 0; fixture[i]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, fixture[i]);
		unlink(path);
	}
	snprintf(path, sizeof path, "%s/ref", dir);
	rmdir(path);
	rmdir(dir);
}

/* The directory, its fixed files and structures, the hook; once. */
static void
setup(void)
{
	char path[sizeof input + 32];

	/* a file per input: in memory where there is a tmpfs */
	snprintf(dir, sizeof dir, "%s/sr-fuzz-XXXXXX",
	    access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	if (mkdtemp(dir) == NULL) {
		perror(dir);
		abort();
	}
	atexit(remove_fixtures);
	snprintf(input, sizeof input, "%s/input", dir);
	snprintf(path, sizeof path, "%s/ref", dir);
	mkdir(path, 0700);
	copy("share/spaces/nuclei.tsv", "space.tsv");
	copy("share/workflows/nuclei.wf", "workflow.wf");
	copy("test/fuzz/corpus/instances/nuclei.tsv", "instances.tsv");
	copy("test/fuzz/corpus/png/mask.png", "a.png");
	copy("test/fuzz/corpus/png/mask.png", "b.png");
	copy("test/fuzz/corpus/png/mask.png", "ref/a.mask.png");
	put("tiles.list", "a.png\n", 6);
	snprintf(path, sizeof path, "%s/workflow.wf", dir);
	fixed_wf = sr_workflow_read(path);
	snprintf(path, sizeof path, "%s/instances.tsv", dir);
	fixed_in = sr_instances_read(path, fixed_wf);
	if ((devnull = fopen("/dev/null", "w")) == NULL)
		abort();
	sr_die_hook = die_hook;
}

/* ---- the readers ---------------------------------------------------- */

static void
fuzz_space(const char *path, size_t size)
{
	(void)size;
	sr_space_free(sr_space_read(path));
}

static void
fuzz_design(const char *path, size_t size)
{
	(void)size;
	sr_design_free(sr_design_read(path));
}

/* The aggregation (mean, median, sum) and the metric (the only one, or
 * dice) from the input's size, so that each is reached. */
static void
fuzz_metrics(const char *path, size_t size)
{
	const char *metric = size & 4 ? SR_RESULTS_DICE : NULL;

	sr_metrics_free(sr_metrics_read(path, 16, metric,
	    (enum sr_aggregate)(size % 3)));
}

static void
fuzz_workflow(const char *path, size_t size)
{
	(void)size;
	sr_workflow_free(sr_workflow_read(path));
}

static void
fuzz_instances(const char *path, size_t size)
{
	(void)size;
	sr_instances_free(sr_instances_read(path, fixed_wf));
}

static void
fuzz_buckets(const char *path, size_t size)
{
	sr_buckets_in *b = sr_buckets_open(path, (int)(size & 1));

	sr_buckets_stage(b, 64, NULL);
	while (sr_buckets_next(b))
		;
	sr_buckets_close(b);
}

/* As sa-prune reads a trials.tsv back (for some sizes, and nothing
 * else then), or as sa-trials ranks the sets (for some sizes), as
 * sim-runtime reads results, then as seg-merge gathers them. */
static void
fuzz_results(const char *path, size_t size)
{
	char *files[] = { (char *)path }, *argv[] = { "seg-merge", NULL };
	sr_interner tiles;
	sr_design d = { .nrun = 16 };
	sr_trials *t;

	if (size & 8) {
		sr_trials_table_free(sr_trials_table_read(path));
		return;
	}

	if (size & 4) {	/* as sa-trials ranks the sets of a design */
		t = sr_trials_read(&d, path,
		    size & 1 ? SR_RESULTS_OBJECTS : SR_RESULTS_DICE);
		sr_trials_write(devnull, t, &d, "stable", 1, argv);
		sr_trials_free(t);
	}
	sr_interner_init(&tiles);
	sr_intern_str(&tiles, "a", NULL);
	free(sr_simresults_read(path,
	    size & 1 ? SR_RESULTS_OBJECTS : SR_RESULTS_DICE, &tiles,
	    (int)(size & 2), 16));
	sr_interner_free(&tiles);
	sr_gather(devnull, SR_GATHER_RESULTS, files, 1, NULL, 0, 1, argv);
}

/* Record by record, as sim-runtime costs the instances, as seg-merge
 * gathers them, as sim-runtime --fit fits a model to them. */
static void
fuzz_timings(const char *path, size_t size)
{
	char *files[] = { (char *)path }, *argv[] = { "seg-merge", NULL };
	sr_timings_in *r = sr_timings_open(path);
	sr_simfit fit;

	(void)size;
	while (sr_timings_next(r) != SR_TIMINGS_END)
		;
	sr_timings_close(r);
	sr_simcost_free(sr_simcost_timings(path, fixed_in, NULL));
	sr_gather(devnull, SR_GATHER_TIMINGS, files, 1, NULL, 0, 1, argv);
	sr_simfit_timings(&fit, fixed_wf, path, NULL, 0, NULL);
	sr_simfit_free(&fit);
}

static void
fuzz_model(const char *path, size_t size)
{
	sr_interner tiles;
	sr_simmodel m;

	sr_interner_init(&tiles);
	sr_intern_str(&tiles, "a", NULL);
	if (size & 1)
		sr_intern_str(&tiles, "b", NULL);
	sr_simmodel_init(&m, fixed_wf, path);
	sr_simmodel_read(&m, NULL);
	sr_simcost_free(sr_simcost_model(&m, fixed_in, NULL, &tiles, 1));
	sr_simmodel_free(&m);
	sr_interner_free(&tiles);
}

static void
fuzz_pairs(const char *path, size_t size)
{
	(void)size;
	sr_pairs_free(sr_pairs_read(path));
}

static void
fuzz_tiles(const char *path, size_t size)
{
	(void)size;
	sr_tiles_free(sr_tiles_read(path));
}

/* Parsed, then checked against the directory's space, workflow, tiles
 * list and reference directory. */
static void
fuzz_campaign(const char *path, size_t size)
{
	sr_campaign_env env = { dir, NULL, NULL };
	sr_campaign *c = sr_campaign_new(path);
	char err[512];
	FILE *fp = fopen(path, "r");
	int ok;

	(void)size;
	if (fp == NULL)
		abort();
	ok = sr_campaign_parse(c, fp, err, sizeof err) == 0;
	fclose(fp);
	if (ok && sr_campaign_resolve(c, &env, err, sizeof err) == 0)
		sr_campaign_write(devnull, c);
	sr_campaign_free(c);
}

/* Probed, then read as RGB and as labels, as the tools do. */
static void
fuzz_image(const char *path, size_t size)
{
	char err[SR_ERRLEN];
	size_t w, h;
	sr_rgb rgb;
	sr_labels labels;

	(void)size;
	sr_image_probe(path, &w, &h, err);
	if (sr_rgb_read(path, &rgb, err) == 0)
		sr_rgb_free(&rgb);
	if (sr_labels_read(path, &labels, err) == 0)
		sr_labels_free(&labels);
}
/* Read incrementally as a ledger grows: the input's first half (a line
 * cut in two waits for its end), then the whole; every row is counted
 * once and is one a writer could write. */
static void
fuzz_ledger(const char *path, size_t size)
{
	sr_ledger *l = sr_ledger_open(path);
	const sr_ledgerrow *r;
	size_t got, i;

	put("input", input_data, size / 2);
	got = sr_ledger_update(l);
	put("input", input_data, size);
	got += sr_ledger_update(l);
	if (got != sr_ledger_nrows(l) || sr_ledger_update(l) != 0)
		abort();
	for (i = 0; i < got; i++) {
		r = sr_ledger_row(l, i);
		if (r->tile[0] == '\0' || strchr(r->tile, '\t') ||
		    strchr(r->detail, '\n') || r->seconds < 0 ||
		    (r->kind == SR_LEDGER_CANCEL && !isnan(r->seconds)))
			abort();
	}
	sr_ledger_close(l);
}

static void
fuzz_tiletable(const char *path, size_t size)
{
	(void)size;
	sr_tiletable_free(sr_tiletable_read(path));
}

/* A slide's GeoJSON reference read, and rasterized into a tile of 64
 * over its first object at downsample 1 and over the origin at 4. Never
 * dies: every failure is a return value. */
static void
fuzz_georef(const char *path, size_t size)
{
	static uint32_t lab[64 * 64];
	char err[SR_ERRLEN];
	sr_georef g;

	(void)size;
	sr_image_set_budget((sr_budget){ (size_t)256 << 20, "harness" });
	if (sr_georef_read(path, &g, err) < 0)
		return;
	if (g.nobj > 0 && isfinite(g.box[0]) && isfinite(g.box[1]))
		sr_georef_raster(&g, g.box[0], g.box[1], 1, 64, 64, lab);
	sr_georef_raster(&g, 0, 0, 4, 64, 64, lab);
	sr_georef_free(&g);
}

/* Opened through OpenSlide (the drivers of TIFF-based formats: the input
 * has no extension), read small for tissue detection when its level is
 * small enough for a fuzzer's second, and a corner of its smallest level
 * read as RGB. The library never dies here: every failure is a return
 * value. */
static void
fuzz_slide(const char *path, size_t size)
{
	char err[SR_ERRLEN];
	sr_slide_small sm;
	sr_slide *s;
	sr_rgb img;
	int l;

	(void)size;
	sr_image_set_budget((sr_budget){ (size_t)256 << 20, "harness" });
	if ((s = sr_slide_open(path, err)) == NULL)
		return;
	l = sr_slide_level_for_downsample(s, 32);
	if ((double)s->w[l] * (double)s->h[l] <= 4e6 &&
	    sr_slide_read_small(s, 32, NULL, NULL, &sm, err) == 0)
		sr_rgb_free(&sm.img);
	l = s->nlevel - 1;
	if (sr_slide_read(s, l, 0, 0, s->w[l] < 64 ? s->w[l] : 64,
	    s->h[l] < 64 ? s->h[l] : 64, &img, err) == 0)
		sr_rgb_free(&img);
	sr_slide_close(s);
}

#define fuzz_png fuzz_image
#define fuzz_tiff fuzz_image

/* ---- the entry point --------------------------------------------------- */

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;

	if (!ready) {
		setup();
		ready = 1;
	}
	put("input", data, size);
	input_data = data;
	fuzz_track_begin();
	if (setjmp(refused) == 0) {
		FUZZ_READER(input, size);
		fuzz_track_end();
	} else
		fuzz_track_reclaim();
	return 0;
}
