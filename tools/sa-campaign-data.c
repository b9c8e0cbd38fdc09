/* sa-campaign-data - the batched campaign's exchanged files, composed and
 * read for sa-campaign (one verb a call). */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "campaign/data.h"
#include "core/err.h"
#include "core/opt.h"
#include "core/out.h"

enum { OPT_VERSION = CHAR_MAX + 1 };

static const struct option longopts[] = {
	SR_OPT_HELP_ENTRIES(OPT_VERSION)
};

static void
usage(FILE *fp)
{
	fputs(
"Usage: sa-campaign-data rows TABLE.tsv\n"
"       sa-campaign-data best BEST.tsv\n"
"       sa-campaign-data compose OUT K N\n"
"       sa-campaign-data ledger OUT K N\n"
"The batched tune campaign's files for sa-campaign (sa-campaign-data(1)):\n"
"  rows     the number of data rows of a design or buckets table\n"
"  best     the text of BEST.tsv's #best comment line\n"
"  compose  OUT/design.tsv and OUT/results.tsv of OUT's batches 1 to K\n"
"           of N, runs renumbered, with a #batches=K of N sizes= line\n"
"  ledger   OUT/ledger.tsv, the ledgers of batches 1 to K of N as one,\n"
"           runs renumbered, with a batch column\n"
"\n"
"  -h, --help     this help\n"
"      --version  the version\n", fp);
}

/* Reads the options before a verb's operands (only --help, --version)
 * and checks that nargs operands follow; returns their first index. */
static int
verb_args(int argc, char **argv, int nargs)
{
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h': sr_opt_help(usage);
		case OPT_VERSION: sr_print_version();
		default: sr_getopt_fail(c, argv);
		}
	}
	if (argc - optind != nargs)
		sr_usage_error("%s: expected %d operands, got %d", argv[0],
		    nargs, argc - optind);
	return optind;
}

static void
do_rows(int argc, char **argv)
{
	int i = verb_args(argc, argv, 1);
	printf("%ld\n", sr_data_rows(argv[i]));
}

static void
do_best(int argc, char **argv)
{
	int i = verb_args(argc, argv, 1);
	sr_data_best(argv[i], stdout);
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
	int i = verb_args(argc, argv, 3), k, n;
	batches(argv + i, &k, &n);
	sr_data_compose(argv[i], k, n);
}

static void
do_ledger(int argc, char **argv)
{
	int i = verb_args(argc, argv, 3), k, n;
	batches(argv + i, &k, &n);
	sr_data_ledger(argv[i], k, n);
}

static const struct verb {
	const char *name;
	void (*run)(int argc, char **argv);
} verbs[] = {
	{ "rows", do_rows },
	{ "best", do_best },
	{ "compose", do_compose },
	{ "ledger", do_ledger },
};

int
main(int argc, char **argv)
{
	sr_init(argv[0]);
	if (argc < 2)
		sr_usage_error("expected a verb: rows, best, compose, ledger");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		sr_opt_help(usage);
	if (!strcmp(argv[1], "--version"))
		sr_print_version();
	for (size_t v = 0; v < sizeof verbs / sizeof *verbs; v++)
		if (!strcmp(argv[1], verbs[v].name)) {
			verbs[v].run(argc - 1, argv + 1);
			sr_out_commit_all();
			return 0;
		}
	sr_usage_error("unknown verb '%s'", argv[1]);
}
