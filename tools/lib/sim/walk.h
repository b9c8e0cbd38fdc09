/* walk.h - what a bucket runs: its instances of its stage, the instances
 * of earlier stages they consume and of later stages that consume them,
 * each node of each stage's reuse tree once, and what that costs. */
#ifndef SR_WALK_H
#define SR_WALK_H

#include <stddef.h>

#include "sim/costs.h"

#define SR_ALL_TILES ((size_t)-1)

typedef struct {
	const sr_simcost *c;
	unsigned **nstamp, **istamp;	/* per stage: nodes, instances seen */
	unsigned epoch;
	size_t **list, *nlist;		/* per stage: the instances walked */
	unsigned char **mark;		/* per stage: nodes ever run (or NULL) */
	size_t tasks;			/* nodes of the bucket's stage */
} sr_simwalk;

/* A walker over the stages of c; with marks, it remembers every node any
 * walk ran. */
void sr_simwalk_init(sr_simwalk *wk, const sr_simcost *c, int marks);
void sr_simwalk_free(sr_simwalk *wk);

/* Seconds a bucket of instances inst[0..k) of stage S runs on tile
 * (SR_ALL_TILES: on all), each node once, with the tiles' decoding; only
 * the instances serving a run not cancelled (cancelled NULL: all).
 * wk->tasks gets its nodes of stage S, wk->nlist[S] its live instances. */
double sr_simwalk_cost(sr_simwalk *wk, size_t S, const size_t *inst,
    size_t k, size_t tile, const unsigned char *cancelled);

#endif
