/* resolve_goal.c - a campaign's goal and cancellation rule: the keys
 * that concern another goal, rule, method, merge or engine (refused or
 * warned about), the goal's own checks, and the derived settings. */
#include "campaign/campaign.h"
#include "campaign/resolve.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/text.h"
#include "plan/results.h"
#include "sa/method.h"
#include "plan/workflow.h"

int
sr_campaign_is_tune(const sr_campaign *c)
{
	return sr_resolve_is(c, "goal", "tune");
}

/* Whether w (len bytes) is one of the blank-separated words. */
int
sr_resolve_word_in(const char *w, size_t len, const char *words)
{
	size_t n;

	for (; *words; words += n, words += *words == ' ') {
		n = strcspn(words, " ");
		if (n == len && strncmp(words, w, len) == 0)
			return 1;
	}
	return 0;
}

/* The number of words of k's concerns that are words of class. */
static size_t
class_count(const sr_campaign_key *k, const char *class)
{
	const char *w = k->concerns;
	size_t len, n = 0;

	for (; w && *w; w += len, w += *w == ' ') {
		len = strcspn(w, " ");
		n += sr_resolve_word_in(w, len, class);
	}
	return n;
}

/* Whether k concerns a campaign whose word of class (its goal, its rule)
 * is value: k names no word of the class, or names value. */
static int
class_admits(const sr_campaign_key *k, const char *class, const char *value)
{
	return class_count(k, class) == 0 ||
	    (sr_resolve_word_in(value, strlen(value), class) &&
	    sr_resolve_word_in(value, strlen(value), k->concerns));
}

/* Whether k concerns c's goal and cancellation rule. */
int
sr_resolve_key_in_campaign(const sr_campaign *c, const sr_campaign_key *k)
{
	return class_admits(k, SR_CAMPAIGN_GOALS, sr_campaign_get(c, "goal")) &&
	    class_admits(k, SR_CAMPAIGN_RULES, sr_campaign_get(c, "cancel"));
}

/* The words of k's concerns of class as "a, b or c" into buf. */
static void
class_words(const sr_campaign_key *k, const char *class, char *buf,
    size_t size)
{
	const char *w = k->concerns;
	size_t len, i = 0, n = class_count(k, class), at = 0;

	buf[0] = '\0';
	for (; *w && at < size; w += len, w += *w == ' ') {
		len = strcspn(w, " ");
		if (!sr_resolve_word_in(w, len, class))
			continue;
		at += (size_t)snprintf(buf + at, size - at, "%s%.*s", i == 0 ?
		    "" : i + 1 == n ? " or " : ", ", (int)len, w);
		i++;
	}
}

/* The keys given that concern another goal or another rule: refused,
 * naming their line. */
int
sr_resolve_check_concerns(const sr_campaign *c, char *err, size_t errlen)
{
	const sr_campaign_key *k;
	char words[256];
	size_t i;

	for (i = 0; i < sr_campaign_nkeys; i++) {
		k = &sr_campaign_keys[i];
		if (c->value[i] == NULL || sr_resolve_key_in_campaign(c, k))
			continue;
		if (!class_admits(k, SR_CAMPAIGN_GOALS, sr_campaign_get(c,
		    "goal"))) {
			class_words(k, SR_CAMPAIGN_GOALS, words, sizeof words);
			return sr_resolve_error(err, errlen, "%s:%zu: %s: only "
			    "for goal = %s (this campaign's goal is %s)",
			    c->path, c->line[i], k->name, words,
			    sr_campaign_get(c, "goal"));
		}
		class_words(k, SR_CAMPAIGN_RULES, words, sizeof words);
		return sr_resolve_error(err, errlen, "%s:%zu: %s: only for "
		    "cancel = %s (this campaign's cancel is %s)", c->path,
		    c->line[i], k->name, words, sr_campaign_get(c, "cancel"));
	}
	return 0;
}

/* Adds "FILE:LINE: message" to c's warnings. */
static void
warn(sr_campaign *c, size_t line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
warn(sr_campaign *c, size_t line, const char *fmt, ...)
{
	char msg[SR_CAMPAIGN_ERRLEN];
	va_list ap;
	int n = snprintf(msg, sizeof msg, "%s:%zu: ", c->path, line);

	if (n >= 0 && (size_t)n < sizeof msg) {
		va_start(ap, fmt);
		vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
		va_end(ap);
	}
	sr_strlist_add(&c->warnings, msg);
}

/* The keys whose words a key's concerns may name besides goals and
 * rules: its methods, merges and engines. */
static const char *const setting_keys[] = { "method", "merge", "engine" };

/* Whether k, given in c, is of no use there: it names methods, merges or
 * engines, and none of them is c's. Writes "method = vbd" (the settings
 * of the classes it names, joined by "and") to by and the words it names
 * as "a, b or c" to words. */
static int
key_unused(const sr_campaign *c, const sr_campaign_key *k, char *by,
    size_t bysize, char *words, size_t wsize)
{
	const char *value, *class;
	size_t i, at = 0;
	int named = 0, used = 0;

	by[0] = '\0';
	if (k->role == SR_ROLE_ANALYSIS && class_count(k, SR_CAMPAIGN_ANALYSES)) {
		value = sr_campaign_indices_method(c);
		if (sr_resolve_word_in(value, strlen(value), k->concerns))
			return 0;
		snprintf(by, bysize, "indices = %s", value);
		class_words(k, SR_CAMPAIGN_ANALYSES, words, wsize);
		return 1;
	}
	for (i = 0; i < sizeof setting_keys / sizeof setting_keys[0]; i++) {
		class = sr_campaign_keys[sr_resolve_key(setting_keys[i])].words;
		if (class_count(k, class) == 0)
			continue;
		value = sr_campaign_get(c, setting_keys[i]);
		used |= sr_resolve_word_in(value, strlen(value), k->concerns);
		if (at < bysize)
			at += (size_t)snprintf(by + at, bysize - at, "%s%s = "
			    "%s", named++ ? " and " : "", setting_keys[i],
			    value);
	}
	if (!named || used)
		return 0;
	class_words(k, SR_CAMPAIGN_METHODS " " SR_CAMPAIGN_MERGES " "
	    SR_CAMPAIGN_ENGINES, words, wsize);
	return 1;
}

/* A key given and where: the warnings go in the order of lines. */
struct given {
	size_t line, key;
};

static int
by_line(const void *a, const void *b)
{
	const struct given *x = a, *y = b;

	return (x->line > y->line) - (x->line < y->line);
}

/* The warnings: each key given that c's method, merge or engine does not
 * use, method = sobol in a sensitivity campaign, and wsi-tiles' keys
 * without slides, in line order. */
void
sr_resolve_warnings(sr_campaign *c)
{
	struct given *g = sr_calloc(sr_campaign_nkeys, sizeof *g);
	char by[256], words[512];
	const sr_campaign_key *k;
	size_t i, n = 0;

	for (i = 0; i < sr_campaign_nkeys; i++)
		if (c->value[i]) {
			g[n].line = c->line[i];
			g[n++].key = i;
		}
	qsort(g, n, sizeof *g, by_line);
	for (i = 0; i < n; i++) {
		k = &sr_campaign_keys[g[i].key];
		if (key_unused(c, k, by, sizeof by, words, sizeof words))
			warn(c, g[i].line, "%s: not used by %s (it concerns "
			    "%s)", k->name, by, words);
		else if (strcmp(k->name, "method") == 0 && sr_resolve_is(c,
		    "method", "sobol") && !sr_campaign_is_tune(c))
			warn(c, g[i].line, "method: sobol plans a correlation "
			    "study on Sobol points; Sobol (variance-based) "
			    "indices are method = vbd");
		else if (sr_resolve_is_slide_key(k->name) && !sr_resolve_line(c,
		    "slides"))
			warn(c, g[i].line, "%s: not used without slides (it is "
			    "an option of wsi-tiles)", k->name);
	}
	free(g);
}

/* The goal's defaults: tile_order shuffle for tune, list for
 * sensitivity, which cancels nothing. */
void
sr_resolve_goal_settings(sr_campaign *c)
{
	if (!sr_resolve_line(c, "tile_order"))
		sr_resolve_set(c, "tile_order",
		    sr_strdup(sr_campaign_is_tune(c) ? "shuffle" : "list"));
	if (!sr_campaign_is_tune(c))
		sr_resolve_set(c, "cancel", sr_strdup("none"));
}

/* indices: an analysis of its own design (moat, vbd, efast) needs that
 * design; one of given data (rbd_fast, pawn, delta, corr) takes any but
 * MOAT's, whose runs sit on a few levels along trajectories. */
int
sr_resolve_check_indices(const sr_campaign *c, char *err, size_t errlen)
{
	const char *a = sr_campaign_get(c, "indices"),
	    *m = sr_campaign_get(c, "method");
	char where[SR_CAMPAIGN_ERRLEN];
	int ai = sr_method_parse(a);

	if (*a == '\0' || strcmp(a, m) == 0)
		return 0;
	sr_resolve_key_place(c, "indices", where, sizeof where);
	if (!sr_method_is_given((enum sr_method)ai))
		return sr_resolve_error(err, errlen, "%s: %s analyzes its own "
		    "design: give method = %s (this campaign's is %s)", where, a,
		    a, m);
	if (strcmp(m, "moat") == 0)
		return sr_resolve_error(err, errlen, "%s: %s needs a sample of "
		    "the space; a MOAT design's runs sit on a few levels along "
		    "trajectories: analyze it with indices = moat, or draw lhs, "
		    "sobol, random or vbd", where, a);
	return 0;
}

/* batches: a drawn design (not grid) of at least one set per batch;
 * knowledge without batches prunes nothing (a warning). */
int
sr_resolve_check_batches(sr_campaign *c, char *err, size_t errlen)
{
	char where[SR_CAMPAIGN_ERRLEN];
	long n = strtol(sr_campaign_get(c, "batches"), NULL, 10);

	sr_resolve_key_place(c, "batches", where, sizeof where);
	if (n > 1 && sr_resolve_is(c, "method", "grid"))
		return sr_resolve_error(err, errlen, "%s: a grid is one "
		    "design, not drawn in batches: use random, lhs, sobol, "
		    "halton, hammersley or mc", where);
	int mi = sr_method_parse(sr_campaign_get(c, "method"));

	if (mi >= 0 && sr_method_is_search((enum sr_method)mi)) {
		char mw[SR_CAMPAIGN_ERRLEN];
		sr_resolve_key_place(c, "method", mw, sizeof mw);
		if (n < 2 && sr_campaign_is_tune(c))
			return sr_resolve_error(err, errlen, "%s: %s learns from "
			    "round to round: give batches = 2 or more (each "
			    "batch a round)", mw, sr_campaign_get(c, "method"));
	}
	if (n > 1 && n > strtol(sr_campaign_get(c, "samples"), NULL, 10))
		return sr_resolve_error(err, errlen, "%s: %ld batches of %s "
		    "samples: at most one batch per sample", where, n,
		    sr_campaign_get(c, "samples"));
	if (n == 1 && sr_resolve_line(c, "knowledge"))
		warn(c, sr_resolve_line(c, "knowledge"), "knowledge: not used "
		    "with batches = 1 (the space is pruned between batches)");
	return 0;
}

/* The built-in columns of results.tsv a metric may name, in a workflow
 * that compares; the first four are scores (goal = tune). */
static const char *const builtin_metric[] = { SR_RESULTS_DICE,
    SR_RESULTS_JACCARD, SR_RESULTS_OBJECT_DICE, SR_RESULTS_AJI,
    SR_RESULTS_OBJECTS };
#define NBUILTIN (sizeof builtin_metric / sizeof *builtin_metric)

/* Whether m is a built-in column of results, not a command's. */
static int
builtin_metric_name(const char *m)
{
	size_t i;

	for (i = 0; i < NBUILTIN; i++)
		if (strcmp(m, builtin_metric[i]) == 0)
			return 1;
	return 0;
}

/* A tune campaign needs a design of parameter sets and a score, and for a
 * built-in score a ground truth: reference = defaults, moat and vbd, and
 * objects are refused. */
int
sr_resolve_check_tune(const sr_campaign *c, char *err, size_t errlen)
{
	char where[SR_CAMPAIGN_ERRLEN];
	const char *m = sr_campaign_get(c, "method");

	int mi = sr_method_parse(m);

	sr_resolve_key_place(c, "method", where, sizeof where);
	if (!sr_campaign_is_tune(c) && mi >= 0 &&
	    sr_method_is_search((enum sr_method)mi))
		return sr_resolve_error(err, errlen, "%s: %s is a search that "
		    "learns from scores, only for goal = tune", where, m);
	if (!sr_campaign_is_tune(c))
		return 0;
	if (!builtin_metric_name(sr_campaign_get(c, "metric")))
		;	/* a command's metric: no reference needed */
	else if (c->refdir == NULL && sr_resolve_line(c, "reference"))
		return sr_resolve_error(err, errlen, "%s:%zu: reference: "
		    "defaults is refused with goal = tune: tuning scores every "
		    "set against ground-truth masks; give their directory",
		    c->path, sr_resolve_line(c, "reference"));
	else if (c->refdir == NULL)
		return sr_resolve_error(err, errlen, "%s:%zu: goal: tune needs "
		    "a reference directory of ground-truth masks (the default, "
		    "reference = defaults, is the default run's masks, no "
		    "ground truth)", c->path, sr_resolve_line(c, "goal"));
	sr_resolve_key_place(c, "method", where, sizeof where);
	if (sr_resolve_is(c, "method", "moat") || sr_resolve_is(c, "method",
	    "vbd") || sr_resolve_is(c, "method", "efast") || sr_resolve_is(c,
	    "method", "rbd_fast"))
		return sr_resolve_error(err, errlen, "%s: %s is a design for "
		    "sensitivity indices, refused with goal = tune: use grid, "
		    "random, lhs, sobol, halton, hammersley or mc", where, m);
	sr_resolve_key_place(c, "metric", where, sizeof where);
	if (sr_resolve_is(c, "metric", "objects"))
		return sr_resolve_error(err, errlen, "%s: objects is a count, "
		    "not a score, refused with goal = tune: use dice, jaccard, "
		    "object_dice or aji", where);
	return 0;
}

char *
sr_campaign_cancel_rule(const sr_campaign *c)
{
	const char *rule = sr_campaign_get(c, "cancel"), *name;
	const sr_campaign_key *k;
	char buf[1024];
	size_t i, at, n = 0;

	if (!sr_campaign_is_tune(c) || strcmp(rule, "none") == 0)
		return sr_strdup("none");
	at = (size_t)snprintf(buf, sizeof buf, "%s", rule);
	for (i = 0; i < sr_campaign_nkeys && at < sizeof buf; i++) {
		k = &sr_campaign_keys[i];
		if (class_count(k, SR_CAMPAIGN_RULES) == 0 ||
		    !sr_resolve_word_in(rule, strlen(rule), k->concerns))
			continue;
		name = strncmp(k->name, "cancel_", 7) == 0 ? k->name + 7 :
		    k->name;
		at += (size_t)snprintf(buf + at, sizeof buf - at, "%c%s=%s",
		    n++ ? ',' : ':', name, c->setting[i]);
	}
	return sr_strdup(buf);
}

char *
sr_campaign_tile_order_arg(const sr_campaign *c)
{
	const char *seed = sr_campaign_get(c, "seed");
	char *s;
	size_t n;

	if (!sr_resolve_is(c, "tile_order", "shuffle"))
		return sr_strdup("list");
	n = strlen(seed) + 9;
	s = sr_malloc(n);
	snprintf(s, n, "shuffle:%s", seed);
	return s;
}

/* Writes the metrics of w's results, blank-separated, into buf. */
static void
metric_list(const sr_workflow *w, int compares, char *buf, size_t size)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; compares && i < NBUILTIN && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? " " : "",
		    builtin_metric[i]);
	for (i = 0; i < w->nmetric && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? " " : "",
		    w->metric[i]);
}

/* The keys of a workflow of commands. */
static const char *const command_key[] = { "threads_per_path",
    "task_timeout", "scratch", "command_mem" };

int
sr_resolve_workflow(sr_campaign *c, char *err, size_t errlen)
{
	sr_workflow *w = sr_workflow_read(sr_campaign_get(c, "workflow"));
	const char *m = sr_campaign_get(c, "metric");
	char where[SR_ERRLEN], list[512];
	int compares = !w->commands || w->command_stage + 1 < w->nstage;
	int builtin = compares && builtin_metric_name(m), status = 0;
	size_t i;

	c->commands = w->commands;
	c->compares = compares;
	for (i = 0; !w->commands && i < sizeof command_key /
	    sizeof *command_key; i++)
		if (sr_resolve_line(c, command_key[i]))
			warn(c, sr_resolve_line(c, command_key[i]), "%s: not "
			    "used: the workflow has no commands (workflow(5) "
			    "column run)", command_key[i]);
	for (i = 0; !builtin && i < w->nmetric; i++)
		if (strcmp(m, w->metric[i]) == 0)
			break;
	sr_resolve_key_place(c, "metric", where, sizeof where);
	metric_list(w, compares, list, sizeof list);
	if (!builtin && i == w->nmetric)
		status = sr_resolve_error(err, errlen, "%s: %s: not a column of "
		    "the results of %s (its metrics: %s)", where, SR_SHOW(m),
		    sr_campaign_get(c, "workflow"), *list ? list : "none");
	else if (!compares && c->refdir)
		status = sr_resolve_error(err, errlen, "%s:%zu: reference: %s "
		    "ends with no compare stage: nothing to compare with the "
		    "references", c->path, sr_resolve_line(c, "reference"),
		    sr_campaign_get(c, "workflow"));
	sr_workflow_free(w);
	return status;
}
