/* space.c - parameter spaces: parsing, domains, unit-cube mapping. */
#include "sa/space.h"
#include "sa/metrics.h"
#include "core/err.h"
#include "core/num.h"
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
	*field = SR_FIELD_VALUES;
	if (p->type != SR_ENUM && strchr(values, ':') &&
	    strchr(strchr(values, ':') + 1, ':'))
		why = parse_grid(p, values, errbuf, errlen);
	else if (p->type != SR_ENUM && strstr(values, ".."))
		why = parse_range(p, values, errbuf, errlen);
	else
		why = parse_list(p, values, errbuf, errlen);
	if (why)
		return why;
	if (p->kind == SR_GRID)
		fill_grid(p);
	*field = SR_FIELD_DEFAULT;
	if ((why = sr_parse_double(def, &p->def))) {
		free(p->list);
		p->list = NULL;
		FAIL("default '%s': %s", SR_SHOW(def), why);
	}
	if ((p->type == SR_INT && !is_integral(p->def)) || (p->type ==
	    SR_ENUM && isnan(sr_param_unit_of(p, p->def)))) {
		free(p->list);
		p->list = NULL;
		if (p->type == SR_INT)
			FAIL("default '%s' is not an integer", SR_SHOW(def));
		FAIL("default '%s' is not one of the values %s", SR_SHOW(def),
		    SR_SHOW(values));
	}
	p->name = sr_strdup(name);
	p->values_text = sr_strdup(values);
	p->default_text = sr_strdup(def);
	return NULL;
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

	while (sr_tsv_next(t)) {
		if (sr_param_parse(&p, sr_tsv_str(t, cn), sr_tsv_str(t, ct),
		    sr_tsv_str(t, cv), sr_tsv_str(t, cd), &field, errbuf,
		    sizeof errbuf)) {
			free(p.list);
			sr_tsv_die(t, col[field], "parameter %s: %s",
			    SR_SHOW(sr_tsv_str(t, cn)), errbuf);
		}
		if (sr_space_find(s, p.name) >= 0)
			sr_tsv_die(t, cn, "parameter %s defined twice", SR_SHOW(p.name));
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
	size_t i;

	fprintf(fp, "%s\t%s\t%s\t%s\n", SR_SPACE_NAME, SR_SPACE_TYPE,
	    SR_SPACE_VALUES, SR_SPACE_DEFAULT);
	for (i = 0; i < s->n; i++) {
		p = &s->p[i];
		fprintf(fp, "%s\t%s\t%s\t%s\n", p->name, sr_ptype_name(p->type),
		    p->values_text, p->default_text);
	}
}

void
sr_param_set_default(sr_param *p, double v)
{
	char buf[SR_NUMLEN];

	p->def = v;
	free(p->default_text);
	p->default_text = sr_strdup(sr_fmt_double(buf, v));
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
		free(s->p[i].list);
	}
	free(s->p);
	free(s);
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
	if (sr_parse_double(eq + 1, &v) || !sr_param_valid(&s->p[j], v)) {
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
