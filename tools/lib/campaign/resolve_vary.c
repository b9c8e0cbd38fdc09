/* resolve_vary.c - the space against the workflow (every parameter the
 * workflow reads is in the space) and vary, the parameters searched, the
 * others held at their defaults (campaign(5)). */
#include "campaign/campaign.h"
#include "campaign/resolve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/text.h"
#include "plan/workflow.h"
#include "sa/space.h"

int
sr_resolve_check_params(const sr_campaign *c, const sr_space *s, char *err,
    size_t errlen)
{
	sr_workflow *w = sr_workflow_read(sr_campaign_get(c, "workflow"));
	char *missing = NULL;
	size_t i, len = 0, n = 0, add;
	int status = 0;

	for (i = 0; i < w->nparam; i++) {
		if (sr_space_find(s, w->param[i]) >= 0)
			continue;
		add = strlen(w->param[i]) + 3;
		missing = sr_reallocarray(missing, len + add, 1);
		len += (size_t)snprintf(missing + len, add, "%s%s", n++ ? ", " :
		    "", w->param[i]);
	}
	if (n)
		status = sr_resolve_error(err, errlen, "%s:%zu: space: %s has no "
		    "parameter%s %s, which %s reads: a space lists every "
		    "parameter of the workflow, each with its default; to search "
		    "only some, name them with vary (the others stay at their "
		    "defaults)", c->path, sr_resolve_line(c, "space"),
		    sr_campaign_get(c, "space"), n > 1 ? "s" : "", missing,
		    sr_campaign_get(c, "workflow"));
	free(missing);
	sr_workflow_free(w);
	return status;
}

/* The names of vary, checked: each a parameter of s, once, not fixed;
 * varied[j] set for each. */
static int
vary_names(const sr_campaign *c, const sr_space *s, char *varied, char *err,
    size_t errlen)
{
	char *list = sr_strdup(sr_campaign_get(c, "vary")), *p = list, *name;
	size_t line = sr_resolve_line(c, "vary");
	int j, status = 0;

	while (status == 0 && (name = sr_resolve_item(&p)) != NULL) {
		if ((j = sr_space_find(s, name)) < 0)
			status = sr_resolve_error(err, errlen, "%s:%zu: vary: no "
			    "parameter %s in %s", c->path, line, SR_SHOW(name),
			    sr_campaign_get(c, "space"));
		else if (varied[j]++)
			status = sr_resolve_error(err, errlen, "%s:%zu: vary: %s "
			    "is named twice", c->path, line, SR_SHOW(name));
		else if (sr_resolve_is_fixed(c, name))
			status = sr_resolve_error(err, errlen, "%s:%zu: vary: %s "
			    "is fixed too (line %zu)", c->path, line,
			    SR_SHOW(name), sr_resolve_line(c, "fix"));
	}
	free(list);
	return status;
}

int
sr_resolve_check_vary(sr_campaign *c, const sr_space *s, char *err,
    size_t errlen)
{
	char *varied, *item;
	const sr_param *p;
	size_t j, len;
	int status;

	if (sr_resolve_is(c, "vary", ""))
		return 0;
	varied = sr_calloc(s->n + 1, 1);
	status = vary_names(c, s, varied, err, errlen);
	for (j = 0; status == 0 && j < s->n; j++) {
		p = &s->p[j];
		if (varied[j] || sr_resolve_is_fixed(c, p->name))
			continue;
		if (!sr_param_valid(p, p->def)) {
			status = sr_resolve_error(err, errlen, "%s:%zu: vary: %s is "
			    "held at its default %s, which is not one of its "
			    "values (%s): fix it to one", c->path,
			    sr_resolve_line(c, "vary"), p->name, p->default_text,
			    p->values_text);
			break;
		}
		len = strlen(p->name) + strlen(p->default_text) + 2;
		item = sr_malloc(len);
		snprintf(item, len, "%s=%s", p->name, p->default_text);
		sr_strlist_add(&c->sample_args, "--fix");
		sr_strlist_add(&c->sample_args, item);
		free(item);
	}
	free(varied);
	return status;
}
