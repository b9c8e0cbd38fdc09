/* resolve.c - a campaign resolved: its settings (defaults filled in),
 * its keys checked against each other, in the order the other resolve_*.c
 * files' checks run (sr_campaign_resolve), and loaded from a file. */
#include "campaign/campaign.h"
#include "campaign/resolve.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/num.h"
#include "core/text.h"
#include "sa/space.h"

/* Sets err to the message; returns -1. */
int
sr_resolve_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

size_t
sr_resolve_key(const char *name)
{
	int k = sr_campaign_key_find(name);

	if (k < 0)
		sr_die(SR_EXIT_DATA, "campaign: no key '%s' in the table",
		    name);
	return (size_t)k;
}

const char *
sr_campaign_get(const sr_campaign *c, const char *key)
{
	return c->setting[sr_resolve_key(key)];
}

/* The line of a key, 0 when it is not given. */
size_t
sr_resolve_line(const sr_campaign *c, const char *key)
{
	return c->line[sr_resolve_key(key)];
}

/* The settings: values or defaults, "" for none; numbers of the real
 * keys in their shortest form (0.050 is 0.05, 2.0 is 2), so that the
 * plan's fingerprint and the cancellation rule compare them as numbers. */
static void
fill_settings(sr_campaign *c)
{
	const sr_campaign_key *k;
	char num[SR_NUMLEN];
	double x;
	size_t i;

	c->setting = sr_calloc(sr_campaign_nkeys, sizeof *c->setting);
	for (i = 0; i < sr_campaign_nkeys; i++) {
		k = &sr_campaign_keys[i];
		c->setting[i] = sr_strdup(c->value[i] ? c->value[i] :
		    k->def ? k->def : "");
		if ((k->type == SR_KEY_REAL || k->type == SR_KEY_FRACTION) &&
		    sr_parse_double(c->setting[i], &x) == NULL) {
			free(c->setting[i]);
			c->setting[i] = sr_strdup(sr_fmt_double(num, x));
		}
	}
}

/* Replaces the setting of key with s (taken). */
void
sr_resolve_set(sr_campaign *c, const char *key, char *s)
{
	size_t i = sr_resolve_key(key);

	free(c->setting[i]);
	c->setting[i] = s;
}

/* The keys of wsi-tiles' options, which only slides = ... uses. */
static const char *const slide_keys[] = { "tile_size", "tile_overlap",
    "level", "mpp", "min_tissue" };
#define NSLIDE_KEYS (sizeof slide_keys / sizeof slide_keys[0])

/* Whether key is one of slide_keys. */
int
sr_resolve_is_slide_key(const char *key)
{
	size_t i;

	for (i = 0; i < NSLIDE_KEYS; i++)
		if (strcmp(key, slide_keys[i]) == 0)
			return 1;
	return 0;
}

/* tiles or slides, exactly one; level and mpp together refused. */
int
sr_resolve_check_tile_source(sr_campaign *c, char *err, size_t errlen)
{
	if (sr_resolve_line(c, "tiles") && sr_resolve_line(c, "slides"))
		return sr_resolve_error(err, errlen, "%s:%zu: slides: the "
		    "campaign has tiles (line %zu) already: give tiles or "
		    "slides, not both", c->path, sr_resolve_line(c, "slides"),
		    sr_resolve_line(c, "tiles"));
	if (!sr_resolve_line(c, "tiles") && !sr_resolve_line(c, "slides"))
		return sr_resolve_error(err, errlen, "%s: no 'tiles' key "
		    "(required, or 'slides')", c->path);
	if (sr_resolve_line(c, "level") && sr_resolve_line(c, "mpp"))
		return sr_resolve_error(err, errlen, "%s:%zu: mpp: the "
		    "campaign has level (line %zu): give one of them", c->path,
		    sr_resolve_line(c, "mpp"), sr_resolve_line(c, "level"));
	long size = atol(sr_campaign_get(c, "tile_size"));
	if (!sr_resolve_line(c, "tile_overlap") && 2 * atol(sr_campaign_get(c,
	    "tile_overlap")) > size) {	/* the default, for small tiles */
		char num[32];
		snprintf(num, sizeof num, "%ld", size / 2);
		sr_resolve_set(c, "tile_overlap", sr_strdup(num));
	}
	if (sr_resolve_line(c, "slides") && 2 * atol(sr_campaign_get(c,
	    "tile_overlap")) > size) {
		char place[256];
		sr_resolve_key_place(c, "tile_overlap", place, sizeof place);
		return sr_resolve_error(err, errlen, "%s: %s: must be at most "
		    "half tile_size (%s), so that a pixel lies in at most four "
		    "tiles", place, sr_campaign_get(c, "tile_overlap"),
		    sr_campaign_get(c, "tile_size"));
	}
	return 0;
}

/* Whether the setting of key is str. */
int
sr_resolve_is(const sr_campaign *c, const char *key, const char *str)
{
	return strcmp(sr_campaign_get(c, key), str) == 0;
}

/* Where key comes from, for messages: "FILE:LINE: KEY", or "FILE: KEY"
 * for a default or the command line's -o. */
void
sr_resolve_key_place(const sr_campaign *c, const char *key, char *buf,
    size_t size)
{
	if (sr_resolve_line(c, key))
		snprintf(buf, size, "%s:%zu: %s", c->path, sr_resolve_line(c,
		    key), key);
	else
		snprintf(buf, size, "%s: %s", c->path, key);
}

int
sr_campaign_resolve(sr_campaign *c, const sr_campaign_env *env, char *err,
    size_t errlen)
{
	char *dir = sr_campaign_dirname(env->cwd, c->path);
	const char *base = strrchr(c->path, '/');
	sr_space *space = NULL;
	size_t i;
	int status = -1;

	c->abspath = sr_campaign_path(dir, base ? base + 1 : c->path);
	fill_settings(c);
	for (i = 0; i < sr_campaign_nkeys; i++)
		if (sr_campaign_keys[i].flags & SR_KEY_REQUIRED &&
		    c->value[i] == NULL) {
			sr_resolve_error(err, errlen, "%s: no '%s' key "
			    "(required)", c->path, sr_campaign_keys[i].name);
			goto done;
		}
	sr_resolve_goal_settings(c);
	if (sr_resolve_check_concerns(c, err, errlen) ||
	    sr_resolve_check_tile_source(c, err, errlen) ||
	    sr_resolve_files(c, dir, env, err, errlen) ||
	    sr_resolve_reference(c, dir, err, errlen) ||
	    sr_resolve_estimate_from(c, dir, err, errlen) ||
	    sr_resolve_knowledge(c, dir, err, errlen) ||
	    sr_resolve_validate(c, dir, err, errlen) ||
	    sr_resolve_check_tune(c, err, errlen) ||
	    sr_resolve_check_indices(c, err, errlen) ||
	    sr_resolve_check_batches(c, err, errlen))
		goto done;
	sr_resolve_warnings(c);
	sr_resolve_output(c, dir, env);
	if (sr_resolve_check_paths(c, err, errlen))
		goto done;
	if (sr_resolve_workflow(c, err, errlen))
		goto done;
	sr_resolve_sample_args(c);
	space = sr_space_read(sr_campaign_get(c, "space"));
	if (sr_resolve_check_params(c, space, err, errlen) ||
	    sr_resolve_check_fixes(c, space, err, errlen) ||
	    sr_resolve_check_vary(c, space, err, errlen) ||
	    sr_resolve_check_bounds(c, space, err, errlen) ||
	    sr_resolve_check_words(c, space, err, errlen))
		goto done;
	if (sr_resolve_is(c, "merge", "trtma") && sr_resolve_is(c,
	    "max_buckets", "") && sr_resolve_is(c, "cores", "")) {
		sr_resolve_error(err, errlen, "%s: merge = trtma needs "
		    "max_buckets or cores", c->path);
		goto done;
	}
	sr_resolve_merge_args(c);
	status = 0;
done:
	sr_space_free(space);
	free(dir);
	return status;
}

sr_campaign *
sr_campaign_load(const char *path, const sr_campaign_env *env, char *err,
    size_t errlen)
{
	sr_campaign *c;
	FILE *fp;
	int status;

	if (!sr_resolve_readable(path) || (fp = fopen(path, "r")) == NULL) {
		sr_resolve_error(err, errlen, "%s: no such readable file",
		    path);
		return NULL;
	}
	c = sr_campaign_new(path);
	status = sr_campaign_parse(c, fp, err, errlen);
	fclose(fp);
	if (status == 0)
		status = sr_campaign_resolve(c, env, err, errlen);
	if (status) {
		sr_campaign_free(c);
		return NULL;
	}
	return c;
}
