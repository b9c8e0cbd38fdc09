/* cancel_rule.c - a cancellation rule's text form: its defaults, parsing
 * and formatting (cancel.h). */
#include "sa/cancel.h"
#include "core/err.h"
#include "core/num.h"
#include "core/opt.h"
#include "core/tsv.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const kind_names[SR_NCANCEL] = {
	"none", "stable", "median", "wilcoxon"
};

/* The keys of each kind, as the messages list them. */
static const char *const kind_keys[SR_NCANCEL] = {
	"", "acc, time, window", "warmup, startup", "warmup, p"
};

const char *
sr_cancel_kind_name(sr_cancelkind k)
{
	return k < SR_NCANCEL ? kind_names[k] : "?";
}

void
sr_cancelrule_default(sr_cancelrule *r, sr_cancelkind k)
{
	*r = (sr_cancelrule){ k, SR_CANCEL_ACC, SR_CANCEL_TIME, SR_CANCEL_WINDOW,
	    SR_CANCEL_WARMUP, SR_CANCEL_STARTUP, SR_CANCEL_P };
}

/* Sets acc or time (key) from value: a number >= 0 (time: > 0) or off. */
static void
set_margin(sr_cancelrule *r, const char *opt, const char *s, const char *key,
    const char *value)
{
	double v, *to = key[0] == 'a' ? &r->acc : &r->time;

	if (strcmp(value, "off") == 0)
		*to = NAN;
	else if (sr_parse_double(value, &v) || v < 0 || (key[0] == 't' && v == 0))
		sr_usage_error("%s '%s': %s '%s': a number >= 0 (time: > 0) or off",
		    opt, s, key, value);
	else
		*to = v;
}

/* Sets key of r's kind to value; 0 when the kind has no such key. */
static int
set_key(sr_cancelrule *r, const char *opt, const char *s, const char *key,
    const char *value)
{
	char what[80];
	int stable = r->kind == SR_CANCEL_STABLE;

	snprintf(what, sizeof what, "%s %s", opt, key);
	if (stable && strcmp(key, "window") == 0)
		r->window = sr_opt_count(what, value, 1, SR_COUNT_MAX);
	else if (stable && (!strcmp(key, "acc") || !strcmp(key, "time")))
		set_margin(r, opt, s, key, value);
	else if (!stable && strcmp(key, "warmup") == 0)
		r->warmup = sr_opt_count(what, value, 1, SR_COUNT_MAX);
	else if (r->kind == SR_CANCEL_MEDIAN && strcmp(key, "startup") == 0)
		r->startup = sr_opt_count(what, value, 1, SR_COUNT_MAX);
	else if (r->kind == SR_CANCEL_WILCOXON && strcmp(key, "p") == 0)
		r->p = sr_opt_real(what, value, 0, 1, SR_OPEN_LO | SR_OPEN_HI,
		    "a number");
	else
		return 0;
	return 1;
}

/* Takes the comma list of KEY=VALUE at list (s the whole value) onto r. */
static void
parse_keys(sr_cancelrule *r, const char *opt, const char *s, const char *list)
{
	const char *p = list, *keys = kind_keys[r->kind];
	char item[64], *eq;
	int rc;

	while ((rc = sr_list_next(&p, item, sizeof item)) > 0) {
		if ((eq = strchr(item, '=')) == NULL)
			sr_usage_error("%s '%s': '%s' is not KEY=VALUE", opt, s, item);
		*eq++ = '\0';
		if (!set_key(r, opt, s, item, eq))
			sr_usage_error("%s '%s': unknown key '%s' of rule %s (%s)",
			    opt, s, item, kind_names[r->kind], keys);
	}
	if (rc != 0)
		sr_usage_error("%s '%s': rule %s takes a comma list of KEY=VALUE "
		    "(%s)", opt, s, kind_names[r->kind], keys);
	if (r->window > SR_CANCEL_WINDOW_MAX)
		sr_usage_error("%s '%s': window above %d", opt, s,
		    SR_CANCEL_WINDOW_MAX);
}

/* The kind named by the len bytes at name; a usage error if none. */
static sr_cancelkind
parse_kind(const char *opt, const char *s, const char *name, size_t len)
{
	size_t k;

	for (k = 0; k < SR_NCANCEL; k++)
		if (strlen(kind_names[k]) == len && !strncmp(name, kind_names[k], len))
			return (sr_cancelkind)k;
	sr_usage_error("%s '%s': unknown rule '%.*s' (none, stable, median, "
	    "wilcoxon; or acc=A,time=T,window=W)", opt, s, (int)len, name);
}

void
sr_cancelrule_parse(sr_cancelrule *r, const char *opt, const char *s)
{
	const char *colon = strchr(s, ':');

	if (colon == NULL && strchr(s, '=') == NULL && strchr(s, ',') == NULL) {
		sr_cancelrule_default(r, parse_kind(opt, s, s, strlen(s)));
		return;
	}
	if (colon == NULL) {	/* the bare form: the stable rule's keys */
		sr_cancelrule_default(r, SR_CANCEL_STABLE);
		parse_keys(r, opt, s, s);
		return;
	}
	sr_cancelrule_default(r, parse_kind(opt, s, s, (size_t)(colon - s)));
	if (r->kind == SR_CANCEL_NONE)
		sr_usage_error("%s '%s': rule none takes no keys", opt, s);
	parse_keys(r, opt, s, colon + 1);
}

/* v as sr_fmt_double writes it, or "off" for NaN. */
static const char *
margin(char buf[SR_NUMLEN], double v)
{
	return isnan(v) ? "off" : sr_fmt_double(buf, v);
}

void
sr_cancelrule_format(const sr_cancelrule *r, char *buf, size_t len)
{
	char a[SR_NUMLEN], b[SR_NUMLEN];

	switch (r->kind) {
	case SR_CANCEL_STABLE:
		snprintf(buf, len, "stable:acc=%s,time=%s,window=%zu",
		    margin(a, r->acc), margin(b, r->time), r->window);
		break;
	case SR_CANCEL_MEDIAN:
		snprintf(buf, len, "median:warmup=%zu,startup=%zu", r->warmup,
		    r->startup);
		break;
	case SR_CANCEL_WILCOXON:
		snprintf(buf, len, "wilcoxon:warmup=%zu,p=%s", r->warmup,
		    sr_fmt_double(a, r->p));
		break;
	default:
		snprintf(buf, len, "%s", sr_cancel_kind_name(r->kind));
	}
}
