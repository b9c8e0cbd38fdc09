/* design.c - reading and writing design.tsv. */
#include "sa/design.h"
#include "sa/efast.h"
#include "sa/metrics.h"
#include "core/err.h"
#include "core/opt.h"
#include "core/parallel.h"
#include "core/text.h"
#include "core/num.h"
#include "core/tsv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(...) do { snprintf(errbuf, errlen, __VA_ARGS__); \
	return errbuf; } while (0)

/* " groups=NAME:P+P,NAME:P": each group, its parameters. */
static void
write_groups(FILE *fp, const sr_generator *g)
{
	size_t c, j, n;

	fputs(" groups=", fp);
	for (c = 0; c < g->ngroup; c++) {
		fprintf(fp, "%s%s:", c ? "," : "", g->group_name[c]);
		for (j = 0, n = 0; j < g->k; j++)
			if (g->group_of[j] == c)
				fprintf(fp, "%s%s", n++ ? "+" : "",
				    g->space->p[g->varied[j]].name);
	}
}

void
sr_design_write_meta(FILE *fp, const sr_sample_spec *s, const sr_generator *g,
    double rows)
{
	enum sr_method m = s->method;
	int ref = m == SR_METHOD_REFERENCE;
	size_t j;

	fprintf(fp, "#method=%s", sr_method_name(m));
	if (m == SR_METHOD_MOAT)
		fprintf(fp, " r=%zu p=%zu", s->optimize ? s->optimize : s->r, s->p);
	else if (m == SR_METHOD_GRID)
		fprintf(fp, " n=%.0f p=%zu", rows, s->p);
	else if (!ref)
		fprintf(fp, " n=%zu", s->n);
	fprintf(fp, " k=%zu params=", ref ? 0 : g->k);
	for (j = 0; !ref && j < g->k; j++)
		fprintf(fp, "%s%s", j ? "," : "", g->space->p[g->varied[j]].name);
	if (ref || g->k == 0)
		fputc('-', fp);
	if (m == SR_METHOD_VBD)
		fprintf(fp, " base=%s second_order=%d",
		    sr_unit_method_names[s->base], s->second_order);
	if ((m == SR_METHOD_VBD || m == SR_METHOD_MOAT) && g->ngroup)
		write_groups(fp, g);
	if (m == SR_METHOD_EFAST)
		fprintf(fp, " M=%zu", s->m ? s->m : SR_EFAST_M);
	if (m == SR_METHOD_VBD && s->base == SR_SOBOL)
		fprintf(fp, " skip=%zu", sr_vbd_sobol_skip(s->n));
	if (s->optimize)
		fprintf(fp, " candidates=%zu", s->r);
	if (s->round)
		fprintf(fp, " round=%zu", s->round);
	if (s->grown_from)
		fprintf(fp, " grown_from=%zu", s->grown_from);
	fprintf(fp, " seed=%lu", s->seed);
	if (s->reference)
		fprintf(fp, " reference=%.0f", rows);
	fputc('\n', fp);
}

void
sr_design_write_head(FILE *fp, const sr_space *s)
{
	size_t i;

	sr_space_write_comments(fp, s);
	fputs(SR_METRICS_RUN, fp);
	for (i = 0; i < s->n; i++)
		fprintf(fp, "\t%s", s->p[i].name);
	fputc('\n', fp);
}

/* Reads a size_t metadata value (0 when absent). */
static size_t
meta_size(const sr_tsv *t, const char *key)
{
	char *v = sr_tsv_meta(t, key);
	long n = 0;

	if (v && (sr_parse_long(v, &n) || n < 0))
		sr_die(SR_EXIT_DATA, "%s: metadata %s=%s is not a count", t->path,
		    key, v);
	free(v);
	return (size_t)n;
}

/* The groups of "groups=NAME:P+P,...": every varied parameter in one
 * group; dies naming the file on one that is not. */
static void
read_groups(sr_design *d, const sr_tsv *t)
{
	char *v = sr_tsv_meta(t, "groups"), *grp, *p, *s1 = NULL, *s2 = NULL;
	char *colon;
	size_t i, *seen;

	if (v == NULL)
		return;
	d->group_name = sr_calloc(d->k + 1, sizeof *d->group_name);
	d->group_of = sr_calloc(d->k + 1, sizeof *d->group_of);
	seen = sr_calloc(d->k + 1, sizeof *seen);
	for (grp = strtok_r(v, ",", &s1); grp; grp = strtok_r(NULL, ",", &s1)) {
		if ((colon = strchr(grp, ':')) == NULL || colon == grp ||
		    d->ngroup == d->k)
			sr_die(SR_EXIT_DATA, "%s: metadata groups: '%s' is not "
			    "NAME:P+P", t->path, SR_SHOW(grp));
		*colon = '\0';
		d->group_name[d->ngroup] = sr_strdup(grp);
		for (p = strtok_r(colon + 1, "+", &s2); p; p = strtok_r(NULL,
		    "+", &s2)) {
			for (i = 0; i < d->k && strcmp(d->name[d->param[i]], p); i++)
				;
			if (i == d->k || seen[i]++)
				sr_die(SR_EXIT_DATA, "%s: metadata groups: %s is not "
				    "a varied parameter, or in two groups", t->path,
				    SR_SHOW(p));
			d->group_of[i] = d->ngroup;
		}
		d->ngroup++;
	}
	for (i = 0; i < d->k; i++)
		if (!seen[i])
			sr_die(SR_EXIT_DATA, "%s: metadata groups: %s is in none",
			    t->path, d->name[d->param[i]]);
	free(seen);
	free(v);
}

size_t
sr_design_factors(const sr_design *d)
{
	return d->ngroup ? d->ngroup : d->k;
}

/* Parses the metadata comments into d. */
static void
read_meta(sr_design *d, const sr_tsv *t)
{
	char *params, *tok, *save = NULL, *v;
	int c;

	d->method = sr_tsv_meta(t, "method");
	d->base = sr_tsv_meta(t, "base");
	d->n = meta_size(t, "n");
	d->r = meta_size(t, "r");
	d->m = meta_size(t, "M");
	d->grown_from = meta_size(t, "grown_from");
	d->p = meta_size(t, "p");
	d->second_order = meta_size(t, "second_order") != 0;
	d->seed = meta_size(t, "seed");
	d->reference = -1;
	if ((v = sr_tsv_meta(t, "reference")) &&
	    (sr_parse_long(v, &d->reference) || d->reference < 0))
		sr_die(SR_EXIT_DATA, "%s: metadata reference=%s is not a run",
		    t->path, v);
	free(v);
	if ((params = sr_tsv_meta(t, "params")) == NULL)
		return;
	d->param = sr_calloc(d->ncol, sizeof *d->param);
	for (tok = strtok_r(params, ",", &save); tok && strcmp(params, "-");
	    tok = strtok_r(NULL, ",", &save)) {
		size_t i;
		if ((c = sr_tsv_col(t, tok)) <= 0)
			sr_die(SR_EXIT_DATA, "%s: metadata params names '%s', "
			    "which is not a parameter column", t->path,
			    SR_SHOW(tok));
		for (i = 0; i < d->k; i++)
			if (d->param[i] == (size_t)c - 1)
				sr_die(SR_EXIT_DATA, "%s: metadata params names %s "
				    "twice", t->path, tok);
		d->param[d->k++] = (size_t)c - 1;
	}
	free(params);
	if (meta_size(t, "k") != d->k)
		sr_die(SR_EXIT_DATA, "%s: metadata k=%zu but params lists %zu",
		    t->path, meta_size(t, "k"), d->k);
	read_groups(d, t);
}

/* The batches of a composed design: "#batches=K of N sizes=N1,...,NK",
 * K sizes of at least 1 that sum to the runs (checked once they are
 * read, by check_batches). */
static void
read_batches(sr_design *d, const sr_tsv *t)
{
	char *sizes = sr_tsv_meta(t, "sizes"), *p, *end;
	size_t k = meta_size(t, "batches");
	unsigned long v;

	if (k == 0 && sizes == NULL)
		return;
	if (k == 0 || sizes == NULL)
		sr_die(SR_EXIT_DATA, "%s: metadata batches= and sizes= go "
		    "together (a batched campaign's design)", t->path);
	d->batch_size = sr_calloc(k, sizeof *d->batch_size);
	for (p = sizes; d->nbatch < k; p = end + 1) {
		errno = 0;
		v = strtoul(p, &end, 10);
		if (end == p || *p == '-' || errno || v == 0 ||
		    (*end != ',' && *end != '\0') ||
		    (*end == ',') != (d->nbatch + 1 < k))
			sr_die(SR_EXIT_DATA, "%s: metadata sizes=%s: expected "
			    "%zu sizes of at least 1 (batches=%zu), comma-"
			    "separated", t->path, sizes, k, k);
		d->batch_size[d->nbatch++] = v;
	}
	free(sizes);
}

/* Dies unless the batches' sizes sum to the runs read. */
static void
check_batches(const sr_design *d)
{
	size_t i, sum = 0;

	/* summed up to nrun + 1 at most: no wrap-around */
	for (i = 0; i < d->nbatch && sum <= d->nrun; i++)
		sum = d->batch_size[i] > d->nrun - sum ? d->nrun + 1 :
		    sum + d->batch_size[i];
	if (d->nbatch && sum != d->nrun)
		sr_die(SR_EXIT_DATA, "%s: metadata sizes= do not sum to the "
		    "design's %zu runs", d->path, d->nrun);
}

/* Maps each column to its parameter in d->space; dies on a mismatch. */
static int *
map_columns(const sr_design *d)
{
	int *map = sr_calloc(d->ncol, sizeof *map);
	size_t i;

	if (d->space->n != d->ncol)
		sr_die(SR_EXIT_DATA, "%s: %zu parameter columns but the '#space' "
		    "lines define %zu parameters", d->path, d->ncol, d->space->n);
	for (i = 0; i < d->ncol; i++)
		if ((map[i] = sr_space_find(d->space, d->name[i])) < 0)
			sr_die(SR_EXIT_DATA, "%s: column %s is not in the '#space' "
			    "lines", d->path, d->name[i]);
	return map;
}

/* The previous row's text and value of one column: designs change few
 * columns from one row to the next (VBD blocks, Morris trajectories), so
 * an unchanged field is neither parsed nor checked again. */
typedef struct {
	char text[32];
	double value;
} column_cache;

/* Parses and checks field j of the current row, through the cache. */
static double
design_value(const sr_design *d, sr_tsv *t, const int *map, size_t j,
    column_cache *c)
{
	const char *f = sr_tsv_str(t, (int)j + 1);
	const sr_param *p;
	double v;

	if (c->text[0] && strcmp(f, c->text) == 0)
		return c->value;
	p = map ? &d->space->p[map[j]] : NULL;
	v = p ? sr_param_field(t, (int)j + 1, p) : sr_tsv_double(t, (int)j + 1);
	if (p && !sr_param_valid(p, v))
		sr_tsv_die(t, (int)j + 1, "%s is off the domain %s %s (default %s)",
		    f, sr_ptype_name(p->type), p->values_text, p->default_text);
	if (strlen(f) < sizeof c->text) {
		strcpy(c->text, f);
		c->value = v;
	} else
		c->text[0] = '\0';
	return v;
}

/* Rows read on threads: a window of whole lines at a time, cut in
 * parts at line ends, each part's rows parsed and checked by one thread
 * into their places in d->x. Only what needs no message is taken there
 * (rows of plain values: no comment, blank line, CR or NUL): at the
 * first row that is not, or that is wrong, the window is left whole to
 * the strict reader below, which says what is wrong where. A design of
 * 16,384 rows of 15 values was half of PAWN's time. */
#define WINDOW ((size_t)8 << 20)	/* bytes of rows a window */
#define FAST_MIN ((size_t)1 << 16)	/* fewer bytes go alone */

typedef struct {
	const sr_design *d;
	const int *map;
	const char *text;
	size_t *cut;		/* parts + 1 byte offsets, at line starts */
	size_t *first;		/* each part's first row (of the window) */
	size_t row0;		/* the window's first row's run */
	double *x;		/* the window's rows */
	int *bad;		/* each part's: a row it could not take */
} window;

/* Parses the field [f, e) as column j's value into *v; 0, or -1. */
static int
fast_value(const window *w, size_t j, const char *f, const char *e,
    double *v)
{
	char buf[SR_NUMLEN];
	const sr_param *p;

	if (e == f || (size_t)(e - f) >= sizeof buf)
		return -1;
	memcpy(buf, f, (size_t)(e - f));
	buf[e - f] = '\0';
	p = w->map ? &w->d->space->p[w->map[j]] : NULL;
	if (p ? sr_param_read(p, buf, v) != NULL || !sr_param_valid(p, *v) :
	    sr_parse_double(buf, v) != NULL)
		return -1;
	return 0;
}

static void
fast_part(void *ctx, size_t i, size_t worker)
{
	const window *w = ctx;
	const char *p = w->text + w->cut[i], *end = w->text + w->cut[i + 1];
	const char *nl, *f, *tab;
	size_t row = w->first[i], ncol = w->d->ncol, j, run;
	double *x;

	(void)worker;
	for (; p < end; p = nl + 1, row++) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;	/* the file's last line, unended */
		/* a NUL would end a field early; other odd bytes (CR, not
		 * UTF-8, not a word) fail to parse */
		if (memchr(p, '\0', (size_t)(nl - p)))
			goto bad;
		/* the run: plain digits, the next */
		for (f = p, run = 0; f < nl && *f >= '0' && *f <= '9' &&
		    f - p < 15; f++)
			run = run * 10 + (size_t)(*f - '0');
		if (f == p || f == nl || *f != '\t' || run != w->row0 + row)
			goto bad;
		x = w->x + row * ncol;
		for (j = 0; j < ncol; j++) {
			f++;
			tab = j + 1 < ncol ? memchr(f, '\t', (size_t)(nl - f)) : nl;
			if (tab == NULL || fast_value(w, j, f, tab, &x[j]))
				goto bad;
			f = tab;
		}
	}
	return;
bad:
	w->bad[i] = 1;
}

/* The byte offsets of parts parts of text[0..len) of about equal size,
 * each starting a line, into cut[0..parts]; the lines before each into
 * first, the window's into first[parts]. */
static void
cut_parts(const char *text, size_t len, size_t parts, size_t *cut,
    size_t *first)
{
	size_t c, lines = 0, at = 0, next;
	const char *nl, *r;

	for (c = 0; c < parts; c++) {
		cut[c] = at;
		first[c] = lines;
		/* about (c + 1) / parts of the bytes, on to a line's end */
		next = c + 1 == parts ? len : len / parts * (c + 1);
		if (next > at && next < len)
			next = (nl = memchr(text + next, '\n', len - next)) ?
			    (size_t)(nl - text) + 1 : len;
		else if (next < at)	/* the part before took its bytes */
			next = at;
		for (r = text + at; (r = memchr(r, '\n', (size_t)(text + next - r)));
		    r++)
			lines++;
		at = next;
	}
	cut[parts] = len;
	first[parts] = lines + (len > 0 && text[len - 1] != '\n');
}

/* The rows of the windows that are whole and plain, on threads; what is
 * left (nothing, or from a window that was not) is the strict reader's. */
static void
fast_rows(sr_design *d, sr_tsv *t, const int *map, size_t *cap)
{
	size_t threads = sr_cpus(), len, lines, c, *cut, *first;
	const char *text;
	int *bad;
	window w = { .d = d, .map = map };

	if (threads < 2 || d->ncol == 0)
		return;
	cut = sr_calloc(threads + 1, sizeof *cut);
	first = sr_calloc(threads + 1, sizeof *first);
	bad = sr_calloc(threads, sizeof *bad);
	while ((text = sr_tsv_peek(t, WINDOW, &len)) != NULL && len >= FAST_MIN) {
		cut_parts(text, len, threads, cut, first);
		lines = first[threads];
		if (d->nrun + lines > *cap) {
			*cap = d->nrun + lines > 2 * *cap ? d->nrun + lines : 2 * *cap;
			d->x = sr_reallocarray(d->x, *cap, d->ncol * sizeof *d->x);
		}
		w.text = text;
		w.cut = cut;
		w.first = first;
		w.row0 = d->nrun;
		w.x = d->x + d->nrun * d->ncol;
		w.bad = bad;
		memset(bad, 0, threads * sizeof *bad);
		sr_parallel(threads, threads, fast_part, &w);
		for (c = 0; c < threads && !bad[c]; c++)
			;
		if (c < threads)	/* the strict reader says what */
			break;
		sr_tsv_skip(t, len, lines);
		d->nrun += lines;
	}
	free(bad);
	free(first);
	free(cut);
}

/* Reads the rows into d->x, checking run numbers and domains. */
static void
read_rows(sr_design *d, sr_tsv *t)
{
	size_t cap = 0, j;
	int *map = d->space ? map_columns(d) : NULL;
	column_cache *cache = sr_calloc(d->ncol, sizeof *cache);
	double *row;
	long run;

	fast_rows(d, t, map, &cap);
	while (sr_tsv_next(t)) {
		run = sr_tsv_long(t, 0);
		if (run != (long)d->nrun)
			sr_tsv_die(t, 0, "run %ld out of sequence, expected %zu",
			    run, d->nrun);
		if (d->nrun == cap) {
			cap = cap ? 2 * cap : 1024;
			d->x = sr_reallocarray(d->x, cap, d->ncol * sizeof *d->x);
		}
		row = d->x + d->nrun * d->ncol;
		for (j = 0; j < d->ncol; j++)
			row[j] = design_value(d, t, map, j, &cache[j]);
		d->nrun++;
	}
	free(cache);
	if (map) {
		d->cparam = sr_calloc(d->ncol, sizeof *d->cparam);
		for (j = 0; j < d->ncol; j++)
			d->cparam[j] = &d->space->p[map[j]];
	}
	free(map);
}

const char *
sr_design_text(const sr_design *d, size_t j, double v, char buf[SR_NUMLEN])
{
	return d->cparam ? sr_param_text(d->cparam[j], v, buf) :
	    sr_fmt_double(buf, v);
}

/* Reads a design's comments and header; its rows too with rows. */
static sr_design *
read_design(const char *path, int rows)
{
	sr_tsv *t = sr_tsv_open(path);
	sr_design *d = sr_calloc(1, sizeof *d);
	size_t i;
	double runs;

	d->path = sr_strdup(t->path);
	if (strcmp(t->header[0], SR_METRICS_RUN) != 0)
		sr_die(SR_EXIT_DATA, "%s:%zu: the first column must be 'run', "
		    "not '%s'", t->path, t->lineno, SR_SHOW(t->header[0]));
	if (t->ncol < 2)
		sr_die(SR_EXIT_DATA, "%s: no parameter columns", t->path);
	d->ncol = t->ncol - 1;
	d->name = sr_calloc(d->ncol, sizeof *d->name);
	for (i = 0; i < d->ncol; i++)
		d->name[i] = sr_strdup(t->header[i + 1]);
	d->space = sr_space_from_comments(t);
	read_meta(d, t);
	read_batches(d, t);
	if (rows)
		read_rows(d, t);
	else {	/* the runs the metadata describe */
		runs = d->method && sr_method_parse(d->method) >= 0 ?
		    sr_method_runs((enum sr_method)sr_method_parse(d->method),
		    d->n, sr_design_factors(d), d->r, d->second_order) : 0;
		if (d->reference >= 0)
			runs = (double)d->reference + 1;
		d->nrun = runs > 0 && runs < 1e15 ? (size_t)runs : 0;
	}
	if (d->nrun == 0)
		sr_die(SR_EXIT_DATA, "%s: no runs", t->path);
	check_batches(d);
	if (d->reference >= (long)d->nrun)
		sr_die(SR_EXIT_DATA, "%s: reference run %ld does not exist",
		    t->path, d->reference);
	sr_tsv_close(t);
	return d;
}

sr_design *
sr_design_read(const char *path)
{
	return read_design(path, 1);
}

sr_design *
sr_design_read_settings(const char *path)
{
	return read_design(path, 0);
}

void
sr_design_free(sr_design *d)
{
	size_t i;

	if (d == NULL)
		return;
	sr_space_free(d->space);
	for (i = 0; i < d->ncol; i++)
		free(d->name[i]);
	free(d->name);
	free(d->x);
	free(d->method);
	free(d->base);
	free(d->param);
	free(d->batch_size);
	free(d->cparam);
	for (i = 0; i < d->ngroup; i++)
		free(d->group_name[i]);
	free(d->group_name);
	free(d->group_of);
	free(d->path);
	free(d);
}

/* Why a design of method m (base b for vbd) cannot grow, or NULL: the
 * samplers whose first points do not depend on their number can. */
static const char *
cannot_grow(enum sr_method m, int b)
{
	switch (m) {
	case SR_METHOD_MC: case SR_METHOD_HALTON: case SR_METHOD_SOBOL:
		return NULL;
	case SR_METHOD_VBD:
		return b == SR_LHS ? "a vbd design on the lhs base: a Latin "
		    "hypercube's strata are 1/n wide" : b == SR_HAMMERSLEY ? "a "
		    "vbd design on the hammersley base: its first coordinate is "
		    "i/n" : NULL;
	case SR_METHOD_LHS:
		return "a Latin hypercube: its strata are 1/n wide";
	case SR_METHOD_HAMMERSLEY:
		return "a Hammersley set: its first coordinate is i/n";
	case SR_METHOD_MOAT:
		return "MOAT trajectories: draw more in a design of their own";
	case SR_METHOD_EFAST: case SR_METHOD_RBD_FAST:
		return "a Fourier design: its curves' frequencies and points "
		    "depend on n";
	default:
		return "only mc, halton, sobol and vbd designs grow";
	}
}

/* d's groups as its space's group column (a note, space(5)). */
static void
groups_to_space(sr_design *d)
{
	sr_space *s = d->space;
	size_t j, i;

	s->nnote = 1;
	s->note_name = sr_calloc(2, sizeof *s->note_name);
	s->note_name[0] = sr_strdup(SR_SPACE_GROUP);
	s->note = sr_calloc(s->n + 1, sizeof *s->note);
	for (j = 0; j < s->n; j++) {
		for (i = 0; i < d->k && d->name[d->param[i]] != NULL &&
		    strcmp(d->name[d->param[i]], s->p[j].name); i++)
			;
		s->note[j] = sr_strdup(i < d->k ?
		    d->group_name[d->group_of[i]] : "");
	}
}

const char *
sr_design_grow_spec(sr_design *d, size_t n, sr_sample_spec *s,
    char *errbuf, size_t errlen)
{
	int m = d->method ? sr_method_parse(d->method) : -1, b = -1;
	const char *why;
	size_t j, i;

	memset(s, 0, sizeof *s);
	if (m < 0)
		FAIL("%s: no method in its metadata: not a design sa-sample "
		    "made", d->path);
	if (m == SR_METHOD_VBD && (d->base == NULL ||
	    (b = sr_word_index(d->base, sr_unit_method_names, SR_NUNIT)) < 0))
		FAIL("%s: a vbd design without its base in the metadata",
		    d->path);
	if ((why = cannot_grow((enum sr_method)m, b)) != NULL)
		FAIL("%s: cannot grow %s", d->path, why);
	if (d->space == NULL)
		FAIL("%s: no #space lines: the space to draw from is unknown",
		    d->path);
	if (n <= d->n)
		FAIL("%s: -n %zu: the design has n = %zu already; growing needs "
		    "more", d->path, n, d->n);
	if (m == SR_METHOD_VBD && b == SR_SOBOL &&
	    sr_vbd_sobol_skip(n) != sr_vbd_sobol_skip(d->n))
		FAIL("%s: a vbd design on the sobol base of n = %zu skips %zu "
		    "points of the sequence, one of n = %zu skips %zu (SALib's "
		    "rule): it cannot grow past n = %zu; grow within that, or "
		    "draw on the halton or mc base, which grow any way", d->path,
		    d->n, sr_vbd_sobol_skip(d->n), n, sr_vbd_sobol_skip(n),
		    sr_vbd_sobol_skip(d->n));
	if (d->ngroup)	/* its groups, as a group column */
		groups_to_space(d);
	for (j = 0; j < d->space->n; j++) {	/* held: at row 0's value */
		for (i = 0; i < d->k && d->param[i] != j; i++)
			;
		if (i == d->k && d->nrun > 0) {
			d->space->p[j].fixed = 1;
			d->space->p[j].fixed_value = d->x[j];
		}
	}
	s->method = (enum sr_method)m;
	s->base = b >= 0 ? (enum sr_unit_method)b : SR_MC;
	s->n = n;
	s->seed = d->seed;
	s->second_order = d->second_order;
	s->reference = d->reference >= 0;
	s->grown_from = d->n;
	return NULL;
}
