/* seg-merge - the buckets' results or timings files as one table. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/opt.h"
#include "core/out.h"
#include "plan/gather.h"

enum { OPT_VERSION = CHAR_MAX + 1 };

static const struct option longopts[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "unnormalized-from", required_argument, NULL, 'u' },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

static void
usage(FILE *fp)
{
	fputs(
"Usage: seg-merge -f FORMAT [-u FILE]... [-o OUT.tsv] FILE...\n"
"Write seg-run's results or timings files of a campaign's buckets as one\n"
"table: the header once, then the rows of every FILE in the order given.\n"
"\n"
"  -f, --format F           results or timings (every FILE's header is checked)\n"
"  -u, --unnormalized-from FILE\n"
"                           keep FILE's #unnormalized lines too, before the\n"
"                           FILEs' (a reference run's results); repeatable\n"
"  -o, --output FILE        write here (atomically) instead of stdout\n"
"  -h, --help               this help\n"
"      --version            version\n", fp);
}

int
main(int argc, char **argv)
{
	char **extra = NULL;
	size_t nextra = 0;
	const char *output = NULL;
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
		case 'h': sr_opt_help(usage);
		case OPT_VERSION: sr_print_version();
		default: sr_getopt_fail(c, argv);
		}
	}
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
