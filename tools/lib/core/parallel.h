/* parallel.h - the items of a loop over threads: the bootstraps of the
 * Fourier methods, the rows sa-sample formats. Each item's result goes
 * to a place of its own, so that the output is the same whatever the
 * number of threads. */
#ifndef SR_PARALLEL_H
#define SR_PARALLEL_H

#include <stddef.h>

/* The processors this process may run on (its affinity mask: what a
 * Slurm or PBS job was given, what taskset allows), at least 1. */
size_t sr_cpus(void);

/* Calls fn(ctx, item, worker) for every item in [0, items), on up to
 * threads threads (this one among them); worker, below threads, tells a
 * thread's scratch from the others'. Items are taken in turn, so any
 * thread may do any item. Where no thread can be started, this one does
 * the rest. */
void sr_parallel(size_t items, size_t threads,
    void (*fn)(void *ctx, size_t item, size_t worker), void *ctx);

#endif
