/* walk.c - the stage instances and tree nodes a bucket runs (walk.h). */
#include "sim/walk.h"
#include "plan/instances.h"
#include "core/err.h"

#include <stdlib.h>
#include <string.h>

void
sr_simwalk_init(sr_simwalk *wk, const sr_simcost *c, int marks)
{
	size_t s, n = c->nstage;

	memset(wk, 0, sizeof *wk);
	wk->c = c;
	wk->nstamp = sr_calloc(n, sizeof *wk->nstamp);
	wk->istamp = sr_calloc(n, sizeof *wk->istamp);
	wk->list = sr_calloc(n, sizeof *wk->list);
	wk->nlist = sr_calloc(n, sizeof *wk->nlist);
	wk->mark = marks ? sr_calloc(n, sizeof *wk->mark) : NULL;
	for (s = 0; s < n; s++) {
		size_t ni = c->st[s].tree->n + 1, nn = c->st[s].tree->nnodes;
		wk->nstamp[s] = sr_calloc(nn, sizeof **wk->nstamp);
		wk->istamp[s] = sr_calloc(ni, sizeof **wk->istamp);
		wk->list[s] = sr_calloc(ni, sizeof **wk->list);
		if (marks)
			wk->mark[s] = sr_calloc(nn, 1);
	}
}

void
sr_simwalk_free(sr_simwalk *wk)
{
	size_t s;

	for (s = 0; s < wk->c->nstage; s++) {
		free(wk->nstamp[s]);
		free(wk->istamp[s]);
		free(wk->list[s]);
		if (wk->mark)
			free(wk->mark[s]);
	}
	free(wk->nstamp);
	free(wk->istamp);
	free(wk->list);
	free(wk->nlist);
	free(wk->mark);
}

/* Whether an instance serves a run not cancelled (cancelled NULL: yes). */
static int
serves_live(const sr_instance *x, const unsigned char *cancelled)
{
	size_t r;

	if (cancelled == NULL)
		return 1;
	for (r = 0; r < x->nruns; r++)
		if (!cancelled[x->runs[r]])
			return 1;
	return 0;
}

/* Adds instance i of stage s to the walk unless it is in already. */
static void
walk_add(sr_simwalk *wk, size_t s, size_t i)
{
	if (wk->istamp[s][i] != wk->epoch) {
		wk->istamp[s][i] = wk->epoch;
		wk->list[s][wk->nlist[s]++] = i;
	}
}

/* Starts a new walk: a new epoch, no instance listed. */
static void
walk_begin(sr_simwalk *wk)
{
	size_t s;

	if (++wk->epoch == 0) {		/* wrapped: clear the stamps once */
		for (s = 0; s < wk->c->nstage; s++) {
			memset(wk->nstamp[s], 0, wk->c->st[s].tree->nnodes *
			    sizeof **wk->nstamp);
			memset(wk->istamp[s], 0, (wk->c->st[s].tree->n + 1) *
			    sizeof **wk->istamp);
		}
		wk->epoch = 1;
	}
	memset(wk->nlist, 0, wk->c->nstage * sizeof *wk->nlist);
}

/* The instances of every stage that a bucket of instances inst[0..k) of
 * stage S runs (of live runs only, with cancelled). */
static void
walk_instances(sr_simwalk *wk, size_t S, const size_t *inst, size_t k,
    const unsigned char *cancelled)
{
	const sr_instances *in = wk->c->in;
	size_t s, i, j, u;

	walk_begin(wk);
	for (i = 0; i < k; i++)
		if (serves_live(&in->inst[in->first[S] + inst[i]], cancelled))
			walk_add(wk, S, inst[i]);
	for (s = S; s-- > 0;)
		for (i = 0; i < wk->nlist[s + 1]; i++)
			if ((u = in->inst[in->first[s + 1] +
			    wk->list[s + 1][i]].upstream) != SR_NO_UPSTREAM)
				walk_add(wk, s, u);
	for (s = S + 1; s < wk->c->nstage; s++) {
		const sr_simstage *up = &wk->c->st[s - 1];
		for (i = 0; i < wk->nlist[s - 1]; i++) {
			u = wk->list[s - 1][i];
			for (j = up->dfirst[u]; j < up->dfirst[u + 1]; j++)
				if (serves_live(&in->inst[in->first[s] +
				    up->dinst[j]], cancelled))
					walk_add(wk, s, up->dinst[j]);
		}
	}
}

/* Adds to *sum the seconds of the nodes of stage s that the walk's
 * instances run and no earlier instance of this walk ran, on tile
 * (SR_ALL_TILES: on all); one running sum, in walk order. */
static void
walk_nodes(sr_simwalk *wk, size_t s, size_t S, size_t tile, double *sum)
{
	const sr_simcost *c = wk->c;
	const sr_rtree *tree = c->st[s].tree;
	size_t i, d, v;

	for (i = 0; i < wk->nlist[s]; i++)
		for (d = tree->m; d >= 1; d--) {	/* leaf up */
			v = tree->path[wk->list[s][i] * (tree->m + 1) + d];
			if (wk->nstamp[s][v] == wk->epoch)
				break;
			wk->nstamp[s][v] = wk->epoch;
			*sum += tile == SR_ALL_TILES ? sr_rnode_cost(tree, v) :
			    sr_simcost_node(c, s, v, tile);
			wk->tasks += s == S;
			if (wk->mark)
				wk->mark[s][v] = 1;
		}
}

double
sr_simwalk_cost(sr_simwalk *wk, size_t S, const size_t *inst, size_t k,
    size_t tile, const unsigned char *cancelled)
{
	const sr_simcost *c = wk->c;
	size_t s, t;
	double sum = 0;

	walk_instances(wk, S, inst, k, cancelled);
	wk->tasks = 0;
	for (s = 0; s < c->nstage; s++)
		if (!c->st[s].skip)
			walk_nodes(wk, s, S, tile, &sum);
	if (wk->nlist[S] > 0) {
		if (tile != SR_ALL_TILES)
			sum += c->read[tile];
		else
			for (t = 0; t < c->tiles.n; t++)
				sum += c->read[t];
	}
	return sum;
}
