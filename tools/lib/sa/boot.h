/* boot.h - the bootstraps of the Fourier methods (efast.h, rbd.h) over
 * threads: each block of outputs (a parameter's) gets its replicates,
 * each of h integers of [0, n) drawn with replacement, the integers of
 * gsl_rng_uniform_int on the seeded generator (sa/draws.h) in the
 * order a loop of one thread draws them: block after block, replicate
 * after replicate. The draws of a chunk of replicates are made while
 * the threads analyse the chunk before, then the chunk's replicates go
 * to the threads: whatever their number, every replicate has the same
 * draws and the same result. */
#ifndef SR_BOOT_H
#define SR_BOOT_H

#include <stddef.h>

typedef struct {
	size_t n;		/* the integers drawn: [0, n) */
	size_t h;		/* draws a replicate */
	size_t resamples;	/* replicates a block */
	size_t threads;		/* at least 1 */
	size_t chunk;		/* replicates drawn at a time (0: as many
				 * as 32 MiB of draws hold) */
	unsigned long seed;
	/* called in this thread before the replicates of a block, in the
	 * order of the blocks: what they share */
	void (*block)(void *ctx, size_t blk);
	/* replicate rep (< resamples) of block blk from its draws draw[0..h),
	 * on a thread; worker (< threads) names the thread's scratch */
	void (*replicate)(void *ctx, size_t blk, size_t rep,
	    const size_t *draw, size_t worker);
	void *ctx;
} sr_boot;

/* The replicates of blocks[0..nblocks) (block numbers, in order; those
 * left out get none and draw nothing). Dies when out of memory. */
void sr_boot_run(const sr_boot *b, const size_t *blocks, size_t nblocks);

/* The threads that do work when the replicates of a block are chunks of
 * chunk: at most threads, at most chunk. */
size_t sr_boot_threads(const sr_boot *b);

#endif
