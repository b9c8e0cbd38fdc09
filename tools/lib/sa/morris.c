/* morris.c - Morris elementary effects: mu, mu*, sigma and a bootstrap
 * confidence interval of mu* (as SALib's morris.analyze). */
#include "sa/morris.h"
#include "core/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>

/* Elementary effects of trajectory t into ee[j] (one per parameter);
 * returns NULL or why the rows are not a Morris trajectory. */
static const char *
trajectory_effects(const double *u, const double *y, size_t t, size_t k,
    double *ee, char *seen, char *errbuf)
{
	size_t i, j, changed = 0, nchanged;

	memset(seen, 0, k);
	for (i = 0; i < k; i++) {
		const double *a = u + (t * (k + 1) + i) * k, *b = a + k;
		double ya = y[t * (k + 1) + i], yb = y[t * (k + 1) + i + 1];
		for (j = 0, nchanged = 0; j < k; j++)
			if (fabs(b[j] - a[j]) > 1e-12) {
				changed = j;
				nchanged++;
			}
		if (nchanged != 1 || seen[changed]) {
			snprintf(errbuf, SR_ERRLEN, "trajectory %zu, step %zu changes "
			    "%zu parameters%s: not a MOAT design", t, i + 1, nchanged,
			    nchanged == 1 ? " (one already moved)" : "");
			return errbuf;
		}
		seen[changed] = 1;
		ee[changed] = (yb - ya) / (b[changed] - a[changed]);
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

int
sr_morris_analyze(const double *u, const double *y, size_t r, size_t k,
    size_t resamples, double conf, unsigned long seed,
    sr_morris_result *out, char *errbuf)
{
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
	    (seen = calloc(k, 1)) == NULL ||
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
		if (trajectory_effects(u, y, t, k, ee + t * k, seen, errbuf))
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
