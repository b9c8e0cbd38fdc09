/* report_better.c - a tune report's answer to "better than what?": the
 * defaults' score on the training tiles (the reference step's results)
 * beside the best sets', and, with validate, every set's scores on the
 * held-out tiles (validate/evaluation.tsv, read by campaign/evaluate.h)
 * with the gain over the defaults and its paired Wilcoxon p-value. */
#include "campaign/report_html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/evaluate.h"
#include "campaign/html.h"
#include "plan/trials.h"
#include "sa/metrics.h"

/* outdir's validation (validate/evaluation.tsv, the runs from the sets'
 * design): 0, or -1 when there is none. */
static int
validation_read(const char *outdir, sr_evaluation *v)
{
	char *ev, *design;

	if (!sr_report_has(outdir, "validation.tsv") ||
	    !sr_report_has(outdir, "validate/evaluation.tsv"))
		return -1;
	ev = sr_report_path(outdir, "validate/evaluation.tsv");
	design = sr_report_path(outdir, "validate/design.tsv");
	sr_eval_read(ev, design, v);
	free(ev);
	free(design);
	return 0;
}

/* The defaults' mean metric on the training tiles: the reference step's
 * results; NaN without them or the metric; *ntiles the tiles. */
static double
defaults_training(const char *outdir, const char *metric, size_t *ntiles)
{
	char *path = sr_report_path(outdir, "ref/results.tsv");
	sr_metrics_rows *r;
	double sum = 0, x;
	int col;

	*ntiles = 0;
	if (!sr_report_has(outdir, "ref/results.tsv")) {
		free(path);
		return NAN;
	}
	r = sr_metrics_rows_open(path);
	col = sr_metrics_rows_metric(r, metric);
	while (col >= 0 && sr_metrics_rows_next(r))
		if (!isnan(x = sr_metrics_rows_value(r, col))) {
			sum += x;
			++*ntiles;
		}
	sr_metrics_rows_close(r);
	free(path);
	return *ntiles ? sum / (double)*ntiles : NAN;
}

/* The training mean of run text (trials.tsv), or NaN. */
static double
training_mean(const sr_trials_table *tt, const char *run)
{
	char *end;
	unsigned long r = strtoul(run, &end, 10);

	if (*end || end == run)
		return NAN;
	for (size_t i = 0; i < tt->n; i++)
		if (tt->run[i] == r)
			return tt->mean[i];
	return NAN;
}

static void
num_cell(FILE *fp, double v, int sig, int sign)
{
	char buf[SR_REPORT_NUMLEN + 1];

	if (isnan(v)) {
		sr_report_cell(fp, "td", "n", "—");
		return;
	}
	sr_report_num(buf + 1, v, sig);
	buf[0] = '+';
	sr_report_cell(fp, "td", "n", sign && v >= 0 ? buf : buf + 1);
}

/* A row: name, run, training mean and gain, validation mean, gain, p. */
static void
set_row(FILE *fp, const char *name, const char *run, double train,
    double dtrain, const sr_evaluation *v, size_t m, size_t i)
{
	fputs("<tr>", fp);
	sr_report_cell(fp, "td", NULL, name);
	sr_report_cell(fp, "td", "n", run);
	num_cell(fp, train, 4, 0);
	num_cell(fp, train - dtrain, 4, 1);
	if (v) {
		num_cell(fp, v->mean[m * v->nset + i], 4, 0);
		num_cell(fp, v->diff[m * v->nset + i], 4, 1);
		num_cell(fp, v->p[m * v->nset + i], 3, 0);
	}
	fputs("</tr>\n", fp);
}

/* Every metric on the validation tiles: each set's mean, gain and p. */
static void
validation_metrics(FILE *fp, const sr_evaluation *v)
{
	fputs("<table class=\"data\">\n<thead><tr><th>metric</th>", fp);
	for (size_t i = 0; i < v->nset; i++)
		sr_report_cell(fp, "th", "n", v->set[i]);
	for (size_t i = 1; i < v->nset; i++) {
		fputs("<th class=\"n\">", fp);
		sr_html_printf(fp, "%s − %s", v->set[i], v->set[0]);
		fputs("</th><th class=\"n\">p</th>", fp);
	}
	fputs("</tr></thead>\n<tbody>\n", fp);
	for (size_t m = 0; m < v->nmet; m++) {
		fputs("<tr>", fp);
		sr_report_cell(fp, "td", NULL, v->met[m]);
		for (size_t i = 0; i < v->nset; i++)
			num_cell(fp, v->mean[m * v->nset + i], 4, 0);
		for (size_t i = 1; i < v->nset; i++) {
			num_cell(fp, v->diff[m * v->nset + i], 4, 1);
			num_cell(fp, v->p[m * v->nset + i], 3, 0);
		}
		fputs("</tr>\n", fp);
	}
	fputs("</tbody>\n</table>\n", fp);
}

void
sr_report_better(FILE *fp, const char *outdir, const sr_trials_table *tt)
{
	const char *metric = tt->metric ? tt->metric : SR_METRICS_DEFAULT;
	sr_evaluation v;
	int val = validation_read(outdir, &v) == 0;
	size_t ntrain, m = val ? sr_eval_metric(&v, metric) : 0, i;
	double def = defaults_training(outdir, metric, &ntrain);

	if (val && m == v.nmet) {
		sr_eval_free(&v);
		val = 0;
	}
	fputs("<h3>Better than the defaults?</h3>\n<p class=\"note\">", fp);
	sr_html_printf(fp, "The defaults are the space's default values, run "
	    "by the reference step on the %zu training tiles. ", ntrain);
	if (val)
		sr_html_printf(fp, "Validation on %zu held-out tiles "
		    "(validate), never used by the search: the defaults and the "
		    "best sets, gains over the defaults with the two-sided "
		    "paired Wilcoxon signed-rank p-value across the tiles "
		    "(validation.tsv).", v.ntiles);
	else
		fputs("Add <code>validate = LIST</code> to the campaign to "
		    "score them on tiles the search never saw.", fp);
	if (val && v.nset > 1 && sr_eval_min_p(v.paired) >= 0.05)
		sr_html_printf(fp, " With %zu tiles p cannot go below %g: "
		    "6 tiles at least can show p < 0.05.", v.paired,
		    sr_eval_min_p(v.paired));
	fputs("</p>\n<table class=\"data\">\n<thead><tr><th>set</th><th "
	    "class=\"n\">run</th>", fp);
	fputs("<th class=\"n\">training ", fp);
	sr_html_printf(fp, "%s", metric);
	fputs("</th><th class=\"n\">gain</th>", fp);
	if (val) {
		fputs("<th class=\"n\">validation ", fp);
		sr_html_printf(fp, "%s", metric);
		fputs("</th><th class=\"n\">gain</th><th class=\"n\">p</th>",
		    fp);
	}
	fputs("</tr></thead>\n<tbody>\n", fp);
	if (val) {
		for (i = 0; i < v.nset; i++)
			set_row(fp, v.set[i], v.run[i], i ? training_mean(tt,
			    v.run[i]) : def, i ? def : NAN, &v, m, i);
	} else {
		char run[32];
		set_row(fp, "defaults", "-", def, NAN, NULL, 0, 0);
		if (tt->n && !isnan(tt->mean[tt->row_set[0]])) {
			snprintf(run, sizeof run, "%zu", tt->run[tt->row_set[0]]);
			set_row(fp, "best", run, tt->mean[tt->row_set[0]], def,
			    NULL, 0, 0);
		}
	}
	fputs("</tbody>\n</table>\n", fp);
	if (val) {
		fputs("<p class=\"note\">", fp);
		sr_html_printf(fp, "Every metric on the %zu validation tiles:",
		    v.ntiles);
		fputs("</p>\n", fp);
		validation_metrics(fp, &v);
		sr_eval_free(&v);
	}
}
