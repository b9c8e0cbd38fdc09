/* reuse-merge - task-level reuse: merge stage instances into buckets that
 * share task prefixes (one bucket = one array task). */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/num.h"
#include "core/out.h"
#include "plan/merge.h"
#include "plan/stage_keys.h"
#include "plan/stage_rule.h"
#include "plan/timings.h"
#include "core/tsv.h"
#include "plan/workflow.h"

#define DEF_B 8
/* sr_sca_work counts Stoer-Wagner steps of about a nanosecond; runs whose
 * instances all share task 1 take 0.2-0.3 of it, others far less */
#define SCA_LIMIT 3e11	/* a minute or two at worst */

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
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

struct opts {
	const char *algo, *stage, *cost, *output, *workflow, *instances;
	size_t b, maxb, max_tasks, nodes, cores;
	long tree;		/* bucket to print, or -1 */
	int double_prune, force, b_given, nodes_given;
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
"  -o, --output FILE        write here (atomically) instead of stdout\n"
"  -h, --help               this help\n"
"      --version            version\n",
	    DEF_B);
}

static size_t
count_arg(const char *opt, const char *s)
{
	long v;

	if (sr_parse_long(s, &v) || v < 1 || v > 1000000000)
		sr_usage_error("%s '%s': a whole number from 1 to 1e9", opt, s);
	return (size_t)v;
}

static void
check_options(struct opts *o)
{
	const char *a = o->algo;

	if (a == NULL)
		sr_usage_error("no algorithm given (-a none, naive, sca, rtma, trtma)");
	if (strcmp(a, "none") && strcmp(a, "naive") && strcmp(a, "sca") &&
	    strcmp(a, "rtma") && strcmp(a, "trtma"))
		sr_usage_error("unknown algorithm '%s' (none, naive, sca, rtma, "
		    "trtma)", a);
	if (o->double_prune && strcmp(a, "rtma"))
		sr_usage_error("--double-prune goes with -a rtma");
	if (o->max_tasks && strcmp(a, "trtma"))
		sr_usage_error("--max-bucket-tasks goes with -a trtma");
	if (o->maxb && strcmp(a, "trtma"))
		sr_usage_error("-B goes with -a trtma (-b for the others)");
	if ((o->nodes_given || o->cores) && strcmp(a, "trtma"))
		sr_usage_error("--nodes and --cores go with -a trtma");
	if (o->b_given && (strcmp(a, "trtma") == 0 || strcmp(a, "none") == 0))
		sr_usage_error("-b goes with -a naive, sca or rtma (-B for trtma)");
	if (strcmp(a, "trtma") == 0 && o->maxb == 0 && o->cores == 0)
		sr_usage_error("trtma needs -B, or --cores (and --nodes) for "
		    "-B = 3 x nodes x cores: the machine that plans is not the "
		    "one that runs");
	if (o->maxb == 0)
		o->maxb = 3 * o->nodes * o->cores;
}

static void
parse_args(int argc, char **argv, struct opts *o)
{
	int c;
	long v;

	memset(o, 0, sizeof *o);
	o->b = DEF_B;
	o->nodes = 1;
	o->cost = "tasks";
	o->tree = -1;
	while ((c = getopt_long(argc, argv, ":a:b:B:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': o->algo = optarg; break;
		case 'b': o->b = count_arg("-b", optarg); o->b_given = 1; break;
		case 'B': o->maxb = count_arg("-B", optarg); break;
		case OPT_STAGE: o->stage = optarg; break;
		case OPT_DOUBLE_PRUNE: o->double_prune = 1; break;
		case OPT_COST: o->cost = optarg; break;
		case OPT_MAX_TASKS: o->max_tasks = count_arg("--max-bucket-tasks",
		    optarg); break;
		case OPT_TREE:
			if (sr_parse_long(optarg, &v) || v < 0)
				sr_usage_error("--tree '%s': a bucket number", optarg);
			o->tree = v;
			break;
		case OPT_NODES: o->nodes = count_arg("--nodes", optarg);
			o->nodes_given = 1; break;
		case OPT_CORES: o->cores = count_arg("--cores", optarg); break;
		case OPT_FORCE: o->force = 1; break;
		case 'o': o->output = optarg; break;
		case 'h': usage(stdout); sr_out_commit_all(); exit(SR_EXIT_OK);
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
	    (strcmp(o->cost, "-") == 0) > 1)
		sr_usage_error("only one of WORKFLOW.wf, INSTANCES.tsv and --cost "
		    "can be stdin");
	check_options(o);
}

/* The stage to merge: --stage, or the one with most tasks (first wins). */
static size_t
pick_stage(const sr_workflow *w, const char *name)
{
	int s;

	if (name) {
		if ((s = sr_workflow_stage(w, name)) < 0)
			sr_usage_error("--stage %s: no such stage in %s", name, w->path);
		return (size_t)s;
	}
	return sr_merge_stage(w);
}

/* The reuse tree of the stage, with node costs from the cost model. */
static sr_rtree *
build_tree(const sr_instances *in, size_t st, const char *cost)
{
	const sr_stage *s = &in->w->stage[st];
	uint64_t *key = sr_stage_keys(in, st);
	double *tc = sr_calloc(s->ntask, sizeof *tc);
	size_t t, missing;
	sr_rtree *tree;

	for (t = 0; t < s->ntask; t++)
		tc[t] = strcmp(cost, "weights") == 0 ? s->task[t].cost : 1.0;
	tree = sr_rtree_build(in->first[st + 1] - in->first[st], s->ntask, key,
	    tc);
	if (strcmp(cost, "tasks") && strcmp(cost, "weights") &&
	    (missing = sr_rtree_timings(tree, s, cost)) > 0)
		sr_warn("%s: %zu of %zu task nodes not measured: costed at their "
		    "task's mean", cost, missing, tree->nnodes - 1);
	free(tc);
	free(key);
	return tree;
}

/* Runs the algorithm; returns its plan. */
static void
merge(const struct opts *o, const sr_rtree *t, sr_plan *p)
{
	char err[SR_ERRLEN];
	double work;

	if (strcmp(o->algo, "none") == 0)
		sr_merge_none(t, p);
	else if (strcmp(o->algo, "naive") == 0)
		sr_merge_naive(t, o->b, p);
	else if (strcmp(o->algo, "rtma") == 0)
		sr_merge_rtma(t, o->b, o->double_prune, p);
	else if (strcmp(o->algo, "sca") == 0) {
		if ((work = sr_sca_work(t->n, o->b)) > SCA_LIMIT && !o->force)
			sr_die(SR_EXIT_DATA, "%s: sca on %zu instances may take up to "
			    "%.2g Stoer-Wagner steps (about %.0f minutes); use -a rtma "
			    "or trtma, or give --force", o->instances, t->n, work,
			    work * 0.3e-9 / 60 + 1);
		if (sr_merge_sca(t, o->b, p, err))
			sr_die(SR_EXIT_DATA, "%s: %s", o->instances, err);
	} else if (sr_merge_trtma(t, o->maxb, o->max_tasks, p, err))
		sr_die(SR_EXIT_DATA, "%s: %s", o->instances, err);
}

/* Dies unless every instance is in exactly one bucket and none is empty. */
static void
check_plan(const sr_rtree *t, const sr_plan *p)
{
	char *seen = sr_calloc(t->n ? t->n : 1, 1);
	size_t i, j, count = 0;

	for (i = 0; i < p->n; i++) {
		if (p->b[i].n == 0)
			sr_die(SR_EXIT_DATA, "internal error: bucket %zu is empty", i);
		for (j = 0; j < p->b[i].n; j++, count++)
			if (p->b[i].inst[j] >= t->n || seen[p->b[i].inst[j]]++)
				sr_die(SR_EXIT_DATA, "internal error: instance %zu "
				    "placed twice", p->b[i].inst[j]);
	}
	if (count != t->n)
		sr_die(SR_EXIT_DATA, "internal error: %zu of %zu instances placed",
		    count, t->n);
	free(seen);
}

/* Writes the bucket rows and returns the totals for the #stats line. */
static void
write_buckets(FILE *fp, const sr_instances *in, size_t st, const sr_rtree *t,
    const sr_plan *p, size_t *tasks, size_t *maxt, double *maxc)
{
	const sr_instance *base = in->inst + in->first[st];
	size_t *runs = sr_calloc(in->nruns ? in->nruns : 1, sizeof *runs);
	size_t i, j, k, nr, bt;
	sr_nodeset ns;
	double c;

	sr_nodeset_init(&ns, t);
	*tasks = *maxt = 0;
	*maxc = 0;
	for (i = 0; i < p->n; i++) {
		bt = sr_rtree_bucket_tasks(&ns, p->b[i].inst, p->b[i].n, &c);
		*tasks += bt;
		*maxt = bt > *maxt ? bt : *maxt;
		*maxc = c > *maxc ? c : *maxc;
		fprintf(fp, "%zu", i);
		for (j = 0, nr = 0; j < p->b[i].n; j++) {
			fprintf(fp, "%c%zu", j ? ',' : '\t', p->b[i].inst[j]);
			for (k = 0; k < base[p->b[i].inst[j]].nruns; k++)
				runs[nr++] = base[p->b[i].inst[j]].runs[k];
		}
		qsort(runs, nr, sizeof *runs, sr_cmp_size);
		for (k = 0; k < nr; k++)
			fprintf(fp, "%c%zu", k ? ',' : '\t', runs[k]);
		fprintf(fp, "\t%zu\t", bt);
		sr_put_double(fp, c);
		fputc('\n', fp);
	}
	sr_nodeset_free(&ns);
	free(runs);
}

static double
pct(double part, double whole)
{
	return whole > 0 ? 100.0 * (1.0 - part / whole) : 0.0;
}

/* Writes the metadata and #stats lines, the header and the rows. */
static void
write_table(FILE *fp, const struct opts *o, const sr_instances *in,
    size_t st, const sr_rtree *t, const sr_plan *p, double seconds)
{
	size_t m = t->m, tasks, maxt;
	double maxc, noreuse = (double)in->nruns * (double)m;
	double stage = (double)t->n * (double)m;
	char *rows;
	size_t len;
	FILE *mem = open_memstream(&rows, &len);

	if (mem == NULL)
		sr_die_errno("out of memory");
	write_buckets(mem, in, st, t, p, &tasks, &maxt, &maxc);
	fclose(mem);
	fprintf(fp, "#algorithm=%s stage=%s cost=%s", o->algo,
	    in->w->stage[st].name, o->cost);
	if (strcmp(o->algo, "trtma") == 0)
		fprintf(fp, " B=%zu bucket_task_cap=%zu", o->maxb, o->max_tasks);
	else if (strcmp(o->algo, "none") != 0)
		fprintf(fp, " b=%zu", o->b);
	if (o->double_prune)
		fputs(" double_prune=1", fp);
	fprintf(fp, "\n#stats runs=%zu instances=%zu tasks_noreuse=%.0f "
	    "tasks_stage=%.0f tasks_merged=%zu buckets=%zu reuse_stage_pct=%.2f "
	    "reuse_task_pct=%.2f reuse_total_pct=%.2f max_bucket_tasks=%zu "
	    "max_bucket_cost=", in->nruns, t->n, noreuse, stage, tasks, p->n,
	    pct(stage, noreuse), pct((double)tasks, stage),
	    pct((double)tasks, noreuse), maxt);
	sr_put_double(fp, maxc);
	fprintf(fp, " seconds=%.3f\nbucket\tinstances\truns\ttasks\tcost\n",
	    seconds);
	fwrite(rows, 1, len, fp);
	free(rows);
}

/* Prints node v's row of bucket's tree and then its children's, depth
 * first; mark[v] counts the bucket's instances below v. */
static void
print_node(FILE *fp, const sr_instances *in, size_t st, const sr_rtree *t,
    const sr_bucket *b, const size_t *mark, size_t v)
{
	const sr_task *task = &in->w->stage[st].task[t->node[v].depth - 1];
	const sr_instance *base = in->inst + in->first[st];
	char buf[SR_NUMLEN];
	size_t i, c, n = 0;

	fprintf(fp, "%zu\t%s\t", t->node[v].depth, task->name);
	for (i = 0; i < b->n; i++)
		if (t->path[b->inst[i] * (t->m + 1) + t->node[v].depth] == v)
			fprintf(fp, "%s%zu", n++ ? "," : "", b->inst[i]);
	fputc('\t', fp);
	for (i = 0; i < b->n; i++)	/* the values of any instance below v */
		if (t->path[b->inst[i] * (t->m + 1) + t->node[v].depth] == v)
			break;
	for (c = 0; c < task->nparam; c++)
		fprintf(fp, "%s%s=%s", c ? "," : "", task->param[c],
		    sr_fmt_double(buf, base[b->inst[i]].value[
		    sr_workflow_param(in->w, task->param[c])]));
	if (task->nparam == 0)
		fputc('-', fp);
	fprintf(fp, "\t%zu\t", mark[v]);
	sr_put_double(fp, t->node[v].cost);
	fputc('\n', fp);
	for (c = t->node[v].first_child; c != SR_NONE; c = t->node[c].next_sibling)
		if (mark[c])
			print_node(fp, in, st, t, b, mark, c);
}

/* Writes bucket i's merged task tree: one row per executed task node. */
static void
write_tree(FILE *fp, const struct opts *o, const sr_instances *in, size_t st,
    const sr_rtree *t, const sr_plan *p)
{
	size_t *mark, i, d, c, tasks;
	const sr_bucket *b;
	sr_nodeset ns;
	double cost;

	if ((size_t)o->tree >= p->n)
		sr_die(SR_EXIT_DATA, "--tree %ld: the plan has buckets 0 to %zu",
		    o->tree, p->n - 1);
	b = &p->b[o->tree];
	mark = sr_calloc(t->nnodes, sizeof *mark);
	for (i = 0; i < b->n; i++)
		for (d = 1; d <= t->m; d++)
			mark[t->path[b->inst[i] * (t->m + 1) + d]]++;
	sr_nodeset_init(&ns, t);
	tasks = sr_rtree_bucket_tasks(&ns, b->inst, b->n, &cost);
	sr_nodeset_free(&ns);
	fprintf(fp, "#bucket=%ld stage=%s instances=%zu tasks=%zu cost=", o->tree,
	    in->w->stage[st].name, b->n, tasks);
	sr_put_double(fp, cost);
	fputs("\ndepth\ttask\tinstances\tparams\tshared\tcost\n", fp);
	for (c = t->node[0].first_child; c != SR_NONE; c = t->node[c].next_sibling)
		if (mark[c])
			print_node(fp, in, st, t, b, mark, c);
	free(mark);
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
	t = build_tree(in, st, o.cost);
	t0 = sr_now();
	merge(&o, t, &p);
	t0 = sr_now() - t0;
	check_plan(t, &p);
	if (o.tree >= 0 && (size_t)o.tree >= p.n)
		sr_die(SR_EXIT_DATA, "--tree %ld: the plan has buckets 0 to %zu",
		    o.tree, p.n - 1);
	fp = sr_out_open(o.output);
	sr_out_provenance(fp, argc, argv);
	if (o.tree >= 0)
		write_tree(fp, &o, in, st, t, &p);
	else
		write_table(fp, &o, in, st, t, &p, t0);
	sr_out_commit_all();
	sr_plan_free(&p);
	sr_rtree_free(t);
	sr_instances_free(in);
	sr_workflow_free(w);
	return SR_EXIT_OK;
}
