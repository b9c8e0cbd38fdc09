/* rng.c - seeding GSL's mt19937 so that every accepted seed is distinct. */
#include "core/rng.h"

gsl_rng *
sr_rng_new(unsigned long seed)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	if (r)
		gsl_rng_set(r, seed + 1);
	return r;
}
