/* knn.c - unit-cube distances, the kNN surrogate and ncorr (knn.h). */
#include "sa/knn.h"
#include "core/err.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

void
sr_cube_init(sr_cube *c, const sr_space *s)
{
	const sr_param *p;
	size_t j;

	c->dim = s->n;
	c->lo = sr_calloc(s->n + 1, sizeof *c->lo);
	c->width = sr_calloc(s->n + 1, sizeof *c->width);
	for (j = 0; j < s->n; j++) {
		p = &s->p[j];
		if (p->type == SR_ENUM || p->kind == SR_LIST || !(p->hi > p->lo))
			continue;	/* a category: width 0 */
		c->lo[j] = p->lo;
		c->width[j] = p->hi - p->lo;
	}
}

void
sr_cube_free(sr_cube *c)
{
	free(c->lo);
	free(c->width);
	memset(c, 0, sizeof *c);
}

void
sr_cube_point(const sr_cube *c, const double *v, double *u)
{
	size_t j;

	for (j = 0; j < c->dim; j++)
		u[j] = c->width[j] > 0 ? (v[j] - c->lo[j]) / c->width[j] : v[j];
}

/* Whether two category values are the same (to a relative 1e-9, as a
 * space's domain check). */
static int
same_value(double a, double b)
{
	double m = fmax(fabs(a), fabs(b));

	return fabs(a - b) <= (m > 1 ? 1e-9 * m : 1e-9);
}

double
sr_cube_dist2(const sr_cube *c, const double *a, const double *b)
{
	double d2 = 0, d;
	size_t j;

	for (j = 0; j < c->dim; j++) {
		if (c->width[j] > 0) {
			d = a[j] - b[j];
			d2 += d * d;
		} else if (!same_value(a[j], b[j]))
			d2 += 1;
	}
	return d2;
}

double
sr_knn_predict(const sr_knn *m, const double *u)
{
	size_t k = m->k < m->n ? m->k : m->n, have = 0, i, j;
	double *best = sr_calloc(k + 1, sizeof *best), d, sum = 0;
	size_t *who = sr_calloc(k + 1, sizeof *who);

	/* the k nearest so far, nearest first; a job replaces the k-th only
	 * when strictly nearer, so earlier jobs win ties */
	for (i = 0; i < m->n && k > 0; i++) {
		d = sr_cube_dist2(m->cube, u, m->x + i * m->cube->dim);
		if (have == k && !(d < best[k - 1]))
			continue;
		j = have < k ? have++ : k - 1;
		for (; j > 0 && best[j - 1] > d; j--) {
			best[j] = best[j - 1];
			who[j] = who[j - 1];
		}
		best[j] = d;
		who[j] = i;
	}
	for (j = 0; j < have; j++)
		sum += m->y[who[j]];
	free(best);
	free(who);
	return have ? sum / (double)have : NAN;
}

double
sr_rank_corr(const double *f, const double *p, size_t s)
{
	double *work, r;

	if (s < 2 || gsl_stats_variance(f, 1, s) == 0 ||
	    gsl_stats_variance(p, 1, s) == 0)
		return NAN;
	/* Pearson's r of the ranks, ties at their mean rank */
	work = sr_calloc(2 * s, sizeof *work);
	r = gsl_stats_spearman(f, 1, p, 1, s, work);
	free(work);
	return r;
}
