/* sa-trials - a campaign's parameter sets ranked by their results: the
 * best complete set first, the best set as a space, the search drawn. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/opt.h"
#include "core/out.h"
#include "core/path.h"
#include "plan/trials.h"
#include "sa/design.h"
#include "sa/space.h"

enum { OPT_METRIC = CHAR_MAX + 1, OPT_SPACE, OPT_BEST, OPT_RULE, OPT_PLOT,
    OPT_VERSION };

static const struct option longopts[] = {
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "space", required_argument, NULL, OPT_SPACE },
	{ "best", required_argument, NULL, OPT_BEST },
	{ "rule", required_argument, NULL, OPT_RULE },
	{ "plot", required_argument, NULL, OPT_PLOT },
	SR_OPT_OUTPUT_TAIL(OPT_VERSION)
};

struct opts {
	const char *metric, *space, *best, *rule, *plot, *output;
	const char *design, *results;
};

static void
usage(FILE *fp)
{
	fputs(
"Usage: sa-trials [--metric NAME] [--space SPACE.tsv] [--best BEST.tsv]\n"
"         [--rule TEXT] [--plot FILE.png] [-o TRIALS.tsv] DESIGN.tsv RESULTS.tsv\n"
"Rank the parameter sets of a design (its runs) by their results on the\n"
"tiles: one row per set, complete sets first, the highest mean first.\n"
"\n"
"      --metric NAME        a metric column of RESULTS: dice, jaccard,\n"
"                           object_dice, aji, objects, a command's [dice]\n"
"      --best FILE          write the best complete set as a space: the\n"
"                           space whose defaults are the set's values\n"
"      --space SPACE.tsv    the space of --best [the design's #space lines]\n"
"      --rule TEXT          the rule column of the cancelled sets [empty]\n"
"      --plot FILE.png      draw the search with gnuplot: the best mean so far\n"
"                           against the seconds of work, the sets in run\n"
"                           order; the mean against each varied parameter\n"
SR_OPT_OUTPUT_HELP, fp);
}

/* Whether two outputs name one file (NULL and "-" are stdout). */
static int
same_output(const char *a, const char *b)
{
	int out_a = a == NULL || strcmp(a, "-") == 0;
	int out_b = b == NULL || strcmp(b, "-") == 0;

	if (out_a || out_b)
		return out_a && out_b;
	return sr_path_same(a, b);
}

/* Checks the operands and how the options go together. */
static void
check_args(int argc, char **argv, struct opts *o)
{
	if (argc - optind != 2)
		sr_usage_error("expected DESIGN.tsv and RESULTS.tsv, got %d "
		    "arguments", argc - optind);
	o->design = argv[optind];
	o->results = argv[optind + 1];
	if (strcmp(o->design, "-") == 0 && strcmp(o->results, "-") == 0)
		sr_usage_error("only one of DESIGN.tsv and RESULTS.tsv can be stdin");
	if (o->space && o->best == NULL)
		sr_usage_error("--space goes with --best");
	if (o->space && strcmp(o->space, "-") == 0 &&
	    (strcmp(o->design, "-") == 0 || strcmp(o->results, "-") == 0))
		sr_usage_error("only one input can be stdin");
	if (o->rule && strpbrk(o->rule, "\t\n\r"))
		sr_usage_error("--rule: a tab or a newline would break the table");
	if (o->best && same_output(o->best, o->output))
		sr_usage_error("--best %s: the trials are written there already",
		    o->best);
	if (o->plot && (same_output(o->plot, o->output) ||
	    (o->best && same_output(o->plot, o->best))))
		sr_usage_error("--plot %s: another output is written there",
		    o->plot);
	sr_out_refuse_inputs((const char *[]){ o->output, o->best, o->plot }, 3,
	    (const char *[]){ o->design, o->results, o->space }, 3);
}

static void
parse_args(int argc, char **argv, struct opts *o)
{
	int c;

	memset(o, 0, sizeof *o);
	o->metric = SR_TRIALS_METRIC;
	while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_METRIC: o->metric = optarg; break;
		case OPT_SPACE: o->space = optarg; break;
		case OPT_BEST: o->best = optarg; break;
		case OPT_RULE: o->rule = optarg; break;
		case OPT_PLOT: o->plot = optarg; break;
		case 'o': o->output = optarg; break;
		case 'h': sr_opt_help(usage);
		case OPT_VERSION: sr_print_version();
		default: sr_getopt_fail(c, argv);
		}
	}
	check_args(argc, argv, o);
}

/* The space of --best: --space, else the design's own. */
static sr_space *
best_space(const struct opts *o, sr_design *d, const char **path)
{
	*path = o->space ? o->space : o->design;
	if (o->space)
		return sr_space_read(o->space);
	if (d->space == NULL)
		sr_die(SR_EXIT_DATA, "%s: no #space lines: give the space of "
		    "--best with --space", o->design);
	return sr_space_copy(d->space);
}

int
main(int argc, char **argv)
{
	struct opts o;
	sr_design *d;
	sr_trials *t;
	sr_space *s = NULL;
	const char *space_path = NULL;
	FILE *fp;

	sr_init(argv[0]);
	parse_args(argc, argv, &o);
	d = sr_design_read(o.design);
	t = sr_trials_read(d, o.results, o.metric);
	if (o.best)
		s = best_space(&o, d, &space_path);
	if (o.plot)	/* first: a failed plot must leave no table */
		sr_trials_plot(o.plot, t, d);
	fp = sr_out_open(o.output);
	sr_trials_write(fp, t, d, o.rule, argc, argv);
	if (o.best)
		sr_trials_write_best(sr_out_open(o.best), t, d, s, space_path,
		    argc, argv);
	sr_out_commit_all();
	sr_space_free(s);
	sr_trials_free(t);
	sr_design_free(d);
	return SR_EXIT_OK;
}
