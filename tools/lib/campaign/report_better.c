/* report_better.c - a tune report's answer to "better than what?": the
 * defaults' score on the training tiles (the reference step's results)
 * beside the best sets', and, with validate, every set's scores on the
 * held-out tiles (validate/evaluation.tsv, campaign/evaluate.h) with the
 * gain over the defaults and its paired Wilcoxon p-value. */
#include "campaign/report_html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/evaluate.h"
#include "campaign/html.h"
#include "core/err.h"
#include "core/tsv.h"
#include "plan/trials.h"
#include "sa/metrics.h"

/* The validation's mean rows (evaluation.tsv): per metric, each set's
 * mean, gain and p; the sets' names and runs (validate/design.tsv). */
typedef struct {
	size_t nset, nmet, ntiles, paired;
	char **set, **run;	/* nset */
	char **met;		/* nmet */
	double *mean, *gain, *p;	/* nmet * nset; gain, p: NaN for the first */
} validation;

static void
list_split(char *v, char ***item, size_t *n)
{
	char *s, *save = NULL;

	*n = 0;
	*item = NULL;
	for (s = strtok_r(v, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		*item = sr_reallocarray(*item, *n + 1, sizeof **item);
		(*item)[(*n)++] = sr_strdup(s);
	}
}

/* Reads outdir/validate: 0, or -1 when it has no evaluation. */
static int
validation_read(const char *outdir, validation *v)
{
	char *ev = sr_report_path(outdir, "validate/evaluation.tsv");
	char *meta, *tiles, *paired;
	sr_tsv *t;
	size_t nrun, c;

	memset(v, 0, sizeof *v);
	if (!sr_report_has(outdir, "validation.tsv") ||
	    !sr_report_has(outdir, "validate/evaluation.tsv")) {
		free(ev);
		return -1;
	}
	t = sr_tsv_open(ev);
	meta = sr_tsv_meta(t, "sets");
	tiles = sr_tsv_meta(t, "tiles");
	paired = sr_tsv_meta(t, "paired");
	list_split(meta ? meta : "", &v->set, &v->nset);
	v->ntiles = tiles ? strtoul(tiles, NULL, 10) : 0;
	v->paired = paired ? strtoul(paired, NULL, 10) : 0;
	free(meta);
	free(tiles);
	free(paired);
	while (sr_tsv_next(t)) {
		size_t m = v->nmet++;
		if (strcmp(sr_tsv_str(t, 0), SR_EVAL_MEAN)) {
			v->nmet--;
			continue;
		}
		v->met = sr_reallocarray(v->met, v->nmet, sizeof *v->met);
		v->met[m] = sr_strdup(sr_tsv_str(t, 1));
		v->mean = sr_reallocarray(v->mean, v->nmet * v->nset, sizeof(double));
		v->gain = sr_reallocarray(v->gain, v->nmet * v->nset, sizeof(double));
		v->p = sr_reallocarray(v->p, v->nmet * v->nset, sizeof(double));
		for (size_t i = 0; i < v->nset; i++) {
			v->mean[m * v->nset + i] = strtod(t->field[2 + i], NULL);
			c = 2 + v->nset + 2 * (i - 1);
			v->gain[m * v->nset + i] = i ? strtod(t->field[c], NULL) : NAN;
			v->p[m * v->nset + i] = i ? strtod(t->field[c + 1], NULL) : NAN;
		}
	}
	sr_tsv_close(t);
	free(ev);
	ev = sr_report_path(outdir, "validate/design.tsv");
	t = sr_tsv_open(ev);
	meta = sr_tsv_meta(t, "runs");
	list_split(meta ? meta : "", &v->run, &nrun);
	if (nrun != v->nset)
		sr_die(SR_EXIT_DATA, "%s: runs= does not match sets=", ev);
	free(meta);
	sr_tsv_close(t);
	free(ev);
	return 0;
}

static void
validation_free(validation *v)
{
	for (size_t i = 0; i < v->nset; i++) {
		free(v->set[i]);
		free(v->run[i]);
	}
	for (size_t m = 0; m < v->nmet; m++)
		free(v->met[m]);
	free(v->set);
	free(v->run);
	free(v->met);
	free(v->mean);
	free(v->gain);
	free(v->p);
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
    double dtrain, const validation *v, size_t m, size_t i)
{
	fputs("<tr>", fp);
	sr_report_cell(fp, "td", NULL, name);
	sr_report_cell(fp, "td", "n", run);
	num_cell(fp, train, 4, 0);
	num_cell(fp, train - dtrain, 4, 1);
	if (v) {
		num_cell(fp, v->mean[m * v->nset + i], 4, 0);
		num_cell(fp, v->gain[m * v->nset + i], 4, 1);
		num_cell(fp, v->p[m * v->nset + i], 3, 0);
	}
	fputs("</tr>\n", fp);
}

/* Every metric on the validation tiles: each set's mean, gain and p. */
static void
validation_metrics(FILE *fp, const validation *v)
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
			num_cell(fp, v->gain[m * v->nset + i], 4, 1);
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
	validation v;
	int val = validation_read(outdir, &v) == 0;
	size_t ntrain, m = 0, i;
	double def = defaults_training(outdir, metric, &ntrain);

	while (val && m < v.nmet && strcmp(v.met[m], metric))
		m++;
	if (val && m == v.nmet)
		val = 0;
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
		validation_free(&v);
	}
}
