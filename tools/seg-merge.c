/* seg-merge - the buckets' results or timings files as one table; the
 * chunks' GeoJSON files as one per run and slide. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/opt.h"
#include "core/out.h"
#include "core/path.h"
#include "image/geojson.h"
#include "plan/gather.h"

enum { OPT_VERSION = CHAR_MAX + 1, OPT_GEOJSON };

static const struct option longopts[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "unnormalized-from", required_argument, NULL, 'u' },
	{ "geojson", required_argument, NULL, OPT_GEOJSON },
	SR_OPT_OUTPUT_TAIL(OPT_VERSION)
};

static void
usage(FILE *fp)
{
	fputs(
"Usage: seg-merge -f FORMAT [-u FILE]... [-o OUT.tsv] FILE...\n"
"       seg-merge --geojson DIR -o OUTDIR\n"
"Write seg-run's results or timings files of a campaign's buckets as one\n"
"table: the header once, then the rows of every FILE in the order given.\n"
"With --geojson, join seg-run --geojson's DIR/RUN/SLIDE.CCCC.geojson into\n"
"OUTDIR/RUN/SLIDE.geojson, one FeatureCollection per run and slide.\n"
"\n"
"  -f, --format F           results or timings (every FILE's header is checked)\n"
"  -u, --unnormalized-from FILE\n"
"                           keep FILE's #unnormalized lines too, before the\n"
"                           FILEs' (a reference run's results); repeatable\n"
"      --geojson DIR        join the chunks' GeoJSON files of DIR\n"
"  -o, --output FILE        write here (atomically) instead of stdout;\n"
"                           with --geojson, the directory to write to\n"
SR_OPT_HELP_TAIL, fp);
}

/* --geojson DIR -o OUTDIR, without -f, -u or operands. */
static int
join_geojson(const char *dir, const char *outdir, int format, size_t nextra,
    int operands)
{
	if (format >= 0 || nextra || operands)
		sr_usage_error("--geojson takes no -f, -u or FILE operands");
	if (!outdir || strcmp(outdir, "-") == 0)
		sr_usage_error("--geojson needs -o OUTDIR, a directory");
	if (sr_path_same(dir, outdir))
		sr_usage_error("-o %s: the directory of --geojson itself", outdir);
	sr_geojson_join(dir, outdir);
	sr_out_commit_all();
	return SR_EXIT_OK;
}

int
main(int argc, char **argv)
{
	char **extra = NULL;
	size_t nextra = 0;
	const char *output = NULL, *geojson = NULL;
	int c, format = -1;
	FILE *fp;

	sr_init(argv[0]);
	while ((c = getopt_long(argc, argv, ":f:u:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': format = sr_opt_word("-f", optarg,
		    sr_gather_format_name, SR_GATHER_N); break;
		case 'u':
			extra = sr_reallocarray(extra, nextra + 1, sizeof *extra);
			extra[nextra++] = optarg;
			break;
		case 'o': output = optarg; break;
		case OPT_GEOJSON: geojson = optarg; break;
		case 'h': sr_opt_help(usage);
		case OPT_VERSION: sr_print_version();
		default: sr_getopt_fail(c, argv);
		}
	}
	if (geojson)
		return join_geojson(geojson, output, format, nextra,
		    optind < argc);
	if (format < 0)
		sr_usage_error("no format given (-f results or timings)");
	if (optind == argc)
		sr_usage_error("no files to merge");
	sr_out_refuse_inputs(&output, 1, (const char **)argv + optind,
	    (size_t)(argc - optind));
	fp = sr_out_open(output);
	sr_gather(fp, format, argv + optind, (size_t)(argc - optind), extra,
	    nextra, argc, argv);
	sr_out_commit_all();
	free(extra);
	return SR_EXIT_OK;
}
