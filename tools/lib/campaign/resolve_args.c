/* resolve_args.c - the argument lists of sa-sample (the design, its
 * fix items checked against the space) and reuse-merge, and the bounds
 * the tools hold to, checked against the campaign's lines. */
#include "campaign/campaign.h"
#include "campaign/resolve.h"
#include "sa/efast.h"
#include "sa/rbd.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/num.h"
#include "core/opt.h"
#include "core/rng.h"
#include "core/text.h"
#include "plan/mergeplan.h"
#include "sa/method.h"
#include "sa/sample.h"
#include "sa/space.h"

/* One fix item against the space: the parameter exists, the value is in
 * its domain, and it is fixed once (seen[j]). */
static int
check_fix_item(const sr_campaign *c, const sr_space *s, const char *item,
    char *seen, char *err, size_t errlen)
{
	const char *eq = strchr(item, '='), *v = eq + 1;
	size_t line = sr_resolve_line(c, "fix");
	char *name = sr_strdup(item);
	const sr_param *p;
	double x;
	int j, status = 0;

	name[eq - item] = '\0';
	if ((j = sr_space_find(s, name)) < 0) {
		status = sr_resolve_error(err, errlen,
		    "%s:%zu: fix: %s: no parameter %s in %s",
		    c->path, line, SR_SHOW(item), SR_SHOW(name),
		    sr_campaign_get(c, "space"));
	} else if (p = &s->p[j], sr_param_read(p, v, &x) || !sr_param_valid(p,
	    x)) {
		status = sr_resolve_error(err, errlen, "%s:%zu: fix: %s: '%s' "
		    "is not a value of %s (%s %s, default %s)", c->path, line,
		    SR_SHOW(item), SR_SHOW(v), SR_SHOW(name),
		    sr_ptype_name(p->type), p->values_text, p->default_text);
	} else if (seen[j]++) {
		status = sr_resolve_error(err, errlen, "%s:%zu: fix: %s: %s is "
		    "fixed twice", c->path, line, SR_SHOW(item), SR_SHOW(name));
	}
	free(name);
	return status;
}

/* The fix items against the space; each becomes --fix ITEM of sa-sample. */
int
sr_resolve_check_fixes(sr_campaign *c, const sr_space *s, char *err,
    size_t errlen)
{
	char *list = sr_strdup(sr_campaign_get(c, "fix")), *p = list, *item;
	char *seen = sr_calloc(s->n, 1);
	int status = 0;

	while (status == 0 && (item = sr_resolve_item(&p)) != NULL) {
		status = check_fix_item(c, s, item, seen, err, errlen);
		if (status == 0) {
			sr_strlist_add(&c->sample_args, "--fix");
			sr_strlist_add(&c->sample_args, item);
		}
	}
	free(seen);
	free(list);
	return status;
}

/* Adds the arguments to l, up to a NULL. */
static void
add_args(sr_strlist *l, ...)
{
	va_list ap;
	const char *s;

	va_start(ap, l);
	while ((s = va_arg(ap, const char *)) != NULL)
		sr_strlist_add(l, s);
	va_end(ap);
}

/* sa-sample's options for the design, before the fix items. */
void
sr_resolve_sample_args(sr_campaign *c)
{
	sr_strlist *l = &c->sample_args;
	const char *m = sr_campaign_get(c, "method");

	add_args(l, "-m", m, NULL);
	switch (sr_method_parse(m)) {
	case SR_METHOD_MOAT:
		add_args(l, "-r", sr_campaign_get(c, "trajectories"), "-p",
		    sr_campaign_get(c, "levels"), NULL);
		if (!sr_resolve_is(c, "optimize", ""))
			add_args(l, "--optimize", sr_campaign_get(c,
			    "optimize"), NULL);
		break;
	case SR_METHOD_VBD:
		add_args(l, "-n", sr_campaign_get(c, "samples"), "--base",
		    sr_campaign_get(c, "base"), NULL);
		if (sr_resolve_is(c, "second_order", "yes"))
			add_args(l, "--second-order", NULL);
		break;
	case SR_METHOD_GRID:
		add_args(l, "-p", sr_campaign_get(c, "levels"), NULL);
		break;
	case SR_METHOD_EFAST:
		add_args(l, "-n", sr_campaign_get(c, "samples"), NULL);
		break;
	case SR_METHOD_TPE:
		add_args(l, "-n", sr_campaign_get(c, "samples"), "--gamma",
		    sr_campaign_get(c, "tpe_gamma"), "--candidates",
		    sr_campaign_get(c, "tpe_candidates"), NULL);
		if (sr_resolve_is(c, "tpe_multivariate", "no"))
			add_args(l, "--independent", NULL);
		break;
	case SR_METHOD_PSO:
		add_args(l, "-n", sr_campaign_get(c, "samples"), "--inertia",
		    sr_campaign_get(c, "pso_inertia"), "--c1",
		    sr_campaign_get(c, "pso_c1"), "--c2", sr_campaign_get(c,
		    "pso_c2"), NULL);
		break;
	case SR_METHOD_ANNEAL:
		add_args(l, "-n", sr_campaign_get(c, "samples"), NULL);
		if (!sr_resolve_is(c, "anneal_cooling", ""))
			add_args(l, "--cooling", sr_campaign_get(c,
			    "anneal_cooling"), NULL);
		break;
	default:
		add_args(l, "-n", sr_campaign_get(c, "samples"), NULL);
	}
	add_args(l, "-s", sr_campaign_get(c, "seed"), NULL);
}

/* reuse-merge's options for the bucket plan ("stage" is stage-level reuse
 * alone: -a none). */
void
sr_resolve_merge_args(sr_campaign *c)
{
	sr_strlist *l = &c->merge_args;
	const char *m = sr_campaign_get(c, "merge");
	int a = sr_resolve_is(c, "merge", "stage") ? SR_ALGO_NONE :
	    sr_word_index(m, sr_merge_algo_name, SR_ALGO_N);

	add_args(l, "-a", sr_merge_algo_name[a], NULL);
	if (a == SR_ALGO_NONE)
		return;
	if (a != SR_ALGO_TRTMA)
		add_args(l, "-b", sr_campaign_get(c, "bucket_size"), NULL);
	if (a == SR_ALGO_RTMA && sr_resolve_is(c, "double_prune", "yes"))
		add_args(l, "--double-prune", NULL);
	if (a == SR_ALGO_TRTMA) {
		add_args(l, "--nodes", sr_campaign_get(c, "nodes"), NULL);
		if (!sr_resolve_is(c, "max_buckets", ""))
			add_args(l, "-B", sr_campaign_get(c, "max_buckets"),
			    NULL);
		if (!sr_resolve_is(c, "cores", ""))
			add_args(l, "--cores", sr_campaign_get(c, "cores"),
			    NULL);
		if (!sr_resolve_is(c, "max_bucket_tasks", ""))
			add_args(l, "--max-bucket-tasks",
			    sr_campaign_get(c, "max_bucket_tasks"), NULL);
	}
	add_args(l, "--cost", sr_campaign_get(c, "cost"), NULL);
}

char *
sr_resolve_item(char **p)
{
	const char *sep = ", \t\v\f\r";
	char *item = *p + strspn(*p, sep);
	size_t len = strcspn(item, sep);

	if (*item == '\0')
		return NULL;
	*p = item + len;
	if (**p)
		*(*p)++ = '\0';
	return item;
}

int
sr_resolve_is_fixed(const sr_campaign *c, const char *name)
{
	size_t i, len = strlen(name);

	for (i = 0; i + 1 < c->sample_args.n; i++)
		if (strcmp(c->sample_args.v[i], "--fix") == 0 &&
		    strncmp(c->sample_args.v[i + 1], name, len) == 0 &&
		    c->sample_args.v[i + 1][len] == '=')
			return 1;
	return 0;
}

/* The runs of a grid design, as sa-sample -m grid -p levels counts them
 * (sr_generator_grid_size): every parameter not fixed contributes its
 * values, or levels for a continuous range. */
static double
grid_runs(const sr_campaign *c, const sr_space *s)
{
	double levels = strtod(sr_campaign_get(c, "levels"), NULL), n = 1;
	size_t j, m;

	for (j = 0; j < s->n && n < 1e300; j++) {
		if (sr_resolve_is_fixed(c, s->p[j].name))
			continue;
		m = sr_param_count(&s->p[j]);
		n *= m ? (double)m : levels;
	}
	return n;
}

/* The bounds the tools hold to, checked here to name the campaign's
 * line: the seed, the design's run count, the bucket size. */
int
sr_resolve_check_bounds(const sr_campaign *c, const sr_space *s, char *err,
    size_t errlen)
{
	char where[SR_CAMPAIGN_ERRLEN];
	const char *m = sr_campaign_get(c, "method"), *key;
	enum sr_method meth = sr_method_parse(m);
	double runs, n = strtod(sr_campaign_get(c, "samples"), NULL);
	size_t k = s->n;

	sr_resolve_key_place(c, "seed", where, sizeof where);
	if (strtod(sr_campaign_get(c, "seed"), NULL) > (double)SR_SEED_MAX)
		return sr_resolve_error(err, errlen, "%s: seeds go from 0 to "
		    "%lu", where, SR_SEED_MAX);
	sr_resolve_key_place(c, "bucket_size", where, sizeof where);
	if (strtod(sr_campaign_get(c, "bucket_size"), NULL) > 1e9)
		return sr_resolve_error(err, errlen, "%s: at most 1e9", where);
	sr_resolve_key_place(c, "samples", where, sizeof where);
	if (meth == SR_METHOD_EFAST && !sr_efast_enough((size_t)fmin(n, 1e18),
	    SR_EFAST_M))
		return sr_resolve_error(err, errlen, "%s: efast: a parameter's "
		    "block needs more than 4 M^2 = %d runs (M = %d)", where,
		    4 * SR_EFAST_M * SR_EFAST_M, SR_EFAST_M);
	if (meth == SR_METHOD_RBD_FAST && n < SR_RBD_MIN_RUNS(SR_RBD_M))
		return sr_resolve_error(err, errlen, "%s: rbd_fast: its analysis "
		    "needs at least %d runs (M = %d harmonics, more than 2 M in "
		    "half of the runs, a bootstrap replicate)", where,
		    SR_RBD_MIN_RUNS(SR_RBD_M), SR_RBD_M);
	if (meth == SR_METHOD_GRID)
		n = grid_runs(c, s);
	runs = meth == SR_METHOD_GRID ? n : sr_method_runs(meth, n > 1e18 ?
	    (size_t)1e18 : (size_t)n, k, (size_t)fmin(1e18,
	    strtod(sr_campaign_get(c, "trajectories"), NULL)), sr_resolve_is(c,
	    "second_order", "yes"));
	if (runs > SR_SAMPLE_MAX_ROWS) {
		key = meth == SR_METHOD_MOAT ? "trajectories" :
		    meth == SR_METHOD_GRID ? "levels" : "samples";
		sr_resolve_key_place(c, key, where, sizeof where);
		return sr_resolve_error(err, errlen, "%s: %s: %.3g runs is too "
		    "many (limit %.0g)", where, m, runs, SR_SAMPLE_MAX_ROWS);
	}
	return 0;
}

int
sr_resolve_check_words(const sr_campaign *c, const sr_space *s, char *err,
    size_t errlen)
{
	size_t i;

	for (i = 0; !c->commands && i < s->n; i++)
		if (s->p[i].word)
			return sr_resolve_error(err, errlen, "%s: parameter %s is an "
			    "enum of words (%s): the tasks of %s are built in and "
			    "take numbers; words are for workflows of commands "
			    "(workflow(5))", sr_campaign_get(c, "space"),
			    s->p[i].name, SR_SHOW(s->p[i].values_text),
			    sr_campaign_get(c, "workflow"));
	return 0;
}
