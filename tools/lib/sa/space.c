/* space.c - parameter spaces: parsing, domains, unit-cube mapping. */
#include "sa/space.h"
#include "sa/metrics.h"
#include "core/err.h"
#include "core/num.h"
#include "core/opt.h"
#include "core/text.h"
#include "core/tsv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(...) do { snprintf(errbuf, errlen, __VA_ARGS__); \
	return errbuf; } while (0)

const char *
sr_ptype_name(enum sr_ptype t)
{
	return t == SR_INT ? "int" : t == SR_REAL ? "real" : "enum";
}

static int
is_integral(double v)
{
	return v == floor(v);
}

/* Parses "lo:step:hi"; returns NULL or the reason. */
static const char *
parse_grid(sr_param *p, const char *v, char *errbuf, size_t errlen)
{
	char buf[256], *a, *b;
	const char *why;
	double n;

	if (strlen(v) >= sizeof buf)
		FAIL("values '%s' too long", SR_SHOW(v));
	strcpy(buf, v);
	a = strchr(buf, ':');
	*a++ = '\0';
	b = strchr(a, ':');
	*b++ = '\0';
	if ((why = sr_parse_double(buf, &p->lo)) ||
	    (why = sr_parse_double(a, &p->step)) ||
	    (why = sr_parse_double(b, &p->hi)))
		FAIL("grid '%s': %s", SR_SHOW(v), why);
	if (p->step <= 0)
		FAIL("grid '%s': step must be positive", SR_SHOW(v));
	if (p->hi < p->lo)
		FAIL("grid '%s': hi is below lo", SR_SHOW(v));
	if (!isfinite(p->hi - p->lo))
		FAIL("grid '%s': its width hi - lo overflows a double",
		    SR_SHOW(v));
	n = (p->hi - p->lo) / p->step;
	if (fabs(n - round(n)) > 1e-9 * fmax(1, n))
		FAIL("grid '%s': hi is not lo plus a whole number of steps",
		    SR_SHOW(v));
	if (round(n) + 1 > SR_MAX_LEVELS)
		FAIL("grid '%s': %.0f values is too many", SR_SHOW(v), round(n) + 1);
	if (p->type == SR_INT && !(is_integral(p->lo) &&
	    is_integral(p->step) && is_integral(p->hi)))
		FAIL("grid '%s': an int grid needs integer lo, step and hi",
		    SR_SHOW(v));
	p->nlist = (size_t)round(n) + 1;
	p->kind = SR_GRID;
	return NULL;
}

/* Parses "lo..hi"; returns NULL or the reason. */
static const char *
parse_range(sr_param *p, const char *v, char *errbuf, size_t errlen)
{
	char buf[256], *dots;
	const char *why;

	if (strlen(v) >= sizeof buf)
		FAIL("values '%s' too long", SR_SHOW(v));
	strcpy(buf, v);
	dots = strstr(buf, "..");
	*dots = '\0';
	if ((why = sr_parse_double(buf, &p->lo)) ||
	    (why = sr_parse_double(dots + 2, &p->hi)))
		FAIL("range '%s': %s", SR_SHOW(v), why);
	if (!(p->hi > p->lo))
		FAIL("range '%s': hi must be above lo", SR_SHOW(v));
	if (!isfinite(p->hi - p->lo))	/* values lo + u (hi - lo) */
		FAIL("range '%s': its width hi - lo overflows a double",
		    SR_SHOW(v));
	if (p->type == SR_INT && !(is_integral(p->lo) && is_integral(p->hi)))
		FAIL("range '%s': an int range needs integer ends", SR_SHOW(v));
	if (p->type == SR_INT && p->hi - p->lo + 1 > SR_MAX_LEVELS)
		FAIL("range '%s': too many values", SR_SHOW(v));
	p->kind = SR_RANGE;
	p->step = p->type == SR_INT ? 1 : 0;
	if (p->type == SR_INT)
		p->nlist = (size_t)(p->hi - p->lo) + 1;
	return NULL;
}

/* Whether the comma list v holds an item that is not a number: then an
 * enum's values are words. */
static int
has_words(const char *v)
{
	char item[SR_WORD_MAX + 1];
	double x;

	while (sr_list_next(&v, item, sizeof item) > 0)
		if (sr_parse_double(item, &x))
			return 1;
	return 0;
}

/* Whether s holds a control character (C0 or DEL): an escape sequence in a
 * name would reach a terminal with every design and report. */
static int
has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

/* Checks a word of a word enum: printable UTF-8 (the readers of every
 * file have checked UTF-8) with no blank, comma, '=' or '#'. A word is
 * data: no character is special to the tools that pass it on (argv
 * elements, never a shell), so none other is refused. */
static const char *
check_word(const char *w, char *errbuf, size_t errlen)
{
	const unsigned char *u;

	if (has_control(w))
		FAIL("enum word '%s' has a control character (a tab, newline "
		    "or escape)", SR_SHOW(w));
	for (u = (const unsigned char *)w; *u; u++)
		if (u[0] == 0xc2 && u[1] >= 0x80 && u[1] <= 0xa0)
			FAIL("enum word '%s' has a C1 control character or a "
			    "no-break space", SR_SHOW(w));
	if (strpbrk(w, " =#"))
		FAIL("enum word '%s' has a blank, '=' or '#'", SR_SHOW(w));
	return NULL;
}

/* Parses the words "w1,w2,..." of a word enum; their codes are their
 * positions. Returns NULL or the reason. */
static const char *
parse_words(sr_param *p, const char *v, char *errbuf, size_t errlen)
{
	const char *tok = v, *why;
	char item[SR_WORD_MAX + 1];
	size_t i;
	int rc;

	p->kind = SR_LIST;
	while ((rc = sr_list_next(&tok, item, sizeof item)) > 0) {
		if ((why = check_word(item, errbuf, errlen)))
			return why;
		for (i = 0; i < p->nlist; i++)
			if (strcmp(p->word[i], item) == 0)
				FAIL("enum word '%s' repeated", SR_SHOW(item));
		p->word = sr_reallocarray(p->word, p->nlist + 2, sizeof *p->word);
		p->list = sr_reallocarray(p->list, p->nlist + 1, sizeof *p->list);
		p->word[p->nlist] = sr_strdup(item);
		p->word[p->nlist + 1] = NULL;
		p->list[p->nlist] = (double)p->nlist;
		p->nlist++;
	}
	if (rc == -1)
		FAIL("list '%s' has an empty item", SR_SHOW(v));
	if (rc == -2)
		FAIL("enum word '%.40s...' longer than %d bytes", SR_SHOW(tok),
		    SR_WORD_MAX);
	return NULL;
}

/* Parses "v1,v2,..."; returns NULL or the reason. */
static const char *
parse_list(sr_param *p, const char *v, char *errbuf, size_t errlen)
{
	const char *tok = v, *why;
	char item[64];
	size_t i;
	double x;
	int rc;

	p->kind = SR_LIST;
	while ((rc = sr_list_next(&tok, item, sizeof item)) > 0) {
		if ((why = sr_parse_double(item, &x)))
			FAIL("list value '%s': %s", SR_SHOW(item), why);
		if (p->type == SR_INT && !is_integral(x))
			FAIL("list value '%s' is not an integer", SR_SHOW(item));
		for (i = 0; i < p->nlist; i++)
			if (p->list[i] == x)
				FAIL("list value '%s' repeated", SR_SHOW(item));
		p->list = sr_reallocarray(p->list, p->nlist + 1, sizeof *p->list);
		p->list[p->nlist++] = x;
	}
	if (rc == -1)
		FAIL("list '%s' has an empty item", SR_SHOW(v));
	if (rc == -2)
		FAIL("list item '%s' too long", SR_SHOW(tok));
	return NULL;
}

/* Materializes grid values, rounded to 15 significant digits so that
 * 0.1-steps read as written (0.3, not 0.30000000000000004). */
static void
fill_grid(sr_param *p)
{
	char buf[SR_NUMLEN];
	size_t i;

	p->list = sr_calloc(p->nlist, sizeof *p->list);
	for (i = 0; i < p->nlist; i++) {
		snprintf(buf, sizeof buf, "%.15g", p->lo + (double)i * p->step);
		p->list[i] = strtod(buf, NULL);
	}
}

int
sr_param_reserved(const char *name)
{
	static const char *const reserved[] = { SR_METRICS_RUN,
	    SR_METRICS_TILE, "in", "out", "ref", "threads", "metrics",
	    "scratch" };
	size_t i;

	for (i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
		if (strcmp(name, reserved[i]) == 0)
			return 1;
	return 0;
}

static const char *
check_name(const char *name, char *errbuf, size_t errlen)
{
	if (*name == '\0')
		FAIL("empty parameter name");
	if (has_control(name))
		FAIL("parameter name '%s' has a control character", SR_SHOW(name));
	if (strpbrk(name, " ,=\"'#"))
		FAIL("parameter name '%s' has a space, comma, '=', quote or '#'",
		    SR_SHOW(name));
	if (sr_param_reserved(name))
		FAIL("parameter name '%s' is reserved (workflow(5)'s "
		    "placeholders, the columns run and tile)", SR_SHOW(name));
	return NULL;
}

/* Frees what parsing allocated before it failed. */
static void
param_clear(sr_param *p)
{
	size_t i;

	for (i = 0; p->word && i < p->nlist; i++)
		free(p->word[i]);
	free(p->word);
	free(p->list);
	p->word = NULL;
	p->list = NULL;
}

/* Parses the values and default of p; NULL or the reason. */
static const char *
parse_domain(sr_param *p, const char *values, const char *def, int *field,
    char *errbuf, size_t errlen)
{
	const char *why;

	*field = SR_FIELD_VALUES;
	if (p->type != SR_ENUM && strchr(values, ':') &&
	    strchr(strchr(values, ':') + 1, ':'))
		why = parse_grid(p, values, errbuf, errlen);
	else if (p->type != SR_ENUM && strstr(values, ".."))
		why = parse_range(p, values, errbuf, errlen);
	else if (p->type == SR_ENUM && has_words(values))
		why = parse_words(p, values, errbuf, errlen);
	else
		why = parse_list(p, values, errbuf, errlen);
	if (why)
		return why;
	if (p->kind == SR_GRID)
		fill_grid(p);
	*field = SR_FIELD_DEFAULT;
	if (p->word) {
		if (sr_param_read(p, def, &p->def))
			FAIL("default '%s' is not one of the words %s",
			    SR_SHOW(def), SR_SHOW(values));
		return NULL;
	}
	if ((why = sr_parse_double(def, &p->def)))
		FAIL("default '%s': %s", SR_SHOW(def), why);
	if (p->type == SR_INT && !is_integral(p->def))
		FAIL("default '%s' is not an integer", SR_SHOW(def));
	if (p->type == SR_ENUM && isnan(sr_param_unit_of(p, p->def)))
		FAIL("default '%s' is not one of the values %s", SR_SHOW(def),
		    SR_SHOW(values));
	return NULL;
}

const char *
sr_param_parse(sr_param *p, const char *name, const char *type,
    const char *values, const char *def, int *field, char *errbuf,
    size_t errlen)
{
	const char *why;

	memset(p, 0, sizeof *p);
	*field = SR_FIELD_NAME;
	if ((why = check_name(name, errbuf, errlen)))
		return why;
	*field = SR_FIELD_TYPE;
	if (strcmp(type, "int") == 0)
		p->type = SR_INT;
	else if (strcmp(type, "real") == 0)
		p->type = SR_REAL;
	else if (strcmp(type, "enum") == 0)
		p->type = SR_ENUM;
	else
		FAIL("type '%s' is not int, real or enum", SR_SHOW(type));
	if ((why = parse_domain(p, values, def, field, errbuf, errlen))) {
		param_clear(p);
		return why;
	}
	p->name = sr_strdup(name);
	p->values_text = sr_strdup(values);
	p->default_text = sr_strdup(def);
	return NULL;
}

/* The optional columns of t's header into s's notes; dies on a name
 * sareuse reserves. */
static void
read_note_names(sr_tsv *t, sr_space *s)
{
	static const char *const four[] = { SR_SPACE_NAME, SR_SPACE_TYPE,
	    SR_SPACE_VALUES, SR_SPACE_DEFAULT };
	static const char *const reserved[] = { SR_SPACE_RESERVED };
	size_t i;

	s->note_name = sr_calloc(t->ncol + 1, sizeof *s->note_name);
	for (i = 0; i < t->ncol; i++) {
		if (sr_word_index(t->header[i], four, 4) >= 0)
			continue;
		if (sr_word_index(t->header[i], reserved, sizeof reserved /
		    sizeof reserved[0]) >= 0)
			sr_die(SR_EXIT_DATA, "%s:%zu: column %s: a name reserved for "
			    "an attribute a later sareuse reads (space(5)): rename "
			    "the column", t->path, t->lineno, t->header[i]);
		s->note_name[s->nnote++] = sr_strdup(t->header[i]);
	}
}

const char *
sr_space_group(const sr_space *s, size_t i)
{
	size_t k;
	const char *g;

	for (k = 0; k < s->nnote; k++)
		if (strcmp(s->note_name[k], SR_SPACE_GROUP) == 0) {
			g = s->note[i * s->nnote + k];
			return *g && strcmp(g, "-") ? g : NULL;
		}
	return NULL;
}

/* The current row's notes into s (the row of its parameter s->n). */
static void
read_notes(const sr_tsv *t, sr_space *s)
{
	size_t i, k = 0;

	if (s->nnote == 0)
		return;
	s->note = sr_reallocarray(s->note, (s->n + 1) * s->nnote,
	    sizeof *s->note);
	for (i = 0; i < t->ncol; i++)
		if (k < s->nnote && strcmp(t->header[i], s->note_name[k]) == 0) {
			if (strcmp(t->header[i], SR_SPACE_GROUP) == 0 &&
			    strspn(t->field[i], SR_SPACE_GROUP_CHARS) !=
			    strlen(t->field[i]))
				sr_die(SR_EXIT_DATA, "%s:%zu: column group: '%s': a "
				    "group is a word of letters, digits, '_', '.' "
				    "and '-'", t->path, t->lineno,
				    SR_SHOW(t->field[i]));
			s->note[s->n * s->nnote + k++] = sr_strdup(t->field[i]);
		}
}

sr_space *
sr_space_read(const char *path)
{
	sr_tsv *t = sr_tsv_open(path);
	sr_space *s = sr_calloc(1, sizeof *s);
	int cn = sr_tsv_need(t, SR_SPACE_NAME), ct = sr_tsv_need(t, SR_SPACE_TYPE);
	int cv = sr_tsv_need(t, SR_SPACE_VALUES);
	int cd = sr_tsv_need(t, SR_SPACE_DEFAULT);
	int col[4] = { cn, ct, cv, cd }, field;
	char errbuf[256];
	sr_param p;

	read_note_names(t, s);
	while (sr_tsv_next(t)) {
		if (sr_param_parse(&p, sr_tsv_str(t, cn), sr_tsv_str(t, ct),
		    sr_tsv_str(t, cv), sr_tsv_str(t, cd), &field, errbuf,
		    sizeof errbuf))
			sr_tsv_die(t, col[field], "parameter %s: %s",
			    SR_SHOW(sr_tsv_str(t, cn)), errbuf);
		if (sr_space_find(s, p.name) >= 0)
			sr_tsv_die(t, cn, "parameter %s defined twice", SR_SHOW(p.name));
		read_notes(t, s);
		s->p = sr_reallocarray(s->p, s->n + 1, sizeof *s->p);
		s->p[s->n++] = p;
	}
	if (s->n == 0)
		sr_die(SR_EXIT_DATA, "%s: no parameters", t->path);
	sr_tsv_close(t);
	return s;
}

void
sr_space_write(FILE *fp, const sr_space *s)
{
	const sr_param *p;
	size_t i, k;

	fprintf(fp, "%s\t%s\t%s\t%s", SR_SPACE_NAME, SR_SPACE_TYPE,
	    SR_SPACE_VALUES, SR_SPACE_DEFAULT);
	for (k = 0; k < s->nnote; k++)
		fprintf(fp, "\t%s", s->note_name[k]);
	fputc('\n', fp);
	for (i = 0; i < s->n; i++) {
		p = &s->p[i];
		fprintf(fp, "%s\t%s\t%s\t%s", p->name, sr_ptype_name(p->type),
		    p->values_text, p->default_text);
		for (k = 0; k < s->nnote; k++)
			fprintf(fp, "\t%s", s->note[i * s->nnote + k]);
		fputc('\n', fp);
	}
}

void
sr_param_set_default(sr_param *p, double v)
{
	char buf[SR_NUMLEN];

	p->def = v;
	free(p->default_text);
	p->default_text = sr_strdup(sr_param_text(p, v, buf));
}

void
sr_space_free(sr_space *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->n; i++) {
		free(s->p[i].name);
		free(s->p[i].values_text);
		free(s->p[i].default_text);
		param_clear(&s->p[i]);
	}
	for (i = 0; i < s->nnote; i++)
		free(s->note_name[i]);
	for (i = 0; s->nnote && i < s->n * s->nnote; i++)
		free(s->note[i]);
	free(s->note_name);
	free(s->note);
	free(s->p);
	free(s);
}

sr_space *
sr_space_copy(const sr_space *s)
{
	sr_space *c = sr_calloc(1, sizeof *c);
	char errbuf[256];
	size_t i;
	int field;

	c->p = sr_calloc(s->n ? s->n : 1, sizeof *c->p);
	for (i = 0; i < s->n; i++, c->n++)
		if (sr_param_parse(&c->p[i], s->p[i].name,
		    sr_ptype_name(s->p[i].type), s->p[i].values_text,
		    s->p[i].default_text, &field, errbuf, sizeof errbuf))
			sr_die(SR_EXIT_DATA, "copy of parameter %s: %s",
			    s->p[i].name, errbuf);
	sr_space_copy_notes(c, s);
	return c;
}

void
sr_space_copy_notes(sr_space *to, const sr_space *from)
{
	size_t i;

	to->nnote = from->nnote;
	to->note_name = sr_calloc(from->nnote + 1, sizeof *to->note_name);
	for (i = 0; i < from->nnote; i++)
		to->note_name[i] = sr_strdup(from->note_name[i]);
	to->note = sr_calloc(from->n * from->nnote + 1, sizeof *to->note);
	for (i = 0; i < from->n * from->nnote; i++)
		to->note[i] = sr_strdup(from->note[i]);
}

int
sr_space_find(const sr_space *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->p[i].name, name) == 0)
			return (int)i;
	return -1;
}

const char *
sr_space_fix(sr_space *s, const char *arg, const char *path, char *errbuf,
    size_t errlen)
{
	const char *eq = strchr(arg, '=');
	char name[256];
	double v;
	int j;

	if (eq == NULL || eq == arg || (size_t)(eq - arg) >= sizeof name) {
		snprintf(errbuf, errlen, "--fix '%s': expected NAME=VALUE", arg);
		return errbuf;
	}
	snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
	if ((j = sr_space_find(s, name)) < 0) {
		snprintf(errbuf, errlen, "--fix %s: no parameter %s in %s", arg,
		    name, path);
		return errbuf;
	}
	if (sr_param_read(&s->p[j], eq + 1, &v) ||
	    !sr_param_valid(&s->p[j], v)) {
		snprintf(errbuf, errlen, "--fix %s: '%s' is not a value of %s (%s "
		    "%s, default %s)", arg, eq + 1, name,
		    sr_ptype_name(s->p[j].type), s->p[j].values_text,
		    s->p[j].default_text);
		return errbuf;
	}
	s->p[j].fixed = 1;
	s->p[j].fixed_value = v;
	return NULL;
}

size_t
sr_param_count(const sr_param *p)
{
	return p->nlist;
}

double
sr_param_value(const sr_param *p, size_t i)
{
	if (p->kind == SR_RANGE)
		return p->lo + (double)i;
	return p->list[i];
}

double
sr_param_from_unit(const sr_param *p, double u)
{
	size_t m = p->nlist, i;

	if (m == 0)
		return p->lo + u * (p->hi - p->lo);
	i = u <= 0 ? 0 : (size_t)(u * (double)m);
	return sr_param_value(p, i < m ? i : m - 1);
}

double
sr_param_at_level(const sr_param *p, double u)
{
	size_t m = p->nlist;

	if (m == 0)
		return p->lo + u * (p->hi - p->lo);
	if (m == 1)
		return sr_param_value(p, 0);
	return sr_param_value(p, (size_t)llround(fmin(fmax(u, 0), 1) *
	    (double)(m - 1)));
}

/* Index of v among the discrete values, or -1. */
static long
index_of(const sr_param *p, double v)
{
	double tol = fabs(v) > 1 ? 1e-9 * fabs(v) : 1e-9;
	size_t i;

	if (p->kind == SR_GRID || p->kind == SR_RANGE) {
		double step = p->kind == SR_GRID ? p->step : 1;
		double x = round((v - p->lo) / step);
		if (x < 0 || x >= (double)p->nlist)
			return -1;
		return fabs(sr_param_value(p, (size_t)x) - v) <= tol ? (long)x : -1;
	}
	for (i = 0; i < p->nlist; i++)
		if (fabs(p->list[i] - v) <= tol)
			return (long)i;
	return -1;
}

double
sr_param_unit_of(const sr_param *p, double v)
{
	long i;

	if (p->nlist == 0)
		return v >= p->lo && v <= p->hi ? (v - p->lo) / (p->hi - p->lo) : NAN;
	if ((i = index_of(p, v)) < 0)
		return NAN;
	return p->nlist == 1 ? 0 : (double)i / (double)(p->nlist - 1);
}

int
sr_param_valid(const sr_param *p, double v)
{
	if (fabs(v - p->def) <= (fabs(v) > 1 ? 1e-9 * fabs(v) : 1e-9))
		return 1;
	return !isnan(sr_param_unit_of(p, v));
}

const char *
sr_param_text(const sr_param *p, double v, char buf[SR_NUMLEN])
{
	if (p->word && v >= 0 && v < (double)p->nlist && is_integral(v))
		return p->word[(size_t)v];
	return sr_fmt_double(buf, v);
}

const char *
sr_param_read(const sr_param *p, const char *text, double *v)
{
	size_t i;

	if (p->word == NULL)
		return sr_parse_double(text, v);
	for (i = 0; i < p->nlist; i++)
		if (strcmp(p->word[i], text) == 0) {
			*v = (double)i;
			return NULL;
		}
	return "not one of the enum's words";
}

double
sr_param_field(const sr_tsv *t, int col, const sr_param *p)
{
	double v;
	const char *why = sr_param_read(p, t->field[col], &v);

	if (why && p->word)
		sr_tsv_die_value(t, col, "is not one of the words %s of %s",
		    SR_SHOW(p->values_text), SR_SHOW(p->name));
	if (why)
		sr_tsv_die_value(t, col, "is %s", why);
	return v;
}

double
sr_param_recode(const sr_param *from, const sr_param *to, double v)
{
	char buf[SR_NUMLEN];
	double x;

	if (from->word == NULL && to->word == NULL)
		return v;
	return sr_param_read(to, sr_param_text(from, v, buf), &x) ? NAN : x;
}

sr_space *
sr_space_from_comments(const sr_tsv *t)
{
	sr_space *s = NULL;
	char errbuf[256], *f[5], *copy, *save;
	size_t i, j;
	int field;
	sr_param p;

	for (i = 0; i < t->ncomment; i++) {
		if (strncmp(t->comment[i], "space\t", 6) != 0)
			continue;
		copy = sr_strdup(t->comment[i]);
		for (j = 0, save = NULL; j < 5; j++)
			f[j] = strtok_r(j ? NULL : copy, "\t", &save);
		if (f[4] == NULL || sr_param_parse(&p, f[1], f[2], f[3], f[4],
		    &field, errbuf, sizeof errbuf))
			sr_die(SR_EXIT_DATA, "%s: bad '#space' comment line '%s'%s%s",
			    t->path, SR_SHOW(t->comment[i]), f[4] ? ": " : "",
			    f[4] ? errbuf : "");
		free(copy);
		if (s == NULL)
			s = sr_calloc(1, sizeof *s);
		else if (sr_space_find(s, p.name) >= 0)
			sr_die(SR_EXIT_DATA, "%s: two '#space' lines define %s",
			    t->path, SR_SHOW(p.name));
		s->p = sr_reallocarray(s->p, s->n + 1, sizeof *s->p);
		s->p[s->n++] = p;
	}
	return s;
}

void
sr_space_write_comments(FILE *fp, const sr_space *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		fprintf(fp, "#space\t%s\t%s\t%s\t%s\n", s->p[i].name,
		    sr_ptype_name(s->p[i].type), s->p[i].values_text,
		    s->p[i].default_text);
}
