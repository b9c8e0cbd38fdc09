/* prune_report.c - sa-prune's report and its pruned space's comments
 * (prune_report.h). */
#include "sa/prune_report.h"
#include "core/num.h"
#include "core/out.h"

#include <math.h>
#include <string.h>

/* One row; v NaN writes an empty value. detail may be NULL. */
static void
row(FILE *fp, const char *item, const char *name, double v,
    const char *detail)
{
	char num[SR_NUMLEN];

	fprintf(fp, "%s\t%s\t%s\t%s\n", item, name, isnan(v) ? "" :
	    sr_fmt_double(num, v), detail ? detail : "");
}

static const char *
method_name(enum sr_paggr_method m)
{
	return m == SR_PAGGR_FIXED ? "fixed" : m == SR_PAGGR_VARIOGRAM ?
	    "variogram" : m == SR_PAGGR_TOP ? "top" : "fallback";
}

/* The rows of the experiments: current, past with their ncorr. */
static void
experiments(FILE *fp, const sr_prune_result *r, const sr_prune_inputs *in)
{
	const sr_experiment *e = in->current;
	char detail[1024];
	size_t i, j, len;

	if (e) {
		snprintf(detail, sizeof detail, "source=%s missing=%zu", e->source,
		    e->nmissing);
		row(fp, "current", e->name, (double)e->n, detail);
	} else
		row(fp, "current", "-", 0, "none given");
	for (i = 0; i < in->npast; i++) {
		e = in->past[i];
		len = (size_t)snprintf(detail, sizeof detail, "jobs=%zu "
		    "shared=%zu source=%s", e->n, r->shared[i], e->source);
		for (j = 0; j < e->nignored && len < sizeof detail; j++)
			len += (size_t)snprintf(detail + len, sizeof detail - len,
			    "%s%s", j ? "," : " ignored=", e->ignored[j]);
		row(fp, "past", e->name, r->ncorr[i], detail);
	}
	if (r->ncommon)
		row(fp, "common_points", in->opts->points ? "sobol" : "current",
		    (double)r->ncommon, NULL);
	if (r->chosen >= 0)
		row(fp, "chosen", in->past[r->chosen]->name, r->ncorr[r->chosen],
		    NULL);
}

/* The tests and the variogram of paggr auto. */
static void
auto_rows(FILE *fp, const sr_paggr *a, const sr_space *s)
{
	char name[300], detail[128];
	const sr_split_test *t;
	size_t j;

	snprintf(detail, sizeof detail, "statistic=%.6g alpha=%g",
	    a->jb.statistic, SR_PAGGR_NORMAL_ALPHA);
	row(fp, "test", "jarque_bera", a->jb.p, detail);
	for (j = 0; j < a->dim; j++) {
		t = &a->split[j];
		snprintf(detail, sizeof detail, "median=%.6g low=%zu high=%zu "
		    "t=%.6g alpha=%g", t->median, t->nlow, t->nhigh, t->t,
		    SR_PAGGR_STATIONARY_ALPHA);
		snprintf(name, sizeof name, "welch:%s", s->p[j].name);
		row(fp, "test", name, t->t_p, t->split ? detail : "not split: "
		    "fewer than 2 jobs on a side");
		snprintf(detail, sizeof detail, "F=%.6g alpha=%g", t->f,
		    SR_PAGGR_STATIONARY_ALPHA);
		snprintf(name, sizeof name, "f:%s", s->p[j].name);
		row(fp, "test", name, t->f_p, t->split ? detail : "not split: "
		    "fewer than 2 jobs on a side");
	}
	if (!a->have_variogram)
		return;
	for (j = 0; j < a->vg.lags; j++) {
		snprintf(name, sizeof name, "%zu", j + 1);
		snprintf(detail, sizeof detail, "distance=%.6g pairs=%zu",
		    a->vg.dist[j], a->vg.pairs[j]);
		row(fp, "lag", name, a->vg.gamma[j], detail);
	}
	snprintf(detail, sizeof detail, "intercept=%.6g jobs=%zu",
	    a->vg.intercept, a->vg.used);
	row(fp, "variogram", "nugget", a->vg.nugget, detail);
	row(fp, "variogram", "sill", a->vg.sill, "the variance of the values");
}

/* The values removed (and those removed by the rule but kept) of one
 * parameter. */
static void
value_rows(FILE *fp, const sr_param *p, const sr_param_cut *pc)
{
	char val[2 * SR_NUMLEN + 3], detail[160];
	size_t i;

	for (i = 0; i < pc->nvalues; i++) {
		if (!pc->removed[i] && !(pc->lost_all && pc->kept[i]))
			continue;
		sr_cut_value_text(p, pc, i, val, sizeof val);
		snprintf(detail, sizeof detail, "best=%.6g%s", pc->best[i],
		    !pc->kept[i] ? "" : pc->lost_all ? ": every value is below "
		    "the cut, the best kept" : (long)i == pc->current_slot ?
		    ": the current experiment's best set has it, kept" :
		    pc->binned ? ": inside the range's hull, kept" :
		    ": the enum's default, kept");
		fprintf(fp, "%s\t%s\t%s\t%s\n", pc->kept[i] ? "kept" : "removed",
		    p->name, val, detail);
	}
}

/* paggr, the cut, the values and the parameters. */
static void
cut_rows(FILE *fp, const sr_prune_result *r, const sr_prune_inputs *in)
{
	const sr_space *s = in->space, *ns = r->space;
	char detail[SR_ERRLEN + 160];
	size_t j;

	if (r->paggr.method == SR_PAGGR_FALLBACK)
		snprintf(detail, sizeof detail, "%s", r->paggr.why);
	else if (r->paggr.method == SR_PAGGR_TOP)
		snprintf(detail, sizeof detail, "%.200s; its best %g %% of jobs "
		    "score %.6g or more, within --paggr-min and --paggr-max",
		    r->paggr.why,
		    100 * in->opts->auto_opts.top, r->paggr.top_score);
	else
		snprintf(detail, sizeof detail, "%s", r->paggr.method ==
		    SR_PAGGR_FIXED ? "--paggr" : "1 - nugget/sill, at most "
		    "--paggr-max");
	row(fp, "paggr", method_name(r->paggr.method), r->paggr.paggr, detail);
	snprintf(detail, sizeof detail, "max=%.6g paggr=%.6g", r->cut.max,
	    r->cut.paggr);
	row(fp, "cut", in->past[r->chosen]->name, r->cut.threshold, detail);
	for (j = 0; ns && j < s->n; j++)
		value_rows(fp, &s->p[j], &r->cut.param[j]);
	for (j = 0; ns && j < s->n; j++) {
		snprintf(detail, sizeof detail, "%.100s -> %.100s",
		    s->p[j].values_text, ns->p[j].values_text);
		row(fp, "parameter", s->p[j].name, r->cut.param[j].kept_fraction,
		    detail);
	}
}

void
sr_prune_report_write(FILE *fp, const sr_prune_result *r,
    const sr_prune_inputs *in)
{
	const sr_prune_opts *o = in->opts;

	sr_out_provenance(fp, in->argc, in->argv);
	fprintf(fp, "#metric=%s k=%zu points=", in->metric, o->k);
	if (o->points)
		fprintf(fp, "%zu", o->points);
	else
		fputs("current", fp);
	fprintf(fp, " seed=%lu min_ncorr=%g bins=%zu ", o->seed, o->min_ncorr,
	    o->bins);
	if (o->paggr_auto && isnan(o->auto_opts.fallback))
		fprintf(fp, "paggr=auto lags=%zu paggr_max=%g paggr_top=%g "
		    "paggr_min=%g\n", o->auto_opts.lags, o->auto_opts.max,
		    o->auto_opts.top, o->auto_opts.min);
	else if (o->paggr_auto)
		fprintf(fp, "paggr=auto lags=%zu paggr_max=%g paggr_fallback=%g\n",
		    o->auto_opts.lags, o->auto_opts.max, o->auto_opts.fallback);
	else
		fprintf(fp, "paggr=%g\n", o->paggr);
	fprintf(fp, "%s\t%s\t%s\t%s\n", SR_PRUNE_REPORT_ITEM,
	    SR_PRUNE_REPORT_NAME, SR_PRUNE_REPORT_VALUE, SR_PRUNE_REPORT_DETAIL);
	experiments(fp, r, in);
	if (r->have_paggr && r->paggr.method != SR_PAGGR_FIXED)
		auto_rows(fp, &r->paggr, in->space);
	if (r->have_cut)
		cut_rows(fp, r, in);
	if (r->pruned) {
		row(fp, "removed_fraction", "space", r->cut.removed_fraction, NULL);
		row(fp, "outcome", "pruned", r->cut.removed_fraction, NULL);
	} else
		row(fp, "outcome", "unchanged", 0, r->why);
}

void
sr_prune_space_write(FILE *fp, const sr_prune_result *r,
    const sr_prune_inputs *in)
{
	char a[SR_NUMLEN], b[SR_NUMLEN], c[SR_NUMLEN];

	sr_out_provenance(fp, in->argc, in->argv);
	if (r->pruned)
		fprintf(fp, "#pruned chosen=%s ncorr=%s paggr=%s (%s) "
		    "removed_fraction=%s\n", in->past[r->chosen]->name,
		    sr_fmt_double(a, r->ncorr[r->chosen]),
		    sr_fmt_double(b, r->paggr.paggr), method_name(r->paggr.method),
		    sr_fmt_double(c, r->cut.removed_fraction));
	else
		fprintf(fp, "#unchanged: %s\n", r->why);
	sr_space_write(fp, r->pruned ? r->space : in->space);
}
