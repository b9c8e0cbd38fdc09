/* sim-runtime - predict a campaign's makespan, utilisation and node-hours
 * on N slots from the timings of a small real run (or a cost model), for
 * other slot counts, bucket plans and cancellation rules. */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/num.h"
#include "core/out.h"
#include "core/plot.h"
#include "core/rng.h"
#include "sim/simulate.h"
#include "core/tsv.h"
#include "plan/workflow.h"

#define MAX_COUNT 1000000000L	/* slots, nodes, cores, lines, tiles */
#define DEF_ACC 0.05
#define DEF_TIME 2.0
#define DEF_WINDOW 5
#define DEF_SEED 1UL

enum {
	OPT_NODES = CHAR_MAX + 1, OPT_CORES, OPT_CPT, OPT_SWEEP, OPT_OVERHEAD,
	OPT_DELAY, OPT_LINES, OPT_ORDER, OPT_WORKFLOW, OPT_INSTANCES, OPT_SKIP,
	OPT_MODEL, OPT_TILES, OPT_RESULTS, OPT_METRIC, OPT_CANCEL, OPT_PLOT,
	OPT_VERSION
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
	{ "order", required_argument, NULL, OPT_ORDER },
	{ "workflow", required_argument, NULL, OPT_WORKFLOW },
	{ "instances", required_argument, NULL, OPT_INSTANCES },
	{ "skip-stage", required_argument, NULL, OPT_SKIP },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "tiles", required_argument, NULL, OPT_TILES },
	{ "seed", required_argument, NULL, 's' },
	{ "results", required_argument, NULL, OPT_RESULTS },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "cancel", required_argument, NULL, OPT_CANCEL },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

struct opts {
	const char *workflow, *instances, *skip, *model, *results, *metric;
	const char *plot, *output, *timings;
	char **buckets;
	size_t nbuckets;
	size_t slots, nodes, cores, cpt, lines, tiles;
	size_t *sweep, nsweep;
	double overhead, delay;
	int overhead_given, longest, cancel;
	sr_cancelrule rule;
	unsigned long seed;
	int seed_given;
};

static void
usage(FILE *fp)
{
	fprintf(fp,
"Usage: sim-runtime [options] [-o REPORT.tsv] TIMINGS [BUCKETS.tsv ...]\n"
"       sim-runtime --model MODEL.tsv --workflow WF --instances INSTANCES.tsv\n"
"                   [options] [-o REPORT.tsv] BUCKETS.tsv ...\n"
"Predict the makespan of a campaign's array tasks on N slots from seg-run\n"
"timings (a file, or a directory of them) or a cost model: for the timings'\n"
"own buckets, or for each plan BUCKETS.tsv.\n"
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
"      --order O            file or longest-first [file]\n"
"      --workflow WF        the workflow (with --instances: needed for\n"
"                           BUCKETS, --model, --results, --skip-stage)\n"
"      --instances FILE     the stage instances of the timings and plans\n"
"      --skip-stage LIST    stages the buckets do not run (comma list)\n"
"      --model FILE         costs from a model: task seconds spread\n"
"      --tiles N            --model: tiles per bucket [1]\n"
"  -s, --seed SEED          --model: random seed [%lu]\n"
"      --results FILE       results (run tile metric) for --cancel\n"
"      --metric NAME        the metric column of --results [dice]\n"
"      --cancel RULE        acc=A,time=T,window=W, each optional, off\n"
"                           for none [acc=%g,time=%g,window=%d]\n"
"      --plot FILE.png      makespan against slots (gnuplot)\n"
"  -o, --output FILE        write here (atomically) instead of stdout\n"
"  -h, --help               this help\n"
"      --version            version\n",
	    DEF_SEED, DEF_ACC, DEF_TIME, DEF_WINDOW);
}

/* ---- options -------------------------------------------------------------- */

static size_t
count_arg(const char *opt, const char *s)
{
	long v;

	if (sr_parse_long(s, &v) || v < 1 || v > MAX_COUNT)
		sr_usage_error("%s '%s': a whole number from 1 to 1e9", opt, s);
	return (size_t)v;
}

static double
seconds_arg(const char *opt, const char *s)
{
	double v;

	if (sr_parse_double(s, &v) || v < 0)
		sr_usage_error("%s '%s': seconds, a number >= 0", opt, s);
	return v;
}

/* Appends v to the sweep, which must increase. */
static void
sweep_add(struct opts *o, size_t v, const char *s)
{
	if (o->nsweep > 0 && v <= o->sweep[o->nsweep - 1])
		sr_usage_error("--sweep '%s': slot counts must increase", s);
	if (o->nsweep > 100000)
		sr_usage_error("--sweep '%s': more than 100000 slot counts", s);
	o->sweep = sr_reallocarray(o->sweep, o->nsweep + 1, sizeof *o->sweep);
	o->sweep[o->nsweep++] = v;
}

/* Parses "1,2,4,...,1024": "..." continues the counts before it up to
 * (not including) the count after it: by their step when the last three
 * are evenly spaced, else by the ratio of the last two when it is whole,
 * else by their difference. */
static void
parse_sweep(struct opts *o, const char *s)
{
	const char *p = s;
	char item[32];
	size_t a, b, x, ratio = 0, step;
	int rc, dots = 0;

	free(o->sweep);
	o->sweep = NULL;
	o->nsweep = 0;
	while ((rc = sr_list_next(&p, item, sizeof item)) > 0) {
		if (strcmp(item, "...") == 0) {
			if (o->nsweep < 2 || dots)
				sr_usage_error("--sweep '%s': '...' follows two slot "
				    "counts", s);
			dots = 1;
			continue;
		}
		x = count_arg("--sweep", item);
		if (dots) {
			a = o->sweep[o->nsweep - 2];
			b = o->sweep[o->nsweep - 1];
			step = b - a;
			if (!(o->nsweep >= 3 && a - o->sweep[o->nsweep - 3] == step) &&
			    b % a == 0)
				ratio = b / a;
			for (b = ratio ? b * ratio : b + step; b < x;
			    b = ratio ? b * ratio : b + step)
				sweep_add(o, b, s);
			dots = 0;
			ratio = 0;
		}
		sweep_add(o, x, s);
	}
	if (rc != 0 || dots || o->nsweep == 0)
		sr_usage_error("--sweep '%s': a comma list of slot counts", s);
}

/* Parses "acc=A,time=T,window=W" onto the defaults; "off" turns acc or
 * time off. */
static void
parse_cancel(struct opts *o, const char *s)
{
	const char *p = s;
	char item[64], *eq;
	double v;
	int rc;

	o->rule = (sr_cancelrule){ DEF_ACC, DEF_TIME, DEF_WINDOW };
	o->cancel = 1;
	while ((rc = sr_list_next(&p, item, sizeof item)) > 0) {
		if ((eq = strchr(item, '=')) == NULL)
			sr_usage_error("--cancel '%s': '%s' is not KEY=VALUE", s, item);
		*eq++ = '\0';
		if (strcmp(item, "window") == 0)
			o->rule.window = count_arg("--cancel window", eq);
		else if (strcmp(item, "acc") && strcmp(item, "time"))
			sr_usage_error("--cancel '%s': unknown key '%s' (acc, time, "
			    "window)", s, item);
		else if (strcmp(eq, "off") == 0)
			*(item[0] == 'a' ? &o->rule.acc : &o->rule.time) = NAN;
		else if (sr_parse_double(eq, &v) || v < 0 ||
		    (item[0] == 't' && v == 0))
			sr_usage_error("--cancel '%s': %s '%s': a number >= 0 (time: "
			    "> 0) or off", s, item, eq);
		else
			*(item[0] == 'a' ? &o->rule.acc : &o->rule.time) = v;
	}
	if (rc != 0)
		sr_usage_error("--cancel '%s': a comma list of acc=A, time=T, "
		    "window=W", s);
	if (o->rule.window > 1000000)
		sr_usage_error("--cancel '%s': window above 1000000", s);
}

/* Usage errors of options that need others or exclude each other. */
static void
check_options(struct opts *o, int argc, char **argv)
{
	int i, stdins = 0;

	if (!o->workflow != !o->instances)
		sr_usage_error("--workflow and --instances go together");
	if (o->nodes && !o->cores)
		sr_usage_error("--nodes needs --cores");
	if (o->cpt > 1 && !o->cores)
		sr_usage_error("--cpus-per-task goes with --cores");
	if (o->cores && o->cpt > o->cores)
		sr_usage_error("--cpus-per-task %zu: more than the %zu cores of a "
		    "node", o->cpt, o->cores);
	if ((o->slots != 0) + (o->nodes != 0) + (o->nsweep != 0) > 1)
		sr_usage_error("--slots, --nodes and --sweep exclude each other");
	if (o->cancel != (o->results != NULL))
		sr_usage_error("--cancel and --results go together");
	if (o->metric && !o->results)
		sr_usage_error("--metric goes with --results");
	if ((o->model || o->results || o->skip) && !o->workflow)
		sr_usage_error("--model, --results and --skip-stage need "
		    "--workflow and --instances");
	if ((o->tiles || o->seed_given) && !o->model)
		sr_usage_error("--tiles and --seed go with --model");
	if (o->tiles && o->results)
		sr_usage_error("--tiles and --results exclude each other: the "
		    "results name the tiles");
	if (o->plot && strcmp(o->plot, "-") == 0)
		sr_usage_error("--plot needs a file name");
	if (o->plot && o->output && strcmp(o->plot, o->output) == 0)
		sr_die(SR_EXIT_USAGE, "%s: named twice as an output", o->plot);
	if (optind >= argc)
		sr_usage_error(o->model ? "no BUCKETS.tsv given" :
		    "no TIMINGS given");
	if (!o->model)
		o->timings = argv[optind++];
	o->buckets = argv + optind;
	o->nbuckets = (size_t)(argc - optind);
	if (o->nbuckets && !o->workflow)
		sr_usage_error("BUCKETS.tsv needs --workflow and --instances");
	for (i = optind; i < argc; i++)
		stdins += strcmp(argv[i], "-") == 0;
	stdins += o->timings && strcmp(o->timings, "-") == 0;
	stdins += o->model && strcmp(o->model, "-") == 0;
	stdins += o->results && strcmp(o->results, "-") == 0;
	stdins += o->workflow && strcmp(o->workflow, "-") == 0;
	stdins += o->instances && strcmp(o->instances, "-") == 0;
	if (stdins > 1)
		sr_usage_error("only one input can be stdin");
}

static void
parse_args(int argc, char **argv, struct opts *o)
{
	long v;
	int c;

	memset(o, 0, sizeof *o);
	o->cpt = 1;
	o->lines = 1;
	o->seed = DEF_SEED;
	while ((c = getopt_long(argc, argv, ":n:s:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n': o->slots = count_arg("--slots", optarg); break;
		case OPT_NODES: o->nodes = count_arg("--nodes", optarg); break;
		case OPT_CORES: o->cores = count_arg("--cores", optarg); break;
		case OPT_CPT: o->cpt = count_arg("--cpus-per-task", optarg); break;
		case OPT_SWEEP: parse_sweep(o, optarg); break;
		case OPT_OVERHEAD: o->overhead = seconds_arg("--overhead", optarg);
			o->overhead_given = 1; break;
		case OPT_DELAY: o->delay = seconds_arg("--delay", optarg); break;
		case OPT_LINES: o->lines = count_arg("--lines", optarg); break;
		case OPT_ORDER:
			if (strcmp(optarg, "longest-first") && strcmp(optarg, "file"))
				sr_usage_error("--order '%s': file or longest-first",
				    optarg);
			o->longest = optarg[0] == 'l';
			break;
		case OPT_WORKFLOW: o->workflow = optarg; break;
		case OPT_INSTANCES: o->instances = optarg; break;
		case OPT_SKIP: o->skip = optarg; break;
		case OPT_MODEL: o->model = optarg; break;
		case OPT_TILES: o->tiles = count_arg("--tiles", optarg); break;
		case 's':
			if (sr_parse_long(optarg, &v) || v < 0 ||
			    (unsigned long)v > SR_SEED_MAX)
				sr_usage_error("--seed '%s': an integer from 0 to %lu",
				    optarg, SR_SEED_MAX);
			o->seed = (unsigned long)v;
			o->seed_given = 1;
			break;
		case OPT_RESULTS: o->results = optarg; break;
		case OPT_METRIC: o->metric = optarg; break;
		case OPT_CANCEL: parse_cancel(o, optarg); break;
		case OPT_PLOT: o->plot = optarg; break;
		case 'o': o->output = optarg; break;
		case 'h': usage(stdout); sr_out_commit_all(); exit(SR_EXIT_OK);
		case OPT_VERSION: sr_print_version();
		default: sr_getopt_fail(c, argv);
		}
	}
	check_options(o, argc, argv);
	if (o->nsweep == 0) {
		o->sweep = sr_calloc(1, sizeof *o->sweep);
		o->sweep[o->nsweep++] = o->nodes ? o->nodes * (o->cores / o->cpt) :
		    o->slots ? o->slots : 1;
	}
}

/* The stages named by --skip-stage, as flags per stage. */
static char *
skip_flags(const char *list, const sr_workflow *w)
{
	char *skip = sr_calloc(w->nstage, 1), item[256];
	const char *p = list;
	int rc, s;

	while ((rc = sr_list_next(&p, item, sizeof item)) > 0) {
		if ((s = sr_workflow_stage(w, item)) < 0)
			sr_usage_error("--skip-stage %s: no such stage in %s", item,
			    w->path);
		skip[s] = 1;
	}
	if (rc != 0)
		sr_usage_error("--skip-stage '%s': a comma list of stages", list);
	return skip;
}

/* ---- the run ----------------------------------------------------------------- */

/* Everything read: costs, plans, results. */
struct run {
	sr_workflow *w;
	sr_instances *in;
	char *skip;
	sr_simcost *cost;
	sr_simplan **plan;
	size_t nplan;
	double *value;		/* runs x tiles, with --results */
	size_t best;		/* the best run, or SR_NONE */
	double model_overhead;	/* the model's, or -1 */
};

/* Reads the costs: timings, or a model on the results' or --tiles'
 * tiles. */
static void
read_costs(const struct opts *o, struct run *r)
{
	sr_simtiles tiles = { 0 };
	char name[32];
	size_t k;

	r->model_overhead = -1;
	if (!o->model) {
		r->cost = sr_simcost_timings(o->timings, r->in, r->skip);
		if (o->results)
			r->value = sr_simresults_read(o->results, o->metric ?
			    o->metric : "dice", &r->cost->tiles, 0, r->in->nruns);
		return;
	}
	if (o->results)
		r->value = sr_simresults_read(o->results, o->metric ? o->metric :
		    "dice", &tiles, 1, r->in->nruns);
	else
		for (k = 0; k < (o->tiles ? o->tiles : 1); k++) {
			snprintf(name, sizeof name, "%zu", k + 1);
			sr_simtiles_id(&tiles, name, 1);
		}
	r->cost = sr_simcost_model(o->model, r->in, r->skip, &tiles, o->seed,
	    &r->model_overhead);
}

static void
read_all(const struct opts *o, struct run *r)
{
	size_t i;

	memset(r, 0, sizeof *r);
	if (o->workflow) {
		r->w = sr_workflow_read(o->workflow);
		r->in = sr_instances_read(o->instances, r->w);
		if (o->skip)
			r->skip = skip_flags(o->skip, r->w);
	}
	read_costs(o, r);
	r->nplan = o->nbuckets ? o->nbuckets : 1;
	r->plan = sr_calloc(r->nplan, sizeof *r->plan);
	if (o->nbuckets == 0)
		r->plan[0] = sr_simplan_baseline(r->cost);
	for (i = 0; i < o->nbuckets; i++)
		r->plan[i] = sr_simplan_read(o->buckets[i], r->cost);
	r->best = r->value ? sr_simresults_best(r->value, r->in->nruns,
	    r->cost->tiles.n) : SR_NONE;
}

static void
free_all(struct opts *o, struct run *r)
{
	size_t i;

	for (i = 0; i < r->nplan; i++)
		sr_simplan_free(r->plan[i]);
	free(r->plan);
	free(r->value);
	sr_simcost_free(r->cost);
	free(r->skip);
	sr_instances_free(r->in);
	sr_workflow_free(r->w);
	free(o->sweep);
}

/* One row of the report: the plan on `slots` slots. */
struct row {
	size_t slots, cancelled;
	sr_simstats st;
	double nodes;
	int best_survived;	/* -1: no best */
};

/* Simulates plan p on the slot count of row x. */
static void
simulate(const struct opts *o, const struct run *r, const sr_simplan *p,
    const double *task, size_t ntask, const size_t *order, struct row *x)
{
	sr_simconf conf = { x->slots, o->overhead, o->delay };
	unsigned char *cancelled;
	size_t i;

	if (!o->overhead_given && r->model_overhead >= 0)
		conf.overhead = r->model_overhead;
	x->nodes = o->cores ? ceil((double)x->slots / (double)(o->cores /
	    o->cpt)) : (double)x->slots;
	x->best_survived = -1;
	if (!o->cancel) {
		sr_sim_list(&conf, task, order, ntask, &x->st);
		return;
	}
	cancelled = sr_calloc(r->in->nruns + 1, 1);
	sr_sim_cancel(&conf, r->cost, p, o->lines, order, r->value, &o->rule,
	    &x->st, cancelled);
	for (i = 0, x->cancelled = 0; i < r->in->nruns; i++)
		x->cancelled += cancelled[i];
	if (r->best != SR_NONE)
		x->best_survived = !cancelled[r->best];
	free(cancelled);
}

/* ---- output ------------------------------------------------------------------ */

/* The value, or NaN where the makespan is 0. */
static double
ratio(double a, double b)
{
	return b > 0 ? a / b : NAN;
}

/* A value of the rule, "off" for none. */
static void
put_rule(FILE *fp, double v)
{
	if (isnan(v))
		fputs("off", fp);
	else
		sr_put_double(fp, v);
}

static void
write_meta(FILE *fp, const struct opts *o, const struct run *r)
{
	const sr_simcost *c = r->cost;

	if (o->model)
		fprintf(fp, "#costs=model tiles=%zu seed=%lu\n", c->tiles.n,
		    o->seed);
	else
		fprintf(fp, "#costs=timings tiles=%zu rows=%zu read_lines=%zu\n",
		    c->tiles.n, c->nrows, c->nread);
	fputs("#overhead=", fp);
	sr_put_double(fp, !o->overhead_given && r->model_overhead >= 0 ?
	    r->model_overhead : o->overhead);
	fputs(" delay=", fp);
	sr_put_double(fp, o->delay);
	fprintf(fp, " lines=%zu order=%s", o->lines, o->longest ?
	    "longest-first" : "file");
	if (o->cores)
		fprintf(fp, " cores=%zu cpus_per_task=%zu", o->cores, o->cpt);
	fputc('\n', fp);
	if (o->cancel) {
		fprintf(fp, "#cancel metric=%s acc=", o->metric ? o->metric :
		    "dice");
		put_rule(fp, o->rule.acc);
		fputs(" time=", fp);
		put_rule(fp, o->rule.time);
		fprintf(fp, " window=%zu runs=%zu best_run=", o->rule.window,
		    r->in->nruns);
		if (r->best == SR_NONE)
			fputs("none\n", fp);
		else
			fprintf(fp, "%zu\n", r->best);
	}
}

/* The plan's comment line: its size and how many nodes went unmeasured. */
static void
write_plan_meta(FILE *fp, const struct opts *o, const struct run *r,
    const sr_simplan *p)
{
	double work = 0;
	size_t b;

	fprintf(fp, "#plan=%s buckets=%zu array_tasks=%zu", p->name, p->n,
	    (p->n + o->lines - 1) / o->lines);
	if (r->in)
		fprintf(fp, " stage=%s tasks=%zu nodes=%zu unmeasured=%zu",
		    r->w->stage[p->stage].name, p->tasks, p->nodes, p->unmeasured);
	for (b = 0; b < p->n; b++)
		work += p->cost[b];
	fputs(" work=", fp);
	sr_put_double(fp, work);
	fputc('\n', fp);
}

static void
write_row(FILE *fp, const struct opts *o, const sr_simplan *p,
    const struct row *x)
{
	const sr_simstats *s = &x->st;
	double area = (double)x->slots * s->makespan;

	fprintf(fp, "%s\t%zu\t%zu\t", p->name, x->slots, p->n);
	sr_put_double(fp, s->work);
	fputc('\t', fp);
	sr_put_double(fp, s->makespan);
	fputc('\t', fp);
	sr_put_double(fp, ratio(s->busy, area));
	fputc('\t', fp);
	sr_put_double(fp, ratio(s->work, area));
	fputc('\t', fp);
	sr_put_double(fp, x->nodes * s->makespan / 3600);
	if (o->cancel)
		fprintf(fp, "\t%zu\t%s", x->cancelled, x->best_survived < 0 ?
		    "none" : x->best_survived ? "yes" : "no");
	fputc('\n', fp);
}

/* ---- the plot ---------------------------------------------------------------- */

/* Draws makespan against slots, a line per plan, log-log. */
static void
plot(const struct opts *o, const struct run *r, const struct row *rows)
{
	sr_plot_line *l = sr_calloc(r->nplan, sizeof *l);
	double *x = sr_calloc(r->nplan * o->nsweep, sizeof *x);
	double *y = sr_calloc(r->nplan * o->nsweep, sizeof *y);
	size_t i, k;

	for (i = 0; i < r->nplan; i++) {
		for (k = 0; k < o->nsweep; k++) {
			x[i * o->nsweep + k] = (double)rows[i * o->nsweep + k].slots;
			y[i * o->nsweep + k] = rows[i * o->nsweep + k].st.makespan;
		}
		l[i] = (sr_plot_line){ r->plan[i]->name, x + i * o->nsweep,
		    y + i * o->nsweep, o->nsweep };
	}
	sr_plot_lines(o->plot, "sim-runtime: predicted makespan", "slots",
	    "makespan (s)", 1, l, r->nplan);
	free(l);
	free(x);
	free(y);
}

/* Simulates every plan on every slot count; rows by plan, then count. */
static struct row *
simulate_all(const struct opts *o, const struct run *r)
{
	struct row *rows = sr_calloc(r->nplan * o->nsweep, sizeof *rows);
	size_t i, k, ntask, *order;
	double *task;

	for (i = 0; i < r->nplan; i++) {
		task = sr_simplan_tasks(r->plan[i], o->lines, &ntask);
		order = o->longest ? sr_sim_longest_first(task, ntask) : NULL;
		for (k = 0; k < o->nsweep; k++) {
			rows[i * o->nsweep + k].slots = o->sweep[k];
			simulate(o, r, r->plan[i], task, ntask, order,
			    &rows[i * o->nsweep + k]);
		}
		free(order);
		free(task);
	}
	return rows;
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct run r;
	struct row *rows;
	size_t i, k;
	FILE *fp;

	sr_init(argv[0]);
	parse_args(argc, argv, &o);
	read_all(&o, &r);
	rows = simulate_all(&o, &r);
	if (o.plot)		/* first: a failing gnuplot leaves no report */
		plot(&o, &r, rows);
	fp = sr_out_open(o.output);
	sr_out_provenance(fp, argc, argv);
	write_meta(fp, &o, &r);
	for (i = 0; i < r.nplan; i++)
		write_plan_meta(fp, &o, &r, r.plan[i]);
	fputs("plan\tslots\tbuckets\twork\tmakespan\tutilisation\tefficiency\t"
	    "node_hours", fp);
	fputs(o.cancel ? "\tcancelled\tbest_survived\n" : "\n", fp);
	for (i = 0; i < r.nplan; i++)
		for (k = 0; k < o.nsweep; k++)
			write_row(fp, &o, r.plan[i], &rows[i * o.nsweep + k]);
	sr_out_commit_all();
	free(rows);
	free_all(&o, &r);
	return SR_EXIT_OK;
}
