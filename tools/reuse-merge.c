/* reuse-merge - task-level reuse: merge stage instances into buckets that
 * share task prefixes (one bucket = one array task). */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/num.h"
#include "core/opt.h"
#include "core/out.h"
#include "plan/mergeplan.h"
#include "plan/instances.h"

#define DEF_B 8

enum {
	OPT_STAGE = CHAR_MAX + 1, OPT_DOUBLE_PRUNE, OPT_COST, OPT_MAX_TASKS,
	OPT_TREE, OPT_NODES, OPT_CORES, OPT_FORCE, OPT_VERSION
};

static const struct option longopts[] = {
	{ "algorithm", required_argument, NULL, 'a' },
	{ "bucket-size", required_argument, NULL, 'b' },
	{ "max-buckets", required_argument, NULL, 'B' },
	{ "stage", required_argument, NULL, OPT_STAGE },
	{ "double-prune", no_argument, NULL, OPT_DOUBLE_PRUNE },
	{ "cost", required_argument, NULL, OPT_COST },
	{ "max-bucket-tasks", required_argument, NULL, OPT_MAX_TASKS },
	{ "tree", required_argument, NULL, OPT_TREE },
	{ "nodes", required_argument, NULL, OPT_NODES },
	{ "cores", required_argument, NULL, OPT_CORES },
	{ "force", no_argument, NULL, OPT_FORCE },
	SR_OPT_OUTPUT_TAIL(OPT_VERSION)
};

struct opts {
	const char *stage, *output, *workflow, *instances;
	sr_merge_conf c;	/* algorithm (-1 not given) and settings */
	size_t nodes, cores;
	long tree;		/* bucket to print, or -1 */
	int b_given, nodes_given;
};

static void
usage(FILE *fp)
{
	fprintf(fp,
"Usage: reuse-merge -a ALGO [options] [-o BUCKETS.tsv] WORKFLOW.wf INSTANCES.tsv\n"
"Merge one stage's instances into buckets that share task prefixes; row i\n"
"of BUCKETS.tsv is array task i (stdout without -o).\n"
"\n"
"  -a, --algorithm ALGO     none, naive, sca (Smart-Cut), rtma, trtma\n"
"  -b, --bucket-size N      naive, sca, rtma: instances per bucket at most [%d]\n"
"  -B, --max-buckets N      trtma: buckets [3 x nodes x cores]\n"
"      --nodes N            trtma: nodes of the allocation [1]\n"
"      --cores N            trtma: cores per node (no default)\n"
"      --stage NAME         the stage to merge [the one with most tasks]\n"
"      --double-prune       rtma: pack leftovers of sibling subtrees\n"
"      --cost C             tasks, weights (the workflow's task costs) or a\n"
"                           seg-run TIMINGS.tsv (measured seconds) [tasks]\n"
"      --max-bucket-tasks N trtma: no bucket executes more tasks than N\n"
"      --tree I             print bucket I's merged task tree instead\n"
"      --force              run sca even when its cost estimate is huge\n"
SR_OPT_OUTPUT_HELP,
	    DEF_B);
}

/* A count option's value. */
static size_t
count_arg(const char *opt, const char *s)
{
	return sr_opt_count(opt, s, 1, SR_COUNT_MAX);
}

/* Whether the algorithm is one of a bit set of them. */
#define IS(a, set) (((set) >> (a)) & 1)
#define BIT(a) (1 << (a))

static void
check_options(struct opts *o)
{
	sr_merge_conf *c = &o->c;
	int a = c->algo;

	if (a < 0)
		sr_usage_error("no algorithm given (-a none, naive, sca, rtma, trtma)");
	if (c->double_prune && a != SR_ALGO_RTMA)
		sr_usage_error("--double-prune goes with -a rtma");
	if (c->max_tasks && a != SR_ALGO_TRTMA)
		sr_usage_error("--max-bucket-tasks goes with -a trtma");
	if (c->maxb && a != SR_ALGO_TRTMA)
		sr_usage_error("-B goes with -a trtma (-b for the others)");
	if ((o->nodes_given || o->cores) && a != SR_ALGO_TRTMA)
		sr_usage_error("--nodes and --cores go with -a trtma");
	if (o->b_given && IS(a, BIT(SR_ALGO_TRTMA) | BIT(SR_ALGO_NONE)))
		sr_usage_error("-b goes with -a naive, sca or rtma (-B for trtma)");
	if (a == SR_ALGO_TRTMA && c->maxb == 0 && o->cores == 0)
		sr_usage_error("trtma needs -B, or --cores (and --nodes) for "
		    "-B = 3 x nodes x cores: the machine that plans is not the "
		    "one that runs");
	if (c->maxb == 0)
		c->maxb = 3 * o->nodes * o->cores;
}

static void
parse_args(int argc, char **argv, struct opts *o)
{
	sr_merge_conf *m = &o->c;
	int c;

	memset(o, 0, sizeof *o);
	m->algo = -1;
	m->b = DEF_B;
	m->cost = "tasks";
	o->nodes = 1;
	o->tree = -1;
	while ((c = getopt_long(argc, argv, ":a:b:B:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': m->algo = sr_opt_word("-a", optarg, sr_merge_algo_name,
		    SR_ALGO_N); break;
		case 'b': m->b = count_arg("-b", optarg); o->b_given = 1; break;
		case 'B': m->maxb = count_arg("-B", optarg); break;
		case OPT_STAGE: o->stage = optarg; break;
		case OPT_DOUBLE_PRUNE: m->double_prune = 1; break;
		case OPT_COST: m->cost = optarg; break;
		case OPT_MAX_TASKS: m->max_tasks = count_arg("--max-bucket-tasks",
		    optarg); break;
		case OPT_TREE: o->tree = (long)sr_opt_count("--tree", optarg, 0,
		    SR_COUNT_MAX); break;
		case OPT_NODES: o->nodes = count_arg("--nodes", optarg);
			o->nodes_given = 1; break;
		case OPT_CORES: o->cores = count_arg("--cores", optarg); break;
		case OPT_FORCE: m->force = 1; break;
		case 'o': o->output = optarg; break;
		case 'h': sr_opt_help(usage);
		case OPT_VERSION: sr_print_version();
		default: sr_getopt_fail(c, argv);
		}
	}
	if (argc - optind != 2)
		sr_usage_error("expected WORKFLOW.wf and INSTANCES.tsv, got %d "
		    "arguments", argc - optind);
	o->workflow = argv[optind];
	o->instances = argv[optind + 1];
	if ((strcmp(o->workflow, "-") == 0) + (strcmp(o->instances, "-") == 0) +
	    (strcmp(m->cost, "-") == 0) > 1)
		sr_usage_error("only one of WORKFLOW.wf, INSTANCES.tsv and --cost "
		    "can be stdin");
	check_options(o);
	sr_out_refuse_inputs(&o->output, 1, (const char *[]){ o->workflow,
	    o->instances, strcmp(m->cost, "tasks") && strcmp(m->cost,
	    "weights") ? m->cost : NULL }, 3);
}

/* The stage to merge: --stage, or the one with most tasks (first wins). */
static size_t
pick_stage(const sr_workflow *w, const char *name)
{
	int s;

	if (name == NULL)
		return sr_merge_stage(w);
	if ((s = sr_workflow_stage(w, name)) < 0)
		sr_usage_error("--stage %s: no such stage in %s", name, w->path);
	return (size_t)s;
}

int
main(int argc, char **argv)
{
	struct opts o;
	sr_workflow *w;
	sr_instances *in;
	sr_rtree *t;
	sr_plan p = { 0 };
	size_t st;
	double t0;
	FILE *fp;

	sr_init(argv[0]);
	parse_args(argc, argv, &o);
	w = sr_workflow_read(o.workflow);
	st = pick_stage(w, o.stage);
	in = sr_instances_read(o.instances, w);
	t = sr_merge_tree(in, st, o.c.cost, o.tree < 0);	/* --tree: values */
	t0 = sr_now();
	sr_merge_plan(&o.c, t, &p, o.instances);
	t0 = sr_now() - t0;
	if (o.tree >= 0 && (size_t)o.tree >= p.n)
		sr_die(SR_EXIT_DATA, "--tree %ld: the plan has buckets 0 to %zu",
		    o.tree, p.n - 1);
	fp = sr_out_open(o.output);
	sr_out_provenance(fp, argc, argv);
	if (o.tree >= 0)
		sr_merge_write_tree(fp, in, st, t, &p, (size_t)o.tree);
	else
		sr_merge_write_buckets(fp, &o.c, in, st, t, &p, t0);
	sr_out_commit_all();
	sr_plan_free(&p);
	sr_rtree_free(t);
	sr_instances_free(in);
	sr_workflow_free(w);
	return SR_EXIT_OK;
}
