/* stage_keys.c - the prefix keys of one stage's instances, for the reuse
 * tree: key[i*m + t] numbers instance i's (upstream and) values of task t
 * among all distinct ones, exactly (values compared as numbers). */
#include "plan/stage_keys.h"
#include "plan/instances.h"
#include "core/hash.h"
#include "core/err.h"

#include <stdlib.h>
#include <string.h>

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
		size_t width = task->nparam + (t == 0);
		int *col = sr_calloc(task->nparam + 1, sizeof *col);
		sr_interner in;	/* tuples as raw bytes (memcmp, as always) */
		sr_interner_init(&in);
		for (p = 0; p < task->nparam; p++)
			col[p] = sr_workflow_param(w, task->param[p]);
		for (i = 0; i < n; i++) {
			const sr_instance *x = &s->inst[s->first[stage] + i];
			for (p = 0; p < task->nparam; p++)
				v[p] = x->value[col[p]];
			if (t == 0)	/* the upstream is part of task 1's prefix */
				v[p] = x->upstream == SR_NO_UPSTREAM ? -1.0 :
				    (double)x->upstream;
			key[i * m + t] = sr_intern(&in, v, width * sizeof *v, NULL);
		}
		sr_interner_free(&in);
		free(col);
	}
	free(v);
	return key;
}
