/* sa-campaign-data - the batched campaign's exchanged files, composed and
 * read for sa-campaign (one verb a call). */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/data.h"
#include "campaign/grow.h"
#include "campaign/evaluate.h"
#include "campaign/plan_data.h"
#include "campaign/tiles_data.h"
#include "core/err.h"
#include "core/opt.h"
#include "core/out.h"
#include "core/path.h"

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
"       sa-campaign-data batch-seed OUT K SEED\n"
"       sa-campaign-data knowledge DIR\n"
"       sa-campaign-data tiles [--what slide] [--suffix S] LIST|DIR\n"
"       sa-campaign-data tiles-kind LIST\n"
"       sa-campaign-data tiles-count LIST\n"
"       sa-campaign-data tiles-names [--suffix S] LIST\n"
"       sa-campaign-data tiles-chunk LIST C N\n"
"       sa-campaign-data tiles-check LIST [REFDIR [SUFFIX]]\n"
"       sa-campaign-data slides OUT\n"
"       sa-campaign-data stats OUT\n"
"       sa-campaign-data model OUT WORKFLOW\n"
"       sa-campaign-data estimate HOW SOURCE [REPORT]\n"
"       sa-campaign-data status OUT METRIC NSETS [off=N LEDGER]...\n"
"       sa-campaign-data sets SPACE DESIGN|- NAME=SET...\n"
"       sa-campaign-data evaluate DESIGN RESULTS EVALUATION.tsv\n"
"       sa-campaign-data validation DESIGN RESULTS\n"
"       sa-campaign-data top TRIALS K\n"
"       sa-campaign-data best-validation BEST EVALUATION METRIC\n"
"       sa-campaign-data grow-part DESIGN\n"
"       sa-campaign-data groups SPACE WORKFLOW stages|tasks\n"
"       sa-campaign-data grow-plan WORKFLOW OLD PART RUNS DIR\n"
"The campaign's files read and composed for sa-campaign (sa-campaign-data(1)):\n"
"  rows         the number of data rows of a design or buckets table\n"
"  best         the text of BEST.tsv's #best comment line\n"
"  compose      OUT/design.tsv and OUT/results.tsv of OUT's batches 1 to K\n"
"               of N, runs renumbered, with a #batches=K of N sizes= line\n"
"  ledger       OUT/ledger.tsv, the ledgers of batches 1 to K of N as one,\n"
"               runs renumbered, with a batch column\n"
"  batch-seed   the seed of batch K of a campaign of seed SEED in OUT\n"
"  knowledge    the past experiments a knowledge base DIR holds\n"
"  tiles        the tiles list LIST with absolute paths, or the tile table\n"
"               with absolute slides\n"
"  tiles-kind   \"table\" for a tile table, else \"list\"\n"
"  tiles-count  the number of tiles of LIST\n"
"  tiles-names  the tiles' names, one a line\n"
"  tiles-chunk  chunk C of LIST, N tiles a chunk, a table's header kept\n"
"  tiles-check  every tile of LIST readable, with its reference in REFDIR\n"
"  grow-part    the runs a grown DESIGN adds, as a design numbered from 0\n"
"  groups       SPACE with a group column: each parameter's stage or task\n"
"  grow-plan    DIR/instances.tsv and DIR/buckets.tsv: OLD's plan, then\n"
"               PART's numbered after it (its runs after RUNS)\n"
"  slides       OUT/slides/SLIDE/results.tsv of each slide; their names\n"
"  stats        buckets.tsv's #stats and stage_instances= of OUT's plan\n"
"  model        a cost model for sim-runtime from WORKFLOW's costs, scaled\n"
"               to the pixels of OUT's tiles\n"
"  estimate     the estimate line of each row of sim-runtime's REPORT\n"
"               (default stdin)\n"
"  status       the search of a tune campaign, from its LEDGERs\n"
"  sets         the design whose runs are the sets: SET is defaults,\n"
"               run=N (of DESIGN) or a space file (its defaults)\n"
"  evaluate     EVALUATION.tsv, the sets compared on their RESULTS, and\n"
"               a line per metric\n"
"  validation   validation.tsv: the sets' RESULTS, a set column first\n"
"  top          the runs of the K best complete sets of TRIALS\n"
"  best-validation  BEST with a #validation line: the sets' means of\n"
"               METRIC on the validation tiles, from EVALUATION\n"
"\n"
"      --what slide  tiles: LIST is a list of slides (messages name them)\n"
"      --suffix S    tiles-names: S after each name; tiles: of a DIR, the\n"
"                    images ending in S are references, not tiles\n"
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

/* K and N of compose and ledger: 1 <= K <= N. */
static void
batches(char **a, int *k, int *n)
{
	*n = (int)sr_opt_count("N", a[2], 1, 100000);
	*k = (int)sr_opt_count("K", a[1], 1, (size_t)*n);
}

/* status OUT METRIC NSETS [off=N LEDGER]... */
static void
status(char **a, int n)
{
	long nsets = (long)sr_opt_count("NSETS", a[2], 0, 1000000000);
	size_t nl = (size_t)(n - 3) / 2;
	sr_data_ledgerarg *led = sr_calloc(nl + 1, sizeof *led);

	if ((n - 3) % 2)
		sr_usage_error("status: off=N LEDGER: a ledger missing after "
		    "'%s'", a[n - 1]);
	for (size_t j = 0; j < nl; j++) {
		const char *o = a[3 + 2 * j];
		if (strncmp(o, "off=", 4))
			sr_usage_error("status: '%s': expected off=N", o);
		led[j].off = (long)sr_opt_count("off", o + 4, 0, 1000000000);
		led[j].path = a[4 + 2 * j];
	}
	sr_data_status(a[0], a[1], nsets, led, nl, out);
	free(led);
}

/* sets SPACE DESIGN|- NAME=SET... */
static void
sets(char **a, int n)
{
	sr_eval_set *set = sr_calloc((size_t)n, sizeof *set);

	for (int i = 2; i < n; i++) {
		char *eq = strchr(a[i], '=');
		if (!eq || eq == a[i] || !eq[1])
			sr_usage_error("sets: '%s': expected NAME=SET", a[i]);
		*eq = '\0';
		set[i - 2].name = a[i];
		set[i - 2].spec = eq + 1;
	}
	sr_eval_design(a[0], strcmp(a[1], "-") ? a[1] : NULL, set,
	    (size_t)n - 2, out);
	free(set);
}

/* evaluate DESIGN RESULTS EVALUATION.tsv */
static void
evaluate(char **a)
{
	FILE *fp = sr_out_open(a[2]);

	sr_eval_compare(a[0], a[1], fp, out);
}

/* grow-plan WORKFLOW OLD PART RUNS DIR: the plans of directories OLD
 * and PART into DIR. */
static void
grow_plan(char **a)
{
	size_t runs = sr_opt_count("RUNS", a[3], 1, SR_COUNT_MAX);
	char *p[6];
	int i;

	for (i = 0; i < 6; i++)
		p[i] = sr_path_join(a[i < 2 ? 1 : i < 4 ? 2 : 4], i % 2 ?
		    "buckets.tsv" : "instances.tsv", "");
	sr_grow_plan(a[0], p[0], p[1], p[2], p[3], runs, p[4], p[5]);
	for (i = 0; i < 6; i++)
		free(p[i]);
}

/* The verbs: their operands, min to max (-1: any number), and the
 * options they allow; run_verb runs verb v on its operands a[0..n). */
enum { ROWS, BEST, COMPOSE, LEDGER, BATCH_SEED, KNOWLEDGE, TILES, TILES_KIND, TILES_COUNT,
    TILES_NAMES, TILES_CHUNK, TILES_CHECK, SLIDES, STATS, MODEL, ESTIMATE, STATUS, SETS,
    EVALUATE, VALIDATION, TOP, BEST_VALIDATION, GROW_PART, GROW_PLAN, GROUPS };
static const struct verb {
	const char *name;
	int min, max, allow;
} verbs[] = {
	[ROWS] = { "rows", 1, 1, 0 },
	[BEST] = { "best", 1, 1, 0 },
	[COMPOSE] = { "compose", 3, 3, 0 },
	[LEDGER] = { "ledger", 3, 3, 0 },
	[BATCH_SEED] = { "batch-seed", 3, 3, 0 },
	[KNOWLEDGE] = { "knowledge", 1, 1, 0 },
	[TILES] = { "tiles", 1, 1, ALLOW_WHAT | ALLOW_SUFFIX },
	[TILES_KIND] = { "tiles-kind", 1, 1, 0 },
	[TILES_COUNT] = { "tiles-count", 1, 1, 0 },
	[TILES_NAMES] = { "tiles-names", 1, 1, ALLOW_SUFFIX },
	[TILES_CHUNK] = { "tiles-chunk", 3, 3, 0 },
	[TILES_CHECK] = { "tiles-check", 1, 3, 0 },
	[SLIDES] = { "slides", 1, 1, 0 },
	[STATS] = { "stats", 1, 1, 0 },
	[MODEL] = { "model", 2, 2, 0 },
	[ESTIMATE] = { "estimate", 2, 3, 0 },
	[STATUS] = { "status", 3, -1, 0 },
	[SETS] = { "sets", 3, -1, 0 },
	[EVALUATE] = { "evaluate", 3, 3, 0 },
	[VALIDATION] = { "validation", 2, 2, 0 },
	[TOP] = { "top", 2, 2, 0 },
	[BEST_VALIDATION] = { "best-validation", 3, 3, 0 },
	[GROW_PART] = { "grow-part", 1, 1, 0 },
	[GROW_PLAN] = { "grow-plan", 5, 5, 0 },
	[GROUPS] = { "groups", 3, 3, 0 },
};

static void
run_verb(int v, char **a, int n)
{
	int k, nb;

	switch (v) {
	case ROWS: fprintf(out, "%ld\n", sr_data_rows(a[0])); break;
	case BEST: sr_data_best(a[0], out); break;
	case COMPOSE: batches(a, &k, &nb); sr_data_compose(a[0], k, nb); break;
	case LEDGER: batches(a, &k, &nb); sr_data_ledger(a[0], k, nb); break;
	case BATCH_SEED:
		fprintf(out, "%lu\n", sr_data_batch_seed(a[0], (int)sr_opt_count(
		    "K", a[1], 1, 100000), sr_opt_seed("SEED", a[2])));
		break;
	case KNOWLEDGE: sr_data_knowledge(a[0], out); break;
	case TILES:
		sr_data_tiles_ref_suffix = opt_suffix;
		sr_data_tiles(a[0], opt_what, out);
		break;
	case TILES_KIND:
		fprintf(out, "%s\n", sr_data_tiles_kind(a[0]) ? "table" :
		    "list");
		break;
	case TILES_COUNT:
		fprintf(out, "%ld\n", sr_data_tiles_count(a[0]));
		break;
	case TILES_NAMES: sr_data_tiles_names(a[0], opt_suffix, out); break;
	case TILES_CHUNK:	/* N checked first, then C */
		nb = (int)sr_opt_count("N", a[2], 1, 1000000000);
		k = (int)sr_opt_count("C", a[1], 0, 1000000000);
		sr_data_tiles_chunk(a[0], k, nb, out);
		break;
	case TILES_CHECK:
		sr_data_tiles_check(a[0], n > 1 ? a[1] : NULL, n > 2 ? a[2] :
		    NULL);
		break;
	case SLIDES: sr_data_slides(a[0], out); break;
	case STATS: sr_data_stats(a[0], out); break;
	case MODEL: sr_data_model(a[0], a[1], out); break;
	case ESTIMATE:
		sr_data_estimate(a[0], a[1], n > 2 ? a[2] : "-", out);
		break;
	case STATUS: status(a, n); break;
	case SETS: sets(a, n); break;
	case EVALUATE: evaluate(a); break;
	case VALIDATION: sr_eval_validation(a[0], a[1], out); break;
	case BEST_VALIDATION: sr_eval_best_validation(a[0], a[1], a[2]); break;
	case TOP:
		sr_eval_top(a[0], sr_opt_count("K", a[1], 1, 1000000), out);
		break;
	case GROW_PART: sr_grow_design_part(a[0], out); break;
	case GROW_PLAN: grow_plan(a); break;
	case GROUPS:
		sr_data_groups(a[0], a[1], sr_opt_word("BY", a[2], (const char
		    *[]){ "stages", "tasks" }, 2), out);
		break;
	}
}

int
main(int argc, char **argv)
{
	char *buf = NULL;
	size_t len = 0;

	sr_init(argv[0]);
	if (argc < 2)
		sr_usage_error("expected a verb: rows, best, compose, ledger, "
		    "batch-seed, knowledge, "
		    "tiles, tiles-kind, tiles-count, tiles-names, tiles-chunk, "
		    "tiles-check, "
		    "slides, stats, model, estimate, status, sets, evaluate, "
		    "validation, top, best-validation, grow-part, grow-plan, "
		    "groups");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		sr_opt_help(usage);
	if (!strcmp(argv[1], "--version"))
		sr_print_version();
	for (size_t v = 0; v < sizeof verbs / sizeof *verbs; v++)
		if (!strcmp(argv[1], verbs[v].name)) {
			const struct verb *vb = &verbs[v];
			int i = verb_args(argc - 1, argv + 1, vb->min, vb->max,
			    vb->allow) + 1;
			if (!(out = open_memstream(&buf, &len)))
				sr_die_errno("a buffer");
			run_verb((int)v, argv + i, argc - i);
			if (fclose(out))
				sr_die_errno("a buffer");
			fwrite(buf, 1, len, stdout);
			free(buf);
			sr_out_commit_all();
			return 0;
		}
	sr_usage_error("unknown verb '%s'", argv[1]);
}
