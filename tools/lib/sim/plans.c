/* plans.c - bucket plans read and costed (plans.h). */
#include "sim/plans.h"
#include "sim/walk.h"
#include "core/err.h"
#include "plan/buckets.h"

#include <stdlib.h>
#include <string.h>

/* Costs every bucket of p; line[b] (NULL: none) is bucket b's line in
 * path, tasks[b] its tasks column (negative: not checked). */
static void
cost_plan(sr_simplan *p, const sr_simcost *c, const char *path,
    const size_t *line, const long *tasks)
{
	sr_simwalk wk;
	size_t b, s, v;

	sr_simwalk_init(&wk, c, 1);
	p->cost = sr_calloc(p->n + 1, sizeof *p->cost);
	for (b = 0; b < p->n; b++) {
		p->cost[b] = sr_simwalk_cost(&wk, p->stage, p->p.b[b].inst,
		    p->p.b[b].n, SR_ALL_TILES, NULL);
		p->tasks += wk.tasks;
		if (tasks)
			sr_buckets_check_tasks(path, line[b], tasks[b], wk.tasks);
	}
	for (s = 0; s < c->nstage; s++)
		for (v = 1; v < c->st[s].tree->nnodes; v++)
			if (wk.mark[s][v]) {
				p->nodes++;
				p->unmeasured += !c->st[s].measured[v];
			}
	sr_simwalk_free(&wk);
}

/* The plan's stage: the one its #stage= metadata names, else the merged
 * one; dies when the workflow lacks it or --skip-stage leaves it out. */
static size_t
plan_stage(const sr_buckets_in *b, const sr_simcost *c)
{
	int s;

	if (b->stage == NULL)
		return c->mstage;
	if ((s = sr_workflow_stage(c->in->w, b->stage)) < 0)
		sr_die(SR_EXIT_DATA, "%s: a plan of stage %s, which %s does not "
		    "have", b->path, b->stage, c->in->w->path);
	if (c->st[s].skip)
		sr_die(SR_EXIT_DATA, "%s: a plan of stage %s, which --skip-stage "
		    "leaves out", b->path, b->stage);
	return (size_t)s;
}

sr_simplan *
sr_simplan_read(const char *path, const sr_simcost *c)
{
	sr_simplan *p = sr_calloc(1, sizeof *p);
	sr_buckets_in *b = sr_buckets_open(path, 0);
	const sr_bucket_row *row;
	size_t cap = 0, *line = NULL;
	long *tasks = NULL;

	p->name = sr_strdup(path);
	p->stage = plan_stage(b, c);
	sr_buckets_stage(b, c->st[p->stage].tree->n, NULL);
	while ((row = sr_buckets_next(b)) != NULL) {
		sr_plan_add(&p->p, row->inst, row->ninst);
		if (p->n == cap) {
			cap = cap ? 2 * cap : 64;
			line = sr_reallocarray(line, cap, sizeof *line);
			tasks = sr_reallocarray(tasks, cap, sizeof *tasks);
		}
		line[p->n] = row->line;
		tasks[p->n++] = row->tasks;
	}
	if (p->n == 0)
		sr_die(SR_EXIT_DATA, "%s: no buckets", path);
	cost_plan(p, c, b->path, line, tasks);
	sr_buckets_close(b);
	free(line);
	free(tasks);
	return p;
}

sr_simplan *
sr_simplan_baseline(const sr_simcost *c)
{
	sr_simplan *p = sr_calloc(1, sizeof *p);
	size_t b;

	p->name = sr_strdup("baseline");
	p->n = c->nbase;
	p->stage = c->mstage;
	if (c->in) {
		for (b = 0; b < c->base.n; b++)
			sr_plan_add(&p->p, c->base.b[b].inst, c->base.b[b].n);
		cost_plan(p, c, NULL, NULL, NULL);
	} else
		p->cost = sr_calloc(p->n + 1, sizeof *p->cost);
	memcpy(p->cost, c->base_cost, p->n * sizeof *p->cost);
	return p;
}

void
sr_simplan_free(sr_simplan *p)
{
	if (p == NULL)
		return;
	free(p->name);
	sr_plan_free(&p->p);
	free(p->cost);
	free(p);
}

double *
sr_simplan_tasks(const sr_simplan *p, size_t lines, size_t *n)
{
	double *w;
	size_t b;

	*n = (p->n + lines - 1) / lines;
	w = sr_calloc(*n + 1, sizeof *w);
	for (b = 0; b < p->n; b++)
		w[b / lines] += p->cost[b];
	return w;
}

double *
sr_simplan_chunk_tasks(const sr_simplan *p, size_t ntiles, size_t per_task,
    size_t *n)
{
	size_t chunks = (ntiles + per_task - 1) / per_task, b, k, size;
	double *w;

	*n = p->n * chunks;
	w = sr_calloc(*n + 1, sizeof *w);
	for (b = 0; b < p->n; b++)
		for (k = 0; k < chunks; k++) {
			size = k + 1 < chunks ? per_task : ntiles - k * per_task;
			w[b * chunks + k] = p->cost[b] * (double)size /
			    (double)ntiles;
		}
	return w;
}

double
sr_simplan_work(const sr_simplan *p)
{
	double work = 0;
	size_t b;

	for (b = 0; b < p->n; b++)
		work += p->cost[b];
	return work;
}
