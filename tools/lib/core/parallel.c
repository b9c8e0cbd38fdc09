/* parallel.c - a loop's items over threads (parallel.h). */
#define _GNU_SOURCE
#include "core/parallel.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

size_t
sr_cpus(void)
{
	cpu_set_t set;
	int n;

	if (sched_getaffinity(0, sizeof set, &set) != 0)
		return 1;
	n = CPU_COUNT(&set);
	return n > 0 ? (size_t)n : 1;
}

typedef struct {
	void (*fn)(void *, size_t, size_t);
	void *ctx;
	size_t items;
	atomic_size_t next;
} loop;

typedef struct {
	pthread_t tid;
	loop *l;
	size_t worker;
} seat;

static void
work(loop *l, size_t worker)
{
	size_t item;

	while ((item = atomic_fetch_add(&l->next, 1)) < l->items)
		l->fn(l->ctx, item, worker);
}

static void *
start(void *arg)
{
	seat *s = arg;

	work(s->l, s->worker);
	return NULL;
}

void
sr_parallel(size_t items, size_t threads,
    void (*fn)(void *ctx, size_t item, size_t worker), void *ctx)
{
	loop l = { fn, ctx, items, 0 };
	seat *seats = NULL;
	size_t t, started = 0;

	if (threads > items)
		threads = items;
	if (threads > 1)
		seats = malloc(threads * sizeof *seats);
	for (t = 1; seats && t < threads; t++) {
		seats[t].l = &l;
		seats[t].worker = t;
		if (pthread_create(&seats[t].tid, NULL, start, &seats[t]) != 0)
			break;
		started++;
	}
	work(&l, 0);
	for (t = 1; t <= started; t++)
		pthread_join(seats[t].tid, NULL);
	free(seats);
}
