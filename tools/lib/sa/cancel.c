/* cancel.c - the canceller, its rules and the --cancel value. See
 * cancel.h and sim-runtime(1). */
#include "sa/cancel.h"
#include "core/err.h"
#include "core/num.h"
#include "core/opt.h"
#include "core/tsv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the converged rule ------------------------------------------------------ */

typedef struct {
	size_t window;
	size_t *nvar;		/* window variances per set */
	double *ring;		/* per set: w running means, then w variances */
} converged;

static void *
converged_init(const sr_cancelrule *r, size_t nsets)
{
	converged *c = sr_calloc(1, sizeof *c);

	c->window = r->window;
	c->nvar = sr_calloc(nsets, sizeof *c->nvar);
	c->ring = sr_calloc(nsets, 2 * r->window * sizeof *c->ring);
	return c;
}

static void
converged_free(void *state)
{
	converged *c = state;

	free(c->nvar);
	free(c->ring);
	free(c);
}

/* Population variance of x[0..w), shifted by x[0] so that equal values
 * give exactly 0. */
static double
window_variance(const double *x, size_t w)
{
	double s = 0, s2 = 0, d;
	size_t i;

	for (i = 0; i < w; i++) {
		d = x[i] - x[0];
		s += d;
		s2 += d * d;
	}
	d = (s2 - s * s / (double)w) / (double)w;
	return d > 0 ? d : 0;
}

/* Least-squares slope of the ring r[0..w) against time, oldest at r[at]. */
static double
ring_slope(const double *r, size_t w, size_t at)
{
	double mid = (double)(w - 1) / 2, num = 0, den = 0, d;
	size_t i;

	for (i = 0; i < w; i++) {
		d = (double)i - mid;
		num += d * r[(at + i) % w];
		den += d * d;
	}
	return den > 0 ? num / den : 0;
}

/* Converged (the running means' window variance no longer rising) and
 * poor or slow. */
static int
converged_decide(void *state, const sr_cancelrule *r, size_t s,
    const sr_cancelview *v)
{
	converged *c = state;
	size_t w = c->window, k = v->count;
	double *m = c->ring + s * 2 * w, *var = m + w;
	int poor, slow;

	m[(k - 1) % w] = v->mean;
	if (k < w)
		return 0;
	var[c->nvar[s]++ % w] = window_variance(m, w);
	if (c->nvar[s] < w || ring_slope(var, w, c->nvar[s] % w) > 0)
		return 0;
	poor = !isnan(r->acc) && v->mean < v->gsum / (double)v->gcount - r->acc;
	slow = !isnan(r->time) &&
	    v->tsum / (double)k > r->time * (v->gtsum / (double)v->gcount);
	return poor || slow;
}

static const sr_cancelmethod converged_method = {
	"converged", converged_init, converged_decide, converged_free
};

const sr_cancelmethod *const sr_cancel_methods[SR_NCANCEL] = {
	&converged_method
};

/* ---- the canceller ------------------------------------------------------------- */

struct sr_canceller {
	sr_cancelrule r;
	const sr_cancelmethod *method;
	void *state;
	size_t *count;		/* values per set */
	double *mean, *tsum;	/* running mean and summed times per set */
	unsigned char *cancelled;
	size_t ncancelled;
	double gsum, gtsum;
	size_t gcount;
};

sr_canceller *
sr_cancel_new(const sr_cancelrule *r, size_t nsets)
{
	sr_canceller *c = sr_calloc(1, sizeof *c);
	size_t n = nsets ? nsets : 1;

	c->r = *r;
	c->method = sr_cancel_methods[r->kind];
	c->state = c->method->init(r, n);
	c->count = sr_calloc(n, sizeof *c->count);
	c->mean = sr_calloc(n, sizeof *c->mean);
	c->tsum = sr_calloc(n, sizeof *c->tsum);
	c->cancelled = sr_calloc(n, 1);
	return c;
}

void
sr_cancel_free(sr_canceller *c)
{
	if (c == NULL)
		return;
	c->method->free(c->state);
	free(c->count);
	free(c->mean);
	free(c->tsum);
	free(c->cancelled);
	free(c);
}

int
sr_cancel_add(sr_canceller *c, size_t s, double x, double y)
{
	size_t k = ++c->count[s];
	sr_cancelview v;

	/* incremental, so that equal values keep the mean exactly */
	c->mean[s] += (x - c->mean[s]) / (double)k;
	c->tsum[s] += y;
	c->gsum += x;
	c->gtsum += y;
	c->gcount++;
	v = (sr_cancelview){ k, c->mean[s], c->tsum[s], c->gsum, c->gtsum,
	    c->gcount };
	if (!c->method->decide(c->state, &c->r, s, &v))
		return 0;
	c->cancelled[s] = 1;
	c->ncancelled++;
	return 1;
}

int
sr_cancel_is(const sr_canceller *c, size_t s)
{
	return c->cancelled[s];
}

size_t
sr_cancel_count(const sr_canceller *c)
{
	return c->ncancelled;
}

const unsigned char *
sr_cancel_flags(const sr_canceller *c)
{
	return c->cancelled;
}

/* ---- the option value ------------------------------------------------------------ */

/* Sets acc or time (key) from value: a number >= 0 (time: > 0) or off. */
static void
set_margin(sr_cancelrule *r, const char *opt, const char *s, const char *key,
    const char *value)
{
	double v, *to = key[0] == 'a' ? &r->acc : &r->time;

	if (strcmp(value, "off") == 0)
		*to = NAN;
	else if (sr_parse_double(value, &v) || v < 0 || (key[0] == 't' && v == 0))
		sr_usage_error("%s '%s': %s '%s': a number >= 0 (time: > 0) or off",
		    opt, s, key, value);
	else
		*to = v;
}

void
sr_cancelrule_parse(sr_cancelrule *r, const char *opt, const char *s)
{
	const char *p = s;
	char item[64], *eq, what[80];
	int rc;

	*r = (sr_cancelrule){ SR_CANCEL_ACC, SR_CANCEL_TIME, SR_CANCEL_WINDOW,
	    SR_CANCEL_CONVERGED };
	while ((rc = sr_list_next(&p, item, sizeof item)) > 0) {
		if ((eq = strchr(item, '=')) == NULL)
			sr_usage_error("%s '%s': '%s' is not KEY=VALUE", opt, s, item);
		*eq++ = '\0';
		snprintf(what, sizeof what, "%s window", opt);
		if (strcmp(item, "window") == 0)
			r->window = sr_opt_count(what, eq, 1, SR_COUNT_MAX);
		else if (strcmp(item, "acc") && strcmp(item, "time"))
			sr_usage_error("%s '%s': unknown key '%s' (acc, time, "
			    "window)", opt, s, item);
		else
			set_margin(r, opt, s, item, eq);
	}
	if (rc != 0)
		sr_usage_error("%s '%s': a comma list of acc=A, time=T, window=W",
		    opt, s);
	if (r->window > SR_CANCEL_WINDOW_MAX)
		sr_usage_error("%s '%s': window above %d", opt, s,
		    SR_CANCEL_WINDOW_MAX);
}
