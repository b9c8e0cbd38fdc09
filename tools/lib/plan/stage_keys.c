/* stage_keys.c - the prefix keys of one stage's instances, for the reuse
 * tree: key[i*m + t] numbers instance i's (upstream and) values of task t
 * among all distinct ones, exactly (values compared as their bytes). */
#include "plan/stage_keys.h"
#include "plan/instances.h"
#include "core/hash.h"
#include "core/err.h"

#include <stdlib.h>
#include <string.h>

/* The values of task t's prefix step of instance x into v (the
 * parameters at col[0..np), then the upstream at t = 0); returns their
 * bytes. */
static size_t
gather(const sr_instance *x, const int *col, size_t np, size_t t, double *v)
{
	size_t p;

	for (p = 0; p < np; p++)
		v[p] = x->value[col[p]];
	if (t == 0)	/* the upstream is part of task 1's prefix */
		v[p++] = x->upstream == SR_NO_UPSTREAM ? -1.0 :
		    (double)x->upstream;
	return p * sizeof *v;
}

/* Keys are numbered in order of first sight, one task at a time, through
 * an open addressing table of first instances (+ 1; 0: empty) compared
 * as raw bytes (memcmp, as the general interner did): 8 bytes an
 * instance instead of the interner's copy of every distinct tuple with
 * its hash and offset (some 150 bytes, 150 MB on 10^6 instances). */
uint64_t *
sr_stage_keys(const sr_instances *s, size_t stage)
{
	const sr_workflow *w = s->w;
	const sr_stage *st = &w->stage[stage];
	const sr_instance *inst = s->inst + s->first[stage];
	size_t n = s->first[stage + 1] - s->first[stage], m = st->ntask;
	uint64_t *key = sr_calloc(n ? n : 1, (m ? m : 1) * sizeof *key);
	double *v = sr_calloc(w->nparam + 1, sizeof *v);
	double *u = sr_calloc(w->nparam + 1, sizeof *u);
	size_t cap = 16, t, i, p, k, len, next;
	uint32_t *slot;

	if (n >= UINT32_MAX)
		sr_die(SR_EXIT_DATA, "%zu instances of stage %s are beyond this "
		    "build (2^32)", n, st->name);
	while (cap < 2 * n)
		cap *= 2;
	slot = sr_calloc(cap, sizeof *slot);
	for (t = 0; t < m; t++) {
		const sr_task *task = &st->task[t];
		int *col = sr_calloc(task->nparam + 1, sizeof *col);
		for (p = 0; p < task->nparam; p++)
			col[p] = sr_workflow_param(w, task->param[p]);
		memset(slot, 0, cap * sizeof *slot);
		for (i = 0, next = 0; i < n; i++) {
			len = gather(&inst[i], col, task->nparam, t, v);
			k = (size_t)sr_hash_bytes(v, len) & (cap - 1);
			for (; slot[k]; k = (k + 1) & (cap - 1)) {
				size_t f = slot[k] - 1;
				gather(&inst[f], col, task->nparam, t, u);
				if (memcmp(u, v, len) == 0)
					break;
			}
			if (slot[k] == 0) {
				slot[k] = (uint32_t)i + 1;
				key[i * m + t] = next++;
			} else
				key[i * m + t] = key[(slot[k] - 1) * m + t];
		}
		free(col);
	}
	free(slot);
	free(u);
	free(v);
	return key;
}
