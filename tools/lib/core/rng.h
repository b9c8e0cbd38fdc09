/* rng.h - the one way tools seed GSL's mt19937. */
#ifndef SR_RNG_H
#define SR_RNG_H

#include <gsl/gsl_rng.h>

/* Largest seed: GSL's mt19937 keeps 32 bits and treats 0 as 4357, so the
 * tools pass SEED + 1 and accept 0..SR_SEED_MAX: distinct seeds, distinct
 * streams. */
#define SR_SEED_MAX 4294967294UL

/* A new mt19937 generator seeded with seed (<= SR_SEED_MAX), or NULL when
 * out of memory. */
gsl_rng *sr_rng_new(unsigned long seed);

#endif
