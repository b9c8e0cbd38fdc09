/* sampler.h - unit-cube samplers and Morris trajectories for sa-sample. */
#ifndef SR_SAMPLER_H
#define SR_SAMPLER_H

#include <stddef.h>
#include <gsl/gsl_rng.h>

enum sr_unit_method { SR_MC, SR_LHS, SR_HALTON, SR_HAMMERSLEY, SR_SOBOL, SR_NUNIT };

#define SR_SOBOL_MAX_DIM 40	/* GSL's Sobol tables */
#define SR_HALTON_MAX_DIM 1229	/* GSL's Halton primes */

typedef struct sr_sampler sr_sampler;

/* Parses "mc", "lhs", "halton", "hammersley" or "sobol"; -1 if none. */
int sr_unit_method_parse(const char *name);
extern const char *const sr_unit_method_names[SR_NUNIT + 1];	/* NULL-ended */

/* A sampler of n points in [0,1)^k; rng (not owned) drives mc and lhs.
 * Returns NULL with the reason in errbuf (dimension beyond GSL's limit). */
sr_sampler *sr_sampler_new(enum sr_unit_method m, size_t n, size_t k,
    gsl_rng *rng, char *errbuf, size_t errlen);
/* Writes the next point's k coordinates to u. */
void sr_sampler_next(sr_sampler *s, double *u);
void sr_sampler_free(sr_sampler *s);

/* One Morris trajectory of k+1 points (row-major, k coordinates each) on
 * levels/(levels[j]-1) grids: a random base point, a random order of
 * parameters and random directions; parameter j jumps by
 * floor(levels[j]/2) levels, i.e. delta = p/(2(p-1)) for even p. */
void sr_morris_trajectory(gsl_rng *rng, size_t k, const size_t *levels,
    double *out);
/* The same of groups: ngroup factors, parameter j in group group_of[j];
 * a step moves every parameter of one group, in a random order of the
 * groups (ngroup 0: the above, the same draws). out holds ngroup + 1
 * rows of k. */
void sr_morris_trajectory_groups(gsl_rng *rng, size_t k,
    const size_t *levels, size_t ngroup, const size_t *group_of,
    double *out);

#endif
