/* compare-dice - pixel and object-level agreement of segmentation masks
 * with reference masks. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/mem.h"
#include "core/opt.h"
#include "core/out.h"
#include "core/tsv.h"
#include "image/compare.h"
#include "image/compare_table.h"
#include "image/image.h"
#include "image/opencv.h"

enum { OPT_IOU = CHAR_MAX + 1, OPT_BINARY, OPT_LABELS, OPT_MAX_MEMORY,
	OPT_VERSION };

static const struct option longopts[] = {
	{ "list", required_argument, NULL, 'l' },
	{ "iou", required_argument, NULL, OPT_IOU },
	{ "max-memory", required_argument, NULL, OPT_MAX_MEMORY },
	{ "binary", no_argument, NULL, OPT_BINARY },
	{ "labels", no_argument, NULL, OPT_LABELS },
	{ "output", required_argument, NULL, 'o' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	SR_OPT_HELP_ENTRIES(OPT_VERSION)
};

#define DEFAULT_IOU 0.5

static const char *const reading_name[] = { "auto", "binary", "labels" };

struct opts {
	const char *list, *output;
	const char *max_memory;	/* --max-memory, else SR_MAX_MEMORY */
	sr_budget budget;	/* of it, or the default */
	double iou;
	enum sr_objects_reading how;
	int verbose, quiet;
};

static void
usage(FILE *fp)
{
	fprintf(fp,
"Usage: compare-dice [options] [-o OUT.tsv] MASK REF\n"
"       compare-dice [options] [-o OUT.tsv] -l PAIRS.tsv\n"
"Pixel Dice and Jaccard, object-level Dice, the Aggregated Jaccard Index\n"
"and object matches at an IoU threshold of a mask against a reference:\n"
"binary masks (8-connected objects) or label images, PNG or TIFF.\n"
"\n"
"  -l, --list FILE          compare every row of FILE (columns mask, ref)\n"
"      --iou T              match objects with IoU >= T, in (0, 1] [%g]\n"
"      --binary             read both images as binary masks [auto]\n"
"      --labels             read both images as label images [auto]\n"
"  -o, --output FILE        write here (atomically) instead of stdout\n"
"      --max-memory SIZE    refuse images needing more (16G) [$SR_MAX_MEMORY]\n"
"  -v, --verbose            seconds and objects of each pair on stderr\n"
"  -q, --quiet              no progress on a terminal\n"
"  -h, --help               this help\n"
"      --version            version\n", DEFAULT_IOU);
}

static void
parse(int argc, char **argv, struct opts *o)
{
	int c;

	memset(o, 0, sizeof *o);
	o->iou = DEFAULT_IOU;
	o->how = SR_OBJECTS_AUTO;
	while ((c = getopt_long(argc, argv, ":l:o:vqh", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'l': o->list = optarg; break;
		case 'o': o->output = optarg; break;
		case 'v': o->verbose = 1; break;
		case 'q': o->quiet = 1; break;
		case OPT_MAX_MEMORY: o->max_memory = optarg; break;
		case OPT_IOU: o->iou = sr_opt_real("--iou", optarg, 0, 1,
		    SR_OPEN_LO, "a number"); break;
		case OPT_BINARY:
		case OPT_LABELS:
			if (o->how != SR_OBJECTS_AUTO &&
			    o->how != (c == OPT_BINARY ? SR_OBJECTS_BINARY :
			    SR_OBJECTS_LABELS))
				sr_usage_error("--binary and --labels exclude "
				    "each other");
			o->how = c == OPT_BINARY ? SR_OBJECTS_BINARY :
			    SR_OBJECTS_LABELS;
			break;
		case 'h': sr_opt_help(usage);
		case OPT_VERSION: sr_print_version();
		default: sr_getopt_fail(c, argv);
		}
	}
	o->budget = sr_memory_budget(o->max_memory);
	sr_image_set_budget(o->budget);
	if (o->list && optind < argc)
		sr_usage_error("-l and MASK REF exclude each other");
	if (!o->list && argc - optind != 2)
		sr_usage_error("expected MASK and REF, or -l PAIRS.tsv; got %d "
		    "arguments", argc - optind);
}

int
main(int argc, char **argv)
{
	char err[SR_PAIR_ERRLEN];
	struct opts o;
	sr_pairs *ps;
	sr_comparison *c;
	size_t i;
	FILE *fp;
	int progress;		/* a progress line is on the terminal */

	sr_init(argv[0]);
	parse(argc, argv, &o);
	sr_opencv_init();
	sr_out_refuse_inputs(&o.output, 1, o.list ? &o.list :
	    (const char **)argv + optind, o.list ? 1 : 2);
	ps = o.list ? sr_pairs_read(o.list) : sr_pairs_operands(argv[optind],
	    argv[optind + 1], err, sizeof err);
	if (ps == NULL)
		sr_usage_error("%s", err);
	progress = o.list && !o.quiet && !o.verbose && isatty(STDERR_FILENO);
	fp = sr_out_open(o.output);
	c = sr_calloc(ps->n, sizeof *c);
	for (i = 0; i < ps->n; i++) {	/* all first: no output on error */
		if (progress)
			fprintf(stderr, "\r%s: pair %zu of %zu", sr_progname, i + 1,
			    ps->n);
		if (sr_pair_compare(ps, i, o.how, o.iou, o.verbose, &c[i], err,
		    sizeof err) < 0) {
			int e = errno;	/* EIO, ENOMEM: exit 3 */
			if (progress)
				fputc('\n', stderr);
			sr_die(sr_exit_for_errno(e), "%s", err);
		}
	}
	if (progress)
		fputc('\n', stderr);
	sr_out_provenance(fp, argc, argv);
	fprintf(fp, "#iou=");
	sr_put_double(fp, o.iou);
	fprintf(fp, " reading=%s pairs=%zu\n", reading_name[o.how], ps->n);
	sr_compare_table_head(fp, ps);
	for (i = 0; i < ps->n; i++)
		sr_compare_table_row(fp, &ps->pair[i], &c[i]);
	sr_out_commit_all();
	free(c);
	sr_pairs_free(ps);
	return SR_EXIT_OK;
}
