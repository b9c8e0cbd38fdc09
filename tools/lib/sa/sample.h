/* sample.h - what sa-sample is asked for (method and its options), the
 * checks that go with it, the design's run count, and its generation. */
#ifndef SR_SAMPLE_H
#define SR_SAMPLE_H

#include <stddef.h>

#include "sa/generator.h"
#include "sa/method.h"
#include "sa/sampler.h"
#include "sa/space.h"

#define SR_SAMPLE_MAX_ROWS 1e9	/* a billion runs is no longer a design */

/* A sampling request: the method (SR_METHOD_REFERENCE: no method, only
 * the reference run) and the options that go with it. */
typedef struct {
	enum sr_method method;
	enum sr_unit_method base;	/* vbd */
	size_t n;			/* points, vbd base samples */
	size_t r, p;			/* moat trajectories, levels (and grid's) */
	size_t optimize;		/* moat: keep this many of r (0: all) */
	size_t m;			/* efast: harmonics M (0: not given) */
	unsigned long seed;
	int second_order, reference, force;
	size_t round;			/* pso, anneal, tpe: the round, from 1 */
	size_t grown_from;		/* --extend: the n grown from (0: none) */
} sr_sample_spec;

/* Whether the options go with the method: NULL, or the reason (a usage
 * error) in errbuf. */
const char *sr_sample_check(const sr_sample_spec *s, char *errbuf,
    size_t errlen);
/* The options of a search's round (pso, anneal, tpe) against s: set[m]
 * says method m's settings were given; history, within, rounds (0: not
 * given) the rest. NULL, or the reason (a usage error) in errbuf. */
const char *sr_sample_check_search(const sr_sample_spec *s, const int *set,
    int history, int within, size_t rounds, char *errbuf, size_t errlen);

/* The runs the design will have (the reference run not counted) in
 * *rows: NULL, or the reason there are too many (a usage error). */
const char *sr_sample_rows(const sr_sample_spec *s, const sr_generator *g,
    double *rows, char *errbuf, size_t errlen);
/* Writes the rows with the generator the method names (the reference run
 * not included): NULL, or the reason it cannot (bad data). */
const char *sr_sample_generate(const sr_sample_spec *s, sr_generator *g,
    char *errbuf, size_t errlen);

#endif
