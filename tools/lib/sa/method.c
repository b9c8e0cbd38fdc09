/* method.c - the SA methods' names and run counts (method.h). */
#include "sa/method.h"
#include "sa/sampler.h"

#include <string.h>

_Static_assert((int)SR_METHOD_MC == (int)SR_MC &&
    (int)SR_METHOD_LHS == (int)SR_LHS &&
    (int)SR_METHOD_HALTON == (int)SR_HALTON &&
    (int)SR_METHOD_HAMMERSLEY == (int)SR_HAMMERSLEY &&
    (int)SR_METHOD_SOBOL == (int)SR_SOBOL,
    "the unit-cube methods follow sr_unit_method");

const char *const sr_method_names[SR_NMETHOD] = {
	"mc", "lhs", "halton", "hammersley", "sobol", "random", "grid", "moat",
	"vbd", "corr", "reference", "pso", "anneal", "tpe", "efast",
	"rbd_fast", "pawn", "delta"
};

int
sr_method_parse(const char *name)
{
	int i;

	for (i = 0; i < SR_NMETHOD; i++)
		if (strcmp(name, sr_method_names[i]) == 0)
			return i;
	return -1;
}

const char *
sr_method_name(enum sr_method m)
{
	return (unsigned)m < SR_NMETHOD ? sr_method_names[m] : "?";
}

const char **
sr_method_table(unsigned mask, const char *names[SR_NMETHOD])
{
	int i;

	for (i = 0; i < SR_NMETHOD; i++)
		names[i] = mask & SR_METHOD_BIT(i) ? sr_method_names[i] : NULL;
	return names;
}

int
sr_method_is_unit(enum sr_method m)
{
	return (SR_METHODS_UNIT & SR_METHOD_BIT(m)) != 0;
}

int
sr_method_is_search(enum sr_method m)
{
	return (SR_METHODS_SEARCH & SR_METHOD_BIT(m)) != 0;
}

int
sr_method_is_given(enum sr_method m)
{
	return (SR_METHODS_GIVEN & SR_METHOD_BIT(m)) != 0;
}

size_t
sr_vbd_block_rows(size_t k, int second_order)
{
	return second_order ? 2 * k + 2 : k + 2;
}

double
sr_method_runs(enum sr_method m, size_t n, size_t k, size_t r,
    int second_order)
{
	switch (m) {
	case SR_METHOD_VBD:
		return (double)n * (double)sr_vbd_block_rows(k, second_order);
	case SR_METHOD_MOAT:
		return (double)r * ((double)k + 1);
	case SR_METHOD_EFAST:
		return (double)n * (double)k;
	case SR_METHOD_REFERENCE:
		return 0;
	default:
		return (double)n;
	}
}
