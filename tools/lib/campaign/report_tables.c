/* report_tables.c - the result tables of sa-report's page: the indices
 * of a sensitivity campaign (indices.tsv, indices-s2.tsv, any method)
 * and the best sets of a tune campaign (trials.tsv, best.tsv). */
#include "campaign/report_html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/html.h"
#include "core/err.h"
#include "core/tsv.h"
#include "plan/trials.h"
#include "sa/corr.h"
#include "sa/indices_tsv.h"
#include "sa/method.h"
#include "sa/space.h"

#define S2_SHOWN 15	/* the largest second-order indices shown */

/* The name the page gives column name: the measures' symbols and names. */
static const char *
pretty(const char *name)
{
	static const char *const map[][2] = {
		{ SR_INDICES_PARAM, "parameter" },
		{ SR_INDICES_PARAM_I, "parameter i" },
		{ SR_INDICES_PARAM_J, "parameter j" },
		{ SR_INDICES_MU_STAR, "μ*" }, { SR_INDICES_MU, "μ" },
		{ SR_INDICES_SIGMA, "σ" }, { SR_INDICES_DELTA, "δ" },
		{ SR_INDICES_PAWN, "PAWN" },
	};
	static const char *const corr[SR_NCORR] = { "Pearson", "Spearman",
	    "PCC", "PRCC", "SRC", "SRRC" };
	size_t i;

	for (i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcmp(map[i][0], name) == 0)
			return map[i][1];
	for (i = 0; i < SR_NCORR; i++)
		if (strcmp(sr_corr_names[i], name) == 0)
			return corr[i];
	return name;
}

/* A field as a number (NaN when it is not one). */
static double
field_num(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	return end != s && *end == '\0' ? v : NAN;
}

/* The rows sorted by the ranking index, largest first (NaN last, ties in
 * file order): sort_table, for qsort of row numbers. */
static const sr_indices_table *sort_table;

static int
by_rank(const void *pa, const void *pb)
{
	size_t i = *(const size_t *)pa, k = *(const size_t *)pb;
	const sr_indices_table *x = sort_table;
	double a = x->value[i * x->ncol + (size_t)x->rank],
	    b = x->value[k * x->ncol + (size_t)x->rank];

	if (isnan(a) || isnan(b))
		if (isnan(a) != isnan(b))
			return isnan(a) - isnan(b);
	if (!isnan(a) && a != b)
		return (a < b) - (a > b);
	return (i > k) - (i < k);
}

/* The columns an indices table shows, in order into col (room for
 * every column): the parameters, the ranking index, the other indices;
 * not the companions. Returns how many. */
static size_t
indices_columns(const sr_indices_table *x, size_t *col)
{
	size_t j, n = 0, pass;

	for (pass = 0; pass < 3; pass++)
		for (j = 0; j < x->ncol; j++) {
			if (x->kind[j] == SR_INDICES_KIND_COMPANION ||
			    (pass == 0) != (x->kind[j] == SR_INDICES_KIND_PARAM) ||
			    (pass == 1) != ((int)j == x->rank))
				continue;
			col[n++] = j;
		}
	return n;
}

/* The header of an indices table. */
static void
indices_head(FILE *fp, const sr_indices_table *x)
{
	size_t j, i, n, *col = sr_calloc(x->ncol + 1, sizeof *col);
	char buf[SR_REPORT_NUMLEN];
	double level = x->conf ? field_num(x->conf) : NAN;

	n = indices_columns(x, col);
	fputs("<thead><tr>", fp);
	for (i = 0; i < n; i++) {
		j = col[i];
		fprintf(fp, "<th%s%s title=\"", x->kind[j] != SR_INDICES_KIND_PARAM ?
		    " class=\"n\"" : "", (int)j == x->rank ? " colspan=\"2\"" : "");
		sr_html_text(fp, x->name[j]);
		fputs("\">", fp);
		sr_html_text(fp, pretty(x->name[j]));
		if (x->conf_col[j] >= 0 && isfinite(level))
			sr_html_printf(fp, " ± %s %% CI",
			    sr_report_num(buf, 100 * level, 3));
		fputs("</th>", fp);
		if (x->p_col[j] >= 0)
			fputs("<th class=\"n\">p</th>", fp);
	}
	fputs("</tr></thead>\n", fp);
	free(col);
}

/* Why row i's measures are undefined: its parameter's elementary
 * effects (moat's effects column), or the one trajectory of an older
 * file. */
static const char *
undefined_why(const sr_indices_table *x, size_t i)
{
	size_t j;

	for (j = 0; j < x->ncol; j++)
		if (strcmp(x->name[j], SR_INDICES_EFFECTS) == 0) {
			if (x->value[i * x->ncol + j] == 1)
				return "undefined (one effect)";
			if (x->value[i * x->ncol + j] == 0)
				return "undefined (no effect left)";
		}
	return x->trajectories && strcmp(x->trajectories, "1") == 0 ?
	    "undefined (one trajectory)" : "undefined";
}

/* The cell of index column j of row i: the value, ± its half-width,
 * [lo, hi]; bold when its p-value is below 0.05; a bar when it is the
 * ranking index (of the largest value top). */
static void
indices_cell(FILE *fp, const sr_indices_table *x, size_t i, size_t j,
    double top)
{
	const double *v = x->value + i * x->ncol;
	int cc = x->conf_col[j], cl = x->lo_col[j], ch = x->hi_col[j],
	    cp = x->p_col[j];
	char a[SR_REPORT_NUMLEN], b[SR_REPORT_NUMLEN];
	double p = cp >= 0 ? v[cp] : NAN;

	if ((int)j == x->rank)	/* a negative value has no bar */
		sr_report_bar(fp, v[j] / top);
	fprintf(fp, "<td class=\"n%s\">", p < 0.05 ? " sig" : "");
	if (isnan(v[j]))
		sr_html_text(fp, undefined_why(x, i));
	else
		sr_html_text(fp, sr_report_num(a, v[j], 4));
	if (cc >= 0 && !isnan(v[cc]))	/* no interval: nothing to show */
		sr_html_printf(fp, " ± %s", sr_report_num(a, v[cc], 2));
	if (cl >= 0 && ch >= 0)
		sr_html_printf(fp, " [%s, %s]", sr_report_num(a, v[cl], 4),
		    sr_report_num(b, v[ch], 4));
	fputs("</td>", fp);
	if (cp >= 0)
		sr_report_cell(fp, "td", p < 0.05 ? "n sig" : "n",
		    sr_report_num(a, p, 2));
}

/* The rows [0, n) of an indices table, sorted by the ranking index
 * (when there is one) first. */
static void
indices_rows(FILE *fp, const sr_indices_table *x, size_t n)
{
	size_t i, j, k, ncol, *col = sr_calloc(x->ncol + 1, sizeof *col);
	size_t *order = sr_calloc(x->nrow + 1, sizeof *order);
	double top = 0;

	for (i = 0; i < x->nrow; i++)
		order[i] = i;
	if (x->rank >= 0) {
		sort_table = x;
		if (x->nrow > 1)
			qsort(order, x->nrow, sizeof *order, by_rank);
		for (i = 0; i < x->nrow; i++)
			if (x->value[i * x->ncol + (size_t)x->rank] > top)
				top = x->value[i * x->ncol + (size_t)x->rank];
	}
	ncol = indices_columns(x, col);
	fputs("<tbody>\n", fp);
	for (i = 0; i < n && i < x->nrow; i++) {
		fputs("<tr>", fp);
		for (k = 0; k < ncol; k++) {
			j = col[k];
			if (x->kind[j] == SR_INDICES_KIND_PARAM)
				sr_report_cell(fp, "td", NULL, x->field[order[i]][j]);
			else
				indices_cell(fp, x, order[i], j, top > 0 ? top : 1);
		}
		fputs("</tr>\n", fp);
	}
	fputs("</tbody>\n", fp);
	free(order);
	free(col);
}

/* The caption of an indices table from its metadata: method, metric,
 * aggregation, resamples, and how it is sorted. */
static void
indices_caption(FILE *fp, const sr_indices_table *x, const char *what)
{
	fputs("<p class=\"note\">", fp);
	sr_html_printf(fp, "%s of %s (%s over the tiles), method %s",
	    what, x->metric ? x->metric : "?", x->aggregate ? x->aggregate : "?",
	    x->method ? x->method : "?");
	if (x->method && strcmp(x->method, sr_method_name(SR_METHOD_CORR)) != 0 &&
	    x->resamples)
		sr_html_printf(fp, "; intervals from %s bootstrap resamples",
		    x->resamples);
	if (x->rank >= 0)
		sr_html_printf(fp, "; sorted by %s, the largest first",
		    pretty(x->name[x->rank]));
	else
		sr_html_printf(fp, "; in bold, the measures whose p-value is "
		    "below 0.05");
	if (x->r2)
		sr_html_printf(fp, "; R² of the linear regression %s, of the "
		    "ranks' %s", x->r2, x->r2_rank ? x->r2_rank : "?");
	fputs(".</p>\n", fp);
}

/* The warnings of x (its #warning lines), in a box: where the indices
 * are not to be trusted, and the base samples that would do. */
static void
indices_warnings(FILE *fp, const sr_indices_table *x)
{
	size_t i;

	if (x->nwarning == 0)
		return;
	fputs("<div class=\"warn\"><p><strong>Not to be trusted as they "
	    "are:</strong> ", fp);
	sr_html_printf(fp, "sa-indices warned of %zu %s (sa-indices(1), "
	    "Warnings).", x->nwarning, x->nwarning == 1 ? "problem" :
	    "problems");
	fputs("</p>\n<ul>\n", fp);
	for (i = 0; i < x->nwarning; i++) {
		fputs("<li>", fp);
		sr_html_text(fp, x->warning[i]);
		fputs("</li>\n", fp);
	}
	fputs("</ul></div>\n", fp);
}

/* One indices table: path (indices(5)), its rows sorted by its ranking
 * index, at most n of them; its warnings first when warn. */
static void
indices_table(FILE *fp, const char *path, const char *what, size_t n,
    int warn)
{
	sr_indices_table *x = sr_indices_table_read(path);

	if (warn)
		indices_warnings(fp, x);
	indices_caption(fp, x, what);
	fputs("<div class=\"wide\"><table class=\"data\">\n", fp);
	indices_head(fp, x);
	indices_rows(fp, x, n);
	fputs("</table></div>\n", fp);
	if (x->nrow > n) {
		fputs("<p class=\"note\">", fp);
		sr_html_printf(fp, "The %zu largest of %zu; every one is in "
		    "%s.", n, x->nrow, strrchr(path, '/') + 1);
		fputs("</p>\n", fp);
	}
	sr_indices_table_free(x);
}

#define MISSING_SHOWN 100	/* the missing runs listed by number */

/* The runs without a result (trials.tsv's failed sets: a tile failed or
 * has no value): how many, and which, below the indices they are
 * missing from. */
static void
missing_runs(FILE *fp, const char *outdir)
{
	char *path = sr_report_path(outdir, "trials.tsv");
	sr_trials_table *tt;
	size_t i, j, n = 0, *run;
	unsigned char *failed;
	int col = -1;

	if (!sr_report_has(outdir, "trials.tsv")) {
		free(path);
		return;
	}
	tt = sr_trials_table_read(path);
	for (j = 0; j < tt->nhead; j++)
		if (strcmp(tt->head[j], SR_TRIALS_STATUS) == 0)
			col = (int)j;
	failed = sr_calloc(tt->n + 1, 1);	/* by set, in run order */
	for (i = 0; col >= 0 && i < tt->n; i++)
		failed[tt->row_set[i]] = strcmp(tt->field[i][col],
		    sr_trial_status_name[SR_TRIAL_FAILED]) == 0;
	run = sr_calloc(tt->n + 1, sizeof *run);
	for (i = 0; i < tt->n; i++)
		if (failed[i])
			run[n++] = tt->run[i];
	if (n) {
		fputs("<p class=\"note\" id=\"missing\">", fp);
		sr_html_printf(fp, "Missing runs: %zu of %zu sets have no result "
		    "(a tile failed or has no value), and the indices are without "
		    "what they touch (how much went is in the metadata of "
		    "indices.tsv, and the runs' rows in results.tsv): ", n, tt->n);
		for (i = 0; i < n && i < MISSING_SHOWN; i++)
			sr_html_printf(fp, "%s%zu", i ? ", " : "", run[i]);
		if (n > MISSING_SHOWN)
			sr_html_printf(fp, " and %zu more", n - MISSING_SHOWN);
		fputs(".</p>\n", fp);
	}
	free(run);
	free(failed);
	sr_trials_table_free(tt);
	free(path);
}

void
sr_report_indices(FILE *fp, const char *outdir)
{
	char *path = sr_report_path(outdir, "indices.tsv");

	indices_table(fp, path, "The indices", (size_t)-1, 1);
	free(path);
	missing_runs(fp, outdir);
	if (!sr_report_has(outdir, "indices-s2.tsv"))
		return;
	fputs("<h3>Second-order indices</h3>\n", fp);
	path = sr_report_path(outdir, "indices-s2.tsv");
	/* its warnings are among indices.tsv's, shown above */
	indices_table(fp, path, "The second-order indices S2", S2_SHOWN, 0);
	free(path);
}

/* ---- tune campaigns ---------------------------------------------------- */

/* Whether name is one of the comma list params. */
static int
in_list(const char *params, const char *name)
{
	size_t n = strlen(name);
	const char *p = params;

	while (p && *p) {
		if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
		p = strchr(p, ',');
		p += p != NULL;
	}
	return 0;
}

/* Whether column j of trials.tsv is shown: the set's figures (the
 * cancellation's only when a shown set has one) and the varied
 * parameters. */
static int
trials_shown(const sr_trials_table *tt, size_t j, size_t n,
    const char *params)
{
	size_t i;

	if (tt->kind[j] == SR_TRIALS_KIND_FIGURE)
		return 1;
	if (tt->kind[j] == SR_TRIALS_KIND_CANCEL) {
		for (i = 0; i < n && i < tt->n; i++)
			if (tt->field[i][j][0])
				return 1;
		return 0;
	}
	return params == NULL || in_list(params, tt->head[j]);
}

/* The cell of a trials row: numbers to 4 digits, other fields as they
 * are. */
static void
trials_cell(FILE *fp, const char *name, const char *v)
{
	char buf[SR_REPORT_NUMLEN];
	double x = field_num(v);

	if (strcmp(name, SR_TRIALS_MEAN) == 0 ||
	    strcmp(name, SR_TRIALS_MEDIAN) == 0 ||
	    strcmp(name, SR_TRIALS_SD) == 0 ||
	    strcmp(name, SR_TRIALS_SECONDS) == 0)
		sr_report_cell(fp, "td", "n", isnan(x) ? v :
		    sr_report_num(buf, x, 4));
	else
		sr_report_cell(fp, "td", isnan(x) ? NULL : "n", v);
}

/* The first n sets of trials.tsv, best first, the parameters params
 * (NULL: all) shown. */
static void
trials_table(FILE *fp, const sr_trials_table *tt, size_t n,
    const char *params)
{
	size_t i, j;

	fputs("<div class=\"wide\"><table class=\"data trials\">\n<thead><tr>"
	    "<th class=\"n\">#</th>", fp);
	for (j = 0; j < tt->nhead; j++)
		if (trials_shown(tt, j, n, params))
			sr_report_cell(fp, "th", j > 1 ? "n" : NULL, tt->head[j]);
	fputs("</tr></thead>\n<tbody>\n", fp);
	for (i = 0; i < n && i < tt->n; i++) {
		fprintf(fp, "<tr%s><td class=\"n\">%zu</td>", i == 0 ?
		    " class=\"best\"" : "", i + 1);
		for (j = 0; j < tt->nhead; j++)
			if (trials_shown(tt, j, n, params))
				trials_cell(fp, tt->head[j], tt->field[i][j]);
		fputs("</tr>\n", fp);
	}
	fputs("</tbody>\n</table></div>\n", fp);
}

/* The summary of trials.tsv's metadata: sets by status. */
static void
trials_summary(FILE *fp, const sr_trials_table *tt, size_t shown)
{
	const char *const *c = (const char *const *)tt->count;

	fputs("<p class=\"note\">", fp);
	sr_html_printf(fp, "%s sets: %s complete, %s cancelled, %s failed, "
	    "on %s tiles. ", tt->sets ? tt->sets : "?",
	    c[SR_TRIAL_COMPLETE] ? c[SR_TRIAL_COMPLETE] : "?",
	    c[SR_TRIAL_CANCELLED] ? c[SR_TRIAL_CANCELLED] : "?",
	    c[SR_TRIAL_FAILED] ? c[SR_TRIAL_FAILED] : "?",
	    tt->tiles ? tt->tiles : "?");
	if (shown < tt->n)
		sr_html_printf(fp, "The %zu best of them", shown);
	else
		sr_html_printf(fp, "All of them");
	sr_html_printf(fp, " by their mean %s over the tiles, the best first "
	    "(trials.tsv), with the parameters the design varies.",
	    tt->metric ? tt->metric : "?");
	fputs("</p>\n", fp);
}

/* The #best line of best.tsv ("run=5 metric=dice mean=0.69 tiles=2")
 * as a sentence. */
static void
best_line(FILE *fp, const char *words)
{
	char *run = sr_tsv_word(words, SR_TRIALS_RUN),
	    *metric = sr_tsv_word(words, SR_TRIALS_META_METRIC),
	    *mean = sr_tsv_word(words, SR_TRIALS_MEAN),
	    *tiles = sr_tsv_word(words, SR_TRIALS_META_TILES),
	    buf[SR_REPORT_NUMLEN];

	sr_html_printf(fp, "Run %s: mean %s %s over %s tiles. ",
	    run ? run : "?", metric ? metric : "?", mean ?
	    sr_report_num(buf, field_num(mean), 4) : "?", tiles ? tiles : "?");
	free(run);
	free(metric);
	free(mean);
	free(tiles);
}

/* The best set, best.tsv: every parameter and its value; those the
 * design fixed greyed. */
static void
best_table(FILE *fp, const char *outdir, const char *params)
{
	char *path = sr_report_path(outdir, "best.tsv");
	sr_tsv *t = sr_tsv_open(path);
	int cn = sr_tsv_need(t, SR_SPACE_NAME),
	    cv = sr_tsv_need(t, SR_SPACE_VALUES),
	    cd = sr_tsv_need(t, SR_SPACE_DEFAULT);
	const char *name;
	size_t i;

	fputs("<h3>The best set</h3>\n<p class=\"note\">", fp);
	for (i = 0; i < t->ncomment; i++)
		if (strncmp(t->comment[i], SR_TRIALS_META_BEST " ",
		    strlen(SR_TRIALS_META_BEST " ")) == 0)
			best_line(fp, t->comment[i] +
			    strlen(SR_TRIALS_META_BEST " "));
	fputs("best.tsv is the set as a space whose defaults are its values: "
	    "the space of a next campaign, or <code>sa-sample --reference "
	    "best.tsv</code> for the set alone. Greyed: parameters the design "
	    "fixed.</p>\n<table class=\"data\">\n<thead><tr><th>parameter"
	    "</th><th class=\"n\">value</th><th>values searched</th></tr>"
	    "</thead>\n<tbody>\n", fp);
	while (sr_tsv_next(t)) {
		name = sr_tsv_str(t, cn);
		fprintf(fp, "<tr%s>", params && !in_list(params, name) ?
		    " class=\"fixed\"" : "");
		sr_report_cell(fp, "td", NULL, name);
		sr_report_cell(fp, "td", isnan(field_num(sr_tsv_str(t, cd))) ?
		    NULL : "n", sr_tsv_str(t, cd));	/* a word: as text */
		sr_report_cell(fp, "td", NULL, sr_tsv_str(t, cv));
		fputs("</tr>\n", fp);
	}
	fputs("</tbody>\n</table>\n", fp);
	sr_tsv_close(t);
	free(path);
}

void
sr_report_trials(FILE *fp, const char *outdir, size_t top)
{
	char *path = sr_report_path(outdir, "trials.tsv"), *params;
	char *dpath = sr_report_path(outdir, "design.tsv");
	sr_tsv *d = sr_tsv_open(dpath);
	sr_trials_table *tt;

	params = sr_tsv_meta(d, "params");
	sr_tsv_close(d);
	tt = sr_trials_table_read(path);
	trials_summary(fp, tt, top < tt->n ? top : tt->n);
	trials_table(fp, tt, top, params);
	sr_report_better(fp, outdir, tt);
	sr_trials_table_free(tt);
	if (sr_report_has(outdir, "best.tsv"))
		best_table(fp, outdir, params);
	free(params);
	free(dpath);
	free(path);
}
