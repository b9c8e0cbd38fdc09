/* compact.c - stage-level reuse: the compact graph of a design's runs
 * through a workflow (each unique stage instance once). */
#include "plan/compact.h"
#include "plan/instances.h"
#include "sa/design.h"
#include "core/err.h"
#include "core/hash.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The instance of stage st for a run with these values, made if new:
 * key (1 + the stage's parameters) gets the upstream and the values, and
 * the interner of (upstream, values), compared as numbers, numbers the
 * stage's instances in order of first appearance. */
static size_t
find_or_add(sr_instances *s, sr_interner *map, double *key, size_t st,
    size_t upstream, const double *v)
{
	const sr_stage *stage = &s->w->stage[st];
	size_t id, k;
	sr_instance *in;
	int added;

	key[0] = (double)upstream;	/* ids stay far below 2^53 */
	for (k = 0; k < stage->nparam; k++)
		key[k + 1] = v[stage->param[k]];
	id = sr_intern_doubles(map, key, stage->nparam + 1, &added);
	if (!added)
		return s->first[st] + id;
	in = &s->inst[s->n];
	memset(in, 0, sizeof *in);
	in->stage = st;
	in->id = s->n - s->first[st];
	in->upstream = upstream;
	in->value = sr_calloc(s->w->nparam, sizeof *in->value);
	for (k = 0; k < s->w->nparam; k++)
		in->value[k] = NAN;
	for (k = 0; k < stage->nparam; k++)
		in->value[stage->param[k]] = v[stage->param[k]];
	return s->n++;
}

sr_instances *
sr_compact(const sr_workflow *w, const double *values, size_t nruns)
{
	sr_instances *s = sr_calloc(1, sizeof *s);
	size_t st, r, *up = sr_calloc(nruns ? nruns : 1, sizeof *up);
	double *key = sr_calloc(w->nparam + 1, sizeof *key);
	sr_interner map;

	s->w = w;
	s->nruns = nruns;
	s->first = sr_calloc(w->nstage + 1, sizeof *s->first);
	s->inst = sr_calloc(nruns ? nruns : 1, w->nstage * sizeof *s->inst);
	for (r = 0; r < nruns; r++)
		up[r] = SR_NO_UPSTREAM;
	for (st = 0; st < w->nstage; st++) {
		s->first[st] = s->n;
		sr_interner_init(&map);
		for (r = 0; r < nruns; r++) {
			size_t i = find_or_add(s, &map, key, st, up[r],
			    values + r * w->nparam);
			sr_instance *in = &s->inst[i];
			if ((in->nruns & (in->nruns - 1)) == 0)	/* doubling */
				in->runs = sr_reallocarray(in->runs, in->nruns ? 2 * in->nruns : 1,
				    sizeof *in->runs);
			in->runs[in->nruns++] = r;
			up[r] = in->id;
		}
		sr_interner_free(&map);
	}
	s->first[w->nstage] = s->n;
	free(key);
	free(up);
	return s;
}

/* Whether task t takes the parameter param. */
static int
task_uses(const sr_task *t, const char *param)
{
	size_t i;

	for (i = 0; i < t->nparam; i++)
		if (strcmp(t->param[i], param) == 0)
			return 1;
	return 0;
}

double *
sr_compact_values(const sr_workflow *w, const sr_design *d)
{
	double *v = sr_calloc(d->nrun, (w->nparam ? w->nparam : 1) * sizeof *v);
	size_t p, r, c, s, t;

	for (p = 0; p < w->nparam; p++) {
		for (c = 0; c < d->ncol && strcmp(d->name[c], w->param[p]); c++)
			;
		if (c == d->ncol)
			for (s = 0; s < w->nstage; s++)
				for (t = 0; t < w->stage[s].ntask; t++)
					if (task_uses(&w->stage[s].task[t], w->param[p]))
						sr_die(SR_EXIT_DATA, "%s:%zu: column params: "
						    "parameter %s of task %s is not a column of "
						    "%s", w->path, w->stage[s].task[t].line,
						    w->param[p], w->stage[s].task[t].name,
						    d->path);
		for (r = 0; r < d->nrun; r++)
			v[r * w->nparam + p] = d->x[r * d->ncol + c];
	}
	return v;
}
