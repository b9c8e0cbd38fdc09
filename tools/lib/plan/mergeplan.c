/* mergeplan.c - reuse-merge's algorithms by name, cost models, plan
 * checks and outputs (mergeplan.h). */
#include "plan/mergeplan.h"
#include "plan/instances.h"
#include "core/err.h"
#include "core/num.h"
#include "core/tsv.h"
#include "plan/buckets.h"
#include "plan/stage_keys.h"
#include "plan/timings.h"

#include <stdlib.h>
#include <string.h>

/* sr_sca_work counts Stoer-Wagner steps of about a nanosecond; runs whose
 * instances all share task 1 take 0.2-0.3 of it, others far less */
#define SCA_LIMIT 3e11	/* a minute or two at worst */

const char *const sr_merge_algo_name[SR_ALGO_N] = {
	"none", "naive", "sca", "rtma", "trtma"
};

/* The reuse tree of the stage, with node costs from the cost model. */
sr_rtree *
sr_merge_tree(sr_instances *in, size_t st, const char *cost, int drop_values)
{
	const sr_stage *s = &in->w->stage[st];
	uint64_t *key = sr_stage_keys(in, st);
	double *tc = sr_calloc(s->ntask, sizeof *tc);
	size_t t, missing;
	sr_rtree *tree;

	for (t = 0; t < s->ntask; t++)
		tc[t] = strcmp(cost, "weights") == 0 ? s->task[t].cost : 1.0;
	if (drop_values)	/* before the tree takes their room */
		sr_instances_drop_values(in);
	tree = sr_rtree_build_take(in->first[st + 1] - in->first[st], s->ntask,
	    key, tc);
	if (strcmp(cost, "tasks") && strcmp(cost, "weights") &&
	    (missing = sr_rtree_timings(tree, s, cost)) > 0)
		sr_warn("%s: %zu of %zu task nodes not measured: costed at their "
		    "task's mean", cost, missing, tree->nnodes - 1);
	free(tc);
	return tree;
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

void
sr_merge_plan(const sr_merge_conf *c, const sr_rtree *t, sr_plan *p,
    const char *instances)
{
	char err[SR_ERRLEN];
	double work;
	int rc = 0;

	switch (c->algo) {
	case SR_ALGO_NONE: sr_merge_none(t, p); break;
	case SR_ALGO_NAIVE: sr_merge_naive(t, c->b, p); break;
	case SR_ALGO_RTMA: sr_merge_rtma(t, c->b, c->double_prune, p); break;
	case SR_ALGO_SCA:
		if ((work = sr_sca_work(t->n, c->b)) > SCA_LIMIT && !c->force)
			sr_die(SR_EXIT_DATA, "%s: sca on %zu instances may take up to "
			    "%.2g Stoer-Wagner steps (about %.0f minutes); use -a rtma "
			    "or trtma, or give --force", instances, t->n, work,
			    work * 0.3e-9 / 60 + 1);
		rc = sr_merge_sca(t, c->b, p, err);
		break;
	default: rc = sr_merge_trtma(t, c->maxb, c->max_tasks, p, err); break;
	}
	if (rc)
		sr_die(SR_EXIT_DATA, "%s: %s", instances, err);
	check_plan(t, p);
}

/* Writes the bucket rows and returns the totals for the #stats line. */
static void
write_rows(FILE *fp, const sr_instances *in, size_t st, const sr_rtree *t,
    const sr_plan *p, sr_buckets_stats *s)
{
	const sr_instance *base = in->inst + in->first[st];
	size_t *runs = sr_calloc(in->nruns ? in->nruns : 1, sizeof *runs);
	size_t i, j, k, nr, bt;
	sr_nodeset ns;
	double c;

	sr_nodeset_init(&ns, t);
	for (i = 0; i < p->n; i++) {
		bt = sr_rtree_bucket_tasks(&ns, p->b[i].inst, p->b[i].n, &c);
		s->tasks_merged += bt;
		s->max_bucket_tasks = bt > s->max_bucket_tasks ? bt :
		    s->max_bucket_tasks;
		s->max_bucket_cost = c > s->max_bucket_cost ? c :
		    s->max_bucket_cost;
		for (j = 0, nr = 0; j < p->b[i].n; j++)
			for (k = 0; k < base[p->b[i].inst[j]].nruns; k++)
				runs[nr++] = base[p->b[i].inst[j]].runs[k];
		qsort(runs, nr, sizeof *runs, sr_cmp_size);
		sr_buckets_write_row(fp, i, p->b[i].inst, p->b[i].n, runs, nr, bt,
		    c);
	}
	sr_nodeset_free(&ns);
	free(runs);
}

void
sr_merge_write_buckets(FILE *fp, const sr_merge_conf *c,
    const sr_instances *in, size_t st, const sr_rtree *t, const sr_plan *p,
    double seconds)
{
	sr_buckets_stats s = { in->nruns, t->n, (double)in->nruns * (double)t->m,
	    (double)t->n * (double)t->m, 0, p->n, 0, 0, seconds };
	char *rows;
	size_t len;
	FILE *mem = open_memstream(&rows, &len);

	if (mem == NULL)
		sr_die_errno("out of memory");
	write_rows(mem, in, st, t, p, &s);
	fclose(mem);
	fprintf(fp, "#algorithm=%s stage=%s cost=%s", sr_merge_algo_name[c->algo],
	    in->w->stage[st].name, c->cost);
	if (c->algo == SR_ALGO_TRTMA)
		fprintf(fp, " B=%zu bucket_task_cap=%zu", c->maxb, c->max_tasks);
	else if (c->algo != SR_ALGO_NONE)
		fprintf(fp, " b=%zu", c->b);
	if (c->double_prune)
		fputs(" double_prune=1", fp);
	fputc('\n', fp);
	sr_buckets_write_stats(fp, &s);
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

	fprintf(fp, "%zu\t%s\t", (size_t)t->node[v].depth, task->name);
	for (i = 0; i < b->n; i++)
		if (t->path[b->inst[i] * (t->m + 1) + t->node[v].depth] == v)
			fprintf(fp, "%s%zu", n++ ? "," : "", b->inst[i]);
	fputc('\t', fp);
	for (i = 0; i < b->n; i++)	/* the values of any instance below v */
		if (t->path[b->inst[i] * (t->m + 1) + t->node[v].depth] == v)
			break;
	for (c = 0; c < task->nparam; c++) {
		size_t k = (size_t)sr_workflow_param(in->w, task->param[c]);
		fprintf(fp, "%s%s=%s", c ? "," : "", task->param[c],
		    sr_instances_value_text(in, k, base[b->inst[i]].value[k],
		    buf));
	}
	if (task->nparam == 0)
		fputc('-', fp);
	fprintf(fp, "\t%zu\t", mark[v]);
	sr_put_double(fp, sr_rnode_cost(t, v));
	fputc('\n', fp);
	for (c = sr_rchild(t, v); c != SR_NONE; c = sr_rnext(t, c))
		if (mark[c])
			print_node(fp, in, st, t, b, mark, c);
}

void
sr_merge_write_tree(FILE *fp, const sr_instances *in, size_t st,
    const sr_rtree *t, const sr_plan *p, size_t bucket)
{
	const sr_bucket *b = &p->b[bucket];
	size_t *mark, i, d, c, tasks;
	sr_nodeset ns;
	double cost;

	mark = sr_calloc(t->nnodes, sizeof *mark);
	for (i = 0; i < b->n; i++)
		for (d = 1; d <= t->m; d++)
			mark[t->path[b->inst[i] * (t->m + 1) + d]]++;
	sr_nodeset_init(&ns, t);
	tasks = sr_rtree_bucket_tasks(&ns, b->inst, b->n, &cost);
	sr_nodeset_free(&ns);
	fprintf(fp, "#bucket=%zu stage=%s instances=%zu tasks=%zu cost=", bucket,
	    in->w->stage[st].name, b->n, tasks);
	sr_put_double(fp, cost);
	fputs("\ndepth\ttask\tinstances\tparams\tshared\tcost\n", fp);
	for (c = sr_rchild(t, 0); c != SR_NONE; c = sr_rnext(t, c))
		if (mark[c])
			print_node(fp, in, st, t, b, mark, c);
	free(mark);
}
