/* sa-indices - sensitivity indices from a design and its results. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/opt.h"
#include "core/out.h"
#include "sa/design.h"
#include "sa/indices.h"
#include "sa/indices_tsv.h"
#include "sa/method.h"
#include "sa/metrics.h"
#include "sa/pawn.h"
#include "sa/rbd.h"

#define DEF_SEED 1UL
#define DEF_CONF 0.95
#define DEF_RESAMPLES_VBD 100
#define DEF_RESAMPLES_MOAT 1000
#define MAX_RESAMPLES 1000000
#define MAX_HARMONICS 1000
#define MAX_SLICES 1000
#define MAX_THREADS 1024

enum {
	OPT_METRIC = CHAR_MAX + 1, OPT_AGGREGATE, OPT_CONF, OPT_PERCENTILE,
	OPT_S2, OPT_ALLOW_MISSING, OPT_MAX_MISSING, OPT_PLOT, OPT_SLICES,
	OPT_VERSION
};

static const struct option longopts[] = {
	{ "method", required_argument, NULL, 'm' },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "aggregate", required_argument, NULL, OPT_AGGREGATE },
	{ "resamples", required_argument, NULL, 'r' },
	{ "conf", required_argument, NULL, OPT_CONF },
	{ "percentile", no_argument, NULL, OPT_PERCENTILE },
	{ "s2", required_argument, NULL, OPT_S2 },
	{ "allow-missing", no_argument, NULL, OPT_ALLOW_MISSING },
	{ "max-missing", required_argument, NULL, OPT_MAX_MISSING },
	{ "harmonics", required_argument, NULL, 'M' },
	{ "slices", required_argument, NULL, OPT_SLICES },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "seed", required_argument, NULL, 's' },
	{ "threads", required_argument, NULL, 'j' },
	SR_OPT_OUTPUT_TAIL(OPT_VERSION)
};

struct opts {
	sr_indices_opts x;
	const char *metric, *output, *s2, *plot, *design, *metrics;
	long resamples;		/* -1: the method's default */
};

static void
usage(FILE *fp)
{
	fprintf(fp,
"Usage: sa-indices -m METHOD [options] [-o INDICES.tsv] DESIGN.tsv\n"
"         METRICS.tsv\n"
"Compute sensitivity indices of one metric from a design and its results.\n"
"\n"
"  -m, --method M           of its own design: moat (mu, mu*, sigma), vbd\n"
"                           (Sobol S1, ST[, S2]), efast (S1, ST of Fourier\n"
"                           amplitudes); of any design: rbd_fast (S1),\n"
"                           pawn (KS distances), delta (delta, S1), corr\n"
"                           (Pearson, Spearman, PCC, PRCC, SRC, SRRC)\n"
"      --metric NAME        metric column [the only one, else dice]\n"
"      --aggregate A        over tiles of a run: mean, median, sum [mean]\n"
"  -r, --resamples N        bootstrap resamples [moat %d; the others %d]\n"
"      --conf LEVEL         confidence level of the intervals [%g]\n"
"      --percentile         vbd: add percentile intervals (S1_lo S1_hi ST_lo ST_hi)\n"
"      --s2 FILE            vbd: write second-order indices to FILE\n"
"      --allow-missing      analyze without the runs that have no result:\n"
"                           moat drops the effects, vbd the blocks, efast\n"
"                           the parameters' blocks that touch one; the\n"
"                           others drop the runs\n"
"      --max-missing SHARE  --allow-missing up to SHARE of the runs [1]\n"
"  -M, --harmonics M        rbd_fast: harmonics of the spectrum [%d]\n"
"      --slices S           pawn: slices of each parameter's range [%d]\n"
"      --plot FILE.png      draw the indices with gnuplot\n"
"  -s, --seed SEED          bootstrap seed [%lu]\n"
"  -j, --threads N          efast, rbd_fast: the bootstrap's threads; pawn:\n"
"                           the parameters' (the same output for any) [the\n"
"                           processors given]\n"
SR_OPT_OUTPUT_HELP,
	    DEF_RESAMPLES_MOAT, DEF_RESAMPLES_VBD, DEF_CONF, SR_RBD_M, SR_PAWN_S,
	    DEF_SEED);
}

/* Checks the operands and the options that go with the method. */
static void
check_args(int argc, char **argv, struct opts *o, int method)
{
	if (argc - optind != 2)
		sr_usage_error("expected DESIGN.tsv and METRICS.tsv, got %d "
		    "arguments", argc - optind);
	o->design = argv[optind];
	o->metrics = o->x.metrics_path = argv[optind + 1];
	if (strcmp(o->design, "-") == 0 && strcmp(o->metrics, "-") == 0)
		sr_usage_error("only one of DESIGN.tsv and METRICS.tsv can be stdin");
	if (method < 0)
		sr_usage_error("no method given (-m moat, vbd, efast, rbd_fast, "
		    "pawn, delta or corr)");
	o->x.method = (enum sr_method)method;
	if ((o->s2 || o->x.percentile) && method != SR_METHOD_VBD)
		sr_usage_error("--s2 and --percentile go with -m vbd");
	if (o->x.harmonics && method != SR_METHOD_RBD_FAST)
		sr_usage_error("-M goes with -m rbd_fast (an efast design's M is "
		    "in its metadata)");
	if (o->x.slices && method != SR_METHOD_PAWN)
		sr_usage_error("--slices goes with -m pawn");
	if (o->x.threads && method != SR_METHOD_EFAST &&
	    method != SR_METHOD_RBD_FAST && method != SR_METHOD_PAWN)
		sr_usage_error("-j goes with -m efast, rbd_fast or pawn (the "
		    "other analyses run on one thread)");
	if (o->resamples >= 0 && (method == SR_METHOD_PAWN ||
	    method == SR_METHOD_CORR))
		sr_usage_error("-r: %s has no bootstrap", sr_method_name(method));
	if (o->s2 && strcmp(o->s2, "-") == 0 && (o->output == NULL ||
	    strcmp(o->output, "-") == 0))
		sr_usage_error("--s2 -: the first-order table already goes to "
		    "stdout; give -o FILE or --s2 FILE");
	sr_out_refuse_inputs((const char *[]){ o->output, o->s2, o->plot }, 3,
	    (const char *[]){ o->design, o->metrics }, 2);
	o->x.s2 = o->s2 != NULL;
	o->x.resamples = o->resamples >= 0 ? (size_t)o->resamples :
	    method == SR_METHOD_MOAT ? DEF_RESAMPLES_MOAT : DEF_RESAMPLES_VBD;
}

static void
parse_args(int argc, char **argv, struct opts *o)
{
	const char *methods[SR_NMETHOD];
	int c, method = -1;

	memset(o, 0, sizeof *o);
	o->x.conf = DEF_CONF;
	o->x.seed = DEF_SEED;
	o->x.max_missing = 1;
	o->resamples = -1;
	sr_method_table(SR_METHODS_INDICES, methods);
	while ((c = getopt_long(argc, argv, ":m:r:s:o:M:j:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': method = sr_opt_word("-m", optarg, methods, SR_NMETHOD);
			break;
		case OPT_METRIC: o->metric = optarg; break;
		case OPT_AGGREGATE: o->x.aggregate = sr_opt_word("--aggregate",
		    optarg, sr_aggregate_names, SR_NAGG); break;
		case 'r': o->resamples = (long)sr_opt_count("-r", optarg, 0,
		    MAX_RESAMPLES); break;
		case OPT_CONF: o->x.conf = sr_opt_real("--conf", optarg, 0, 1,
		    SR_OPEN_LO | SR_OPEN_HI, "a level"); break;
		case OPT_PERCENTILE: o->x.percentile = 1; break;
		case OPT_S2: o->s2 = optarg; break;
		case OPT_ALLOW_MISSING: o->x.allow_missing = 1; break;
		case OPT_MAX_MISSING: o->x.allow_missing = 1;
			o->x.max_missing = sr_opt_real("--max-missing", optarg, 0, 1,
			    0, "a share"); break;
		case OPT_PLOT: o->plot = optarg; break;
		case 'M': o->x.harmonics = (size_t)sr_opt_count("-M", optarg, 1,
		    MAX_HARMONICS); break;
		case OPT_SLICES: o->x.slices = (size_t)sr_opt_count("--slices",
		    optarg, 2, MAX_SLICES); break;
		case 's': o->x.seed = sr_opt_seed("-s", optarg); break;
		case 'j': o->x.threads = sr_opt_count("-j", optarg, 1,
		    MAX_THREADS); break;
		case 'o': o->output = optarg; break;
		case 'h': sr_opt_help(usage);
		case OPT_VERSION: sr_print_version();
		default: sr_getopt_fail(c, argv);
		}
	}
	check_args(argc, argv, o, method);
}

int
main(int argc, char **argv)
{
	char err[SR_INDICES_ERRLEN];
	struct opts o;
	sr_indices x;
	sr_design *d;
	sr_metrics *m;
	size_t nused;
	FILE *fp;

	sr_init(argv[0]);
	parse_args(argc, argv, &o);
	/* eFAST's analysis needs the outputs alone, in design order */
	d = o.x.method == SR_METHOD_EFAST ? sr_design_read_settings(o.design) :
	    sr_design_read(o.design);
	if (sr_indices_check_design(d, o.x.method, &nused, err, sizeof err))
		sr_die(SR_EXIT_DATA, "%s", err);
	m = sr_metrics_read(o.metrics, d->nrun, o.metric, o.x.aggregate);
	if (sr_indices_compute(d, m, &o.x, &x, err, sizeof err))
		sr_die(SR_EXIT_DATA, "%s", err);
	sr_indices_warn(&x);	/* not progress: always */
	if (o.plot)	/* first: a failed plot must leave no table */
		sr_indices_plot(&x, o.plot);
	fp = sr_out_open(o.output);	/* only now: a failure writes nothing */
	sr_out_provenance(fp, argc, argv);
	sr_indices_write_meta(fp, &x, "");
	sr_indices_write_warnings(fp, &x, 0);
	sr_indices_write(fp, &x);
	if (o.s2) {
		fp = sr_out_open(o.s2);
		sr_out_provenance(fp, argc, argv);
		sr_indices_write_meta(fp, &x, " order=2");
		sr_indices_write_warnings(fp, &x, 1);
		sr_indices_write_s2(fp, &x);
	}
	sr_out_commit_all();
	sr_indices_free(&x);
	sr_metrics_free(m);
	sr_design_free(d);
	return SR_EXIT_OK;
}
