/* resolve_paths.c - a campaign's paths: made absolute from the
 * campaign's directory, its files and directories checked to exist, and
 * paths no engine carries refused. */
#include "campaign/campaign.h"
#include "campaign/resolve.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "core/text.h"

char *
sr_campaign_path(const char *dir, const char *path)
{
	size_t n;
	char *s;

	if (path[0] == '/')
		return sr_strdup(path);
	n = strlen(dir) + strlen(path) + 2;
	s = sr_malloc(n);
	snprintf(s, n, "%s/%s", dir, path);
	return s;
}

/* Rewrites the absolute path s without empty, "." and ".." components. */
static void
normalize(char *s)
{
	char *in = s, *out = s;
	size_t len;

	while (*in) {
		while (*in == '/')
			in++;
		len = strcspn(in, "/");
		if (len == 0 || (len == 1 && in[0] == '.')) {
			in += len;
			continue;
		}
		if (len == 2 && in[0] == '.' && in[1] == '.') {
			while (out > s && *--out != '/')
				;
			in += len;
			continue;
		}
		*out++ = '/';
		memmove(out, in, len);
		out += len;
		in += len;
	}
	if (out == s)
		*out++ = '/';
	*out = '\0';
}

char *
sr_campaign_dirname(const char *cwd, const char *path)
{
	char *copy = sr_strdup(path), *slash, *dir;
	size_t n = strlen(copy);

	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	slash = strrchr(copy, '/');
	if (slash == NULL)
		strcpy(copy, ".");
	else if (slash == copy)
		copy[1] = '\0';
	else
		*slash = '\0';
	dir = sr_campaign_path(cwd, copy);
	free(copy);
	normalize(dir);
	return dir;
}

char *
sr_campaign_cwd(void)
{
	const char *pwd = getenv("PWD");
	struct stat a, b;
	char *buf;
	size_t size;

	if (pwd && pwd[0] == '/' && stat(pwd, &a) == 0 && stat(".", &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
		buf = sr_strdup(pwd);
		normalize(buf);
		return buf;
	}
	for (size = 256;; size *= 2) {
		buf = sr_malloc(size);
		if (getcwd(buf, size))
			return buf;
		free(buf);
		if (errno != ERANGE)
			return NULL;
	}
}

int
sr_resolve_readable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    access(path, R_OK) == 0;
}

int
sr_resolve_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* space, workflow, and tiles or slides: absolute, and readable files. */
int
sr_resolve_files(sr_campaign *c, const char *dir, const sr_campaign_env *env,
    char *err, size_t errlen)
{
	static const char *const files[] = { "space", "tiles", "slides",
	    "workflow" };
	const char *key;
	size_t i;

	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		key = files[i];
		if (c->value[sr_resolve_key(key)])
			sr_resolve_set(c, key, sr_campaign_path(dir,
			    c->value[sr_resolve_key(key)]));
		else if (strcmp(key, "tiles") == 0 || strcmp(key,
		    "slides") == 0)
			continue;	/* the other one (check_tile_source) */
		else if (env->sharedir)
			sr_resolve_set(c, key, sr_campaign_path(env->sharedir,
			    "workflows/nuclei.wf"));
		else
			return sr_resolve_error(err, errlen, "%s: no '%s' key, "
			    "and no share directory for its default", c->path,
			    key);
		/* tiles = DIR: the images in it (sa-campaign-data tiles) */
		if (!sr_resolve_readable(sr_campaign_get(c, key)) &&
		    !(strcmp(key, "tiles") == 0 &&
		    sr_resolve_is_dir(sr_campaign_get(c, key))))
			return sr_resolve_error(err, errlen, "%s:%zu: %s: %s: "
			    "no such readable file%s", c->path, sr_resolve_line(c,
			    key), key, sr_campaign_get(c, key), strcmp(key,
			    "tiles") ? "" : " or directory");
	}
	return 0;
}

/* The reference directory (NULL for defaults) and its suffix. */
int
sr_resolve_reference(sr_campaign *c, const char *dir, char *err, size_t errlen)
{
	const char *ref = sr_campaign_get(c, "reference");

	if (strcmp(ref, "defaults") != 0) {
		c->refdir = sr_campaign_path(dir, ref);
		sr_resolve_set(c, "reference", sr_strdup(c->refdir));
		if (!sr_resolve_is_dir(c->refdir))
			return sr_resolve_error(err, errlen, "%s:%zu: "
			    "reference: %s: no such directory", c->path,
			    sr_resolve_line(c, "reference"), c->refdir);
	} else if (c->value[sr_resolve_key("reference_suffix")]) {
		return sr_resolve_error(err, errlen, "%s:%zu: reference_suffix "
		    "needs a reference directory", c->path, sr_resolve_line(c,
		    "reference_suffix"));
	}
	return 0;
}

/* estimate_from: absolute, and the output of a campaign whose buckets
 * ran: its timings directory and its reference step's timings. */
int
sr_resolve_estimate_from(sr_campaign *c, const char *dir, char *err,
    size_t errlen)
{
	const char *v = c->value[sr_resolve_key("estimate_from")];
	char *run, *timings, *ref;
	int ok;

	if (v == NULL)
		return 0;
	run = sr_campaign_path(dir, v);
	sr_resolve_set(c, "estimate_from", run);
	timings = sr_campaign_path(run, "timings");
	ref = sr_campaign_path(run, "ref/timings.tsv");
	ok = sr_resolve_is_dir(timings) && sr_resolve_readable(ref);
	free(timings);
	free(ref);
	if (!ok)
		return sr_resolve_error(err, errlen, "%s:%zu: estimate_from: "
		    "%s: not the output of a campaign that ran (no timings/ "
		    "and ref/timings.tsv)", c->path, sr_resolve_line(c,
		    "estimate_from"), run);
	return 0;
}

/* knowledge: absolute, and a directory (sa-prune reads the campaign
 * outputs inside it). */
int
sr_resolve_knowledge(sr_campaign *c, const char *dir, char *err, size_t errlen)
{
	const char *v = c->value[sr_resolve_key("knowledge")];

	if (v == NULL)
		return 0;
	sr_resolve_set(c, "knowledge", sr_campaign_path(dir, v));
	if (!sr_resolve_is_dir(sr_campaign_get(c, "knowledge")))
		return sr_resolve_error(err, errlen, "%s:%zu: knowledge: %s: "
		    "no such directory", c->path, sr_resolve_line(c,
		    "knowledge"), sr_campaign_get(c, "knowledge"));
	return 0;
}

/* validate: absolute and readable (a list of slides for a campaign of
 * slides); validate_reference: absolute and a directory, by default the
 * reference directory; a campaign without either (reference = defaults)
 * has no ground truth to validate on. */
int
sr_resolve_validate(sr_campaign *c, const char *dir, char *err,
    size_t errlen)
{
	const char *v = c->value[sr_resolve_key("validate")];
	const char *r = c->value[sr_resolve_key("validate_reference")];

	if (v == NULL)
		return 0;
	sr_resolve_set(c, "validate", sr_campaign_path(dir, v));
	/* a campaign of slides validates on slides, cut as its own */
	if (c->value[sr_resolve_key("slides")] &&
	    sr_resolve_is_dir(sr_campaign_get(c, "validate")))
		return sr_resolve_error(err, errlen, "%s:%zu: validate: %s: "
		    "a directory: a campaign of slides validates on a list "
		    "of slides", c->path, sr_resolve_line(c, "validate"),
		    sr_campaign_get(c, "validate"));
	if (!sr_resolve_readable(sr_campaign_get(c, "validate")) &&
	    !sr_resolve_is_dir(sr_campaign_get(c, "validate")))
		return sr_resolve_error(err, errlen, "%s:%zu: validate: %s: "
		    "no such readable file or directory", c->path,
		    sr_resolve_line(c, "validate"), sr_campaign_get(c,
		    "validate"));
	if (r) {
		sr_resolve_set(c, "validate_reference", sr_campaign_path(dir,
		    r));
		if (!sr_resolve_is_dir(sr_campaign_get(c,
		    "validate_reference")))
			return sr_resolve_error(err, errlen, "%s:%zu: "
			    "validate_reference: %s: no such directory",
			    c->path, sr_resolve_line(c, "validate_reference"),
			    sr_campaign_get(c, "validate_reference"));
	} else if (c->refdir) {
		sr_resolve_set(c, "validate_reference", sr_strdup(c->refdir));
	} else {
		return sr_resolve_error(err, errlen, "%s:%zu: validate: no "
		    "ground truth for the validation tiles: set "
		    "validate_reference = DIR (reference is defaults)",
		    c->path, sr_resolve_line(c, "validate"));
	}
	return 0;
}

/* The output directory: -o from the current directory, the output key
 * from the campaign's, or NAME-out beside the campaign file. */
void
sr_resolve_output(sr_campaign *c, const char *dir, const sr_campaign_env *env)
{
	const char *base = strrchr(c->abspath, '/') + 1, *dot;
	char *name;
	size_t n;

	if (env->output && *env->output) {
		sr_resolve_set(c, "output", sr_campaign_path(env->cwd,
		    env->output));
	} else if (c->value[sr_resolve_key("output")]) {
		sr_resolve_set(c, "output", sr_campaign_path(dir,
		    c->value[sr_resolve_key("output")]));
	} else {
		dot = strrchr(base, '.');
		n = strlen(dir) + strlen(base) + 6;
		name = sr_malloc(n);
		snprintf(name, n, "%s/%.*s-out", dir,
		    (int)(dot ? (size_t)(dot - base) : strlen(base)), base);
		sr_resolve_set(c, "output", name);
	}
}

/* Paths the engines cannot carry (a newline or a tab: job settings are
 * lines, results name tiles in TSV), and an output that exists as
 * something else than a directory: refused before anything is made. */
int
sr_resolve_check_paths(const sr_campaign *c, char *err, size_t errlen)
{
	static const char *const keys[] = { "space", "tiles", "slides",
	    "workflow", "reference", "output", "estimate_from" };
	const char *v;
	char where[SR_CAMPAIGN_ERRLEN];
	struct stat st;
	size_t i;

	if (strpbrk(c->abspath, "\n\t"))
		return sr_resolve_error(err, errlen, "%s: a newline or tab in "
		    "the campaign file's path: no engine carries it; rename it",
		    c->path);
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		v = sr_campaign_get(c, keys[i]);
		sr_resolve_key_place(c, keys[i], where, sizeof where);
		if (strpbrk(v, "\n\t"))
			return sr_resolve_error(err, errlen, "%s: a newline or "
			    "tab in the path: no engine carries it; rename it",
			    where);
	}
	v = sr_campaign_get(c, "output");
	sr_resolve_key_place(c, "output", where, sizeof where);
	if (stat(v, &st) == 0 && !S_ISDIR(st.st_mode))
		return sr_resolve_error(err, errlen, "%s: %s exists and is not "
		    "a directory", where, v);
	/* sbatch(1), filename pattern: a backslash anywhere in --output
	 * turns off %A_%a, so that every task would log to one file
	 * named after the pattern; no escape exists */
	if (sr_resolve_is(c, "engine", "slurm") && strchr(v, '\\'))
		return sr_resolve_error(err, errlen, "%s: a backslash in the "
		    "output directory turns off Slurm's %%A_%%a in the jobs' "
		    "log names (sbatch --output): choose another output",
		    where);
	return 0;
}
