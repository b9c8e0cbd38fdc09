/* sampler.c - unit-cube samplers (GSL rng and qrng) and Morris trajectories. */
#include "sa/sampler.h"
#include "core/err.h"
#include "core/opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_qrng.h>
#include <gsl/gsl_randist.h>

const char *const sr_unit_method_names[SR_NUNIT + 1] = {
	"mc", "lhs", "halton", "hammersley", "sobol", NULL
};

struct sr_sampler {
	enum sr_unit_method method;
	size_t n, k, i;		/* points, dimension, next point */
	gsl_rng *rng;
	gsl_qrng *qrng;
	unsigned *perm;		/* LHS: k permutations of n strata */
};

int
sr_unit_method_parse(const char *name)
{
	return sr_word_index(name, sr_unit_method_names, SR_NUNIT);
}

/* Draws the k independent strata permutations of a Latin hypercube. */
static void
lhs_permutations(sr_sampler *s)
{
	size_t j, i;
	unsigned *p;

	s->perm = sr_calloc(s->n, s->k * sizeof *s->perm);
	for (j = 0; j < s->k; j++) {
		p = s->perm + j * s->n;
		for (i = 0; i < s->n; i++)
			p[i] = (unsigned)i;
		gsl_ran_shuffle(s->rng, p, s->n, sizeof *p);
	}
}

sr_sampler *
sr_sampler_new(enum sr_unit_method m, size_t n, size_t k, gsl_rng *rng,
    char *errbuf, size_t errlen)
{
	sr_sampler *s;
	size_t qdim = m == SR_HAMMERSLEY ? (k ? k - 1 : 0) : k;

	if (m == SR_SOBOL && k > SR_SOBOL_MAX_DIM) {
		snprintf(errbuf, errlen, "sobol: dimension %zu is beyond GSL's "
		    "limit of %d; use halton (up to %d) or lhs instead", k,
		    SR_SOBOL_MAX_DIM, SR_HALTON_MAX_DIM);
		return NULL;
	}
	if ((m == SR_HALTON || m == SR_HAMMERSLEY) && qdim > SR_HALTON_MAX_DIM) {
		snprintf(errbuf, errlen, "%s: dimension %zu is beyond GSL's limit "
		    "of %d; use lhs or mc instead", sr_unit_method_names[m], k,
		    SR_HALTON_MAX_DIM);
		return NULL;
	}
	if (m == SR_LHS && n > 4294967295u) {
		snprintf(errbuf, errlen, "lhs: %zu points is too many", n);
		return NULL;
	}
	s = sr_calloc(1, sizeof *s);
	s->method = m;
	s->n = n;
	s->k = k;
	s->rng = rng;
	if (m == SR_SOBOL && k > 0)
		s->qrng = gsl_qrng_alloc(gsl_qrng_sobol, (unsigned)k);
	else if ((m == SR_HALTON || m == SR_HAMMERSLEY) && qdim > 0)
		s->qrng = gsl_qrng_alloc(gsl_qrng_halton, (unsigned)qdim);
	if ((m == SR_SOBOL || m == SR_HALTON || m == SR_HAMMERSLEY) &&
	    qdim > 0 && s->qrng == NULL)
		sr_die(SR_EXIT_DATA, "out of memory (quasi-random generator)");
	if (m == SR_LHS)
		lhs_permutations(s);
	return s;
}

void
sr_sampler_next(sr_sampler *s, double *u)
{
	size_t j;

	switch (s->method) {
	case SR_MC:
		for (j = 0; j < s->k; j++)
			u[j] = gsl_rng_uniform(s->rng);
		break;
	case SR_LHS:
		for (j = 0; j < s->k; j++)
			u[j] = (s->perm[j * s->n + s->i] +
			    gsl_rng_uniform(s->rng)) / (double)s->n;
		break;
	case SR_HAMMERSLEY:	/* (i/n, Halton_{k-1}(i)) */
		if (s->k == 0)
			break;
		u[0] = (double)s->i / (double)s->n;
		if (s->k > 1)
			gsl_qrng_get(s->qrng, u + 1);
		break;
	default:		/* GSL's Sobol and Halton skip the origin */
		if (s->qrng)
			gsl_qrng_get(s->qrng, u);
		break;
	}
	s->i++;
}

void
sr_sampler_free(sr_sampler *s)
{
	if (s == NULL)
		return;
	if (s->qrng)
		gsl_qrng_free(s->qrng);
	free(s->perm);
	free(s);
}

void
sr_morris_trajectory(gsl_rng *rng, size_t k, const size_t *levels,
    double *out)
{
	sr_morris_trajectory_groups(rng, k, levels, 0, NULL, out);
}

void
sr_morris_trajectory_groups(gsl_rng *rng, size_t k, const size_t *levels,
    size_t ngroup, const size_t *group_of, double *out)
{
	size_t nf = ngroup ? ngroup : k, *order = sr_calloc(nf + 1,
	    sizeof *order), i, j;
	long *level = sr_calloc(k, sizeof *level), *step = sr_calloc(k,
	    sizeof *step);

	/* integer levels, so a level is always the same unit coordinate */
	for (j = 0; j < k; j++) {
		long p = (long)levels[j], jump = p / 2;
		/* a pair of levels (b, b + jump), walked up or down */
		long b = (long)gsl_rng_uniform_int(rng, (unsigned long)(p - jump));
		int down = (int)gsl_rng_uniform_int(rng, 2);
		level[j] = down ? b + jump : b;
		step[j] = down ? -jump : jump;
	}
	for (j = 0; j < nf; j++)
		order[j] = j;
	gsl_ran_shuffle(rng, order, nf, sizeof *order);
	for (i = 0; i <= nf; i++) {
		/* step i moves factor order[i - 1]: a parameter, or every
		 * parameter of a group at once (Campolongo et al. 2007) */
		for (j = 0; i > 0 && j < k; j++)
			if ((ngroup ? group_of[j] : j) == order[i - 1])
				level[j] += step[j];
		for (j = 0; j < k; j++)
			out[i * k + j] = (double)level[j] / (double)(levels[j] - 1);
	}
	free(step);
	free(level);
	free(order);
}
