/* sa-prune - a search space shrunk with what past experiments learned:
 * the most similar past experiment (kNN surrogates, ncorr) and its jobs
 * cut at paggr times their best (the JobPruner study's Algorithm 1). */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/opt.h"
#include "core/out.h"
#include "plan/experiment.h"
#include "sa/prune.h"
#include "sa/prune_report.h"
#include "sa/space.h"

#define DEF_METRIC "dice"
#define DEF_K 5
#define DEF_SEED 1UL
#define DEF_MIN_NCORR 0.5
#define DEF_BINS 10
#define DEF_LAGS 10
#define DEF_PAGGR_MAX 0.97
#define DEF_PAGGR_TOP 0.1
#define DEF_PAGGR_MIN 0.6

enum { OPT_CURRENT = CHAR_MAX + 1, OPT_PAST, OPT_CURRENT_FILES,
    OPT_PAST_FILES, OPT_KNOWLEDGE, OPT_METRIC, OPT_POINTS, OPT_MIN_NCORR,
    OPT_BINS, OPT_PAGGR, OPT_LAGS, OPT_PAGGR_MAX, OPT_PAGGR_TOP, OPT_PAGGR_MIN,
    OPT_PAGGR_FALLBACK,
    OPT_REPORT, OPT_VERSION };

static const struct option longopts[] = {
	{ "current", required_argument, NULL, OPT_CURRENT },
	{ "past", required_argument, NULL, OPT_PAST },
	{ "current-files", required_argument, NULL, OPT_CURRENT_FILES },
	{ "past-files", required_argument, NULL, OPT_PAST_FILES },
	{ "knowledge", required_argument, NULL, OPT_KNOWLEDGE },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "points", required_argument, NULL, OPT_POINTS },
	{ "seed", required_argument, NULL, 's' },
	{ "min-ncorr", required_argument, NULL, OPT_MIN_NCORR },
	{ "bins", required_argument, NULL, OPT_BINS },
	{ "paggr", required_argument, NULL, OPT_PAGGR },
	{ "lags", required_argument, NULL, OPT_LAGS },
	{ "paggr-max", required_argument, NULL, OPT_PAGGR_MAX },
	{ "paggr-top", required_argument, NULL, OPT_PAGGR_TOP },
	{ "paggr-min", required_argument, NULL, OPT_PAGGR_MIN },
	{ "paggr-fallback", required_argument, NULL, OPT_PAGGR_FALLBACK },
	{ "report", required_argument, NULL, OPT_REPORT },
	SR_OPT_OUTPUT_TAIL(OPT_VERSION)
};

struct opts {
	sr_prune_opts x;
	const char *metric, *report, *output, *space;
	int have_current;
	unsigned set;		/* SR_PRUNE_SET_*: paggr auto's options given */
	sr_experiment_arg current, *past;
	size_t npast;
};

static void
usage(FILE *fp)
{
	fprintf(fp,
"Usage: sa-prune [options] [-o NEW.tsv] SPACE.tsv\n"
"Shrink a space with what past experiments learned: the past experiment\n"
"most like the current one, and its jobs cut at paggr times their best.\n"
"\n"
"      --current DIR         the campaign output of the current experiment\n"
"      --current-files DESIGN METRICS   the same from a design and metrics\n"
"      --past DIR            a past campaign output (repeatable)\n"
"      --past-files DESIGN METRICS      a past experiment (repeatable)\n"
"      --knowledge DIR       every campaign output directly inside DIR\n"
"      --metric NAME         the metric, higher is better [%s]\n"
"  -k N                      neighbours of the kNN surrogates [%d]\n"
"      --points N            compare on N Sobol points [the current points]\n"
"  -s, --seed SEED           seed of the Sobol points' shift [%lu]\n"
"      --min-ncorr X         least ncorr of the experiment used [%g]\n"
"      --bins N              bins of a range [%d]\n"
"      --paggr P|auto        aggressiveness, 0 < P < 1 [auto]\n"
"      --lags N              auto: the variogram's lag bins [%d]\n"
"      --paggr-max P         auto: the largest paggr [%g]\n"
"      --paggr-top Q         auto, when a test fails: paggr from the\n"
"                            score of the best Q of the jobs [%g]\n"
"      --paggr-min P         auto: the least paggr of that rule [%g]\n"
"      --paggr-fallback P    auto, when a test fails: paggr P instead\n"
"      --report FILE         write what was found and done (TSV)\n"
"  -o, --output FILE         write the space here (atomically), not stdout\n"
"  -h, --help                this help\n"
"      --version             version\n", DEF_METRIC, DEF_K, DEF_SEED,
	    DEF_MIN_NCORR, DEF_BINS, DEF_LAGS, DEF_PAGGR_MAX, DEF_PAGGR_TOP,
	    DEF_PAGGR_MIN);
}

/* An experiment option's arguments: DIR, or DESIGN METRICS (the second
 * taken from argv); '-' is refused, as the tool reads many files. */
static sr_experiment_arg
experiment_arg(const char *opt, enum sr_experiment_kind kind, int argc,
    char **argv)
{
	sr_experiment_arg a = { kind, optarg, NULL };

	if (kind == SR_EXP_FILES) {
		if (optind >= argc)
			sr_usage_error("%s needs DESIGN and METRICS", opt);
		a.metrics = argv[optind++];
	}
	if (strcmp(a.path, "-") == 0 || (a.metrics && strcmp(a.metrics, "-") == 0))
		sr_usage_error("%s: '-': experiments are read from files", opt);
	return a;
}

static void
add_current(struct opts *o, const char *opt, enum sr_experiment_kind kind,
    int argc, char **argv)
{
	if (o->have_current++)
		sr_usage_error("%s: one current experiment only", opt);
	o->current = experiment_arg(opt, kind, argc, argv);
}

static void
add_past(struct opts *o, const char *opt, enum sr_experiment_kind kind,
    int argc, char **argv)
{
	o->past = sr_reallocarray(o->past, o->npast + 1, sizeof *o->past);
	o->past[o->npast++] = experiment_arg(opt, kind, argc, argv);
}

/* --paggr: auto, or a number strictly between 0 and 1. */
static void
set_paggr(struct opts *o, const char *arg)
{
	o->x.paggr_auto = strcmp(arg, "auto") == 0;
	if (!o->x.paggr_auto)
		o->x.paggr = sr_opt_real("--paggr", arg, 0, 1, SR_OPEN_LO |
		    SR_OPEN_HI, "a fraction or auto");
}

/* Checks the operand and how the options go together. */
static void
check_args(int argc, char **argv, struct opts *o)
{
	const char *ins[2] = { NULL, NULL };
	char err[SR_ERRLEN];

	if (argc - optind != 1)
		sr_usage_error("expected SPACE.tsv, got %d arguments", argc - optind);
	o->space = argv[optind];
	if (sr_prune_opts_check(&o->x, o->set, err, sizeof err))
		sr_usage_error("%s", err);
	if (o->report && o->output && strcmp(o->report, "-") &&
	    strcmp(o->output, "-") && strcmp(o->report, o->output) == 0)
		sr_usage_error("--report %s: the space is written there already",
		    o->report);
	if (o->report && strcmp(o->report, "-") == 0 && (o->output == NULL ||
	    strcmp(o->output, "-") == 0))
		sr_usage_error("--report -: the space already goes to stdout; give "
		    "-o FILE or --report FILE");
	if (o->have_current && o->current.kind == SR_EXP_FILES)
		ins[0] = o->current.path, ins[1] = o->current.metrics;
	sr_out_refuse_inputs((const char *[]){ o->output, o->report }, 2,
	    (const char *[]){ o->space, ins[0], ins[1] }, 3);
}

static void
parse_args(int argc, char **argv, struct opts *o)
{
	int c;

	memset(o, 0, sizeof *o);
	o->metric = DEF_METRIC;
	o->x = (sr_prune_opts){ DEF_K, 0, DEF_SEED, DEF_MIN_NCORR, DEF_BINS, 1,
	    0, { DEF_LAGS, DEF_PAGGR_MAX, NAN, DEF_SEED, DEF_PAGGR_TOP,
	    DEF_PAGGR_MIN } };
	while ((c = getopt_long(argc, argv, ":k:s:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_CURRENT: add_current(o, "--current", SR_EXP_DIR, argc,
		    argv); break;
		case OPT_CURRENT_FILES: add_current(o, "--current-files",
		    SR_EXP_FILES, argc, argv); break;
		case OPT_PAST: add_past(o, "--past", SR_EXP_DIR, argc, argv); break;
		case OPT_PAST_FILES: add_past(o, "--past-files", SR_EXP_FILES, argc,
		    argv); break;
		case OPT_KNOWLEDGE: add_past(o, "--knowledge", SR_EXP_KNOWLEDGE,
		    argc, argv); break;
		case OPT_METRIC: o->metric = optarg; break;
		case 'k': o->x.k = sr_opt_count("-k", optarg, 1, SR_COUNT_MAX); break;
		case OPT_POINTS: o->x.points = sr_opt_count("--points", optarg, 2,
		    SR_COUNT_MAX); break;
		case 's': o->x.seed = o->x.auto_opts.seed = sr_opt_seed("-s",
		    optarg); break;
		case OPT_MIN_NCORR: o->x.min_ncorr = sr_opt_real("--min-ncorr",
		    optarg, -1, 1, 0, "a correlation"); break;
		case OPT_BINS: o->x.bins = sr_opt_count("--bins", optarg, 1,
		    SR_COUNT_MAX); break;
		case OPT_PAGGR: set_paggr(o, optarg); break;
		case OPT_LAGS: o->x.auto_opts.lags = sr_opt_count("--lags", optarg,
		    3, SR_COUNT_MAX); o->set |= SR_PRUNE_SET_AUTO; break;
		case OPT_PAGGR_MAX: o->x.auto_opts.max = sr_opt_real("--paggr-max",
		    optarg, 0, 1, SR_OPEN_LO, "a fraction"); o->set |= SR_PRUNE_SET_AUTO; break;
		case OPT_PAGGR_TOP: o->x.auto_opts.top = sr_opt_real("--paggr-top",
		    optarg, 0, 1, SR_OPEN_LO | SR_OPEN_HI, "a fraction");
		    o->set |= SR_PRUNE_SET_TOP; break;
		case OPT_PAGGR_MIN: o->x.auto_opts.min = sr_opt_real("--paggr-min",
		    optarg, 0, 1, SR_OPEN_HI, "a fraction");
		    o->set |= SR_PRUNE_SET_MIN; break;
		case OPT_PAGGR_FALLBACK: o->x.auto_opts.fallback = sr_opt_real(
		    "--paggr-fallback", optarg, 0, 1, SR_OPEN_LO | SR_OPEN_HI,
		    "a fraction"); o->set |= SR_PRUNE_SET_AUTO; break;
		case OPT_REPORT: o->report = optarg; break;
		case 'o': o->output = optarg; break;
		case 'h': sr_opt_help(usage);
		case OPT_VERSION: sr_print_version();
		default: sr_getopt_fail(c, argv);
		}
	}
	check_args(argc, argv, o);
}

int
main(int argc, char **argv)
{
	char err[SR_ERRLEN];
	struct opts o;
	sr_space *s;
	sr_experiment *cur = NULL, **past;
	sr_prune_result r;
	sr_prune_inputs in;
	size_t npast, i;

	sr_init(argv[0]);
	parse_args(argc, argv, &o);
	s = sr_space_read(o.space);
	if (o.have_current)
		cur = sr_experiment_read(&o.current, s, o.metric, 1);
	past = sr_experiment_read_past(o.past, o.npast, o.have_current ?
	    &o.current : NULL, s, o.metric, &npast);
	if (sr_prune_run(&r, s, cur, past, npast, &o.x, err))
		sr_die(SR_EXIT_DATA, "%s: %s", o.space, err);
	in = (sr_prune_inputs){ s, cur, past, npast, &o.x, o.metric, argc, argv };
	sr_prune_space_write(sr_out_open(o.output), &r, &in);
	if (o.report)
		sr_prune_report_write(sr_out_open(o.report), &r, &in);
	sr_out_commit_all();
	if (!r.pruned)
		sr_warn("nothing pruned: %s", r.why);
	sr_prune_result_free(&r);
	for (i = 0; i < npast; i++)
		sr_experiment_free(past[i]);
	free(past);
	sr_experiment_free(cur);
	free(o.past);
	sr_space_free(s);
	return SR_EXIT_OK;
}
