/* prune.c - sa-prune's study: surrogates, similarity, the choice of a
 * past experiment, paggr and Algorithm 1 (prune.h). */
#include "sa/prune.h"
#include "core/err.h"
#include "core/num.h"
#include "core/rng.h"
#include "sa/sampler.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
sr_experiment_free(sr_experiment *e)
{
	size_t i;

	if (e == NULL)
		return;
	free(e->name);
	free(e->source);
	free(e->raw);
	free(e->y);
	for (i = 0; i < e->nignored; i++)
		free(e->ignored[i]);
	free(e->ignored);
	free(e);
}

/* ---- Algorithm 1 ------------------------------------------------------- */

/* Integers of an int range. */
static size_t
range_count(const sr_param *p)
{
	return (size_t)(p->hi - p->lo) + 1;
}

/* The value or bin of parameter value v, or -1 when it is neither. */
static long
value_slot(const sr_param *p, const sr_param_cut *pc, double v)
{
	double u = sr_param_unit_of(p, v);
	size_t m = pc->nvalues, b;

	if (isnan(u))
		return -1;
	if (!pc->binned)
		return m == 1 ? 0 : (long)llround(u * (double)(m - 1));
	if (p->type == SR_INT)	/* integer t of count, in groups */
		return (long)((size_t)llround(v - p->lo) * m / range_count(p));
	b = (size_t)floor(u * (double)m);
	return (long)(b < m ? b : m - 1);
}

/* First integer offset of bin b of an int range cut into m groups. */
static size_t
bin_first(const sr_param *p, size_t m, size_t b)
{
	return (b * range_count(p) + m - 1) / m;
}

/* A number rounded to 15 significant digits, as a grid's values are. */
static double
round15(double v)
{
	char buf[SR_NUMLEN];

	snprintf(buf, sizeof buf, "%.15g", v);
	return strtod(buf, NULL);
}

/* Bin b's ends: a real range's [lo, hi], an int range's first and last
 * integers. */
static void
bin_ends(const sr_param *p, const sr_param_cut *pc, size_t b, double *lo,
    double *hi)
{
	size_t m = pc->nvalues;

	if (p->type == SR_INT) {
		*lo = p->lo + (double)bin_first(p, m, b);
		*hi = p->lo + (double)bin_first(p, m, b + 1) - 1;
		return;
	}
	*lo = b == 0 ? p->lo : round15(p->lo + (p->hi - p->lo) * (double)b /
	    (double)m);
	*hi = b + 1 == m ? p->hi : round15(p->lo + (p->hi - p->lo) *
	    (double)(b + 1) / (double)m);
}

char *
sr_cut_value_text(const sr_param *p, const sr_param_cut *pc, size_t i,
    char *buf, size_t len)
{
	char a[SR_NUMLEN], b[SR_NUMLEN];
	double lo, hi;

	if (!pc->binned) {
		snprintf(buf, len, "%s", sr_param_text(p, sr_param_value(p, i), a));
		return buf;
	}
	bin_ends(p, pc, i, &lo, &hi);
	if (lo == hi)
		snprintf(buf, len, "%s", sr_fmt_double(a, lo));
	else
		snprintf(buf, len, "%s..%s", sr_fmt_double(a, lo),
		    sr_fmt_double(b, hi));
	return buf;
}

/* The best score of the jobs at each value of parameter j. */
static void
best_per_value(sr_param_cut *pc, const sr_param *p, size_t j, size_t dim,
    const sr_experiment *e)
{
	size_t i;
	long v;

	for (i = 0; i < pc->nvalues; i++)
		pc->best[i] = NAN;
	for (i = 0; i < e->n; i++) {
		if ((v = value_slot(p, pc, e->raw[i * dim + j])) < 0)
			continue;
		if (isnan(pc->best[v]) || e->y[i] > pc->best[v])
			pc->best[v] = e->y[i];
	}
}

/* Marks what survives: untried and good values; when none would, the
 * best; an enum's default; the current experiment's best set's value
 * (slot keep, or -1); a range's hull. */
static void
mark_survivors(sr_param_cut *pc, const sr_param *p, double threshold,
    long keep)
{
	double tol = fabs(threshold) > 1 ? 1e-9 * fabs(threshold) : 1e-9;
	double top = -INFINITY;
	size_t i, n = pc->nvalues, first = n, last = 0, nkept = 0;
	long d;

	for (i = 0; i < n; i++) {
		pc->removed[i] = !isnan(pc->best[i]) &&
		    pc->best[i] < threshold - tol;
		pc->kept[i] = !pc->removed[i];
		nkept += pc->kept[i];
		if (!isnan(pc->best[i]))
			top = fmax(top, pc->best[i]);
	}
	if (nkept == 0) {	/* all tried, all below: the best stay */
		pc->lost_all = 1;
		for (i = 0; i < n; i++)
			pc->kept[i] = pc->best[i] == top;
	}
	if (p->type == SR_ENUM && (d = value_slot(p, pc, p->def)) >= 0 &&
	    !pc->kept[d])
		pc->kept[d] = pc->kept_default = 1;
	if (keep >= 0 && !pc->kept[keep])
		pc->kept[keep] = pc->kept_current = 1;
	pc->current_slot = keep;
	for (i = 0; pc->binned && i < n; i++)
		if (pc->kept[i]) {
			first = i < first ? i : first;
			last = i;
		}
	for (i = first; pc->binned && i <= last && i < n; i++)
		pc->kept[i] = 1;
}

/* Appends "v" or ",v" to the list in buf: v's text (a word enum's word). */
static void
list_add(char **buf, size_t *len, const sr_param *p, double v)
{
	char num[SR_NUMLEN];
	const char *text = sr_param_text(p, v, num);
	size_t add = strlen(text) + 2;

	*buf = sr_reallocarray(*buf, *len + add, 1);
	snprintf(*buf + *len, add, "%s%s", *len ? "," : "", text);
	*len += strlen(*buf + *len);
}

/* The surviving values of a grid, list or enum as space(5) values. */
static char *
discrete_values(const sr_param_cut *pc, const sr_param *p, size_t nkept)
{
	char *buf = NULL, a[SR_NUMLEN], b[SR_NUMLEN], c[SR_NUMLEN];
	size_t i, first = pc->nvalues, last = 0, len = 0;

	for (i = 0; i < pc->nvalues; i++)
		if (pc->kept[i]) {
			first = i < first ? i : first;
			last = i;
		}
	if (p->kind == SR_GRID && nkept > 1 && last - first + 1 == nkept) {
		buf = sr_malloc(3 * SR_NUMLEN + 3);
		snprintf(buf, 3 * SR_NUMLEN + 3, "%s:%s:%s",
		    sr_fmt_double(a, p->list[first]), sr_fmt_double(b, p->step),
		    sr_fmt_double(c, p->list[last]));
		return buf;
	}
	for (i = 0; i < pc->nvalues; i++)
		if (pc->kept[i])
			list_add(&buf, &len, p, sr_param_value(p, i));
	return buf;
}

/* The hull of a range's surviving bins as space(5) values, and its kept
 * fraction. */
static char *
range_values(sr_param_cut *pc, const sr_param *p)
{
	char *buf = sr_malloc(2 * SR_NUMLEN + 3), a[SR_NUMLEN], b[SR_NUMLEN];
	size_t i, first = pc->nvalues, last = 0;
	double lo, hi, dummy;

	for (i = 0; i < pc->nvalues; i++)
		if (pc->kept[i]) {
			first = i < first ? i : first;
			last = i;
		}
	bin_ends(p, pc, first, &lo, &dummy);
	bin_ends(p, pc, last, &dummy, &hi);
	pc->kept_fraction = p->type == SR_INT ? (hi - lo + 1) /
	    (double)range_count(p) : (double)(last - first + 1) /
	    (double)pc->nvalues;
	if (lo == hi)	/* one integer left: a range needs hi above lo */
		snprintf(buf, 2 * SR_NUMLEN + 3, "%s", sr_fmt_double(a, lo));
	else
		snprintf(buf, 2 * SR_NUMLEN + 3, "%s..%s", sr_fmt_double(a, lo),
		    sr_fmt_double(b, hi));
	return buf;
}

/* Algorithm 1 for parameter j; keep: the current experiment's best set
 * (NULL: none). */
static void
cut_param(sr_param_cut *pc, const sr_param *p, size_t j, size_t dim,
    const sr_experiment *e, double threshold, size_t bins,
    const double *keep)
{
	size_t i, nkept = 0;

	memset(pc, 0, sizeof *pc);
	pc->kept_fraction = 1;
	pc->current_slot = -1;
	pc->binned = p->kind == SR_RANGE;
	pc->nvalues = !pc->binned ? (p->nlist > 1 ? p->nlist : 0) :
	    p->type == SR_INT && range_count(p) < bins ? range_count(p) : bins;
	if (pc->nvalues == 0)
		return;
	pc->best = sr_calloc(pc->nvalues, sizeof *pc->best);
	pc->removed = sr_calloc(pc->nvalues, 1);
	pc->kept = sr_calloc(pc->nvalues, 1);
	best_per_value(pc, p, j, dim, e);
	mark_survivors(pc, p, threshold, keep ? value_slot(p, pc, keep[j]) :
	    -1);
	for (i = 0; i < pc->nvalues; i++)
		nkept += pc->kept[i];
	if (nkept == pc->nvalues)
		return;
	if (pc->binned)
		pc->values = range_values(pc, p);
	else {
		pc->values = discrete_values(pc, p, nkept);
		pc->kept_fraction = (double)nkept / (double)pc->nvalues;
	}
}

void
sr_prune_cut(sr_cut *cut, const sr_space *s, const sr_experiment *e,
    double paggr, size_t bins, const double *keep)
{
	double kept = 1;
	size_t i, j;

	memset(cut, 0, sizeof *cut);
	cut->paggr = paggr;
	cut->max = -INFINITY;
	for (i = 0; i < e->n; i++)
		cut->max = fmax(cut->max, e->y[i]);
	cut->threshold = paggr * cut->max;
	cut->dim = s->n;
	cut->param = sr_calloc(s->n + 1, sizeof *cut->param);
	for (j = 0; j < s->n; j++) {
		cut_param(&cut->param[j], &s->p[j], j, s->n, e, cut->threshold,
		    bins, keep);
		kept *= cut->param[j].kept_fraction;
	}
	cut->removed_fraction = 1 - kept;
}

void
sr_cut_free(sr_cut *cut)
{
	size_t j;

	for (j = 0; j < cut->dim; j++) {
		free(cut->param[j].best);
		free(cut->param[j].removed);
		free(cut->param[j].kept);
		free(cut->param[j].values);
	}
	free(cut->param);
	memset(cut, 0, sizeof *cut);
}

/* The space s with the cut's values, each parameter parsed again as
 * space(5) reads it. */
static sr_space *
pruned_space(const sr_space *s, const sr_cut *cut)
{
	sr_space *out = sr_calloc(1, sizeof *out);
	const sr_param *p;
	char err[SR_ERRLEN];
	int field;
	size_t j;

	out->p = sr_calloc(s->n, sizeof *out->p);
	for (j = 0; j < s->n; j++) {
		p = &s->p[j];
		if (sr_param_parse(&out->p[j], p->name, sr_ptype_name(p->type),
		    cut->param[j].values ? cut->param[j].values : p->values_text,
		    p->default_text, &field, err, sizeof err))
			sr_die(SR_EXIT_DATA, "internal error: pruned parameter %s: %s",
			    p->name, err);
		out->n++;
	}
	sr_space_copy_notes(out, s);
	return out;
}

int
sr_prune_opts_check(sr_prune_opts *o, unsigned set, char *errbuf, size_t len)
{
	sr_paggr_opts *a = &o->auto_opts;

	if ((set & SR_PRUNE_SET_AUTO) && !o->paggr_auto)
		snprintf(errbuf, len, "--lags, --paggr-max, --paggr-top, "
		    "--paggr-min and --paggr-fallback go with --paggr auto");
	else if ((set & SR_PRUNE_SET_TOP) == SR_PRUNE_SET_TOP &&
	    !isnan(a->fallback))
		snprintf(errbuf, len, "--paggr-top or --paggr-min, and "
		    "--paggr-fallback: one or the other");
	else if (a->min > a->max && (set & SR_PRUNE_SET_MIN) == SR_PRUNE_SET_MIN)
		snprintf(errbuf, len, "--paggr-min %g is above --paggr-max %g",
		    a->min, a->max);
	else if (o->paggr_auto && a->fallback > a->max)
		snprintf(errbuf, len, "--paggr-fallback %g is above --paggr-max %g",
		    a->fallback, a->max);
	else {
		if (a->min > a->max)	/* the default */
			a->min = a->max;
		return 0;
	}
	return -1;
}

/* ---- similarity -------------------------------------------------------- */

/* The coordinates of n parameter sets. */
static double *
coords(const sr_cube *c, const double *raw, size_t n)
{
	double *x = sr_calloc(n * c->dim + 1, sizeof *x);
	size_t i;

	for (i = 0; i < n; i++)
		sr_cube_point(c, raw + i * c->dim, x + i * c->dim);
	return x;
}

/* n points of a Sobol sequence shifted by a random vector (mod 1), mapped
 * onto the values of s; NULL when s has too many parameters. */
static double *
sobol_points(const sr_space *s, size_t n, unsigned long seed, char *errbuf)
{
	gsl_rng *rng = sr_rng_new(seed);
	double *raw, *u, *shift;
	sr_sampler *q;
	size_t i, j;

	if (rng == NULL)
		sr_die(SR_EXIT_IO, "out of memory (random generator)");
	if ((q = sr_sampler_new(SR_SOBOL, n, s->n, rng, errbuf,
	    SR_ERRLEN)) == NULL) {
		gsl_rng_free(rng);
		return NULL;
	}
	raw = sr_calloc(n * s->n + 1, sizeof *raw);
	u = sr_calloc(s->n + 1, sizeof *u);
	shift = sr_calloc(s->n + 1, sizeof *shift);
	for (j = 0; j < s->n; j++)
		shift[j] = gsl_rng_uniform(rng);
	for (i = 0; i < n; i++) {
		sr_sampler_next(q, u);
		for (j = 0; j < s->n; j++)
			raw[i * s->n + j] = sr_param_from_unit(&s->p[j],
			    fmod(u[j] + shift[j], 1.0));
	}
	free(shift);
	free(u);
	sr_sampler_free(q);
	gsl_rng_free(rng);
	return raw;
}

/* The surrogate of e evaluated at the np points pts (coordinates). */
static double *
surrogate_at(const sr_cube *c, const sr_experiment *e, size_t k,
    const double *pts, size_t np)
{
	double *x = coords(c, e->raw, e->n), *f = sr_calloc(np + 1, sizeof *f);
	sr_knn m = { c, e->n, k, x, e->y };
	size_t i;

	for (i = 0; i < np; i++)
		f[i] = sr_knn_predict(&m, pts + i * c->dim);
	free(x);
	return f;
}

/* Whether two parameter sets are the same: every value equal within a
 * relative 1e-12 (both read from the same decimal text are equal). */
static int
same_set(const double *a, const double *b, size_t dim)
{
	size_t j;

	for (j = 0; j < dim; j++)
		if (fabs(a[j] - b[j]) > 1e-12 * fmax(1, fabs(a[j])))
			return 0;
	return 1;
}

/* Replaces p[i], past's surrogate at the current job i, by past's own
 * value (the mean of its jobs) where past ran the same set; returns how
 * many sets it shares with cur. */
static size_t
exact_values(double *p, const sr_experiment *cur, const sr_experiment *past,
    size_t dim)
{
	size_t i, t, m, shared = 0;
	double sum;

	for (i = 0; i < cur->n; i++) {
		for (t = m = 0, sum = 0; t < past->n; t++)
			if (same_set(cur->raw + i * dim, past->raw + t * dim, dim)) {
				sum += past->y[t];
				m++;
			}
		if (m) {
			p[i] = sum / (double)m;
			shared++;
		}
	}
	return shared;
}

/* Fills r->ncorr and r->shared. On the current experiment's points, the
 * current values are its jobs' own and the past's are its own where it
 * ran the same set, its surrogate's elsewhere; on Sobol points, both are
 * surrogates. Returns -1 (errbuf) when the points cannot be drawn. */
static int
similarity(sr_prune_result *r, const sr_space *s, const sr_cube *c,
    const sr_experiment *cur, sr_experiment *const *past,
    const sr_prune_opts *o, char *errbuf)
{
	double *raw, *pts, *f, *p;
	size_t i;

	raw = o->points ? sobol_points(s, o->points, o->seed, errbuf) : cur->raw;
	if (raw == NULL)
		return -1;
	r->ncommon = o->points ? o->points : cur->n;
	pts = coords(c, raw, r->ncommon);
	f = o->points ? surrogate_at(c, cur, o->k, pts, r->ncommon) : cur->y;
	for (i = 0; i < r->npast; i++) {
		p = surrogate_at(c, past[i], o->k, pts, r->ncommon);
		if (!o->points)
			r->shared[i] = exact_values(p, cur, past[i], s->n);
		r->ncorr[i] = past[i]->n ? sr_rank_corr(f, p, r->ncommon) : NAN;
		free(p);
	}
	if (o->points) {
		free(f);
		free(raw);
	}
	free(pts);
	return 0;
}

/* Picks the past experiment of highest ncorr (the first of equals), or
 * says why none: r->chosen stays -1. An ncorr within 1e-12 of min_ncorr
 * reaches it: Spearman's r of three points, 0.5 exactly, computes as
 * 0.49999999999999983. */
static void
choose(sr_prune_result *r, sr_experiment *const *past, double min_ncorr)
{
	size_t i;

	for (i = 0; i < r->npast; i++)
		if (!isnan(r->ncorr[i]) && (r->chosen < 0 ||
		    r->ncorr[i] > r->ncorr[r->chosen]))
			r->chosen = (long)i;
	if (r->chosen < 0)
		snprintf(r->why, sizeof r->why, "no past experiment's values "
		    "correlate with the current one's on the %zu common points "
		    "(constant there, or no jobs)", r->ncommon);
	else if (r->ncorr[r->chosen] < min_ncorr - 1e-12) {
		snprintf(r->why, sizeof r->why, "the most similar past experiment, "
		    "%s, has ncorr %.4g, below --min-ncorr %g",
		    past[r->chosen]->name, r->ncorr[r->chosen], min_ncorr);
		r->chosen = -1;
	}
}

/* Why nothing can be compared, or NULL. */
static const char *
why_not_compared(char *buf, size_t len, const sr_experiment *cur,
    size_t npast, const sr_prune_opts *o)
{
	if (cur == NULL)
		return "no current experiment: nothing to compare the past "
		    "experiments with";
	if (cur->n == 0) {
		snprintf(buf, len, "no current results: %s has no run with a "
		    "value (%s)", cur->name, cur->source);
		return buf;
	}
	if (npast == 0)
		return "no past experiments";
	if ((o->points ? o->points : cur->n) < 2) {
		snprintf(buf, len, "one common point (the current experiment's "
		    "only result): no correlation");
		return buf;
	}
	return NULL;
}

/* The parameter values of cur's best job (the first of equals). */
static const double *
best_set(const sr_experiment *cur, size_t dim)
{
	size_t i, b = 0;

	for (i = 1; i < cur->n; i++)
		if (cur->y[i] > cur->y[b])
			b = i;
	return cur->raw + b * dim;
}

/* paggr of the chosen experiment's jobs, and Algorithm 1 with it, the
 * current experiment's best set kept. */
static void
cut_chosen(sr_prune_result *r, const sr_space *s, const sr_cube *c,
    const sr_experiment *cur, const sr_experiment *e, const sr_prune_opts *o)
{
	double *x, paggr = o->paggr;

	if (o->paggr_auto) {
		x = coords(c, e->raw, e->n);
		sr_paggr_auto(&r->paggr, s, c, e->raw, x, e->y, e->n,
		    &o->auto_opts);
		free(x);
		paggr = r->paggr.paggr;
	} else {
		memset(&r->paggr, 0, sizeof r->paggr);
		r->paggr.method = SR_PAGGR_FIXED;
		r->paggr.paggr = paggr;
	}
	r->have_paggr = 1;
	sr_prune_cut(&r->cut, s, e, paggr, o->bins, best_set(cur, s->n));
	r->have_cut = 1;
	if (!(r->cut.max > 0)) {
		snprintf(r->why, sizeof r->why, "the best value of %s is %g, not "
		    "positive: paggr times it cuts nothing sensible", e->name,
		    r->cut.max);
		return;
	}
	r->pruned = 1;
	r->space = pruned_space(s, &r->cut);
}

int
sr_prune_run(sr_prune_result *r, const sr_space *s,
    const sr_experiment *current, sr_experiment *const *past, size_t npast,
    const sr_prune_opts *o, char *errbuf)
{
	char buf[SR_ERRLEN];
	const char *why;
	sr_cube c;
	size_t i;

	memset(r, 0, sizeof *r);
	r->chosen = -1;
	r->npast = npast;
	r->ncorr = sr_calloc(npast + 1, sizeof *r->ncorr);
	r->shared = sr_calloc(npast + 1, sizeof *r->shared);
	for (i = 0; i < npast; i++)
		r->ncorr[i] = NAN;
	if ((why = why_not_compared(buf, sizeof buf, current, npast, o))) {
		snprintf(r->why, sizeof r->why, "%s", why);
		return 0;
	}
	sr_cube_init(&c, s);
	if (similarity(r, s, &c, current, past, o, errbuf)) {
		sr_cube_free(&c);
		return -1;
	}
	choose(r, past, o->min_ncorr);
	if (r->chosen >= 0)
		cut_chosen(r, s, &c, current, past[r->chosen], o);
	sr_cube_free(&c);
	return 0;
}

void
sr_prune_result_free(sr_prune_result *r)
{
	free(r->ncorr);
	free(r->shared);
	if (r->have_paggr && r->paggr.method != SR_PAGGR_FIXED)
		sr_paggr_free(&r->paggr);
	if (r->have_cut)
		sr_cut_free(&r->cut);
	sr_space_free(r->space);
	memset(r, 0, sizeof *r);
}
