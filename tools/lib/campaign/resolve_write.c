/* resolve_write.c - the records sa-campaign reads: each setting, the
 * derived ones, the argument lists and the keys that decide the runs. */
#include "campaign/campaign.h"
#include "campaign/resolve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "sa/method.h"

const char *
sr_campaign_indices_method(const sr_campaign *c)
{
	int i = sr_method_parse(sr_campaign_get(c, "method"));

	if (!sr_resolve_is(c, "indices", ""))
		return sr_campaign_get(c, "indices");
	return sr_method_name(i == SR_METHOD_MOAT || i == SR_METHOD_VBD ||
	    i == SR_METHOD_EFAST || i == SR_METHOD_RBD_FAST ? i :
	    SR_METHOD_CORR);
}

/* Writes one record key=value and its NUL. */
static void
record(FILE *fp, const char *key, const char *value)
{
	fputs(key, fp);
	fputc('=', fp);
	fputs(value, fp);
	fputc('\0', fp);
}

/* Whether key k decides the runs of c: goal and metric in a tune
 * campaign; a plan key of c's goal and rule that concerns its method or
 * merge, or names none (the engines' words do not count: cores). */
static int
decides_runs(const sr_campaign *c, const sr_campaign_key *k)
{
	const char *w = k->concerns, *m = sr_campaign_get(c, "method"),
	    *merge = sr_campaign_get(c, "merge");
	size_t len, others = 0;

	if (k->role == SR_ROLE_TUNE_PLAN)
		return sr_campaign_is_tune(c);
	if (k->role != SR_ROLE_PLAN || !sr_resolve_key_in_campaign(c, k))
		return 0;
	if (k->flags & SR_KEY_LATE && k->def && sr_resolve_is(c, k->name,
	    k->def))
		return 0;	/* at its default: as plans made before it */
	for (; w && *w; w += len, w += *w == ' ') {
		len = strcspn(w, " ");
		if (sr_resolve_word_in(w, len, SR_CAMPAIGN_GOALS) ||
		    sr_resolve_word_in(w, len, SR_CAMPAIGN_RULES))
			continue;
		others++;
		if ((strlen(m) == len && strncmp(w, m, len) == 0) ||
		    (strlen(merge) == len && strncmp(w, merge, len) == 0))
			return 1;
	}
	return others == 0;
}

/* The plan_key records: "KEY = VALUE", one per key that decides the
 * runs, but for the files (space, workflow, tiles), which sa-campaign
 * fingerprints by their contents, and the keys added later at their
 * defaults (one batch, nothing pruned, sa-prune's defaults, one thread:
 * the runs of an output planned before these keys existed). */
static void
plan_keys(FILE *fp, const sr_campaign *c)
{
	const sr_campaign_key *k;
	size_t i;

	for (i = 0; i < sr_campaign_nkeys; i++) {
		k = &sr_campaign_keys[i];
		if ((strcmp(k->name, "batches") == 0 ||
		    strcmp(k->name, "knowledge") == 0 ||
		    strncmp(k->name, "prune_", 6) == 0 ||
		    strcmp(k->name, "vary") == 0 ||
		    strcmp(k->name, "threads_per_path") == 0) &&
		    strcmp(c->setting[i], k->def ? k->def : "") == 0)
			continue;
		/* wsi-tiles' options decide the tiles of slides only */
		if (sr_resolve_is_slide_key(k->name) && sr_resolve_is(c,
		    "slides", ""))
			continue;
		if (k->type != SR_KEY_PATH && decides_runs(c, k))
			fprintf(fp, "plan_key=%s = %s%c", k->name,
			    c->setting[i], '\0');
	}
}

int
sr_campaign_write(FILE *fp, const sr_campaign *c)
{
	char *derived;
	size_t i;

	record(fp, "campaign", c->abspath);
	for (i = 0; i < sr_campaign_nkeys; i++)
		record(fp, sr_campaign_keys[i].name, c->setting[i]);
	record(fp, "reference_dir", c->refdir ? c->refdir : "");
	record(fp, "commands", c->commands ? "yes" : "no");
	record(fp, "compares", c->compares ? "yes" : "no");
	record(fp, "indices_method", sr_campaign_indices_method(c));
	derived = sr_campaign_cancel_rule(c);
	record(fp, "cancel_rule", derived);
	free(derived);
	derived = sr_campaign_tile_order_arg(c);
	record(fp, "tile_order_arg", derived);
	free(derived);
	for (i = 0; i < c->sample_args.n; i++)
		record(fp, "sample_arg", c->sample_args.v[i]);
	for (i = 0; i < c->merge_args.n; i++)
		record(fp, "merge_arg", c->merge_args.v[i]);
	plan_keys(fp, c);
	return fflush(fp) == 0 && !ferror(fp) ? 0 : -1;
}
