/* replay.c - the replay with cancellation (replay.h). */
#include "sim/replay.h"
#include "plan/instances.h"
#include "sim/walk.h"
#include "core/err.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	const sr_simcost *c;
	const sr_simplan *p;
	size_t lines;
	const double *v;
	sr_canceller *cx;
	sr_simwalk wk;
	size_t *bucket, *tile;	/* per array task: where it is */
} replay;

/* Seconds of run r's own chain on tile k: every node on its path in
 * every stage the buckets run, a shared one in full. */
static double
run_seconds(const sr_simcost *c, size_t r, size_t k)
{
	size_t s, d, i;
	double sum = 0;

	for (s = 0; s < c->nstage; s++) {
		const sr_rtree *t = c->st[s].tree;
		if (c->st[s].skip || (i = c->st[s].runinst[r]) == SR_NONE)
			continue;
		for (d = 1; d <= t->m; d++)
			sum += sr_simcost_node(c, s, t->path[i * (t->m + 1) + d], k);
	}
	return sum;
}

/* The next step of array task j: its current bucket on its current tile,
 * for the runs not cancelled; a bucket without any is over. */
static int
replay_step(void *ctx, size_t j, double now, double *cost)
{
	replay *rp = ctx;
	size_t end = (j + 1) * rp->lines;
	const sr_bucket *b;

	(void)now;
	if (end > rp->p->n)
		end = rp->p->n;
	for (; rp->bucket[j] < end; rp->bucket[j]++, rp->tile[j] = 0) {
		b = &rp->p->p.b[rp->bucket[j]];
		*cost = sr_simwalk_cost(&rp->wk, rp->p->stage, b->inst, b->n,
		    rp->tile[j], sr_cancel_flags(rp->cx));
		if (rp->wk.nlist[rp->p->stage] > 0)
			return 1;
	}
	return 0;
}

/* The step of array task j is over: the values of its runs on the tile
 * go to the rule, by instance then run as listed. */
static void
replay_done(void *ctx, size_t j, double now)
{
	replay *rp = ctx;
	const sr_instances *in = rp->c->in;
	const sr_bucket *b = &rp->p->p.b[rp->bucket[j]];
	size_t T = rp->c->tiles.n, k = rp->tile[j], i, q, r;
	const sr_instance *x;
	double val;

	(void)now;
	for (i = 0; i < b->n; i++) {
		x = &in->inst[in->first[rp->p->stage] + b->inst[i]];
		for (q = 0; q < x->nruns; q++) {
			r = x->runs[q];
			if (sr_cancel_is(rp->cx, r) || isnan(val = rp->v[r * T + k]))
				continue;
			sr_cancel_add(rp->cx, r, val, run_seconds(rp->c, r, k));
		}
	}
	if (++rp->tile[j] == T) {
		rp->bucket[j]++;
		rp->tile[j] = 0;
	}
}

void
sr_sim_cancel(const sr_simconf *conf, const sr_simcost *c, const sr_simplan *p,
    size_t lines, const size_t *order, const double *v,
    const sr_cancelrule *rule, sr_simstats *st, unsigned char *cancelled)
{
	replay rp = { c, p, lines, v, NULL, { 0 }, NULL, NULL };
	sr_simsteps ops = { replay_step, replay_done, &rp };
	size_t n = (p->n + lines - 1) / lines, j;

	rp.cx = sr_cancel_new(rule, c->in->nruns);
	sr_simwalk_init(&rp.wk, c, 0);
	rp.bucket = sr_calloc(n + 1, sizeof *rp.bucket);
	rp.tile = sr_calloc(n + 1, sizeof *rp.tile);
	for (j = 0; j < n; j++)
		rp.bucket[j] = j * lines;
	sr_sim_steps(conf, &ops, order, n, st);
	memcpy(cancelled, sr_cancel_flags(rp.cx), c->in->nruns);
	free(rp.bucket);
	free(rp.tile);
	sr_simwalk_free(&rp.wk);
	sr_cancel_free(rp.cx);
}
