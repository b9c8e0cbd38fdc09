/* evaluate.c - parameter sets evaluated side by side (evaluate.h): the
 * sets' design, evaluation.tsv and validation.tsv. */
#include "campaign/evaluate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/num.h"
#include "core/out.h"
#include "core/text.h"
#include "core/tsv.h"
#include "plan/trials.h"
#include "sa/cancel.h"
#include "sa/design.h"
#include "sa/metrics.h"
#include "sa/rows.h"
#include "sa/space.h"

#define NAME_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" \
    "0123456789_-."

double
sr_eval_min_p(size_t n)
{
	return n <= 1 ? 1 : ldexp(1, 1 - (int)(n < 1000 ? n : 1000));
}

/* ---- the sets' design ----------------------------------------------------- */

/* The values of set "run=N": run N of the campaign's design d, by
 * parameter name, as values of the space s. */
static void
set_of_run(const sr_eval_set *e, const sr_design *d, const sr_space *s,
    double *x, long *run)
{
	long r;

	if (sr_parse_long(e->spec + 4, &r) || r < 0 || (size_t)r >= d->nrun)
		sr_die(SR_EXIT_DATA, "set %s: '%s': %s has runs 0 to %zu",
		    e->name, e->spec, d->path, d->nrun - 1);
	for (size_t j = 0; j < s->n; j++) {
		size_t c;
		double v;
		for (c = 0; c < d->ncol && strcmp(d->name[c], s->p[j].name); c++)
			;
		if (c == d->ncol)
			sr_die(SR_EXIT_DATA, "%s: no column '%s' (a parameter "
			    "of the campaign's space)", d->path, s->p[j].name);
		v = d->x[(size_t)r * d->ncol + c];
		if (d->cparam)
			v = sr_param_recode(d->cparam[c], &s->p[j], v);
		x[j] = v;
	}
	*run = r;
}

/* The values of a set given as a space file: its defaults, by name. */
static void
set_of_space(const sr_eval_set *e, const sr_space *s, double *x)
{
	sr_space *b = sr_space_read(e->spec);

	for (size_t j = 0; j < b->n; j++)
		if (sr_space_find(s, b->p[j].name) < 0)
			sr_die(SR_EXIT_DATA, "%s: parameter '%s' is not one "
			    "of the campaign's space", e->spec, b->p[j].name);
	for (size_t j = 0; j < s->n; j++) {
		int i = sr_space_find(b, s->p[j].name);
		if (i < 0)
			sr_die(SR_EXIT_DATA, "%s: no parameter '%s' (every "
			    "parameter of the campaign's space needs a "
			    "default)", e->spec, s->p[j].name);
		x[j] = sr_param_recode(&b->p[i], &s->p[j], b->p[i].def);
	}
	sr_space_free(b);
}

/* Dies unless the set's name is a word of NAME_CHARS, unlike the
 * names before it. */
static void
check_name(const sr_eval_set *set, size_t i)
{
	const char *s = set[i].name;

	if (!*s || strlen(s) > 64 || s[strspn(s, NAME_CHARS)])
		sr_die(SR_EXIT_USAGE, "set name '%s': letters, digits, '_', "
		    "'-' and '.' (64 at most)", s);
	for (size_t j = 0; j < i; j++)
		if (!strcmp(set[j].name, s))
			sr_die(SR_EXIT_USAGE, "set name '%s' given twice", s);
}

void
sr_eval_design(const char *space, const char *design,
    const sr_eval_set *set, size_t n, FILE *fp)
{
	sr_space *s = sr_space_read(space);
	sr_design *d = NULL;
	double *x = sr_calloc(n * s->n + 1, sizeof *x);
	long *run = sr_calloc(n + 1, sizeof *run);
	struct sr_row_writer w;
	char buf[SR_NUMLEN];

	for (size_t i = 0; i < n; i++) {
		double *xi = x + i * s->n;
		check_name(set, i);
		run[i] = -1;
		if (!strcmp(set[i].spec, "defaults")) {
			for (size_t j = 0; j < s->n; j++)
				xi[j] = s->p[j].def;
		} else if (!strncmp(set[i].spec, "run=", 4)) {
			if (!design)
				sr_die(SR_EXIT_USAGE, "set %s: '%s': no "
				    "design to take the run from",
				    set[i].name, set[i].spec);
			if (!d)
				d = sr_design_read(design);
			set_of_run(&set[i], d, s, xi, &run[i]);
		} else {
			set_of_space(&set[i], s, xi);
		}
		for (size_t j = 0; j < s->n; j++)
			if (isnan(xi[j]) || !sr_param_valid(&s->p[j], xi[j]))
				sr_die(SR_EXIT_DATA, "set %s (%s): %s is off "
				    "the domain of %s in %s", set[i].name,
				    set[i].spec, isnan(xi[j]) ? "its value" :
				    sr_param_text(&s->p[j], xi[j], buf),
				    s->p[j].name, space);
	}
	fprintf(fp, "#method=sets n=%zu k=0 params=- sets=", n);
	for (size_t i = 0; i < n; i++)
		fprintf(fp, "%s%s", i ? "," : "", set[i].name);
	fputs(" runs=", fp);
	for (size_t i = 0; i < n; i++)
		run[i] < 0 ? fprintf(fp, "%s-", i ? "," : "") :
		    fprintf(fp, "%s%ld", i ? "," : "", run[i]);
	fputc('\n', fp);
	sr_design_write_head(fp, s);
	sr_row_writer_init(&w, s->n, s);
	for (size_t i = 0; i < n; i++)
		sr_row_writer_put(&w, fp, i, x + i * s->n);
	sr_row_writer_free(&w);
	if (d)
		sr_design_free(d);
	sr_space_free(s);
	free(x);
	free(run);
}

/* ---- the sets of a sets design -------------------------------------------- */

typedef struct {
	size_t n;
	char **name;
	char **run;		/* the run each was taken from, or "-" */
} eval_sets;

/* A comma list of a design's metadata, n items (0: any number). */
static size_t
meta_list(const sr_tsv *t, const char *key, size_t n, char ***item)
{
	char *v = sr_tsv_meta(t, key), word[256];
	const char *p = v;
	size_t k = 0;
	int st;

	if (!v)
		sr_die(SR_EXIT_DATA, "%s: no %s= in its comments: not a sets "
		    "design (sa-campaign evaluate)", t->path, key);
	*item = NULL;
	while ((st = sr_list_next(&p, word, sizeof word)) == 1) {
		*item = sr_reallocarray(*item, k + 1, sizeof **item);
		(*item)[k++] = sr_strdup(word);
	}
	if (st < 0 || k == 0 || (n && k != n))
		sr_die(SR_EXIT_DATA, "%s: %s=%s: a malformed list", t->path,
		    key, v);
	free(v);
	return k;
}

static void
sets_read(const char *design, eval_sets *e)
{
	sr_tsv *t = sr_tsv_open(design);
	char **run;

	e->n = meta_list(t, "sets", 0, &e->name);
	meta_list(t, "runs", e->n, &run);
	e->run = run;
	sr_tsv_close(t);
}

static void
sets_free(eval_sets *e)
{
	for (size_t i = 0; i < e->n; i++) {
		free(e->name[i]);
		free(e->run[i]);
	}
	free(e->name);
	free(e->run);
}

/* ---- evaluation.tsv -------------------------------------------------------- */

/* The results of the sets: value[(tile * nset + set) * nmet + m]. */
typedef struct {
	size_t nset, nmet, ntile;
	char **met;		/* the metrics' names */
	char **tile;
	double *value;
} eval_results;

static size_t
tile_index(eval_results *e, const char *name)
{
	size_t t, cell = e->nset * e->nmet;

	for (t = 0; t < e->ntile; t++)
		if (!strcmp(e->tile[t], name))
			return t;
	e->tile = sr_reallocarray(e->tile, t + 1, sizeof *e->tile);
	e->tile[t] = sr_strdup(name);
	e->value = sr_reallocarray(e->value, (t + 1) * cell, sizeof *e->value);
	for (size_t i = 0; i < cell; i++)
		e->value[t * cell + i] = NAN;
	e->ntile++;
	return t;
}

static void
results_read(const char *path, size_t nset, eval_results *e)
{
	sr_metrics_rows *r = sr_metrics_rows_open(path);
	int *col;
	unsigned char *seen = NULL;
	size_t nseen = 0;

	sr_metrics_rows_need(r, SR_METRICS_NEED_TILE);
	memset(e, 0, sizeof *e);
	e->nset = nset;
	col = sr_calloc(r->nmetric + 1, sizeof *col);
	e->met = sr_calloc(r->nmetric + 1, sizeof *e->met);
	for (size_t m = 0; m < r->nmetric; m++)
		if (strcmp(r->tsv->header[r->metric[m]], "seconds")) {
			col[e->nmet] = r->metric[m];
			e->met[e->nmet++] = sr_strdup(r->tsv->header[r->metric[m]]);
		}
	if (!e->nmet)
		sr_die(SR_EXIT_DATA, "%s: no metric column", path);
	while (sr_metrics_rows_next(r)) {
		size_t t, at;
		if (r->run < 0 || (size_t)r->run >= nset)
			sr_tsv_die(r->tsv, r->col_run, "run %ld: the sets are "
			    "runs 0 to %zu", r->run, nset - 1);
		t = tile_index(e, r->tile);
		if (e->ntile * nset > nseen) {
			seen = sr_reallocarray(seen, e->ntile * nset, 1);
			memset(seen + nseen, 0, e->ntile * nset - nseen);
			nseen = e->ntile * nset;
		}
		at = t * nset + (size_t)r->run;
		if (seen[at])
			sr_tsv_die(r->tsv, r->col_tile, "run %ld on tile %s "
			    "again", r->run, r->tile);
		seen[at] = 1;
		for (size_t m = 0; m < e->nmet; m++)
			e->value[at * e->nmet + m] =
			    sr_metrics_rows_value(r, col[m]);
	}
	if (!e->ntile)
		sr_die(SR_EXIT_DATA, "%s: no results", path);
	free(seen);
	free(col);
	sr_metrics_rows_close(r);
}

static void
results_free(eval_results *e)
{
	for (size_t i = 0; i < e->nmet; i++)
		free(e->met[i]);
	for (size_t t = 0; t < e->ntile; t++)
		free(e->tile[t]);
	free(e->met);
	free(e->tile);
	free(e->value);
}

static double
value_of(const eval_results *e, size_t t, size_t s, size_t m)
{
	return e->value[(t * e->nset + s) * e->nmet + m];
}

static void
put_field(FILE *fp, double v)
{
	fputc('\t', fp);
	sr_put_double(fp, v);
}

/* The row of tile t, metric m. */
static void
tile_row(FILE *fp, const eval_results *e, const eval_sets *s, size_t t,
    size_t m)
{
	fprintf(fp, "%s\t%s", e->tile[t], e->met[m]);
	for (size_t i = 0; i < s->n; i++)
		put_field(fp, value_of(e, t, i, m));
	for (size_t i = 1; i < s->n; i++) {
		put_field(fp, value_of(e, t, i, m) - value_of(e, t, 0, m));
		fputc('\t', fp);	/* p: on mean rows */
	}
	fputs("\t\n", fp);
}

/* The mean row of metric m over the tiles where every set has a value,
 * and its line in summary. */
static void
mean_row(FILE *fp, FILE *summary, const eval_results *e,
    const eval_sets *s, size_t m)
{
	size_t n = 0, nt = e->ntile, ns = s->n;
	double *x = sr_calloc(ns * nt + 1, sizeof *x), *mean;

	for (size_t t = 0; t < nt; t++) {
		size_t i;
		for (i = 0; i < ns && !isnan(value_of(e, t, i, m)); i++)
			;
		if (i < ns)
			continue;
		for (i = 0; i < ns; i++)
			x[i * nt + n] = value_of(e, t, i, m);
		n++;
	}
	mean = sr_calloc(ns, sizeof *mean);
	fprintf(fp, "%s\t%s", SR_EVAL_MEAN, e->met[m]);
	fprintf(summary, "%s over %zu tile(s):", e->met[m], n);
	for (size_t i = 0; i < ns; i++) {
		double sum = 0;
		for (size_t k = 0; k < n; k++)
			sum += x[i * nt + k];
		mean[i] = n ? sum / (double)n : NAN;
		put_field(fp, mean[i]);
		fprintf(summary, "%s %s %.4g", i ? "," : "", s->name[i],
		    mean[i]);
	}
	for (size_t i = 1; i < ns; i++) {
		double p = n ? sr_wilcoxon_two_sided(x + i * nt, x, n) : NAN;
		put_field(fp, mean[i] - mean[0]);
		put_field(fp, p);
		fprintf(summary, "; %s - %s %+.4g (p %.3g)", s->name[i],
		    s->name[0], mean[i] - mean[0], p);
	}
	fprintf(fp, "\t%zu\n", n);
	fputc('\n', summary);
	free(mean);
	free(x);
}

void
sr_eval_compare(const char *design, const char *results, FILE *fp,
    FILE *summary)
{
	eval_sets s;
	eval_results e;
	size_t paired = 0;

	sets_read(design, &s);
	results_read(results, s.n, &e);
	for (size_t t = 0; t < e.ntile; t++) {
		size_t i;
		for (i = 0; i < s.n && !isnan(value_of(&e, t, i, 0)); i++)
			;
		paired += i == s.n;
	}
	fprintf(fp, "#sets=");
	for (size_t i = 0; i < s.n; i++)
		fprintf(fp, "%s%s", i ? "," : "", s.name[i]);
	fprintf(fp, " baseline=%s tiles=%zu paired=%zu test=wilcoxon "
	    "two-sided min_p=", s.name[0], e.ntile, paired);
	sr_put_double(fp, sr_eval_min_p(paired));
	fprintf(fp, "\n%s\t%s", SR_EVAL_TILE, SR_EVAL_METRIC);
	for (size_t i = 0; i < s.n; i++)
		fprintf(fp, "\t%s", s.name[i]);
	for (size_t i = 1; i < s.n; i++)
		fprintf(fp, "\t%s%s\t%s%s", SR_EVAL_DIFF, s.name[i], SR_EVAL_P,
		    s.name[i]);
	fprintf(fp, "\t%s\n", SR_EVAL_N);
	for (size_t m = 0; m < e.nmet; m++)
		for (size_t t = 0; t < e.ntile; t++)
			tile_row(fp, &e, &s, t, m);
	for (size_t m = 0; m < e.nmet; m++)
		mean_row(fp, summary, &e, &s, m);
	if (s.n > 1 && sr_eval_min_p(paired) >= 0.05)
		fprintf(summary, "note: with %zu tile(s) a two-sided Wilcoxon "
		    "signed-rank test cannot give p below %g: 6 tiles at least "
		    "can show p < 0.05\n", paired, sr_eval_min_p(paired));
	results_free(&e);
	sets_free(&s);
}

/* ---- validation.tsv -------------------------------------------------------- */

void
sr_eval_validation(const char *design, const char *results, FILE *fp)
{
	eval_sets s;
	sr_tsv *t;
	int crun;
	FILE **part;
	char **buf;
	size_t *len;

	sets_read(design, &s);
	t = sr_tsv_open(results);
	crun = sr_tsv_need(t, SR_METRICS_RUN);
	part = sr_calloc(s.n, sizeof *part);
	buf = sr_calloc(s.n, sizeof *buf);
	len = sr_calloc(s.n, sizeof *len);
	for (size_t i = 0; i < s.n; i++)
		if (!(part[i] = open_memstream(&buf[i], &len[i])))
			sr_die_errno("a buffer");
	while (sr_tsv_next(t)) {
		long r = sr_tsv_long(t, crun);
		if (r < 0 || (size_t)r >= s.n)
			sr_tsv_die(t, crun, "run %ld: the sets are runs 0 to "
			    "%zu", r, s.n - 1);
		fputs(s.name[r], part[r]);
		for (size_t c = 0; c < t->ncol; c++)
			fprintf(part[r], "\t%s", (int)c == crun ? s.run[r] :
			    t->field[c]);
		fputc('\n', part[r]);
	}
	fputs("set", fp);
	for (size_t c = 0; c < t->ncol; c++)
		fprintf(fp, "\t%s", t->header[c]);
	fputc('\n', fp);
	for (size_t i = 0; i < s.n; i++) {
		if (fclose(part[i]))
			sr_die_errno("a buffer");
		fwrite(buf[i], 1, len[i], fp);
		free(buf[i]);
	}
	free(part);
	free(buf);
	free(len);
	sr_tsv_close(t);
	sets_free(&s);
}

/* ---- the best sets --------------------------------------------------------- */

void
sr_eval_top(const char *trials, size_t k, FILE *fp)
{
	sr_trials_table *t = sr_trials_table_read(trials);
	size_t st, run, found = 0;

	for (st = 0; st < t->nhead && strcmp(t->head[st], SR_TRIALS_STATUS); st++)
		;
	for (run = 0; run < t->nhead && strcmp(t->head[run], SR_TRIALS_RUN); run++)
		;
	for (size_t i = 0; i < t->n && found < k; i++)
		if (!strcmp(t->field[i][st], "complete")) {
			fprintf(fp, "%s\n", t->field[i][run]);
			found++;
		}
	sr_trials_table_free(t);
}

/* ---- evaluation.tsv read back -------------------------------------------- */

/* A field of evaluation.tsv as a number: NaN when empty or "NaN". */
static double
eval_field(const sr_tsv *t, size_t c)
{
	const char *v = t->field[c];
	char *end;
	double x;

	if (!*v || !strcmp(v, "NaN"))
		return NAN;
	x = strtod(v, &end);
	if (*end)
		sr_tsv_die_value((sr_tsv *)t, (int)c, "is not a number");
	return x;
}

/* The unsigned count of metadata key of t, or 0. */
static size_t
meta_count(const sr_tsv *t, const char *key)
{
	char *v = sr_tsv_meta(t, key);
	size_t n = v ? strtoul(v, NULL, 10) : 0;

	free(v);
	return n;
}

void
sr_eval_read(const char *evaluation, const char *design, sr_evaluation *e)
{
	sr_tsv *t = sr_tsv_open(evaluation);
	int ctile = sr_tsv_need(t, SR_EVAL_TILE);
	int cmet = sr_tsv_need(t, SR_EVAL_METRIC), cn = sr_tsv_need(t, SR_EVAL_N);
	size_t ns, m, c;

	memset(e, 0, sizeof *e);
	e->nset = ns = meta_list(t, "sets", 0, &e->set);
	e->ntiles = meta_count(t, "tiles");
	e->paired = meta_count(t, "paired");
	if (t->ncol != 3 + 3 * ns - 2)
		sr_die(SR_EXIT_DATA, "%s: %zu columns for %zu sets", t->path,
		    t->ncol, ns);
	while (sr_tsv_next(t)) {
		if (strcmp(sr_tsv_str(t, ctile), SR_EVAL_MEAN))
			continue;
		m = e->nmet++;
		e->met = sr_reallocarray(e->met, e->nmet, sizeof *e->met);
		e->met[m] = sr_strdup(sr_tsv_str(t, cmet));
		e->n = sr_reallocarray(e->n, e->nmet, sizeof *e->n);
		e->n[m] = (size_t)sr_tsv_long(t, cn);
		e->mean = sr_reallocarray(e->mean, e->nmet * ns, sizeof *e->mean);
		e->diff = sr_reallocarray(e->diff, e->nmet * ns, sizeof *e->diff);
		e->p = sr_reallocarray(e->p, e->nmet * ns, sizeof *e->p);
		for (size_t i = 0; i < ns; i++) {
			/* the sets' columns after tile and metric, then
			 * diff_ and p_ of each set after the first */
			c = 2 + ns + 2 * (i - 1);
			e->mean[m * ns + i] = eval_field(t, 2 + i);
			e->diff[m * ns + i] = i ? eval_field(t, c) : NAN;
			e->p[m * ns + i] = i ? eval_field(t, c + 1) : NAN;
		}
	}
	sr_tsv_close(t);
	if (design) {
		t = sr_tsv_open(design);
		meta_list(t, "runs", ns, &e->run);
		sr_tsv_close(t);
	}
}

void
sr_eval_free(sr_evaluation *e)
{
	for (size_t i = 0; i < e->nset; i++) {
		free(e->set[i]);
		if (e->run)
			free(e->run[i]);
	}
	for (size_t m = 0; m < e->nmet; m++)
		free(e->met[m]);
	free(e->set);
	free(e->run);
	free(e->met);
	free(e->n);
	free(e->mean);
	free(e->diff);
	free(e->p);
}

size_t
sr_eval_metric(const sr_evaluation *e, const char *metric)
{
	size_t m;

	for (m = 0; m < e->nmet && strcmp(e->met[m], metric); m++)
		;
	return m;
}

/* ---- best.tsv's #validation line ------------------------------------------ */

/* The "validation ..." text of evaluation.tsv's mean row of metric:
 * metric=M tiles=N, then each set's mean. */
static char *
validation_text(const char *evaluation, const char *metric)
{
	sr_evaluation e;
	char *text = NULL;
	size_t len = 0, m;
	FILE *fp;

	sr_eval_read(evaluation, NULL, &e);
	if ((m = sr_eval_metric(&e, metric)) == e.nmet)
		sr_die(SR_EXIT_DATA, "%s: no mean row of metric %s",
		    evaluation, metric);
	if (!(fp = open_memstream(&text, &len)))
		sr_die_errno("a buffer");
	fprintf(fp, "validation metric=%s tiles=%zu", metric, e.n[m]);
	for (size_t i = 0; i < e.nset; i++) {
		fprintf(fp, " %s=", e.set[i]);
		sr_put_double(fp, e.mean[m * e.nset + i]);
	}
	if (fclose(fp))
		sr_die_errno("a buffer");
	sr_eval_free(&e);
	return text;
}

void
sr_eval_best_validation(const char *best, const char *evaluation,
    const char *metric)
{
	char *text = validation_text(evaluation, metric), *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int put = 0;
	FILE *in = fopen(best, "r"), *fp;

	if (!in)
		sr_die_errno("%s", best);
	fp = sr_out_open(best);
	while ((n = getline(&line, &cap, in)) > 0) {
		if (!strncmp(line, "#validation ", 12))
			continue;
		if (!put && line[0] != '#') {	/* the header: before it */
			fprintf(fp, "#%s\n", text);
			put = 1;
		}
		fwrite(line, 1, (size_t)n, fp);
	}
	if (ferror(in))
		sr_die_errno("%s", best);
	fclose(in);
	free(line);
	free(text);
}
