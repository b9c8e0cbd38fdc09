/* morris.c - Morris elementary effects: mu, mu*, sigma and a bootstrap
 * confidence interval of mu* (as SALib's morris.analyze). */
#include "sa/morris.h"
#include "core/err.h"
#include "core/rng.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>

/* Elementary effects of trajectory t (nf + 1 rows of k, nf factors:
 * groups of group_of, or the parameters) into ee[j], one per parameter,
 * dy / du of its step (NaN where a run has no output); returns NULL or
 * why the rows are not a Morris trajectory: each step must move exactly
 * one factor's parameters, every one of them, and each factor once. */
static const char *
trajectory_effects(const double *u, const double *y, size_t t, size_t k,
    size_t nf, const size_t *group_of, double *ee, char *seen,
    char *errbuf)
{
	size_t i, j, moved, f, nmoved;

	memset(seen, 0, nf);
	for (i = 0; i < nf; i++) {
		const double *a = u + (t * (nf + 1) + i) * k, *b = a + k;
		double ya = y[t * (nf + 1) + i], yb = y[t * (nf + 1) + i + 1];
		for (j = 0, moved = 0, nmoved = 0, f = SIZE_MAX; j < k; j++)
			if (fabs(b[j] - a[j]) > 1e-12) {
				if (f != SIZE_MAX && (group_of ? group_of[j] : j) != f)
					f = SIZE_MAX - 1;	/* two factors */
				else
					f = group_of ? group_of[j] : j;
				nmoved++;
			}
		for (j = 0; f < nf && j < k; j++)
			moved += (group_of ? group_of[j] : j) == f;
		if (f >= nf || nmoved != moved || seen[f]) {
			snprintf(errbuf, SR_ERRLEN, "trajectory %zu, step %zu changes "
			    "%zu parameters%s: not a MOAT design", t, i + 1, nmoved,
			    f < nf && seen[f] ? " (one already moved)" :
			    group_of ? " (not one group, whole)" : "");
			return errbuf;
		}
		seen[f] = 1;
		for (j = 0; j < k; j++)
			if ((group_of ? group_of[j] : j) == f)
				ee[j] = (yb - ya) / (b[j] - a[j]);
	}
	return NULL;
}

void
sr_morris_result_free(sr_morris_result *r)
{
	free(r->mu);
	free(r->mu_star);
	free(r->sigma);
	free(r->mu_star_conf);
	free(r->effects);
	memset(r, 0, sizeof *r);
}

/* z * sd (ddof=1) of the mean |ee| over `resamples` bootstrap samples. */
static double
mu_star_conf(const double *ee, size_t m, size_t resamples, double z,
    gsl_rng *rng, double *means)
{
	size_t t, i;
	double s;

	if (m < 2 || resamples < 2)
		return NAN;
	for (t = 0; t < resamples; t++) {
		for (i = 0, s = 0; i < m; i++)
			s += fabs(ee[gsl_rng_uniform_int(rng, m)]);
		means[t] = s / (double)m;
	}
	return z * gsl_stats_sd(means, 1, resamples);
}

/* Group measures from the parameters' (SALib's): each group's mu, mu*
 * and mu*'s interval the mean of its parameters', sigma its parameter's
 * for a group of one, else NaN; effects its parameters'. */
static void
to_groups(sr_morris_result *out, size_t k, size_t ngroup,
    const size_t *group_of)
{
	double *mu = sr_calloc(ngroup, sizeof *mu), *ms = sr_calloc(ngroup,
	    sizeof *ms), *sg = sr_calloc(ngroup, sizeof *sg), *cf =
	    sr_calloc(ngroup, sizeof *cf);
	size_t *n = sr_calloc(ngroup, sizeof *n), *ef = sr_calloc(ngroup,
	    sizeof *ef), j, c;

	for (j = 0; j < k; j++) {
		c = group_of[j];
		mu[c] += out->mu[j];
		ms[c] += out->mu_star[j];
		cf[c] += out->mu_star_conf[j];
		sg[c] = out->sigma[j];
		ef[c] = out->effects[j];
		n[c]++;
	}
	for (c = 0; c < ngroup; c++) {
		mu[c] /= (double)n[c];
		ms[c] /= (double)n[c];
		cf[c] /= (double)n[c];
		if (n[c] > 1)
			sg[c] = NAN;
	}
	free(out->mu);
	free(out->mu_star);
	free(out->sigma);
	free(out->mu_star_conf);
	free(out->effects);
	out->mu = mu;
	out->mu_star = ms;
	out->sigma = sg;
	out->mu_star_conf = cf;
	out->effects = ef;
	out->k = ngroup;
	free(n);
}

int
sr_morris_analyze(const double *u, const double *y, size_t r, size_t k,
    size_t ngroup, const size_t *group_of, size_t resamples, double conf,
    unsigned long seed, sr_morris_result *out, char *errbuf)
{
	size_t nf = ngroup ? ngroup : k;
	double *ee = NULL, *col = NULL, *means = NULL, z;
	char *seen = NULL;
	size_t t, j, m, left = 0;
	gsl_rng *rng = NULL;
	int rc = -1;

	memset(out, 0, sizeof *out);
	out->k = k;
	if (k == 0 || r == 0) {
		snprintf(errbuf, SR_ERRLEN, k ? "no trajectories" : "no parameters");
		return -1;
	}
	if ((ee = calloc(r, k * sizeof *ee)) == NULL ||
	    (col = calloc(r, sizeof *col)) == NULL ||
	    (means = calloc(resamples + 1, sizeof *means)) == NULL ||
	    (seen = calloc(nf, 1)) == NULL ||
	    (out->mu = calloc(k, sizeof(double))) == NULL ||
	    (out->mu_star = calloc(k, sizeof(double))) == NULL ||
	    (out->sigma = calloc(k, sizeof(double))) == NULL ||
	    (out->mu_star_conf = calloc(k, sizeof(double))) == NULL ||
	    (out->effects = calloc(k, sizeof(size_t))) == NULL ||
	    (rng = sr_rng_new(seed)) == NULL) {
		snprintf(errbuf, SR_ERRLEN, "out of memory");
		goto done;
	}
	for (t = 0; t < r; t++)	/* an effect of a missing run is NaN */
		if (trajectory_effects(u, y, t, k, nf, ngroup ? group_of : NULL,
		    ee + t * k, seen, errbuf))
			goto done;
	for (t = 0; t < r * k; t++)
		left += !isnan(ee[t]);
	if (left == 0) {
		snprintf(errbuf, SR_ERRLEN, "no elementary effect left: every "
		    "one touches a run without a result");
		goto done;
	}
	z = gsl_cdf_ugaussian_Pinv(0.5 + conf / 2);
	for (j = 0; j < k; j++) {
		double s = 0;
		for (t = 0, m = 0; t < r; t++)
			if (!isnan(ee[t * k + j])) {
				col[m] = ee[t * k + j];
				s += fabs(col[m++]);
			}
		out->effects[j] = m;
		out->mu[j] = m ? gsl_stats_mean(col, 1, m) : NAN;
		out->mu_star[j] = m ? s / (double)m : NAN;
		out->sigma[j] = m > 1 ? gsl_stats_sd(col, 1, m) : NAN;
		out->mu_star_conf[j] = mu_star_conf(col, m, resamples, z, rng, means);
	}
	if (ngroup)
		to_groups(out, k, ngroup, group_of);
	rc = 0;
done:
	if (rc)
		sr_morris_result_free(out);
	free(ee);
	free(col);
	free(means);
	free(seen);
	if (rng)
		gsl_rng_free(rng);
	return rc;
}
