/* sim-runtime - predict a campaign's makespan, utilisation and node-hours
 * on N slots from the timings of a small real run (or a cost model, given
 * or fitted to them), for other slot counts, bucket plans, designs and
 * cancellation rules. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/opt.h"
#include "core/out.h"
#include "sim/job.h"
#include "sim/report.h"

#define DEF_SEED 1UL

enum {
	OPT_NODES = CHAR_MAX + 1, OPT_CORES, OPT_CPT, OPT_SWEEP, OPT_OVERHEAD,
	OPT_DELAY, OPT_LINES, OPT_PER_TASK, OPT_ORDER, OPT_WORKFLOW,
	OPT_INSTANCES, OPT_SKIP, OPT_MODEL, OPT_TILES, OPT_RESULTS, OPT_METRIC, OPT_CANCEL, OPT_PLOT,
	OPT_FIT, OPT_REF, OPT_WRITE_MODEL, OPT_VERSION
};

static const struct option longopts[] = {
	{ "slots", required_argument, NULL, 'n' },
	{ "nodes", required_argument, NULL, OPT_NODES },
	{ "cores", required_argument, NULL, OPT_CORES },
	{ "cpus-per-task", required_argument, NULL, OPT_CPT },
	{ "sweep", required_argument, NULL, OPT_SWEEP },
	{ "overhead", required_argument, NULL, OPT_OVERHEAD },
	{ "delay", required_argument, NULL, OPT_DELAY },
	{ "lines", required_argument, NULL, OPT_LINES },
	{ "tiles-per-task", required_argument, NULL, OPT_PER_TASK },
	{ "order", required_argument, NULL, OPT_ORDER },
	{ "workflow", required_argument, NULL, OPT_WORKFLOW },
	{ "instances", required_argument, NULL, OPT_INSTANCES },
	{ "skip-stage", required_argument, NULL, OPT_SKIP },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "fit", no_argument, NULL, OPT_FIT },
	{ "ref-timings", required_argument, NULL, OPT_REF },
	{ "write-model", required_argument, NULL, OPT_WRITE_MODEL },
	{ "tiles", required_argument, NULL, OPT_TILES },
	{ "seed", required_argument, NULL, 's' },
	{ "results", required_argument, NULL, OPT_RESULTS },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "cancel", required_argument, NULL, OPT_CANCEL },
	{ "plot", required_argument, NULL, OPT_PLOT },
	SR_OPT_OUTPUT_TAIL(OPT_VERSION)
};

/* The job, and the options that only shape it. */
struct opts {
	sr_simjob job;
	size_t slots, nodes;
	const char *plot, *output, *write_model;
	int seed_given;
};

static void
usage(FILE *fp)
{
	fprintf(fp,
"Usage: sim-runtime [options] [-o REPORT.tsv] TIMINGS [BUCKETS.tsv ...]\n"
"       sim-runtime --model MODEL.tsv --workflow WF --instances INSTANCES.tsv\n"
"                   [options] [-o REPORT.tsv] BUCKETS.tsv ...\n"
"       sim-runtime --fit [--ref-timings REF] --workflow WF --instances\n"
"                   INSTANCES.tsv [options] TIMINGS BUCKETS.tsv ...\n"
"Predict the makespan of a campaign's array tasks on N slots from seg-run\n"
"timings (a file, or a directory of them) or a cost model: for the timings'\n"
"own buckets, or for each plan BUCKETS.tsv (with --fit, of another design).\n"
"\n"
"  -n, --slots N            array tasks running at once [1]\n"
"      --nodes N            nodes: slots = N x (cores / cpus-per-task)\n"
"      --cores C            cores per node (also counts the node-hours)\n"
"      --cpus-per-task K    cores an array task takes [1]\n"
"      --sweep LIST         slot counts, e.g. 1,2,4,...,1024: a row each\n"
"      --overhead S         start-up seconds of every array task [0, or\n"
"                           the model's]\n"
"      --delay S            seconds from an array task's end to the next\n"
"                           start on its slot [0]\n"
"      --lines M            consecutive buckets per array task [1]\n"
"      --tiles-per-task T   array tasks of a bucket on T tiles [all tiles]\n"
"      --order O            file or longest-first [file]\n"
"      --workflow WF        the workflow (with --instances: needed for\n"
"                           BUCKETS, --model, --results, --skip-stage)\n"
"      --instances FILE     the stage instances of the timings and plans\n"
"      --skip-stage LIST    stages the buckets do not run (comma list)\n"
"      --model FILE         costs from a model: task [tile] seconds spread\n"
"      --fit                costs from a model fitted to TIMINGS (plans of\n"
"                           any design of the workflow)\n"
"      --ref-timings FILE   --fit: the reference step's timings, for the\n"
"                           tasks TIMINGS lack (normalize); repeatable\n"
"      --write-model FILE   --fit: write the fitted model (for --model)\n"
"      --tiles N            --model, --fit: tiles per bucket [the model's\n"
"                           tiles (the timings'), or 1]\n"
"  -s, --seed SEED          --model, --fit: random seed [%lu]\n"
"      --results FILE       results (run tile metric) for --cancel\n"
"      --metric NAME        the metric column of --results [dice]\n"
"      --cancel RULE        stable[:acc=A,time=T,window=W], median[:warmup=N,\n"
"                           startup=N], wilcoxon[:warmup=N,p=P] or none\n"
"                           [stable:acc=%g,time=%g,window=%d]\n"
"      --plot FILE.png      makespan against slots (gnuplot)\n"
SR_OPT_OUTPUT_HELP,
	    DEF_SEED, SR_CANCEL_ACC, SR_CANCEL_TIME, SR_CANCEL_WINDOW);
}

/* Usage errors of the outputs out[0..3): the plot and the model need a
 * file name, and no two are the same. */
static void
check_outputs(const char *const out[3])
{
	int a;

	for (a = 0; a < 2; a++)
		if (out[a] && strcmp(out[a], "-") == 0)
			sr_usage_error("%s needs a file name", a ? "--write-model" :
			    "--plot");
	sr_out_refuse_twice(out, 3);
}

/* Usage errors of options that need others or exclude each other. */
static void
check_options(const struct opts *o)
{
	const sr_simjob *j = &o->job;

	sr_simjob_check(j);
	if (o->nodes && !j->cores)
		sr_usage_error("--nodes needs --cores");
	if ((o->slots != 0) + (o->nodes != 0) + (j->sweep.n != 0) > 1)
		sr_usage_error("--slots, --nodes and --sweep exclude each other");
	if (o->write_model && !j->fit)
		sr_usage_error("--ref-timings and --write-model go with --fit");
	if (o->seed_given && !j->model && !j->fit)
		sr_usage_error("--tiles and --seed go with --model or --fit");
	check_outputs((const char *[]){ o->plot, o->write_model, o->output });
}

/* A count of slots, nodes, cores, lines or tiles: 1 to 1e9. */
static size_t
count(const char *opt, const char *arg)
{
	return sr_opt_count(opt, arg, 1, SR_COUNT_MAX);
}

/* Takes option c (a long-only one, or -n/-s/-o) with argument arg. */
static void
take_option(struct opts *o, int c, const char *arg)
{
	sr_simjob *j = &o->job;

	switch (c) {
	case 'n': o->slots = count("--slots", arg); break;
	case OPT_NODES: o->nodes = count("--nodes", arg); break;
	case OPT_CORES: j->cores = count("--cores", arg); break;
	case OPT_CPT: j->cpt = count("--cpus-per-task", arg); break;
	case OPT_SWEEP: sr_sweep_parse(&j->sweep, "--sweep", arg); break;
	case OPT_OVERHEAD: j->overhead = sr_opt_seconds("--overhead", arg);
		j->overhead_given = 1; break;
	case OPT_DELAY: j->delay = sr_opt_seconds("--delay", arg); break;
	case OPT_LINES: j->lines = count("--lines", arg); break;
	case OPT_PER_TASK: j->per_task = count("--tiles-per-task", arg); break;
	case OPT_ORDER: j->order = (sr_simorder)sr_opt_word("--order", arg,
		    sr_simorder_names, SR_NORDER); break;
	case OPT_WORKFLOW: j->workflow = arg; break;
	case OPT_INSTANCES: j->instances = arg; break;
	case OPT_SKIP: j->skip = arg; break;
	case OPT_MODEL: j->model = arg; break;
	case OPT_FIT: j->fit = 1; break;
	case OPT_REF: j->ref = sr_reallocarray(j->ref, ++j->nref, sizeof *j->ref);
		j->ref[j->nref - 1] = (char *)arg; break;
	case OPT_WRITE_MODEL: o->write_model = arg; break;
	case OPT_TILES: j->tiles = count("--tiles", arg); break;
	case 's': j->seed = sr_opt_seed("--seed", arg); o->seed_given = 1; break;
	case OPT_RESULTS: j->results = arg; break;
	case OPT_METRIC: j->metric = arg; break;
	case OPT_CANCEL: sr_cancelrule_parse(&j->rule, "--cancel", arg);
		j->cancel = 1; break;
	case OPT_PLOT: o->plot = arg; break;
	case 'o': o->output = arg; break;
	}
}

static void
parse_args(int argc, char **argv, struct opts *o)
{
	int c;

	memset(o, 0, sizeof *o);
	o->job.cpt = 1;
	o->job.lines = 1;
	o->job.seed = DEF_SEED;
	while ((c = getopt_long(argc, argv, ":n:s:o:h", longopts, NULL)) != -1) {
		if (c == 'h')
			sr_opt_help(usage);
		if (c == OPT_VERSION)
			sr_print_version();
		if (c == '?' || c == ':')
			sr_getopt_fail(c, argv);
		take_option(o, c, optarg);
	}
	check_options(o);
	sr_simjob_operands(&o->job, argc - optind, argv + optind,
	    (const char *[]){ o->output, o->plot, o->write_model }, 3);
	if (o->job.sweep.n == 0)
		sr_sweep_add(&o->job.sweep, o->nodes ? o->nodes * (o->job.cores /
		    o->job.cpt) : o->slots ? o->slots : 1);
}

int
main(int argc, char **argv)
{
	struct opts o;
	sr_siminputs r;
	sr_simrow *rows;
	FILE *fp;

	sr_init(argv[0]);
	parse_args(argc, argv, &o);
	sr_siminputs_read(&o.job, &r);
	rows = sr_simjob_run(&o.job, &r);
	if (o.plot)		/* first: a failing gnuplot leaves no report */
		sr_simreport_plot(o.plot, &o.job, &r, rows);
	if (o.write_model)
		sr_simreport_model(sr_out_open(o.write_model), &o.job, &r, argc,
		    argv);
	fp = sr_out_open(o.output);
	sr_out_provenance(fp, argc, argv);
	sr_simreport_write(fp, &o.job, &r, rows);
	sr_out_commit_all();
	free(o.job.ref);
	free(rows);
	sr_siminputs_free(&r);
	sr_sweep_free(&o.job.sweep);
	return SR_EXIT_OK;
}
