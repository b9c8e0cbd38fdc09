/* compact.c - stage-level reuse: the compact graph of a design's runs
 * through a workflow (each unique stage instance once). */
#include "plan/compact.h"
#include "core/err.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Hash table from (upstream, values of the stage's parameters) to an
 * instance index, open addressing. */
typedef struct {
	size_t *slot;		/* instance index + 1; 0 = empty */
	size_t cap;
} instmap;

static uint64_t
key_hash(size_t upstream, const double *v, const size_t *param, size_t np)
{
	uint64_t h = 1469598103934665603u ^ upstream, bits;
	size_t i;

	for (i = 0; i < np; i++) {
		double x = v[param[i]] == 0 ? 0.0 : v[param[i]];
		memcpy(&bits, &x, sizeof bits);
		h = (h ^ bits) * 1099511628211u;
		h ^= h >> 31;
	}
	return h;
}

/* Whether instance in has this upstream and these values. */
static int
same(const sr_instance *in, size_t upstream, const double *v,
    const size_t *param, size_t np)
{
	size_t i;

	if (in->upstream != upstream)
		return 0;
	for (i = 0; i < np; i++)
		if (in->value[param[i]] != v[param[i]])
			return 0;
	return 1;
}

/* The instance of stage st for a run with these values, made if new. */
static size_t
find_or_add(sr_instances *s, instmap *map, size_t st, size_t upstream,
    const double *v)
{
	const sr_stage *stage = &s->w->stage[st];
	size_t i = (size_t)(key_hash(upstream, v, stage->param, stage->nparam) &
	    (map->cap - 1)), k;
	sr_instance *in;

	for (; map->slot[i]; i = (i + 1) & (map->cap - 1))
		if (same(&s->inst[map->slot[i] - 1], upstream, v, stage->param,
		    stage->nparam))
			return map->slot[i] - 1;
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
	map->slot[i] = ++s->n;
	return s->n - 1;
}

sr_instances *
sr_compact(const sr_workflow *w, const double *values, size_t nruns)
{
	sr_instances *s = sr_calloc(1, sizeof *s);
	size_t st, r, *up = sr_calloc(nruns ? nruns : 1, sizeof *up);
	instmap map;

	s->w = w;
	s->nruns = nruns;
	s->first = sr_calloc(w->nstage + 1, sizeof *s->first);
	s->inst = sr_calloc(nruns ? nruns : 1, w->nstage * sizeof *s->inst);
	for (map.cap = 16; map.cap < 2 * nruns; map.cap *= 2)
		;
	map.slot = sr_calloc(map.cap, sizeof *map.slot);
	for (r = 0; r < nruns; r++)
		up[r] = SR_NO_UPSTREAM;
	for (st = 0; st < w->nstage; st++) {
		s->first[st] = s->n;
		memset(map.slot, 0, map.cap * sizeof *map.slot);
		for (r = 0; r < nruns; r++) {
			size_t i = find_or_add(s, &map, st, up[r],
			    values + r * w->nparam);
			sr_instance *in = &s->inst[i];
			if ((in->nruns & (in->nruns - 1)) == 0)	/* doubling */
				in->runs = sr_reallocarray(in->runs, in->nruns ? 2 * in->nruns : 1,
				    sizeof *in->runs);
			in->runs[in->nruns++] = r;
			up[r] = in->id;
		}
	}
	s->first[w->nstage] = s->n;
	free(map.slot);
	free(up);
	return s;
}
