/* wsi-tiles - whole-slide images cut into tissue tiles: a tile table. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "core/mem.h"
#include "core/opt.h"
#include "core/out.h"
#include "core/path.h"
#include "image/image.h"
#include "image/opencv.h"
#include "image/slide.h"
#include "image/tiletable.h"
#include "image/tiling.h"
#include "image/tissue.h"

enum {
	OPT_SIZE = CHAR_MAX + 1, OPT_OVERLAP, OPT_LEVEL, OPT_MPP, OPT_THRESHOLD,
	OPT_MIN_TISSUE, OPT_MIN_COVERAGE, OPT_MIN_REGION, OPT_MAX_HOLE,
	OPT_THUMBNAIL, OPT_VERSION
};

static const struct option longopts[] = {
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "overlap", required_argument, NULL, OPT_OVERLAP },
	{ "level", required_argument, NULL, OPT_LEVEL },
	{ "mpp", required_argument, NULL, OPT_MPP },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "min-tissue", required_argument, NULL, OPT_MIN_TISSUE },
	{ "min-coverage", required_argument, NULL, OPT_MIN_COVERAGE },
	{ "min-region", required_argument, NULL, OPT_MIN_REGION },
	{ "max-hole", required_argument, NULL, OPT_MAX_HOLE },
	{ "thumbnail", required_argument, NULL, OPT_THUMBNAIL },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	SR_OPT_HELP_ENTRIES(OPT_VERSION)
};

#define DEFAULT_SIZE	 4096
#define DEFAULT_MIN	 0.25
#define PICTURE_SIDE	 1600.0		/* the thumbnail's longest side, about */
#define PROGRESS_PIXELS	 1e8		/* progress for slides this large */

struct opts {
	const char *output, *thumbnail;
	int thumbdir;		/* --thumbnail is a directory: DIR/SLIDE.png */
	sr_tilingopts tiling;
	sr_tissueopts tissue;
	int quiet, level_given;
};

static void
usage(FILE *fp)
{
	fprintf(fp,
"Usage: wsi-tiles [options] [-o TILES.tsv] SLIDE...\n"
"Cut whole-slide images (every format OpenSlide reads: SVS, NDPI, MRXS,\n"
"SCN, pyramidal TIFF, ...) into tiles, detect tissue on a low level and\n"
"write the tiles with enough tissue as a tile table (tiletable(5)).\n"
"\n"
"      --size N             tile side in pixels of the level [%d]\n"
"      --overlap N          pixels neighbouring tiles share [0]\n"
"      --level N            cut level N of the pyramid [0]\n"
"      --mpp X              cut the level closest to X microns per pixel\n"
"      --min-tissue F       leave out tiles with less tissue, 0..1 [%g]\n"
"      --min-coverage F     warn when the kept tiles hold less of the\n"
"                           slide's tissue, 0..1 [%g]\n"
"      --threshold T        tissue: saturation above T, 0..255 [Otsu, >= %d]\n"
"      --min-region A       remove tissue regions under A level-0 pixels [%g]\n"
"      --max-hole A         fill holes under A level-0 pixels [%g]\n"
"      --thumbnail PNG      the slide, its tissue and the kept tiles drawn\n"
"                           (a directory: SLIDE.png there for each slide)\n"
"  -o, --output FILE        write here (atomically) instead of stdout\n"
"  -q, --quiet              no progress on a terminal\n"
"  -h, --help               this help\n"
"      --version            version\n", DEFAULT_SIZE, DEFAULT_MIN,
	    SR_TILING_MIN_COVERAGE,
	    SR_TISSUE_OTSU_FLOOR, SR_TISSUE_MIN_REGION, SR_TISSUE_MAX_HOLE);
}

static void
parse(int argc, char **argv, struct opts *o)
{
	sr_tilingopts *t = &o->tiling;
	int c;

	memset(o, 0, sizeof *o);
	sr_tissueopts_init(&o->tissue);
	t->size = DEFAULT_SIZE;
	t->level = -1;
	t->min_tissue = DEFAULT_MIN;
	t->min_coverage = SR_TILING_MIN_COVERAGE;
	while ((c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_SIZE: t->size = sr_opt_count("--size", optarg, 1,
		    SR_TILETABLE_MAX_SIDE < SR_COUNT_MAX ? SR_TILETABLE_MAX_SIDE :
		    SR_COUNT_MAX); break;
		case OPT_OVERLAP: t->overlap = sr_opt_count("--overlap", optarg, 0,
		    SR_COUNT_MAX); break;
		case OPT_LEVEL: t->level = (int)sr_opt_count("--level", optarg, 0,
		    SR_SLIDE_MAX_LEVELS - 1); o->level_given = 1; break;
		case OPT_MPP: t->mpp = sr_opt_real("--mpp", optarg, 0, 1e6,
		    SR_OPEN_LO, "a number of microns"); break;
		case OPT_THRESHOLD: o->tissue.threshold = sr_opt_real(
		    "--threshold", optarg, 0, 255, 0, "a saturation"); break;
		case OPT_MIN_TISSUE: t->min_tissue = sr_opt_real("--min-tissue",
		    optarg, 0, 1, 0, "a fraction"); break;
		case OPT_MIN_COVERAGE: t->min_coverage = sr_opt_real(
		    "--min-coverage", optarg, 0, 1, 0, "a fraction"); break;
		case OPT_MIN_REGION: o->tissue.min_region = sr_opt_real(
		    "--min-region", optarg, 0, 1e18, 0, "an area"); break;
		case OPT_MAX_HOLE: o->tissue.max_hole = sr_opt_real("--max-hole",
		    optarg, 0, 1e18, 0, "an area"); break;
		case OPT_THUMBNAIL: o->thumbnail = optarg; break;
		case 'o': o->output = optarg; break;
		case 'q': o->quiet = 1; break;
		case 'h': sr_opt_help(usage);
		case OPT_VERSION: sr_print_version();
		default: sr_getopt_fail(c, argv);
		}
	}
	if (optind == argc)
		sr_usage_error("no slides given");
	if (o->level_given && t->mpp > 0)
		sr_usage_error("--level and --mpp exclude each other");
	if (2 * t->overlap > t->size)	/* a pixel in at most four tiles */
		sr_usage_error("--overlap %zu: must be at most half --size (%zu)",
		    t->overlap, t->size);
}

static void
show_progress(void *ctx, double done)
{
	fprintf(stderr, "\r%s: %s: reading for tissue %3.0f%%", sr_progname,
	    (const char *)ctx, 100 * done);
	if (done >= 1)
		fputc('\n', stderr);
}

/* The thumbnail: PATH itself, or PATH/NAME.png in a directory. */
static void
write_picture(const struct opts *o, const char *name, sr_slide *s,
    const sr_tissue *t, const sr_tiling *g)
{
	char err[SR_ERRLEN], *path;
	sr_rgb pic;

	path = o->thumbdir ? sr_path_join(o->thumbnail, name, ".png") :
	    sr_strdup(o->thumbnail);
	if (sr_tiling_picture(s, t, g, PICTURE_SIDE, &pic, err) < 0 ||
	    sr_rgb_write_png(sr_out_open(path), path, &pic, err) < 0)
		sr_die(sr_exit_for_errno(errno), "%s", err);
	sr_rgb_free(&pic);
	free(path);
}

/* Tiles slide path into g; its thumbnail opened as an output. */
static void
tile_slide(const struct opts *o, const char *path, sr_tiling *g)
{
	char err[SR_ERRLEN], *name = sr_path_stem(path), *in_table;
	sr_tissueopts topt = o->tissue;
	sr_slide *s;
	sr_tissue t;
	int level;

	if ((s = sr_slide_open(path, err)) == NULL ||
	    (level = sr_tiling_level(s, &o->tiling, err)) < 0)
		sr_die(SR_EXIT_DATA, "%s", err);
	if (!o->quiet && isatty(STDERR_FILENO) &&
	    (double)s->w[0] * (double)s->h[0] >= PROGRESS_PIXELS) {
		topt.progress = show_progress;
		topt.ctx = (void *)path;
	}
	if (sr_tissue_detect(s, &topt, &t, err) < 0)
		sr_die(SR_EXIT_DATA, "%s", err);
	in_table = o->output && strcmp(o->output, "-") ?
	    sr_path_from(o->output, path) : sr_strdup(path);
	if (in_table == NULL)
		sr_die_errno("%s", path);
	sr_tiling_make(s, level, &o->tiling, &t, name, in_table, g);
	sr_tiling_check_coverage(s, &o->tiling, g, o->quiet);
	if (o->thumbnail)
		write_picture(o, name, s, &t, g);
	sr_tissue_free(&t);
	sr_slide_close(s);
	free(in_table);
	free(name);
}

/* The table: the slides' comments, the header, the rows. */
static void
write_table(FILE *fp, const sr_tiling *g, int n, int own, int argc,
    char **argv)
{
	size_t i;
	int k;

	sr_out_provenance(fp, argc, argv);
	for (k = 0; k < n; k++)
		fputs(g[k].comment, fp);
	sr_tiletable_write_header(fp, own);
	for (k = 0; k < n; k++)
		for (i = 0; i < g[k].n; i++)
			sr_tiletable_write_row(fp, &g[k].row[i], own);
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct stat st;
	sr_tiling *g;
	FILE *fp;
	int k, n;

	sr_init(argv[0]);
	parse(argc, argv, &o);
	sr_image_set_budget(sr_memory_budget(NULL));	/* the levels read */
	n = argc - optind;
	sr_tiling_check_names(argv + optind, (size_t)n);
	o.thumbdir = o.thumbnail && stat(o.thumbnail, &st) == 0 &&
	    S_ISDIR(st.st_mode);
	if (o.thumbnail && n > 1 && !o.thumbdir)
		sr_usage_error("--thumbnail %s: with several slides, an existing "
		    "directory for SLIDE.png", o.thumbnail);
	sr_out_refuse_inputs(&o.output, 1, (const char **)argv + optind,
	    (size_t)n);
	sr_opencv_init();
	fp = sr_out_open(o.output);	/* primary: committed last */
	g = sr_calloc((size_t)n, sizeof *g);
	for (k = 0; k < n; k++)
		tile_slide(&o, argv[optind + k], &g[k]);
	write_table(fp, g, n, o.tiling.overlap > 0, argc, argv);
	sr_out_commit_all();
	for (k = 0; k < n; k++)
		sr_tiling_free(&g[k]);
	free(g);
	return SR_EXIT_OK;
}
