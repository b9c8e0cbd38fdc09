/* sa-indices - sensitivity indices from a design and its results. */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sa/sobol.h"
#include "sa/morris.h"
#include "sa/corr.h"
#include "sa/design.h"
#include "core/err.h"
#include "sa/metrics.h"
#include "core/num.h"
#include "core/out.h"
#include "core/plot.h"
#include "core/rng.h"
#include "core/tsv.h"

#define DEF_SEED 1UL
#define DEF_CONF 0.95
#define DEF_RESAMPLES_VBD 100
#define DEF_RESAMPLES_MOAT 1000
#define MAX_RESAMPLES 1000000

enum {
	OPT_METRIC = CHAR_MAX + 1, OPT_AGGREGATE, OPT_CONF, OPT_PERCENTILE,
	OPT_S2, OPT_ALLOW_MISSING, OPT_PLOT, OPT_VERSION
};

static const struct option longopts[] = {
	{ "method", required_argument, NULL, 'm' },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "aggregate", required_argument, NULL, OPT_AGGREGATE },
	{ "resamples", required_argument, NULL, 'r' },
	{ "conf", required_argument, NULL, OPT_CONF },
	{ "percentile", no_argument, NULL, OPT_PERCENTILE },
	{ "s2", required_argument, NULL, OPT_S2 },
	{ "allow-missing", no_argument, NULL, OPT_ALLOW_MISSING },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "seed", required_argument, NULL, 's' },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

struct opts {
	const char *method, *metric, *output, *s2, *plot;
	const char *design, *metrics;
	int aggregate, percentile, allow_missing;
	long resamples;		/* -1: the method's default */
	double conf;
	unsigned long seed;
};

/* What the analysis works on: the design rows it uses and their outputs. */
struct job {
	const struct opts *o;
	sr_design *d;
	sr_metrics *m;
	size_t nused;		/* design runs the method uses (no reference) */
	size_t resamples;
	FILE *out;
	int argc;
	char **argv;
};

static void
usage(FILE *fp)
{
	fprintf(fp,
"Usage: sa-indices -m moat|vbd|corr [options] [-o INDICES.tsv] DESIGN.tsv METRICS.tsv\n"
"Compute sensitivity indices of one metric from a design and its results.\n"
"\n"
"  -m, --method M           moat (mu, mu*, sigma), vbd (Sobol S1, ST[, S2]),\n"
"                           corr (Pearson, Spearman, PCC, PRCC, SRC, SRRC)\n"
"      --metric NAME        metric column [the only one, else dice]\n"
"      --aggregate A        over tiles of a run: mean, median, sum [mean]\n"
"  -r, --resamples N        bootstrap resamples [vbd %d, moat %d]\n"
"      --conf LEVEL         confidence level of the intervals [%g]\n"
"      --percentile         vbd: add percentile intervals (S1_lo S1_hi ST_lo ST_hi)\n"
"      --s2 FILE            vbd: write second-order indices to FILE\n"
"      --allow-missing      moat, corr: drop incomplete trajectories or runs\n"
"      --plot FILE.png      draw the indices with gnuplot\n"
"  -s, --seed SEED          bootstrap seed [%lu]\n"
"  -o, --output FILE        write here (atomically) instead of stdout\n"
"  -h, --help               this help\n"
"      --version            version\n",
	    DEF_RESAMPLES_VBD, DEF_RESAMPLES_MOAT, DEF_CONF, DEF_SEED);
}

static void
parse_args(int argc, char **argv, struct opts *o)
{
	const char *why;
	long v;
	int c;

	memset(o, 0, sizeof *o);
	o->conf = DEF_CONF;
	o->seed = DEF_SEED;
	o->resamples = -1;
	while ((c = getopt_long(argc, argv, ":m:r:s:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': o->method = optarg; break;
		case OPT_METRIC: o->metric = optarg; break;
		case OPT_AGGREGATE:
			if ((o->aggregate = sr_aggregate_parse(optarg)) < 0)
				sr_usage_error("--aggregate '%s': not mean, median or sum",
				    optarg);
			break;
		case 'r':
			if ((why = sr_parse_long(optarg, &v)) || v < 0 ||
			    v > MAX_RESAMPLES)
				sr_usage_error("-r '%s': a number of resamples from 0 to %d",
				    optarg, MAX_RESAMPLES);
			o->resamples = v;
			break;
		case OPT_CONF:
			if (sr_parse_double(optarg, &o->conf) || !(o->conf > 0 &&
			    o->conf < 1))
				sr_usage_error("--conf '%s': a level between 0 and 1", optarg);
			break;
		case OPT_PERCENTILE: o->percentile = 1; break;
		case OPT_S2: o->s2 = optarg; break;
		case OPT_ALLOW_MISSING: o->allow_missing = 1; break;
		case OPT_PLOT: o->plot = optarg; break;
		case 's':
			if (sr_parse_long(optarg, &v) || v < 0 ||
			    (unsigned long)v > SR_SEED_MAX)
				sr_usage_error("-s '%s': seeds go from 0 to %lu", optarg,
				    SR_SEED_MAX);
			o->seed = (unsigned long)v;
			break;
		case 'o': o->output = optarg; break;
		case 'h': usage(stdout); sr_out_commit_all(); exit(SR_EXIT_OK);
		case OPT_VERSION: sr_print_version();
		default: sr_getopt_fail(c, argv);
		}
	}
	if (argc - optind != 2)
		sr_usage_error("expected DESIGN.tsv and METRICS.tsv, got %d "
		    "arguments", argc - optind);
	o->design = argv[optind];
	o->metrics = argv[optind + 1];
	if (strcmp(o->design, "-") == 0 && strcmp(o->metrics, "-") == 0)
		sr_usage_error("only one of DESIGN.tsv and METRICS.tsv can be stdin");
	if (o->method == NULL)
		sr_usage_error("no method given (-m moat, vbd or corr)");
	if (strcmp(o->method, "moat") && strcmp(o->method, "vbd") &&
	    strcmp(o->method, "corr"))
		sr_usage_error("unknown method '%s' (moat, vbd, corr)", o->method);
	if ((o->s2 || o->percentile) && strcmp(o->method, "vbd"))
		sr_usage_error("--s2 and --percentile go with -m vbd");
	if (o->allow_missing && strcmp(o->method, "vbd") == 0)
		sr_usage_error("--allow-missing: vbd cannot drop runs (every block "
		    "needs all its runs)");
	if (o->s2 && strcmp(o->s2, "-") == 0 && (o->output == NULL ||
	    strcmp(o->output, "-") == 0))
		sr_usage_error("--s2 -: the first-order table already goes to "
		    "stdout; give -o FILE or --s2 FILE");
	if (o->plot && strchr(o->plot, '\''))
		sr_usage_error("--plot: a file name with a quote is not supported");
}

/* Name of varied parameter i. */
static const char *
pname(const struct job *j, size_t i)
{
	return j->d->name[j->d->param[i]];
}

/* Names of the varied parameters (borrowed strings), for plots. */
static char **
param_names(const struct job *j)
{
	char **names = sr_calloc(j->d->k, sizeof *names);
	size_t i;

	for (i = 0; i < j->d->k; i++)
		names[i] = j->d->name[j->d->param[i]];
	return names;
}

/* Checks that the design is one the method can analyze and sets nused. */
static void
check_design(struct job *j)
{
	const sr_design *d = j->d;
	const char *m = j->o->method;
	size_t expect, ref = d->reference >= 0;

	if (d->param == NULL || d->k == 0)
		sr_die(SR_EXIT_DATA, "%s: no varied parameters in the metadata "
		    "(params=...): not a design made by sa-sample", d->path);
	if (ref && (size_t)d->reference != d->nrun - 1)
		sr_die(SR_EXIT_DATA, "%s: the reference run must be the last run",
		    d->path);
	if (strcmp(m, "corr") != 0 && (d->method == NULL || strcmp(d->method, m)))
		sr_die(SR_EXIT_DATA, "%s: a %s design cannot be analyzed with -m %s "
		    "(make it with sa-sample -m %s)", d->path,
		    d->method ? d->method : "method-less", m, m);
	j->nused = d->nrun - ref;
	if (strcmp(m, "vbd") == 0)
		expect = d->n * (d->second_order ? 2 * d->k + 2 : d->k + 2);
	else if (strcmp(m, "moat") == 0)
		expect = d->r * (d->k + 1);
	else
		expect = j->nused;
	if (expect != j->nused || expect == 0)
		sr_die(SR_EXIT_DATA, "%s: %zu runs, but its metadata describe %zu",
		    d->path, j->nused, expect);
}

/* Lists the runs without a result; dies unless allowed. Returns count. */
static size_t
check_missing(const struct job *j, int allowed)
{
	size_t i, n = 0;
	char list[512] = "";
	size_t len = 0;

	for (i = 0; i < j->nused; i++)
		if (isnan(j->m->value[i])) {
			if (n < 20 && len < sizeof list - 24)
				len += (size_t)snprintf(list + len, sizeof list - len,
				    "%s%zu", n ? ", " : "", i);
			n++;
		}
	if (n && !allowed)
		sr_die(SR_EXIT_DATA, "%s: %zu of %zu runs have no %s result: %s%s%s",
		    j->o->metrics, n, j->nused, j->m->metric, list,
		    n > 20 ? " ..." : "", strcmp(j->o->method, "vbd") ? " (see "
		    "--allow-missing)" : "");
	return n;
}

static void
write_meta(const struct job *j, FILE *fp, const char *extra)
{
	fprintf(fp, "#method=%s metric=%s aggregate=%s runs=%zu", j->o->method,
	    j->m->metric, j->o->aggregate == SR_AGG_MEDIAN ? "median" :
	    j->o->aggregate == SR_AGG_SUM ? "sum" : "mean", j->nused);
	if (strcmp(j->o->method, "corr") != 0)
		fprintf(fp, " resamples=%zu conf=%g seed=%lu", j->resamples,
		    j->o->conf, j->o->seed);
	fprintf(fp, "%s\n", extra);
}

/* Opens the output once the analysis has succeeded, so a failure writes
 * nothing, not even to stdout; writes provenance and metadata. */
static void
begin_output(struct job *j, const char *extra)
{
	j->out = sr_out_open(j->o->output);
	sr_out_provenance(j->out, j->argc, j->argv);
	write_meta(j, j->out, extra);
}

static void
put(FILE *fp, double v)
{
	fputc('\t', fp);
	sr_put_double(fp, v);
}

/* Writes the S2 table to its own file (param_i param_j S2 S2_conf). */
static void
write_s2(const struct job *j, const sr_sobol_result *r)
{
	FILE *fp = sr_out_open(j->o->s2);
	size_t a, b, k = j->d->k;

	sr_out_provenance(fp, j->argc, j->argv);
	write_meta(j, fp, " order=2");
	fprintf(fp, "param_i\tparam_j\tS2\tS2_conf%s\n", j->o->percentile ?
	    "\tS2_lo\tS2_hi" : "");
	for (a = 0; a < k; a++)
		for (b = a + 1; b < k; b++) {
			fprintf(fp, "%s\t%s", pname(j, a), pname(j, b));
			put(fp, r->S2[a * k + b]);
			put(fp, r->S2_conf[a * k + b]);
			if (j->o->percentile) {
				put(fp, r->S2_lo[a * k + b]);
				put(fp, r->S2_hi[a * k + b]);
			}
			fputc('\n', fp);
		}
}

static void
run_vbd(struct job *j)
{
	const sr_design *d = j->d;
	sr_sobol_result r;
	char err[SR_ERRLEN];
	size_t i;

	if (j->o->s2 && !d->second_order)
		sr_die(SR_EXIT_DATA, "%s: --s2 needs a design made with "
		    "--second-order", d->path);
	check_missing(j, 0);
	if (sr_sobol_analyze(j->m->value, d->n, d->k, d->second_order,
	    j->resamples, j->o->conf, j->o->percentile, j->o->seed, &r, err))
		sr_die(SR_EXIT_DATA, "%s: %s", j->o->metrics, err);
	if (j->o->plot) {	/* first: a failed plot must leave no table */
		char **names = param_names(j);
		sr_plot_series s[2] = { { "S1", r.S1, r.S1_conf },
		    { "ST", r.ST, r.ST_conf } };
		sr_plot_bars(j->o->plot, "Sobol indices", names, d->k, s, 2);
		free(names);
	}
	begin_output(j, "");
	fprintf(j->out, "param\tS1\tS1_conf\tST\tST_conf%s\n", j->o->percentile ?
	    "\tS1_lo\tS1_hi\tST_lo\tST_hi" : "");
	for (i = 0; i < d->k; i++) {
		fputs(pname(j, i), j->out);
		put(j->out, r.S1[i]);
		put(j->out, r.S1_conf[i]);
		put(j->out, r.ST[i]);
		put(j->out, r.ST_conf[i]);
		if (j->o->percentile) {
			put(j->out, r.S1_lo[i]);
			put(j->out, r.S1_hi[i]);
			put(j->out, r.ST_lo[i]);
			put(j->out, r.ST_hi[i]);
		}
		fputc('\n', j->out);
	}
	if (j->o->s2)
		write_s2(j, &r);
	sr_sobol_result_free(&r);
}

/* Unit-cube coordinates of the used runs' varied parameters: from the
 * design's space, or scaled by each column's range without one. */
static double *
unit_coordinates(const struct job *j)
{
	const sr_design *d = j->d;
	double *u = sr_calloc(j->nused, d->k * sizeof *u), lo, hi, v;
	size_t r, i;
	int p;

	for (i = 0; i < d->k; i++) {
		p = d->space ? sr_space_find(d->space, pname(j, i)) : -1;
		for (r = 0, lo = INFINITY, hi = -INFINITY; r < j->nused; r++) {
			v = d->x[r * d->ncol + d->param[i]];
			lo = fmin(lo, v);
			hi = fmax(hi, v);
		}
		for (r = 0; r < j->nused; r++) {
			v = d->x[r * d->ncol + d->param[i]];
			u[r * d->k + i] = p >= 0 ? sr_param_unit_of(&d->space->p[p], v) :
			    hi > lo ? (v - lo) / (hi - lo) : 0;
			if (isnan(u[r * d->k + i]))
				sr_die(SR_EXIT_DATA, "%s: run %zu: %s = %g is not one of "
				    "its values: not a MOAT design", d->path, r,
				    pname(j, i), v);
		}
	}
	return u;
}

static void
run_moat(struct job *j)
{
	const sr_design *d = j->d;
	size_t r = d->r, k = d->k, t, i, dropped = 0, nmiss;
	int *keep = sr_calloc(r, sizeof *keep);
	double *u = unit_coordinates(j);
	sr_morris_result res;
	char err[SR_ERRLEN], extra[64];

	nmiss = check_missing(j, j->o->allow_missing);
	for (t = 0; t < r; t++) {
		keep[t] = 1;
		for (i = 0; i <= k; i++)
			if (isnan(j->m->value[t * (k + 1) + i]))
				keep[t] = 0;
		dropped += !keep[t];
	}
	if (dropped)
		sr_warn("%s: runs without a result: %zu; dropped %zu of %zu "
		    "trajectories", j->o->metrics, nmiss, dropped, r);
	if (sr_morris_analyze(u, j->m->value, r, k, keep, j->resamples,
	    j->o->conf, j->o->seed, &res, err))
		sr_die(SR_EXIT_DATA, "%s: %s", d->path, err);
	snprintf(extra, sizeof extra, " trajectories=%zu dropped=%zu", r - dropped,
	    dropped);
	if (j->o->plot) {	/* first: a failed plot must leave no table */
		char **names = param_names(j);
		sr_plot_scatter(j->o->plot, "Morris screening", names, k,
		    res.mu_star, res.sigma, "mu*", "sigma");
		free(names);
	}
	begin_output(j, extra);
	fputs("param\tmu\tmu_star\tsigma\tmu_star_conf\n", j->out);
	for (i = 0; i < k; i++) {
		fputs(pname(j, i), j->out);
		put(j->out, res.mu[i]);
		put(j->out, res.mu_star[i]);
		put(j->out, res.sigma[i]);
		put(j->out, res.mu_star_conf[i]);
		fputc('\n', j->out);
	}
	sr_morris_result_free(&res);
	free(u);
	free(keep);
}

static void
run_corr(struct job *j)
{
	const sr_design *d = j->d;
	size_t k = d->k, n = 0, r, i, nmiss = check_missing(j, j->o->allow_missing);
	double *x = sr_calloc(j->nused, k * sizeof *x);
	double *y = sr_calloc(j->nused, sizeof *y);
	sr_corr_result res;
	char err[SR_ERRLEN], extra[64];

	if (nmiss)
		sr_warn("%s: runs without a result, dropped: %zu", j->o->metrics,
		    nmiss);
	for (r = 0; r < j->nused; r++) {
		if (isnan(j->m->value[r]))
			continue;
		for (i = 0; i < k; i++)
			x[n * k + i] = d->x[r * d->ncol + d->param[i]];
		y[n++] = j->m->value[r];
	}
	for (i = 0; i < k; i++) {
		for (r = 1; r < n && x[r * k + i] == x[i]; r++)
			;
		if (n > 1 && r == n)
			sr_die(SR_EXIT_DATA, "%s: parameter %s is constant over the "
			    "runs used: no correlation to measure", d->path,
			    pname(j, i));
	}
	if (sr_corr_analyze(x, y, n, k, &res, err))
		sr_die(SR_EXIT_DATA, "%s and %s: %s", d->path, j->o->metrics, err);
	snprintf(extra, sizeof extra, " used=%zu dropped=%zu r2=%.4f r2_rank=%.4f",
	    n, nmiss, res.r2, res.r2_rank);
	if (j->o->plot) {	/* first: a failed plot must leave no table */
		char **names = param_names(j);
		sr_plot_series s[4] = { { "Pearson", res.value[SR_PEARSON], NULL },
		    { "Spearman", res.value[SR_SPEARMAN], NULL },
		    { "PRCC", res.value[SR_PRCC], NULL },
		    { "SRRC", res.value[SR_SRRC], NULL } };
		sr_plot_bars(j->o->plot, "Correlation measures", names, k, s, 4);
		free(names);
	}
	begin_output(j, extra);
	fputs("param", j->out);
	for (i = 0; i < SR_NCORR; i++)
		fprintf(j->out, "\t%s\t%s_p", sr_corr_names[i], sr_corr_names[i]);
	fputc('\n', j->out);
	for (i = 0; i < k; i++) {
		size_t c;
		fputs(pname(j, i), j->out);
		for (c = 0; c < SR_NCORR; c++) {
			put(j->out, res.value[c][i]);
			put(j->out, res.pvalue[c][i]);
		}
		fputc('\n', j->out);
	}
	sr_corr_result_free(&res);
	free(x);
	free(y);
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct job j;

	sr_init(argv[0]);
	parse_args(argc, argv, &o);
	memset(&j, 0, sizeof j);
	j.o = &o;
	j.argc = argc;
	j.argv = argv;
	j.d = sr_design_read(o.design);
	check_design(&j);
	j.m = sr_metrics_read(o.metrics, j.d->nrun, o.metric, o.aggregate);
	j.resamples = o.resamples >= 0 ? (size_t)o.resamples :
	    strcmp(o.method, "moat") == 0 ? DEF_RESAMPLES_MOAT : DEF_RESAMPLES_VBD;
	if (strcmp(o.method, "vbd") == 0)
		run_vbd(&j);
	else if (strcmp(o.method, "moat") == 0)
		run_moat(&j);
	else
		run_corr(&j);
	sr_out_commit_all();
	sr_metrics_free(j.m);
	sr_design_free(j.d);
	return SR_EXIT_OK;
}
