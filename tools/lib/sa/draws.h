/* draws.h - bootstrap draws in bulk: the very integers that
 * gsl_rng_uniform_int(r, n) gives, call after call, on the generator
 * sr_rng_new(seed) makes (GSL's mt19937), a block at a time, with GSL's
 * scaling done by a multiplication instead of a division. A bootstrap
 * of 1000 resamples of 16384 samples spent a third of its time in GSL's
 * calls. */
#ifndef SR_DRAWS_H
#define SR_DRAWS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sr_draws sr_draws;

/* A stream seeded with seed (<= SR_SEED_MAX, core/rng.h), or NULL when
 * out of memory. */
sr_draws *sr_draws_new(unsigned long seed);
void sr_draws_free(sr_draws *d);

/* Writes the next count integers of [0, n) to out; n is 1 to
 * 4294967295 (GSL's bound). Returns 0, or -1 for an n out of bounds. */
int sr_draws_fill(sr_draws *d, size_t n, size_t *out, size_t count);

#ifdef __cplusplus
}
#endif

#endif
