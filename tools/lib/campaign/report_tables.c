/* report_tables.c - the result tables of sa-report's page: the indices
 * of a sensitivity campaign (indices.tsv, indices-s2.tsv, any method)
 * and the best sets of a tune campaign (trials.tsv, best.tsv). */
#include "campaign/report_html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/html.h"
#include "core/tsv.h"
#include "plan/trials.h"
#include "sa/space.h"

#define S2_SHOWN 15	/* the largest second-order indices shown */

/* A TSV file read whole: its header, its rows, its metadata. */
typedef struct {
	sr_tsv *t;		/* open: its comments and metadata */
	char ***row;		/* row[i][j]: the field of column j */
	size_t nrow;
} table;

static void
table_read(table *tb, const char *path)
{
	size_t j;

	tb->t = sr_tsv_open(path);
	tb->row = NULL;
	tb->nrow = 0;
	while (sr_tsv_next(tb->t)) {
		tb->row = sr_reallocarray(tb->row, tb->nrow + 1, sizeof *tb->row);
		tb->row[tb->nrow] = sr_calloc(tb->t->ncol, sizeof **tb->row);
		for (j = 0; j < tb->t->ncol; j++)
			tb->row[tb->nrow][j] = sr_strdup(tb->t->field[j]);
		tb->nrow++;
	}
}

static void
table_free(table *tb)
{
	size_t i, j;

	for (i = 0; i < tb->nrow; i++) {
		for (j = 0; j < tb->t->ncol; j++)
			free(tb->row[i][j]);
		free(tb->row[i]);
	}
	free(tb->row);
	sr_tsv_close(tb->t);
}

/* The column called base + suffix, or -1. */
static int
col_named(const table *tb, const char *base, const char *suffix)
{
	char name[256];

	snprintf(name, sizeof name, "%s%s", base, suffix);
	return sr_tsv_col(tb->t, name);
}

/* Whether column name is a companion of another column (an interval or
 * a p-value of it): NAME_conf, NAME_lo, NAME_hi, NAME_p. */
static int
is_companion(const table *tb, const char *name)
{
	static const char *const suffix[] = { "_conf", "_lo", "_hi", "_p" };
	size_t i, n = strlen(name), s;
	char base[256];

	for (i = 0; i < 4; i++) {
		s = strlen(suffix[i]);
		if (n > s && n - s < sizeof base &&
		    strcmp(name + n - s, suffix[i]) == 0) {
			memcpy(base, name, n - s);
			base[n - s] = '\0';
			if (sr_tsv_col(tb->t, base) >= 0)
				return 1;
		}
	}
	return 0;
}

/* The name the page gives column name. */
static const char *
pretty(const char *name)
{
	static const char *const map[][2] = {
		{ "param", "parameter" }, { "param_i", "parameter i" },
		{ "param_j", "parameter j" }, { "mu_star", "μ*" },
		{ "mu", "μ" }, { "sigma", "σ" }, { "pearson", "Pearson" },
		{ "spearman", "Spearman" }, { "pcc", "PCC" }, { "prcc", "PRCC" },
		{ "src", "SRC" }, { "srrc", "SRRC" },
	};
	size_t i;

	for (i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcmp(map[i][0], name) == 0)
			return map[i][1];
	return name;
}

/* A field as a number (NaN when it is not one: "NaN" is written for an
 * undefined index, indices(5)). */
static double
field_num(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	return end != s && *end == '\0' ? v : NAN;
}

/* The column rows are sorted by, largest first: sortcol, for qsort. */
static int sortcol;

static int
cmp_desc(const void *pa, const void *pb)
{
	double a = field_num((*(char **const *)pa)[sortcol]),
	    b = field_num((*(char **const *)pb)[sortcol]);

	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);	/* NaN last */
	return (a < b) - (a > b);
}

/* The columns an indices table shows, in order into col (room for
 * every column): the parameters, the sorted column, the other values;
 * not the companions. Returns how many. */
static size_t
indices_columns(const table *tb, size_t *col)
{
	size_t j, n = 0, pass;
	const char *name;

	for (pass = 0; pass < 3; pass++)
		for (j = 0; j < tb->t->ncol; j++) {
			name = tb->t->header[j];
			if (is_companion(tb, name) ||
			    (pass == 0) != (strncmp(name, "param", 5) == 0) ||
			    (pass == 1) != ((int)j == sortcol))
				continue;
			col[n++] = j;
		}
	return n;
}

/* The header of an indices table; conf the interval's level. */
static void
indices_head(FILE *fp, const table *tb, const char *conf)
{
	size_t j, i, n, *col = sr_calloc(tb->t->ncol, sizeof *col);
	const char *name;
	char buf[SR_REPORT_NUMLEN];
	double level = conf ? field_num(conf) : NAN;

	n = indices_columns(tb, col);
	fputs("<thead><tr>", fp);
	for (i = 0; i < n; i++) {
		j = col[i];
		name = tb->t->header[j];
		fprintf(fp, "<th%s%s title=\"", strncmp(name, "param", 5) ?
		    " class=\"n\"" : "", (int)j == sortcol ? " colspan=\"2\"" :
		    "");
		sr_html_text(fp, name);
		fputs("\">", fp);
		sr_html_text(fp, pretty(name));
		if (col_named(tb, name, "_conf") >= 0 && isfinite(level))
			sr_html_printf(fp, " ± %s %% CI",
			    sr_report_num(buf, 100 * level, 3));
		fputs("</th>", fp);
		if (col_named(tb, name, "_p") >= 0)
			fputs("<th class=\"n\">p</th>", fp);
	}
	fputs("</tr></thead>\n", fp);
	free(col);
}

/* The cell of value column j of row r: the value, ± its half-width,
 * [lo, hi]; bold when its p-value is below 0.05; a bar when it is the
 * sorted column (of the largest value top). */
static void
indices_cell(FILE *fp, const table *tb, char **r, size_t j, double top)
{
	const char *name = tb->t->header[j];
	int cc = col_named(tb, name, "_conf"), cl = col_named(tb, name, "_lo"),
	    ch = col_named(tb, name, "_hi"), cp = col_named(tb, name, "_p");
	char a[SR_REPORT_NUMLEN], b[SR_REPORT_NUMLEN];
	double p = cp >= 0 ? field_num(r[cp]) : NAN;

	if ((int)j == sortcol)	/* a negative value has no bar */
		sr_report_bar(fp, field_num(r[j]) / top);
	fprintf(fp, "<td class=\"n%s\">", p < 0.05 ? " sig" : "");
	sr_html_text(fp, sr_report_num(a, field_num(r[j]), 4));
	if (cc >= 0)
		sr_html_printf(fp, " ± %s", sr_report_num(a, field_num(r[cc]), 2));
	if (cl >= 0 && ch >= 0)
		sr_html_printf(fp, " [%s, %s]", sr_report_num(a,
		    field_num(r[cl]), 4), sr_report_num(b, field_num(r[ch]), 4));
	fputs("</td>", fp);
	if (cp >= 0)
		sr_report_cell(fp, "td", p < 0.05 ? "n sig" : "n",
		    sr_report_num(a, p, 2));
}

/* The rows [0, n) of an indices table, sorted by column sortcol (when
 * there is one) first. */
static void
indices_rows(FILE *fp, table *tb, size_t n)
{
	size_t i, j, k, ncol, *col = sr_calloc(tb->t->ncol, sizeof *col);
	double top = 0;

	if (sortcol >= 0) {
		qsort(tb->row, tb->nrow, sizeof *tb->row, cmp_desc);
		for (i = 0; i < tb->nrow; i++)
			if (field_num(tb->row[i][sortcol]) > top)
				top = field_num(tb->row[i][sortcol]);
	}
	ncol = indices_columns(tb, col);
	fputs("<tbody>\n", fp);
	for (i = 0; i < n && i < tb->nrow; i++) {
		fputs("<tr>", fp);
		for (k = 0; k < ncol; k++) {
			j = col[k];
			if (strncmp(tb->t->header[j], "param", 5) == 0)
				sr_report_cell(fp, "td", NULL, tb->row[i][j]);
			else
				indices_cell(fp, tb, tb->row[i], j,
				    top > 0 ? top : 1);
		}
		fputs("</tr>\n", fp);
	}
	fputs("</tbody>\n", fp);
	free(col);
}

/* The caption of an indices table from its metadata: method, metric,
 * aggregation, resamples, and how it is sorted. */
static void
indices_caption(FILE *fp, const table *tb, const char *what)
{
	char *method = sr_tsv_meta(tb->t, "method"),
	    *metric = sr_tsv_meta(tb->t, "metric"),
	    *agg = sr_tsv_meta(tb->t, "aggregate"),
	    *res = sr_tsv_meta(tb->t, "resamples"),
	    *r2 = sr_tsv_meta(tb->t, "r2"), *r2r = sr_tsv_meta(tb->t, "r2_rank");

	fputs("<p class=\"note\">", fp);
	sr_html_printf(fp, "%s of %s (%s over the tiles), method %s",
	    what, metric ? metric : "?", agg ? agg : "?",
	    method ? method : "?");
	if (method && strcmp(method, "corr") != 0 && res)
		sr_html_printf(fp, "; intervals from %s bootstrap resamples",
		    res);
	if (sortcol >= 0)
		sr_html_printf(fp, "; sorted by %s, the largest first",
		    pretty(tb->t->header[sortcol]));
	else
		sr_html_printf(fp, "; in bold, the measures whose p-value is "
		    "below 0.05");
	if (r2)
		sr_html_printf(fp, "; R² of the linear regression %s, of the "
		    "ranks' %s", r2, r2r ? r2r : "?");
	fputs(".</p>\n", fp);
	free(r2);
	free(r2r);
	free(method);
	free(metric);
	free(agg);
	free(res);
}

/* One indices table: path, its rows sorted by the column sorted_by
 * (NULL: as in the file), at most n of them. */
static void
indices_table(FILE *fp, const char *path, const char *what,
    const char *sorted_by, size_t n)
{
	table tb;
	char *conf;

	table_read(&tb, path);
	sortcol = sorted_by ? sr_tsv_col(tb.t, sorted_by) : -1;
	conf = sr_tsv_meta(tb.t, "conf");
	indices_caption(fp, &tb, what);
	fputs("<div class=\"wide\"><table class=\"data\">\n", fp);
	indices_head(fp, &tb, conf);
	indices_rows(fp, &tb, n);
	fputs("</table></div>\n", fp);
	if (tb.nrow > n) {
		fputs("<p class=\"note\">", fp);
		sr_html_printf(fp, "The %zu largest of %zu; every one is in "
		    "%s.", n, tb.nrow, strrchr(path, '/') + 1);
		fputs("</p>\n", fp);
	}
	free(conf);
	table_free(&tb);
}

void
sr_report_indices(FILE *fp, const char *outdir)
{
	char *path = sr_report_path(outdir, "indices.tsv"), *method;
	sr_tsv *t = sr_tsv_open(path);

	method = sr_tsv_meta(t, "method");
	sr_tsv_close(t);
	indices_table(fp, path, "The indices", method == NULL ? NULL :
	    strcmp(method, "moat") == 0 ? "mu_star" :
	    strcmp(method, "vbd") == 0 ? "ST" : NULL, (size_t)-1);
	free(path);
	free(method);
	if (!sr_report_has(outdir, "indices-s2.tsv"))
		return;
	fputs("<h3>Second-order indices</h3>\n", fp);
	path = sr_report_path(outdir, "indices-s2.tsv");
	indices_table(fp, path, "The second-order indices S2", "S2",
	    S2_SHOWN);
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
trials_shown(const table *tb, size_t j, size_t n, const char *params)
{
	static const char *const figures[] = { SR_TRIALS_RUN, SR_TRIALS_STATUS,
	    SR_TRIALS_TILES, SR_TRIALS_MEAN, SR_TRIALS_MEDIAN, SR_TRIALS_SD,
	    SR_TRIALS_SECONDS };
	const char *name = tb->t->header[j];
	size_t i;

	for (i = 0; i < sizeof figures / sizeof figures[0]; i++)
		if (strcmp(name, figures[i]) == 0)
			return 1;
	if (strcmp(name, SR_TRIALS_CANCELLED_AT) == 0 ||
	    strcmp(name, SR_TRIALS_RULE) == 0) {
		for (i = 0; i < n && i < tb->nrow; i++)
			if (tb->row[i][j][0])
				return 1;
		return 0;
	}
	return params == NULL || in_list(params, name);
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
trials_table(FILE *fp, const table *tb, size_t n, const char *params)
{
	size_t i, j;

	fputs("<div class=\"wide\"><table class=\"data\">\n<thead><tr>"
	    "<th class=\"n\">#</th>", fp);
	for (j = 0; j < tb->t->ncol; j++)
		if (trials_shown(tb, j, n, params))
			sr_report_cell(fp, "th", j > 1 ? "n" : NULL,
			    tb->t->header[j]);
	fputs("</tr></thead>\n<tbody>\n", fp);
	for (i = 0; i < n && i < tb->nrow; i++) {
		fprintf(fp, "<tr%s><td class=\"n\">%zu</td>", i == 0 ?
		    " class=\"best\"" : "", i + 1);
		for (j = 0; j < tb->t->ncol; j++)
			if (trials_shown(tb, j, n, params))
				trials_cell(fp, tb->t->header[j], tb->row[i][j]);
		fputs("</tr>\n", fp);
	}
	fputs("</tbody>\n</table></div>\n", fp);
}

/* The summary of trials.tsv's metadata: sets by status. */
static void
trials_summary(FILE *fp, const table *tb, size_t shown, size_t nrow)
{
	static const char *const key[] = { "metric", "tiles", "sets",
	    "complete", "cancelled", "failed" };
	char *v[6];
	size_t i;

	for (i = 0; i < 6; i++)
		v[i] = sr_tsv_meta(tb->t, key[i]);
	fputs("<p class=\"note\">", fp);
	sr_html_printf(fp, "%s sets: %s complete, %s cancelled, %s failed, "
	    "on %s tiles. ", v[2] ? v[2] : "?", v[3] ? v[3] : "?",
	    v[4] ? v[4] : "?", v[5] ? v[5] : "?", v[1] ? v[1] : "?");
	if (shown < nrow)
		sr_html_printf(fp, "The %zu best of them", shown);
	else
		sr_html_printf(fp, "All of them");
	sr_html_printf(fp, " by their mean %s over the tiles, the best first "
	    "(trials.tsv), with the parameters the design varies.",
	    v[0] ? v[0] : "?");
	fputs("</p>\n", fp);
	for (i = 0; i < 6; i++)
		free(v[i]);
}

/* The #best line of best.tsv ("run=5 metric=dice mean=0.69 tiles=2")
 * as a sentence. */
static void
best_line(FILE *fp, const char *words)
{
	char *run = sr_report_word(words, "run"),
	    *metric = sr_report_word(words, "metric"),
	    *mean = sr_report_word(words, "mean"),
	    *tiles = sr_report_word(words, "tiles"), buf[SR_REPORT_NUMLEN];

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
		if (strncmp(t->comment[i], "best ", 5) == 0)
			best_line(fp, t->comment[i] + 5);
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
		sr_report_cell(fp, "td", "n", sr_tsv_str(t, cd));
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
	table tb;

	params = sr_tsv_meta(d, "params");
	sr_tsv_close(d);
	table_read(&tb, path);
	trials_summary(fp, &tb, top < tb.nrow ? top : tb.nrow, tb.nrow);
	trials_table(fp, &tb, top, params);
	table_free(&tb);
	if (sr_report_has(outdir, "best.tsv"))
		best_table(fp, outdir, params);
	free(params);
	free(dpath);
	free(path);
}
