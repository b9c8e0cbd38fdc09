/* stage_keys.c - the prefix keys of one stage's instances, for the reuse
 * tree: key[i*m + t] numbers instance i's (upstream and) values of task t
 * among all distinct ones, exactly (values compared as numbers). */
#include "plan/stage_keys.h"
#include "core/hash.h"
#include "core/err.h"

#include <stdlib.h>
#include <string.h>

/* Interning table of value tuples of one task. */
typedef struct {
	double *tuple;		/* id * width values */
	size_t width, n, cap;
	size_t *slot;		/* id + 1; 0 = empty */
	size_t scap;
} intern;

/* Id of tuple v (width values), added when new. */
static size_t
intern_id(intern *t, const double *v)
{
	size_t i = (size_t)(sr_hash_doubles(v, t->width) & (t->scap - 1)), id;

	for (; t->slot[i]; i = (i + 1) & (t->scap - 1)) {
		id = t->slot[i] - 1;
		if (memcmp(t->tuple + id * t->width, v, t->width * sizeof *v) == 0)
			return id;
	}
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->tuple = sr_reallocarray(t->tuple, t->cap,
		    (t->width ? t->width : 1) * sizeof *t->tuple);
	}
	memcpy(t->tuple + t->n * t->width, v, t->width * sizeof *v);
	t->slot[i] = ++t->n;
	return t->n - 1;
}

uint64_t *
sr_stage_keys(const sr_instances *s, size_t stage)
{
	const sr_workflow *w = s->w;
	const sr_stage *st = &w->stage[stage];
	size_t n = s->first[stage + 1] - s->first[stage], m = st->ntask;
	uint64_t *key = sr_calloc(n ? n : 1, (m ? m : 1) * sizeof *key);
	double *v = sr_calloc(w->nparam + 1, sizeof *v);
	size_t t, i, p;

	for (t = 0; t < m; t++) {
		const sr_task *task = &st->task[t];
		intern in = { NULL, task->nparam + (t == 0), 0, 0, NULL, 16 };
		int *col = sr_calloc(task->nparam + 1, sizeof *col);
		for (p = 0; p < task->nparam; p++)
			col[p] = sr_workflow_param(w, task->param[p]);
		while (in.scap < 2 * n)
			in.scap *= 2;
		in.slot = sr_calloc(in.scap, sizeof *in.slot);
		for (i = 0; i < n; i++) {
			const sr_instance *x = &s->inst[s->first[stage] + i];
			for (p = 0; p < task->nparam; p++)
				v[p] = x->value[col[p]];
			if (t == 0)	/* the upstream is part of task 1's prefix */
				v[p] = x->upstream == SR_NO_UPSTREAM ? -1.0 :
				    (double)x->upstream;
			key[i * m + t] = intern_id(&in, v);
		}
		free(in.tuple);
		free(in.slot);
		free(col);
	}
	free(v);
	return key;
}
