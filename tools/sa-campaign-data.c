/* sa-campaign-data - the batched campaign's exchanged files, composed and
 * read for sa-campaign (one verb a call). */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/data.h"
#include "campaign/plan_data.h"
#include "campaign/tiles_data.h"
#include "core/err.h"
#include "core/opt.h"
#include "core/out.h"

enum { OPT_VERSION = CHAR_MAX + 1, OPT_WHAT, OPT_SUFFIX };

/* The options of the verbs that have one. */
enum { ALLOW_WHAT = 1, ALLOW_SUFFIX = 2 };

static const struct option longopts[] = {
	{ "what", required_argument, NULL, OPT_WHAT },
	{ "suffix", required_argument, NULL, OPT_SUFFIX },
	SR_OPT_HELP_ENTRIES(OPT_VERSION)
};

static const char *opt_what = "tile", *opt_suffix;

/* Where the verbs write: a buffer, written to stdout only once the verb
 * is done (bad input prints nothing). */
static FILE *out;

static void
usage(FILE *fp)
{
	fputs(
"Usage: sa-campaign-data rows TABLE.tsv\n"
"       sa-campaign-data best BEST.tsv\n"
"       sa-campaign-data compose OUT K N\n"
"       sa-campaign-data ledger OUT K N\n"
"       sa-campaign-data tiles [--what slide] LIST\n"
"       sa-campaign-data tiles-kind LIST\n"
"       sa-campaign-data tiles-count LIST\n"
"       sa-campaign-data tiles-names [--suffix S] LIST\n"
"       sa-campaign-data tiles-chunk LIST C N\n"
"       sa-campaign-data slides OUT\n"
"       sa-campaign-data stats OUT\n"
"       sa-campaign-data model OUT WORKFLOW\n"
"       sa-campaign-data estimate HOW SOURCE [REPORT]\n"
"       sa-campaign-data status OUT METRIC NSETS [off=N LEDGER]...\n"
"The campaign's files read and composed for sa-campaign (sa-campaign-data(1)):\n"
"  rows         the number of data rows of a design or buckets table\n"
"  best         the text of BEST.tsv's #best comment line\n"
"  compose      OUT/design.tsv and OUT/results.tsv of OUT's batches 1 to K\n"
"               of N, runs renumbered, with a #batches=K of N sizes= line\n"
"  ledger       OUT/ledger.tsv, the ledgers of batches 1 to K of N as one,\n"
"               runs renumbered, with a batch column\n"
"  tiles        the tiles list LIST with absolute paths, or the tile table\n"
"               with absolute slides\n"
"  tiles-kind   \"table\" for a tile table, else \"list\"\n"
"  tiles-count  the number of tiles of LIST\n"
"  tiles-names  the tiles' names, one a line\n"
"  tiles-chunk  chunk C of LIST, N tiles a chunk, a table's header kept\n"
"  slides       OUT/slides/SLIDE/results.tsv of each slide; their names\n"
"  stats        buckets.tsv's #stats and stage_instances= of OUT's plan\n"
"  model        a cost model for sim-runtime from WORKFLOW's costs, scaled\n"
"               to the pixels of OUT's tiles\n"
"  estimate     the estimate line of each row of sim-runtime's REPORT\n"
"               (default stdin)\n"
"  status       the search of a tune campaign, from its LEDGERs\n"
"\n"
"      --what slide  tiles: LIST is a list of slides (messages name them)\n"
"      --suffix S    tiles-names: S after each name\n"
"\n"
"  -h, --help     this help\n"
"      --version  the version\n", fp);
}

/* Reads the options before a verb's operands (--help, --version and
 * those allow names) and checks that min to max operands follow (max
 * -1: any number); returns their first index. */
static int
verb_args(int argc, char **argv, int min, int max, int allow)
{
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h': sr_opt_help(usage);
		case OPT_VERSION: sr_print_version();
		case OPT_WHAT:
			if (!(allow & ALLOW_WHAT))
				sr_usage_error("%s: no option --what", argv[0]);
			if (strcmp(optarg, "slide") && strcmp(optarg, "tile"))
				sr_usage_error("--what '%s': tile or slide",
				    optarg);
			opt_what = optarg;
			break;
		case OPT_SUFFIX:
			if (!(allow & ALLOW_SUFFIX))
				sr_usage_error("%s: no option --suffix",
				    argv[0]);
			opt_suffix = optarg;
			break;
		default: sr_getopt_fail(c, argv);
		}
	}
	if (argc - optind < min || (max >= 0 && argc - optind > max)) {
		if (min == max)
			sr_usage_error("%s: expected %d operands, got %d",
			    argv[0], min, argc - optind);
		sr_usage_error("%s: expected %d to %d operands, got %d",
		    argv[0], min, max, argc - optind);
	}
	return optind;
}

static void
do_rows(int argc, char **argv)
{
	int i = verb_args(argc, argv, 1, 1, 0);
	fprintf(out, "%ld\n", sr_data_rows(argv[i]));
}

static void
do_best(int argc, char **argv)
{
	int i = verb_args(argc, argv, 1, 1, 0);
	sr_data_best(argv[i], out);
}

/* K and N of compose and ledger: 1 <= K <= N. */
static void
batches(char **arg, int *k, int *n)
{
	*n = (int)sr_opt_count("N", arg[2], 1, 100000);
	*k = (int)sr_opt_count("K", arg[1], 1, (size_t)*n);
}

static void
do_compose(int argc, char **argv)
{
	int i = verb_args(argc, argv, 3, 3, 0), k, n;
	batches(argv + i, &k, &n);
	sr_data_compose(argv[i], k, n);
}

static void
do_ledger(int argc, char **argv)
{
	int i = verb_args(argc, argv, 3, 3, 0), k, n;
	batches(argv + i, &k, &n);
	sr_data_ledger(argv[i], k, n);
}

static void
do_tiles(int argc, char **argv)
{
	int i = verb_args(argc, argv, 1, 1, ALLOW_WHAT);
	sr_data_tiles(argv[i], opt_what, out);
}

static void
do_tiles_kind(int argc, char **argv)
{
	int i = verb_args(argc, argv, 1, 1, 0);
	fprintf(out, "%s\n", sr_data_tiles_kind(argv[i]) ? "table" : "list");
}

static void
do_tiles_count(int argc, char **argv)
{
	int i = verb_args(argc, argv, 1, 1, 0);
	fprintf(out, "%ld\n", sr_data_tiles_count(argv[i]));
}

static void
do_tiles_names(int argc, char **argv)
{
	int i = verb_args(argc, argv, 1, 1, ALLOW_SUFFIX);
	sr_data_tiles_names(argv[i], opt_suffix, out);
}

static void
do_tiles_chunk(int argc, char **argv)
{
	int i = verb_args(argc, argv, 3, 3, 0);
	long n = (long)sr_opt_count("N", argv[i + 2], 1, 1000000000);
	long c = (long)sr_opt_count("C", argv[i + 1], 0, 1000000000);
	sr_data_tiles_chunk(argv[i], c, n, out);
}

static void
do_slides(int argc, char **argv)
{
	int i = verb_args(argc, argv, 1, 1, 0);
	sr_data_slides(argv[i], out);
}

static void
do_stats(int argc, char **argv)
{
	int i = verb_args(argc, argv, 1, 1, 0);
	sr_data_stats(argv[i], out);
}

static void
do_model(int argc, char **argv)
{
	int i = verb_args(argc, argv, 2, 2, 0);
	sr_data_model(argv[i], argv[i + 1], out);
}

static void
do_estimate(int argc, char **argv)
{
	int i = verb_args(argc, argv, 2, 3, 0);
	sr_data_estimate(argv[i], argv[i + 1], argc - i > 2 ? argv[i + 2] :
	    "-", out);
}

static void
do_status(int argc, char **argv)
{
	int i = verb_args(argc, argv, 3, -1, 0);
	long nsets = (long)sr_opt_count("NSETS", argv[i + 2], 0, 1000000000);
	size_t n = (size_t)(argc - i - 3);
	sr_data_ledgerarg *led = sr_calloc(n / 2 + 1, sizeof *led);

	if (n % 2)
		sr_usage_error("status: off=N LEDGER: a ledger missing after "
		    "'%s'", argv[argc - 1]);
	for (size_t j = 0; j < n / 2; j++) {
		const char *o = argv[i + 3 + 2 * j];
		if (strncmp(o, "off=", 4))
			sr_usage_error("status: '%s': expected off=N", o);
		led[j].off = (long)sr_opt_count("off", o + 4, 0, 1000000000);
		led[j].path = argv[i + 4 + 2 * j];
	}
	sr_data_status(argv[i], argv[i + 1], nsets, led, n / 2, out);
	free(led);
}

static const struct verb {
	const char *name;
	void (*run)(int argc, char **argv);
} verbs[] = {
	{ "rows", do_rows },
	{ "best", do_best },
	{ "compose", do_compose },
	{ "ledger", do_ledger },
	{ "tiles", do_tiles },
	{ "tiles-kind", do_tiles_kind },
	{ "tiles-count", do_tiles_count },
	{ "tiles-names", do_tiles_names },
	{ "tiles-chunk", do_tiles_chunk },
	{ "slides", do_slides },
	{ "stats", do_stats },
	{ "model", do_model },
	{ "estimate", do_estimate },
	{ "status", do_status },
};

int
main(int argc, char **argv)
{
	char *buf = NULL;
	size_t len = 0;

	sr_init(argv[0]);
	if (argc < 2)
		sr_usage_error("expected a verb: rows, best, compose, ledger, "
		    "tiles, tiles-kind, tiles-count, tiles-names, tiles-chunk, "
		    "slides, stats, model, estimate, status");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		sr_opt_help(usage);
	if (!strcmp(argv[1], "--version"))
		sr_print_version();
	for (size_t v = 0; v < sizeof verbs / sizeof *verbs; v++)
		if (!strcmp(argv[1], verbs[v].name)) {
			if (!(out = open_memstream(&buf, &len)))
				sr_die_errno("a buffer");
			verbs[v].run(argc - 1, argv + 1);
			if (fclose(out))
				sr_die_errno("a buffer");
			fwrite(buf, 1, len, stdout);
			free(buf);
			sr_out_commit_all();
			return 0;
		}
	sr_usage_error("unknown verb '%s'", argv[1]);
}
