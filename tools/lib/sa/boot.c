/* boot.c - bootstraps over threads, draws in a pipeline (boot.h). */
#include "sa/boot.h"
#include "core/err.h"
#include "core/parallel.h"
#include "sa/draws.h"

#include <stdlib.h>

/* The draws a chunk holds (32 MiB; two chunks at a time) */
#define SR_BOOT_DRAWS ((size_t)1 << 22)

/* A chunk of replicates: its block, its first replicate, how many. */
typedef struct {
	size_t blk, first, count;
} job;

typedef struct {
	const sr_boot *b;
	sr_draws *rng;
	size_t *buf[2];		/* this job's draws, the next one's */
	const job *now, *next;
	int fill;		/* whether item 0 draws the next job's */
} region;

static size_t
chunk_of(const sr_boot *b)
{
	size_t chunk = b->chunk ? b->chunk : b->h < SR_BOOT_DRAWS ?
	    SR_BOOT_DRAWS / b->h : 1;

	return chunk < b->resamples ? chunk : b->resamples ? b->resamples : 1;
}

size_t
sr_boot_threads(const sr_boot *b)
{
	size_t most = chunk_of(b) + 1;

	return b->threads < 1 ? 1 : b->threads < most ? b->threads : most;
}

static void
draw(sr_draws *rng, const sr_boot *b, const job *j, size_t *buf)
{
	sr_draws_fill(rng, b->n, buf, j->count * b->h);
}

/* Item 0 draws the next job's integers when there is one (first, so
 * that it overlaps the replicates); the others are this job's
 * replicates. */
static void
item(void *ctx, size_t i, size_t worker)
{
	region *r = ctx;
	size_t rep;

	if (r->fill && i == 0) {
		draw(r->rng, r->b, r->next, r->buf[1]);
		return;
	}
	rep = i - (size_t)r->fill;
	r->b->replicate(r->b->ctx, r->now->blk, r->now->first + rep,
	    r->buf[0] + rep * r->b->h, worker);
}

void
sr_boot_run(const sr_boot *b, const size_t *blocks, size_t nblocks)
{
	size_t chunk = chunk_of(b), njob = 0, i, r, *t;
	job *jobs;
	region reg = { .b = b };

	jobs = sr_calloc(nblocks * (b->resamples / chunk + 1) + 1, sizeof *jobs);
	for (i = 0; i < nblocks; i++)
		for (r = 0; r < b->resamples; r += chunk)
			jobs[njob++] = (job){ blocks[i], r, b->resamples - r < chunk ?
			    b->resamples - r : chunk };
	if (njob && (reg.rng = sr_draws_new(b->seed)) == NULL)
		sr_die(SR_EXIT_DATA, "out of memory");
	reg.buf[0] = sr_calloc(njob ? chunk * b->h : 1, sizeof *reg.buf[0]);
	reg.buf[1] = sr_calloc(njob > 1 ? chunk * b->h : 1, sizeof *reg.buf[1]);
	if (njob)
		draw(reg.rng, b, &jobs[0], reg.buf[0]);
	for (i = 0, r = 0; i < nblocks; i++) {
		b->block(b->ctx, blocks[i]);
		for (; r < njob && jobs[r].blk == blocks[i]; r++) {
			reg.now = &jobs[r];
			reg.next = r + 1 < njob ? &jobs[r + 1] : NULL;
			reg.fill = reg.next != NULL;
			sr_parallel(jobs[r].count + (size_t)reg.fill,
			    sr_boot_threads(b), item, &reg);
			t = reg.buf[0], reg.buf[0] = reg.buf[1], reg.buf[1] = t;
		}
	}
	sr_draws_free(reg.rng);
	free(reg.buf[0]);
	free(reg.buf[1]);
	free(jobs);
}
