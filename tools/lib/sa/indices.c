/* indices.c - the drivers of sa-indices' analyses (indices.h). */
#include "sa/indices.h"
#include "sa/efast.h"
#include "sa/rbd.h"
#include "core/err.h"
#include "core/parallel.h"
#include "core/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FAIL(...) do { snprintf(errbuf, errlen, __VA_ARGS__); \
	return -1; } while (0)

int
sr_indices_check_design(const sr_design *d, enum sr_method m, size_t *nused,
    char *errbuf, size_t errlen)
{
	const char *name = sr_method_name(m);
	size_t ref = d->reference >= 0;
	double expect;

	if (d->param == NULL || d->k == 0)
		FAIL("%s: no varied parameters in the metadata (params=...): not "
		    "a design made by sa-sample", d->path);
	if (ref && (size_t)d->reference != d->nrun - 1)
		FAIL("%s: the reference run must be the last run", d->path);
	if (!sr_method_is_given(m) && (d->method == NULL ||
	    sr_method_parse(d->method) != (int)m))
		FAIL("%s: a %s design cannot be analyzed with -m %s (make it with "
		    "sa-sample -m %s)", d->path, d->method ? d->method :
		    "method-less", name, name);
	*nused = d->nrun - ref;
	expect = sr_method_is_given(m) ? (double)*nused :
	    sr_method_runs(m, d->n, m == SR_METHOD_VBD || m == SR_METHOD_MOAT ?
	    sr_design_factors(d) : d->k, d->r, d->second_order);
	if (expect != (double)*nused || expect == 0)
		FAIL("%s: %zu runs, but its metadata describe %.0f", d->path,
		    *nused, expect);
	return 0;
}

/* The bootstrap's threads: as asked, else the processors. */
static size_t
threads_of(const sr_indices *x)
{
	return x->o.threads ? x->o.threads : sr_cpus();
}

/* Counts the used runs without a result; unless allowed (and within
 * the --max-missing share), a message listing them (the first 20) in
 * errbuf and -1. */
static long
check_missing(const sr_indices *x, const sr_metrics *m, char *errbuf,
    size_t errlen)
{
	size_t i, n = 0, len = 0;
	char list[512] = "";

	for (i = 0; i < x->nused; i++)
		if (isnan(m->value[i])) {
			if (n < 20 && len < sizeof list - 24)
				len += (size_t)snprintf(list + len, sizeof list - len,
				    "%s%zu", n ? ", " : "", i);
			n++;
		}
	if (n && !x->o.allow_missing)
		FAIL("%s: %zu of %zu runs have no %s result: %s%s (see "
		    "--allow-missing)", x->o.metrics_path, n, x->nused, m->metric,
		    list, n > 20 ? " ..." : "");
	if (n && (double)n > x->o.max_missing * (double)x->nused)
		FAIL("%s: %zu of %zu runs (%.1f %%) have no %s result, more than "
		    "--max-missing %g allows: %s%s", x->o.metrics_path, n,
		    x->nused, 100.0 * (double)n / (double)x->nused, m->metric,
		    x->o.max_missing, list, n > 20 ? " ..." : "");
	return (long)n;
}

/* Sobol indices of a Saltelli design, over its blocks whose runs all
 * have a result. */
static int
run_vbd(const sr_design *d, const sr_metrics *m, sr_indices *x,
    char *errbuf, size_t errlen)
{
	size_t nf = sr_design_factors(d), b, j, n = 0;
	size_t rows = sr_vbd_block_rows(nf, d->second_order);
	char err[SR_ERRLEN];
	double *y;
	long nmiss;
	int rc = -1;

	if (x->o.s2 && !d->second_order)
		FAIL("%s: --s2 needs a design made with --second-order", d->path);
	if ((nmiss = check_missing(x, m, errbuf, errlen)) < 0)
		return -1;
	y = sr_calloc(d->n * rows, sizeof *y);
	for (b = 0; b < d->n; b++) {
		for (j = 0; j < rows && !isnan(m->value[b * rows + j]); j++)
			;
		if (j == rows)
			memcpy(y + rows * n++, m->value + b * rows, rows * sizeof *y);
	}
	if (nmiss && !x->o.quiet)
		sr_warn("%s: runs without a result: %ld; dropped %zu of %zu "
		    "blocks", x->o.metrics_path, nmiss, d->n - n, d->n);
	if (n == 0)
		snprintf(errbuf, errlen, "%s: no complete block left: each has "
		    "a run without a result", x->o.metrics_path);
	else if (sr_sobol_analyze(y, n, nf, d->second_order, x->o.resamples,
	    x->o.conf, x->o.percentile, x->o.seed, &x->sobol, err))
		snprintf(errbuf, errlen, "%s: %s", x->o.metrics_path, err);
	else {
		snprintf(x->extra, sizeof x->extra, " blocks=%zu dropped=%zu", n,
		    d->n - n);
		sr_trust_sobol(&x->sobol, n, (char *const *)x->name, &x->trust);
		rc = 0;
	}
	free(y);
	return rc;
}

/* eFAST's S1 and ST of a design of search curves: a parameter whose
 * block lacks a result has none (a spectrum needs all its points). */
static int
run_efast(const sr_design *d, const sr_metrics *m, sr_indices *x,
    char *errbuf, size_t errlen)
{
	char err[SR_ERRLEN], lost[256] = "";
	size_t i, t, len = 0, dropped = 0;
	long nmiss;

	if ((nmiss = check_missing(x, m, errbuf, errlen)) < 0)
		return -1;
	for (i = 0; i < d->k; i++) {
		for (t = 0; t < d->n && !isnan(m->value[i * d->n + t]); t++)
			;
		if (t < d->n && len < sizeof lost - 64) {
			len += (size_t)snprintf(lost + len, sizeof lost - len, "%s%s",
			    dropped ? ", " : "", x->name[i]);
			dropped++;
		}
	}
	if (dropped && !x->o.quiet)
		sr_warn("%s: runs without a result: %ld; the blocks of %s lack "
		    "some: their S1 and ST are lost (NaN)", x->o.metrics_path,
		    nmiss, lost);
	if (dropped == d->k)
		FAIL("%s: every parameter's block lacks a result: no index left",
		    x->o.metrics_path);
	if (sr_efast_analyze(m->value, d->n, d->k, d->m ? d->m : SR_EFAST_M,
	    x->o.resamples, x->o.conf, x->o.seed, threads_of(x), &x->sobol,
	    err))
		FAIL("%s: %s", x->o.metrics_path, err);
	snprintf(x->extra, sizeof x->extra, " blocks=%zu dropped=%zu",
	    d->k - dropped, dropped);
	sr_trust_sobol(&x->sobol, d->n, (char *const *)x->name, &x->trust);
	return 0;
}

/* Unit-cube coordinates of the used runs' varied parameters, from the
 * design's space, or scaled by each column's range without one; NULL
 * (errbuf says why) when a value is off its parameter's values. */
static double *
unit_coordinates(const sr_design *d, const sr_indices *x, char *errbuf,
    size_t errlen)
{
	double *u = sr_calloc(x->nused, d->k * sizeof *u), lo, hi, v;
	size_t r, i;
	int p;

	for (i = 0; i < d->k; i++) {
		p = d->space ? sr_space_find(d->space, d->name[d->param[i]]) : -1;
		for (r = 0, lo = INFINITY, hi = -INFINITY; r < x->nused; r++) {
			v = d->x[r * d->ncol + d->param[i]];
			lo = fmin(lo, v);
			hi = fmax(hi, v);
		}
		for (r = 0; r < x->nused; r++) {
			v = d->x[r * d->ncol + d->param[i]];
			u[r * d->k + i] = p >= 0 ? sr_param_unit_of(&d->space->p[p], v) :
			    hi > lo ? (v - lo) / (hi - lo) : 0;
			if (isnan(u[r * d->k + i])) {
				snprintf(errbuf, errlen, "%s: run %zu: %s = %g is not one "
				    "of its values: not a MOAT design", d->path, r,
				    d->name[d->param[i]], v);
				free(u);
				return NULL;
			}
		}
	}
	return u;
}

/* Morris measures of a MOAT design, over the elementary effects whose
 * two runs have a result. */
static int
run_moat(const sr_design *d, const sr_metrics *m, sr_indices *x,
    char *errbuf, size_t errlen)
{
	size_t r = d->r, k = d->k, i, effects = 0, least = SIZE_MAX;
	double *u = unit_coordinates(d, x, errbuf, errlen);
	char err[SR_ERRLEN];
	long nmiss;
	int rc = -1;

	if (u == NULL)
		return -1;
	if ((nmiss = check_missing(x, m, errbuf, errlen)) < 0)
		goto out;
	if (sr_morris_analyze(u, m->value, r, k, d->ngroup, d->group_of,
	    x->o.resamples, x->o.conf, x->o.seed, &x->morris, err)) {
		snprintf(errbuf, errlen, "%s: %s", nmiss ? x->o.metrics_path :
		    d->path, err);
		goto out;
	}
	k = x->morris.k;	/* the factors: groups, or parameters */
	for (i = 0; i < k; i++) {
		effects += x->morris.effects[i];
		if (x->morris.effects[i] < least)
			least = x->morris.effects[i];
	}
	if (nmiss && !x->o.quiet)
		sr_warn("%s: runs without a result: %ld; dropped %zu of %zu "
		    "elementary effects (those touching one)", x->o.metrics_path,
		    nmiss, r * k - effects, r * k);
	snprintf(x->extra, sizeof x->extra, " trajectories=%zu dropped=%zu", r,
	    r * k - effects);
	sr_trust_morris(least, &x->trust);
	rc = 0;
out:
	free(u);
	return rc;
}

/* The used runs with a result: their parameters to x (n rows of k) and
 * outputs to y; returns n. */
static size_t
complete_runs(const sr_design *d, const sr_metrics *m, size_t nused,
    double *x, double *y)
{
	size_t k = d->k, n = 0, r, i;

	for (r = 0; r < nused; r++) {
		if (isnan(m->value[r]))
			continue;
		for (i = 0; i < k; i++)
			x[n * k + i] = d->x[r * d->ncol + d->param[i]];
		y[n++] = m->value[r];
	}
	return n;
}

/* The analysis of given data (corr, rbd_fast, pawn, delta) of the n
 * runs x (n rows of k), y; the metadata's tail after " used=N
 * dropped=D". */
static int
given_analyze(sr_indices *x, const double *px, const double *y, size_t n,
    char *tail, size_t taillen, char *err)
{
	size_t k = x->k;
	int rc = -1;

	switch (x->o.method) {
	case SR_METHOD_CORR:
		if ((rc = sr_corr_analyze(px, y, n, k, &x->corr, err)) == 0)
			snprintf(tail, taillen, " " SR_INDICES_R2 "=%.4f "
			    SR_INDICES_R2_RANK "=%.4f", x->corr.r2,
			    x->corr.r2_rank);
		return rc;
	case SR_METHOD_RBD_FAST:
		x->sobol.k = k;
		x->sobol.S1 = sr_calloc(k + 1, sizeof *x->sobol.S1);
		x->sobol.S1_conf = sr_calloc(k + 1, sizeof *x->sobol.S1_conf);
		snprintf(tail, taillen, " M=%zu", x->o.harmonics);
		return sr_rbd_analyze(px, y, n, k, x->o.harmonics, x->o.resamples,
		    x->o.conf, x->o.seed, threads_of(x), x->sobol.S1,
		    x->sobol.S1_conf, err);
	case SR_METHOD_PAWN:
		snprintf(tail, taillen, " slices=%zu", x->o.slices);
		return sr_pawn_analyze(px, y, n, k, x->o.slices, threads_of(x),
		    &x->pawn, err);
	default:
		snprintf(tail, taillen, " classes=%zu", sr_delta_classes(n));
		return sr_delta_analyze(px, y, n, k, x->o.resamples, x->o.conf,
		    x->o.seed, &x->delta, err);
	}
}

/* An analysis of given data over the runs with a result; refuses a
 * parameter that is constant over them. */
static int
run_given(const sr_design *d, const sr_metrics *m, sr_indices *x,
    char *errbuf, size_t errlen)
{
	size_t k = d->k, n, r, i;
	long nmiss = check_missing(x, m, errbuf, errlen);
	double *px, *y;
	char err[SR_ERRLEN], tail[96] = "";
	int rc = -1;

	if (nmiss < 0)
		return -1;
	if (nmiss && !x->o.quiet)
		sr_warn("%s: runs without a result, dropped: %ld",
		    x->o.metrics_path, nmiss);
	px = sr_calloc(x->nused, k * sizeof *px);
	y = sr_calloc(x->nused, sizeof *y);
	n = complete_runs(d, m, x->nused, px, y);
	for (i = 0; i < k; i++) {
		for (r = 1; r < n && px[r * k + i] == px[i]; r++)
			;
		if (n > 1 && r == n) {
			snprintf(errbuf, errlen, "%s: parameter %s is constant over "
			    "the runs used: no %s to measure", d->path,
			    x->name[i], x->o.method == SR_METHOD_CORR ?
			    "correlation" : "effect");
			goto out;
		}
	}
	if (given_analyze(x, px, y, n, tail, sizeof tail, err)) {
		snprintf(errbuf, errlen, "%s and %s: %s", d->path,
		    x->o.metrics_path, err);
		goto out;
	}
	snprintf(x->extra, sizeof x->extra, " used=%zu dropped=%ld%s", n, nmiss,
	    tail);
	rc = 0;
out:
	free(px);
	free(y);
	return rc;
}

static int run_method(const sr_design *d, const sr_metrics *m,
    const sr_indices_opts *o, sr_indices *x, char *errbuf, size_t errlen);

/* The analysis of a design's first runs: those of the design it was
 * grown from (n0 = d->grown_from: n0 blocks of a vbd design, n0 runs of
 * the others), without its reference run; into x->before. */
static int
compute_before(const sr_design *d, const sr_metrics *m, sr_indices *x,
    char *errbuf, size_t errlen)
{
	sr_design small = *d;
	sr_metrics sm = *m;
	sr_indices_opts o = x->o;

	small.n = d->grown_from;
	small.nrun = (size_t)sr_method_runs(sr_method_parse(d->method),
	    d->grown_from, sr_method_parse(d->method) == SR_METHOD_VBD ?
	    sr_design_factors(d) : d->k, d->r, d->second_order);
	small.reference = -1;
	sm.nrun = small.nrun;
	o.quiet = 1;
	if (o.method != SR_METHOD_DELTA)	/* only the indices change, not */
		o.resamples = 0;	/* their intervals: no bootstrap */
	x->before = sr_calloc(1, sizeof *x->before);
	x->grown_from = d->grown_from;
	return run_method(&small, &sm, &o, x->before, errbuf, errlen);
}

int
sr_indices_compute(const sr_design *d, const sr_metrics *m,
    const sr_indices_opts *o, sr_indices *x, char *errbuf, size_t errlen)
{
	if (run_method(d, m, o, x, errbuf, errlen))
		return -1;
	if (d->grown_from && (o->method == SR_METHOD_VBD ||
	    sr_method_is_given(o->method)))
		return compute_before(d, m, x, errbuf, errlen);
	return 0;
}

static int
run_method(const sr_design *d, const sr_metrics *m,
    const sr_indices_opts *o, sr_indices *x, char *errbuf, size_t errlen)
{
	size_t i;

	memset(x, 0, sizeof *x);
	x->o = *o;
	x->metric = m->metric;
	x->k = d->k;
	x->nused = d->nrun - (d->reference >= 0);
	x->name = sr_calloc(d->k ? d->k : 1, sizeof *x->name);
	if (x->o.harmonics == 0)
		x->o.harmonics = SR_RBD_M;
	if (x->o.slices == 0)
		x->o.slices = SR_PAWN_S;
	if ((o->method == SR_METHOD_VBD || o->method == SR_METHOD_MOAT) &&
	    d->ngroup) {	/* groups: the factors */
		x->k = d->ngroup;
		for (i = 0; i < d->ngroup; i++)
			x->name[i] = d->group_name[i];
	} else
		for (i = 0; i < d->k; i++)
			x->name[i] = d->name[d->param[i]];
	switch (o->method) {
	case SR_METHOD_VBD:
		return run_vbd(d, m, x, errbuf, errlen);
	case SR_METHOD_MOAT:
		return run_moat(d, m, x, errbuf, errlen);
	case SR_METHOD_EFAST:
		return run_efast(d, m, x, errbuf, errlen);
	default:
		if (sr_method_is_given(o->method))
			return run_given(d, m, x, errbuf, errlen);
		FAIL("%s: not an analysis method", sr_method_name(o->method));
	}
}

void
sr_indices_free(sr_indices *x)
{
	sr_sobol_result_free(&x->sobol);	/* each safe when zeroed */
	sr_morris_result_free(&x->morris);
	sr_corr_result_free(&x->corr);
	sr_pawn_result_free(&x->pawn);
	sr_delta_result_free(&x->delta);
	sr_trust_free(&x->trust);
	free(x->name);
	x->name = NULL;
	if (x->before) {
		sr_indices_free(x->before);
		free(x->before);
		x->before = NULL;
	}
}

void
sr_indices_warn(const sr_indices *x)
{
	size_t i;

	for (i = 0; i < x->trust.n; i++)
		sr_warn("warning: %s", x->trust.w[i].text);
}

/* The path of a plot beside path: tag inserted before a ".png" suffix,
 * else appended; a device (/dev/null) takes every plot itself. */
static char *
plot_beside(const char *path, const char *tag)
{
	size_t n = strlen(path), t = strlen(tag);
	struct stat st;
	char *s;

	if (stat(path, &st) == 0 && S_ISCHR(st.st_mode))
		tag = "", t = 0;
	s = sr_malloc(n + t + 1);
	if (n >= 4 && strcmp(path + n - 4, ".png") == 0)
		n -= 4;
	memcpy(s, path, n);
	memcpy(s + n, tag, t);
	strcpy(s + n + t, path + n);
	return s;
}

/* A title: what of the metric. */
static char *
plot_title(const char *what, const char *metric)
{
	size_t n = strlen(what) + strlen(metric) + 8;
	char *s = sr_malloc(n);

	snprintf(s, n, "%s of %s", what, metric);
	return s;
}

#define PLANE_LABELS 5	/* the parameters labelled in the Morris plane */
#define SIGNIFICANCE 0.05

/* MOAT: the bars of mu* with their intervals, the mu*-sigma plane. */
static void
plot_moat(const sr_indices *x, const char *path, char **names)
{
	char *title = plot_title("Morris screening: μ*", x->metric);
	char *plane = plot_beside(path, "-plane"), xl[64];

	snprintf(xl, sizeof xl, "μ* (bars: %g%% confidence interval)",
	    x->o.conf * 100);
	sr_plot_hbars(path, title, xl, names, x->k, x->morris.mu_star,
	    x->morris.mu_star_conf);
	free(title);
	title = plot_title("Morris screening: μ*–σ plane", x->metric);
	sr_plot_plane(plane, title, names, x->k, x->morris.mu_star,
	    x->morris.sigma, PLANE_LABELS);
	free(title);
	free(plane);
}

/* title, then on a line of its own a note (NULL: title alone), newly
 * allocated. */
static char *
with_note(char *title, const char *note)
{
	size_t n;
	char *s;

	if (note == NULL)
		return title;
	n = strlen(title) + strlen(note) + 2;
	s = sr_malloc(n);
	snprintf(s, n, "%s\n%s", title, note);
	free(title);
	return s;
}

/* The note of a VBD plot with warnings: the base samples they ask for. */
static char *
vbd_note(const sr_indices *x, char *buf, size_t len)
{
	size_t need = sr_trust_max_needed(&x->trust);

	if (x->trust.n == 0)
		return NULL;
	if (need)
		snprintf(buf, len, "Uncertain: too few base samples (n = %zu); "
		    "about n = %zu needed (see the warnings)", x->trust.samples,
		    need);
	else
		snprintf(buf, len, "Uncertain: see the warnings");
	return buf;
}

/* The S2 heatmap's marks (k x k): the pairs whose S2 is uncertain or
 * below 0 beyond its interval; their count in *n. */
static int *
s2_marks(const sr_indices *x, size_t *n)
{
	size_t k = x->k, i;
	int *mark = sr_calloc(k * k + 1, sizeof *mark);

	*n = 0;
	for (i = 0; i < k * k; i++)
		*n += mark[i] = sr_trust_uncertain(x->sobol.S2[i],
		    x->sobol.S2_conf[i]);
	for (i = 0; i < x->trust.n; i++)
		if (x->trust.w[i].kind == SR_TRUST_S2_NEGATIVE &&
		    !mark[x->trust.w[i].i * k + x->trust.w[i].j]) {
			mark[x->trust.w[i].i * k + x->trust.w[i].j] = 1;
			++*n;
		}
	return mark;
}

/* VBD: S1 and ST bars, and the heatmap of S2 when computed; a note in
 * the title where the indices are not to be trusted, a "?" on the
 * uncertain S2. */
static void
plot_vbd(const sr_indices *x, const char *path, char **names)
{
	sr_plot_series s[2] = { { "S1", x->sobol.S1, x->sobol.S1_conf, NULL },
	    { "ST", x->sobol.ST, x->sobol.ST_conf, NULL } };
	char note[160], *title, *s2;
	size_t nmark;
	int *mark, efast = x->o.method == SR_METHOD_EFAST;

	title = with_note(plot_title(efast ? "eFAST indices" : "Sobol indices",
	    x->metric), vbd_note(x, note, sizeof note));
	sr_plot_bars(path, title, efast ? "eFAST index" : "Sobol index", names,
	    x->k, s, 2);
	free(title);
	if (x->sobol.S2 == NULL)
		return;
	s2 = plot_beside(path, "-s2");
	mark = s2_marks(x, &nmark);
	title = with_note(plot_title("Second-order Sobol indices S2",
	    x->metric), nmark ? "?: uncertain (an interval wider than the "
	    "value, or below 0 beyond it)" : NULL);
	sr_plot_heatmap(s2, title, "S2", names, x->k, x->sobol.S2, mark);
	free(title);
	free(mark);
	free(s2);
}

/* Correlation: four measures, a star where p < SIGNIFICANCE. */
static void
plot_corr(const sr_indices *x, const char *path, char **names)
{
	static const int m[4] = { SR_PEARSON, SR_SPEARMAN, SR_PRCC, SR_SRRC };
	static const char *const t[4] = { "Pearson", "Spearman", "PRCC", "SRRC" };
	sr_plot_series s[4];
	int *mark = sr_calloc(4 * (x->k ? x->k : 1), sizeof *mark);
	char *title = plot_title("Correlation measures", x->metric);
	size_t j, i;

	for (j = 0; j < 4; j++) {
		for (i = 0; i < x->k; i++)
			mark[j * x->k + i] = x->corr.pvalue[m[j]] &&
			    x->corr.pvalue[m[j]][i] < SIGNIFICANCE;
		s[j] = (sr_plot_series){ t[j], x->corr.value[m[j]], NULL,
		    mark + j * x->k };
	}
	sr_plot_bars(path, title, "coefficient", names, x->k, s, 4);
	free(title);
	free(mark);
}

/* RBD-FAST's S1, delta's delta and S1, PAWN's median and maximum. */
static void
plot_given(const sr_indices *x, const char *path, char **names)
{
	sr_plot_series s[2];
	const char *what, *axis;
	char *title;
	size_t ns = 2;

	switch (x->o.method) {
	case SR_METHOD_RBD_FAST:
		s[0] = (sr_plot_series){ "S1", x->sobol.S1, x->sobol.S1_conf,
		    NULL };
		ns = 1;
		what = "RBD-FAST first-order indices";
		axis = "S1";
		break;
	case SR_METHOD_DELTA:
		s[0] = (sr_plot_series){ "delta", x->delta.delta,
		    x->delta.delta_conf, NULL };
		s[1] = (sr_plot_series){ "S1", x->delta.S1, x->delta.S1_conf,
		    NULL };
		what = "Delta moment-independent indices";
		axis = "index";
		break;
	default:
		s[0] = (sr_plot_series){ "median", x->pawn.median, NULL, NULL };
		s[1] = (sr_plot_series){ "maximum", x->pawn.max, NULL, NULL };
		what = "PAWN indices";
		axis = "Kolmogorov-Smirnov distance over the slices";
		break;
	}
	title = plot_title(what, x->metric);
	sr_plot_bars(path, title, axis, names, x->k, s, ns);
	free(title);
}

void
sr_indices_plot(const sr_indices *x, const char *path)
{
	char **names = (char **)x->name;

	if (x->o.method == SR_METHOD_VBD || x->o.method == SR_METHOD_EFAST)
		plot_vbd(x, path, names);
	else if (x->o.method == SR_METHOD_MOAT)
		plot_moat(x, path, names);
	else if (x->o.method == SR_METHOD_CORR)
		plot_corr(x, path, names);
	else
		plot_given(x, path, names);
}
