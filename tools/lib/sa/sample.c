/* sample.c - a sampling request: its checks, run count and generation
 * (sample.h). */
#include "sa/sample.h"
#include "sa/efast.h"

#include <stdio.h>
#include <string.h>

#define FAIL(...) do { snprintf(errbuf, errlen, __VA_ARGS__); \
	return errbuf; } while (0)

const char *
sr_sample_check(const sr_sample_spec *s, char *errbuf, size_t errlen)
{
	if (s->second_order && s->method != SR_METHOD_VBD)
		FAIL("--second-order goes with -m vbd");
	if (s->optimize && s->method != SR_METHOD_MOAT)
		FAIL("--optimize goes with -m moat");
	if (s->m && s->method != SR_METHOD_EFAST)
		FAIL("-M goes with -m efast");
	if (s->optimize > s->r)
		FAIL("--optimize %zu keeps more trajectories than the %zu drawn "
		    "(-r)", s->optimize, s->r);
	if (sr_method_is_search(s->method) && s->round == 0)
		FAIL("-m %s draws a round of a search: give --round",
		    sr_method_name(s->method));
	if (!sr_method_is_search(s->method) && s->round)
		FAIL("--round goes with -m pso, anneal or tpe");
	return NULL;
}

const char *
sr_sample_check_search(const sr_sample_spec *s, const int *set, int history,
    int within, size_t rounds, char *errbuf, size_t errlen)
{
	int m;

	for (m = SR_METHOD_PSO; m <= SR_METHOD_TPE; m++)
		if (set[m] && (int)s->method != m)
			FAIL("%s with -m %s", m == SR_METHOD_TPE ? "--gamma, "
			    "--candidates and --independent go" : m == SR_METHOD_PSO ? "--inertia, "
			    "--c1 and --c2 go" : "--cooling goes",
			    sr_method_name((enum sr_method)m));
	if ((history || within || rounds) && !s->round)
		FAIL("--history, --within and --rounds go with --round");
	if (s->round > 1 && !history)
		FAIL("--round %zu: a round after the first is drawn from the "
		    "rounds before: give --history", s->round);
	if (s->round == 1 && history)
		FAIL("--round 1 has no rounds before it: no --history");
	if (rounds && rounds < s->round)
		FAIL("--rounds %zu: below --round %zu", rounds, s->round);
	return NULL;
}

const char *
sr_sample_rows(const sr_sample_spec *s, const sr_generator *g, double *rows,
    char *errbuf, size_t errlen)
{
	const char *m = sr_method_name(s->method);

	if (s->method == SR_METHOD_GRID)
		*rows = sr_generator_grid_size(g, s->p);
	else
		*rows = sr_method_runs(s->method, s->n, (s->method ==
		    SR_METHOD_VBD || s->method == SR_METHOD_MOAT) && g->ngroup ?
		    g->ngroup : g->k,
		    s->optimize ? s->optimize : s->r, s->second_order);
	if (*rows > SR_SAMPLE_MAX_ROWS)
		FAIL("%s: %.4g runs is too many (limit %.0e)", m, *rows,
		    SR_SAMPLE_MAX_ROWS);
	if (s->method == SR_METHOD_GRID && *rows > SR_GRID_LIMIT && !s->force)
		FAIL("grid of %.4g runs (more than %.0e): narrow it with --fix, "
		    "or give --force", *rows, SR_GRID_LIMIT);
	return NULL;
}

const char *
sr_sample_generate(const sr_sample_spec *s, sr_generator *g, char *errbuf,
    size_t errlen)
{
	switch (s->method) {
	case SR_METHOD_REFERENCE:
		return NULL;
	case SR_METHOD_VBD:
		return sr_generator_vbd(g, (int)s->base, s->n, s->second_order,
		    errbuf, errlen);
	case SR_METHOD_MOAT:
		return sr_generator_moat(g, s->r, s->p, s->optimize, errbuf,
		    errlen);
	case SR_METHOD_GRID:
		sr_generator_grid(g, s->p);
		return NULL;
	case SR_METHOD_EFAST:
		return sr_generator_efast(g, s->n, s->m ? s->m : SR_EFAST_M,
		    errbuf, errlen);
	case SR_METHOD_RBD_FAST:
		return sr_generator_rbd(g, s->n, errbuf, errlen);
	case SR_METHOD_RANDOM:
		return sr_generator_random(g, s->n, errbuf, errlen);
	default:
		if (!sr_method_is_unit(s->method))
			FAIL("%s: not a sampling method", sr_method_name(s->method));
		return sr_generator_unit(g, (int)s->method, s->n, errbuf, errlen);
	}
}
