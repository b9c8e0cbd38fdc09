/* schedule.c - the replay of array tasks on slots: a queue of slot
 * events (a binary heap) and list scheduling on it. See schedule.h. */
#include "sim/schedule.h"
#include "core/err.h"

#include <stdlib.h>
#include <string.h>

const char *const sr_simorder_names[SR_NORDER] = { "file", "longest-first" };

/* ---- the slot queue --------------------------------------------------------- */

typedef struct {
	double t;
	size_t slot;
	int kind;		/* a step's end (0) before a start (1) */
} slot_event;

typedef struct {
	slot_event *e;
	size_t n;
} slot_queue;

/* Whether a comes before b: earlier; at the same time, ends before
 * starts, then the lower slot. */
static int
before(const slot_event *a, const slot_event *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	if (a->kind != b->kind)
		return a->kind < b->kind;
	return a->slot < b->slot;
}

/* Moves event i down to its place (its time grew or it is new at i). */
static void
queue_sift_down(slot_queue *q, size_t i)
{
	slot_event x = q->e[i];
	size_t c;

	while ((c = 2 * i + 1) < q->n) {
		if (c + 1 < q->n && before(&q->e[c + 1], &q->e[c]))
			c++;
		if (!before(&q->e[c], &x))
			break;
		q->e[i] = q->e[c];
		i = c;
	}
	q->e[i] = x;
}

static void
queue_push(slot_queue *q, slot_event x)
{
	size_t i = q->n++, p;

	while (i > 0 && before(&x, &q->e[p = (i - 1) / 2])) {
		q->e[i] = q->e[p];
		i = p;
	}
	q->e[i] = x;
}

static slot_event
queue_pop(slot_queue *q)
{
	slot_event top = q->e[0];

	q->e[0] = q->e[--q->n];
	if (q->n > 0)
		queue_sift_down(q, 0);
	return top;
}

/* A queue of k slots all free at time 0 (slot order is heap order). */
static slot_queue
queue_of_slots(size_t k)
{
	slot_queue q = { sr_calloc(k ? k : 1, sizeof(slot_event)), 0 };

	for (; q.n < k; q.n++)
		q.e[q.n] = (slot_event){ 0.0, q.n, 1 };
	return q;
}

/* ---- the schedule --------------------------------------------------------- */

void
sr_sim_list(const sr_simconf *c, const double *cost, const size_t *order,
    size_t n, sr_simstats *st)
{
	slot_queue q = queue_of_slots(c->slots < n ? c->slots : n);
	size_t k;
	double w, end;

	memset(st, 0, sizeof *st);
	for (k = 0; k < n; k++) {	/* the top is the slot that starts first */
		w = cost[order ? order[k] : k];
		end = q.e[0].t + c->overhead + w;
		st->busy += c->overhead + w;
		st->work += w;
		if (end > st->makespan)
			st->makespan = end;
		q.e[0].t = end + c->delay;
		queue_sift_down(&q, 0);
	}
	st->tasks = n;
	free(q.e);
}

enum { ASSIGN, STARTING, STEPPING };	/* what a slot's next event is */

void
sr_sim_steps(const sr_simconf *c, const sr_simsteps *ops, const size_t *order,
    size_t n, sr_simstats *st)
{
	size_t k = c->slots < n ? c->slots : n, next = 0, j;
	slot_queue q = queue_of_slots(k);
	size_t *task = sr_calloc(k ? k : 1, sizeof *task);
	unsigned char *phase = sr_calloc(k ? k : 1, 1);	/* ASSIGN */
	double cost;
	slot_event e;

	memset(st, 0, sizeof *st);
	while (q.n > 0) {
		e = queue_pop(&q);
		j = task[e.slot];
		switch (phase[e.slot]) {
		case ASSIGN:
			if (next == n)
				break;
			task[e.slot] = order ? order[next] : next;
			next++;
			phase[e.slot] = STARTING;
			st->busy += c->overhead;
			queue_push(&q, (slot_event){ e.t + c->overhead, e.slot, 1 });
			break;
		case STEPPING:	/* every end at a time before any start */
			ops->done(ops->ctx, j, e.t);
			phase[e.slot] = STARTING;
			queue_push(&q, (slot_event){ e.t, e.slot, 1 });
			break;
		default:
			if (ops->step(ops->ctx, j, e.t, &cost)) {
				phase[e.slot] = STEPPING;
				st->busy += cost;
				st->work += cost;
				queue_push(&q, (slot_event){ e.t + cost, e.slot, 0 });
				break;
			}
			st->tasks++;
			if (e.t > st->makespan)
				st->makespan = e.t;
			phase[e.slot] = ASSIGN;
			if (next < n)
				queue_push(&q, (slot_event){ e.t + c->delay, e.slot, 1 });
		}
	}
	free(q.e);
	free(task);
	free(phase);
}

/* ---- dispatch orders -------------------------------------------------------- */

typedef struct {
	double cost;
	size_t i;
} ranked;

static int
cmp_ranked(const void *a, const void *b)
{
	const ranked *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

size_t *
sr_sim_longest_first(const double *cost, size_t n)
{
	ranked *r = sr_calloc(n ? n : 1, sizeof *r);
	size_t *order = sr_calloc(n ? n : 1, sizeof *order), i;

	for (i = 0; i < n; i++)
		r[i] = (ranked){ cost[i], i };
	qsort(r, n, sizeof *r, cmp_ranked);
	for (i = 0; i < n; i++)
		order[i] = r[i].i;
	free(r);
	return order;
}

size_t *
sr_sim_order(sr_simorder o, const double *cost, size_t n)
{
	return o == SR_ORDER_LONGEST_FIRST ? sr_sim_longest_first(cost, n) : NULL;
}
