/* resolve.c - a campaign's checks across keys and of its files, its
 * settings (paths absolute, defaults filled in), the argument lists of
 * sa-sample and reuse-merge, and the records sa-campaign reads. */
#include "campaign/campaign.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "core/text.h"
#include "core/num.h"
#include "sa/method.h"
#include "sa/space.h"
#include "plan/mergeplan.h"
#include "core/opt.h"
#include "core/rng.h"
#include "sa/sample.h"

/* Sets err to the message; returns -1. */
static int
error(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

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

static int
readable_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    access(path, R_OK) == 0;
}

static int
is_directory(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static size_t
key_index(const char *name)
{
	int k = sr_campaign_key_find(name);

	if (k < 0)
		sr_die(SR_EXIT_DATA, "campaign: no key '%s' in the table", name);
	return (size_t)k;
}

const char *
sr_campaign_get(const sr_campaign *c, const char *key)
{
	return c->setting[key_index(key)];
}

/* The line of a key, 0 when it is not given. */
static size_t
line_of(const sr_campaign *c, const char *key)
{
	return c->line[key_index(key)];
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
static void
set(sr_campaign *c, const char *key, char *s)
{
	size_t i = key_index(key);

	free(c->setting[i]);
	c->setting[i] = s;
}

/* The keys of wsi-tiles' options, which only slides = ... uses. */
static const char *const slide_keys[] = { "tile_size", "level", "mpp",
    "min_tissue" };
#define NSLIDE_KEYS (sizeof slide_keys / sizeof slide_keys[0])

/* Whether key is one of slide_keys. */
static int
is_slide_key(const char *key)
{
	size_t i;

	for (i = 0; i < NSLIDE_KEYS; i++)
		if (strcmp(key, slide_keys[i]) == 0)
			return 1;
	return 0;
}

/* tiles or slides, exactly one; level and mpp together refused. */
static int
check_tile_source(sr_campaign *c, char *err, size_t errlen)
{
	if (line_of(c, "tiles") && line_of(c, "slides"))
		return error(err, errlen, "%s:%zu: slides: the campaign has tiles "
		    "(line %zu) already: give tiles or slides, not both", c->path,
		    line_of(c, "slides"), line_of(c, "tiles"));
	if (!line_of(c, "tiles") && !line_of(c, "slides"))
		return error(err, errlen, "%s: no 'tiles' key (required, or "
		    "'slides')", c->path);
	if (line_of(c, "level") && line_of(c, "mpp"))
		return error(err, errlen, "%s:%zu: mpp: the campaign has level "
		    "(line %zu): give one of them", c->path, line_of(c, "mpp"),
		    line_of(c, "level"));
	return 0;
}

/* space, workflow, and tiles or slides: absolute, and readable files. */
static int
resolve_files(sr_campaign *c, const char *dir, const sr_campaign_env *env,
    char *err, size_t errlen)
{
	static const char *const files[] = { "space", "tiles", "slides",
	    "workflow" };
	const char *key;
	size_t i;

	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		key = files[i];
		if (c->value[key_index(key)])
			set(c, key, sr_campaign_path(dir, c->value[key_index(key)]));
		else if (strcmp(key, "tiles") == 0 || strcmp(key, "slides") == 0)
			continue;	/* the other one (check_tile_source) */
		else if (env->sharedir)
			set(c, key, sr_campaign_path(env->sharedir,
			    "workflows/nuclei.wf"));
		else
			return error(err, errlen, "%s: no '%s' key, and no "
			    "share directory for its default", c->path, key);
		if (!readable_file(sr_campaign_get(c, key)))
			return error(err, errlen, "%s:%zu: %s: %s: no such "
			    "readable file", c->path, line_of(c, key), key,
			    sr_campaign_get(c, key));
	}
	return 0;
}

/* The reference directory (NULL for defaults) and its suffix. */
static int
resolve_reference(sr_campaign *c, const char *dir, char *err, size_t errlen)
{
	const char *ref = sr_campaign_get(c, "reference");

	if (strcmp(ref, "defaults") != 0) {
		c->refdir = sr_campaign_path(dir, ref);
		set(c, "reference", sr_strdup(c->refdir));
		if (!is_directory(c->refdir))
			return error(err, errlen, "%s:%zu: reference: %s: no such "
			    "directory", c->path, line_of(c, "reference"),
			    c->refdir);
	} else if (c->value[key_index("reference_suffix")]) {
		return error(err, errlen, "%s:%zu: reference_suffix needs a "
		    "reference directory", c->path, line_of(c, "reference_suffix"));
	}
	return 0;
}

/* estimate_from: absolute, and the output of a campaign whose buckets
 * ran: its timings directory and its reference step's timings. */
static int
resolve_estimate_from(sr_campaign *c, const char *dir, char *err,
    size_t errlen)
{
	const char *v = c->value[key_index("estimate_from")];
	char *run, *timings, *ref;
	int ok;

	if (v == NULL)
		return 0;
	run = sr_campaign_path(dir, v);
	set(c, "estimate_from", run);
	timings = sr_campaign_path(run, "timings");
	ref = sr_campaign_path(run, "ref/timings.tsv");
	ok = is_directory(timings) && readable_file(ref);
	free(timings);
	free(ref);
	if (!ok)
		return error(err, errlen, "%s:%zu: estimate_from: %s: not the "
		    "output of a campaign that ran (no timings/ and "
		    "ref/timings.tsv)", c->path, line_of(c, "estimate_from"), run);
	return 0;
}

/* knowledge: absolute, and a directory (sa-prune reads the campaign
 * outputs inside it). */
static int
resolve_knowledge(sr_campaign *c, const char *dir, char *err, size_t errlen)
{
	const char *v = c->value[key_index("knowledge")];

	if (v == NULL)
		return 0;
	set(c, "knowledge", sr_campaign_path(dir, v));
	if (!is_directory(sr_campaign_get(c, "knowledge")))
		return error(err, errlen, "%s:%zu: knowledge: %s: no such "
		    "directory", c->path, line_of(c, "knowledge"),
		    sr_campaign_get(c, "knowledge"));
	return 0;
}

/* The output directory: -o from the current directory, the output key
 * from the campaign's, or NAME-out beside the campaign file. */
static void
resolve_output(sr_campaign *c, const char *dir, const sr_campaign_env *env)
{
	const char *base = strrchr(c->abspath, '/') + 1, *dot;
	char *name;
	size_t n;

	if (env->output && *env->output) {
		set(c, "output", sr_campaign_path(env->cwd, env->output));
	} else if (c->value[key_index("output")]) {
		set(c, "output", sr_campaign_path(dir, c->value[key_index("output")]));
	} else {
		dot = strrchr(base, '.');
		n = strlen(dir) + strlen(base) + 6;
		name = sr_malloc(n);
		snprintf(name, n, "%s/%.*s-out", dir,
		    (int)(dot ? (size_t)(dot - base) : strlen(base)), base);
		set(c, "output", name);
	}
}

/* One fix item against the space: the parameter exists, the value is in
 * its domain, and it is fixed once (seen[j]). */
static int
check_fix_item(const sr_campaign *c, const sr_space *s, const char *item,
    char *seen, char *err, size_t errlen)
{
	const char *eq = strchr(item, '='), *v = eq + 1;
	size_t line = line_of(c, "fix");
	char *name = sr_strdup(item);
	const sr_param *p;
	double x;
	int j, status = 0;

	name[eq - item] = '\0';
	if ((j = sr_space_find(s, name)) < 0) {
		status = error(err, errlen, "%s:%zu: fix: %s: no parameter %s in %s",
		    c->path, line, SR_SHOW(item), SR_SHOW(name),
		    sr_campaign_get(c, "space"));
	} else if (p = &s->p[j], sr_parse_double(v, &x) || !sr_param_valid(p, x)) {
		status = error(err, errlen, "%s:%zu: fix: %s: '%s' is not a value "
		    "of %s (%s %s, default %s)", c->path, line, SR_SHOW(item),
		    SR_SHOW(v), SR_SHOW(name),
		    sr_ptype_name(p->type), p->values_text, p->default_text);
	} else if (seen[j]++) {
		status = error(err, errlen, "%s:%zu: fix: %s: %s is fixed twice",
		    c->path, line, SR_SHOW(item), SR_SHOW(name));
	}
	free(name);
	return status;
}

/* The fix items against the space; each becomes --fix ITEM of sa-sample. */
static int
check_fixes(sr_campaign *c, const sr_space *s, char *err, size_t errlen)
{
	const char *sep = ", \t\v\f\r";
	char *list = sr_strdup(sr_campaign_get(c, "fix")), *p, *item;
	char *seen = sr_calloc(s->n, 1);
	size_t len;
	int status = 0;

	for (p = list + strspn(list, sep); status == 0 && *p;
	    p += strspn(p, sep)) {
		len = strcspn(p, sep);
		item = p;
		p += len;
		if (*p)
			*p++ = '\0';
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

/* Whether the setting of key is str. */
static int
is(const sr_campaign *c, const char *key, const char *str)
{
	return strcmp(sr_campaign_get(c, key), str) == 0;
}

/* sa-sample's options for the design, before the fix items. */
static void
sample_args(sr_campaign *c)
{
	sr_strlist *l = &c->sample_args;
	const char *m = sr_campaign_get(c, "method");

	add_args(l, "-m", m, NULL);
	switch (sr_method_parse(m)) {
	case SR_METHOD_MOAT:
		add_args(l, "-r", sr_campaign_get(c, "trajectories"), "-p",
		    sr_campaign_get(c, "levels"), NULL);
		if (!is(c, "optimize", ""))
			add_args(l, "--optimize", sr_campaign_get(c, "optimize"), NULL);
		break;
	case SR_METHOD_VBD:
		add_args(l, "-n", sr_campaign_get(c, "samples"), "--base",
		    sr_campaign_get(c, "base"), NULL);
		if (is(c, "second_order", "yes"))
			add_args(l, "--second-order", NULL);
		break;
	case SR_METHOD_GRID:
		add_args(l, "-p", sr_campaign_get(c, "levels"), NULL);
		break;
	default:
		add_args(l, "-n", sr_campaign_get(c, "samples"), NULL);
	}
	add_args(l, "-s", sr_campaign_get(c, "seed"), NULL);
}

/* reuse-merge's options for the bucket plan ("stage" is stage-level reuse
 * alone: -a none). */
static void
merge_args(sr_campaign *c)
{
	sr_strlist *l = &c->merge_args;
	const char *m = sr_campaign_get(c, "merge");
	int a = is(c, "merge", "stage") ? SR_ALGO_NONE :
	    sr_word_index(m, sr_merge_algo_name, SR_ALGO_N);

	add_args(l, "-a", sr_merge_algo_name[a], NULL);
	if (a == SR_ALGO_NONE)
		return;
	if (a != SR_ALGO_TRTMA)
		add_args(l, "-b", sr_campaign_get(c, "bucket_size"), NULL);
	if (a == SR_ALGO_RTMA && is(c, "double_prune", "yes"))
		add_args(l, "--double-prune", NULL);
	if (a == SR_ALGO_TRTMA) {
		add_args(l, "--nodes", sr_campaign_get(c, "nodes"), NULL);
		if (!is(c, "max_buckets", ""))
			add_args(l, "-B", sr_campaign_get(c, "max_buckets"), NULL);
		if (!is(c, "cores", ""))
			add_args(l, "--cores", sr_campaign_get(c, "cores"), NULL);
		if (!is(c, "max_bucket_tasks", ""))
			add_args(l, "--max-bucket-tasks",
			    sr_campaign_get(c, "max_bucket_tasks"), NULL);
	}
	add_args(l, "--cost", sr_campaign_get(c, "cost"), NULL);
}

/* Where key comes from, for messages: "FILE:LINE: KEY", or "FILE: KEY"
 * for a default or the command line's -o. */
static void
key_place(const sr_campaign *c, const char *key, char *buf, size_t size)
{
	if (line_of(c, key))
		snprintf(buf, size, "%s:%zu: %s", c->path, line_of(c, key), key);
	else
		snprintf(buf, size, "%s: %s", c->path, key);
}

/* Paths the engines cannot carry (a newline or a tab: job settings are
 * lines, results name tiles in TSV), and an output that exists as
 * something else than a directory: refused before anything is made. */
static int
check_paths(const sr_campaign *c, char *err, size_t errlen)
{
	static const char *const keys[] = { "space", "tiles", "slides",
	    "workflow", "reference", "output", "estimate_from" };
	const char *v;
	char where[SR_CAMPAIGN_ERRLEN];
	struct stat st;
	size_t i;

	if (strpbrk(c->abspath, "\n\t"))
		return error(err, errlen, "%s: a newline or tab in the campaign "
		    "file's path: no engine carries it; rename it", c->path);
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		v = sr_campaign_get(c, keys[i]);
		key_place(c, keys[i], where, sizeof where);
		if (strpbrk(v, "\n\t"))
			return error(err, errlen, "%s: a newline or tab in the "
			    "path: no engine carries it; rename it", where);
	}
	v = sr_campaign_get(c, "output");
	key_place(c, "output", where, sizeof where);
	if (stat(v, &st) == 0 && !S_ISDIR(st.st_mode))
		return error(err, errlen, "%s: %s exists and is not a directory",
		    where, v);
	/* sbatch(1), filename pattern: a backslash anywhere in --output
	 * turns off %A_%a, so that every task would log to one file
	 * named after the pattern; no escape exists */
	if (is(c, "engine", "slurm") && strchr(v, '\\'))
		return error(err, errlen, "%s: a backslash in the output "
		    "directory turns off Slurm's %%A_%%a in the jobs' log "
		    "names (sbatch --output): choose another output", where);
	return 0;
}

/* ---- goals and cancellation rules ------------------------------------------ */

int
sr_campaign_is_tune(const sr_campaign *c)
{
	return is(c, "goal", "tune");
}

/* Whether w (len bytes) is one of the blank-separated words. */
static int
word_in(const char *w, size_t len, const char *words)
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
		n += word_in(w, len, class);
	}
	return n;
}

/* Whether k concerns a campaign whose word of class (its goal, its rule)
 * is value: k names no word of the class, or names value. */
static int
class_admits(const sr_campaign_key *k, const char *class, const char *value)
{
	return class_count(k, class) == 0 ||
	    (word_in(value, strlen(value), class) &&
	    word_in(value, strlen(value), k->concerns));
}

/* Whether k concerns c's goal and cancellation rule. */
static int
key_in_campaign(const sr_campaign *c, const sr_campaign_key *k)
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
		if (!word_in(w, len, class))
			continue;
		at += (size_t)snprintf(buf + at, size - at, "%s%.*s", i == 0 ? "" :
		    i + 1 == n ? " or " : ", ", (int)len, w);
		i++;
	}
}

/* The keys given that concern another goal or another rule: refused,
 * naming their line. */
static int
check_concerns(const sr_campaign *c, char *err, size_t errlen)
{
	const sr_campaign_key *k;
	char words[256];
	size_t i;

	for (i = 0; i < sr_campaign_nkeys; i++) {
		k = &sr_campaign_keys[i];
		if (c->value[i] == NULL || key_in_campaign(c, k))
			continue;
		if (!class_admits(k, SR_CAMPAIGN_GOALS, sr_campaign_get(c, "goal"))) {
			class_words(k, SR_CAMPAIGN_GOALS, words, sizeof words);
			return error(err, errlen, "%s:%zu: %s: only for goal = %s "
			    "(this campaign's goal is %s)", c->path, c->line[i],
			    k->name, words, sr_campaign_get(c, "goal"));
		}
		class_words(k, SR_CAMPAIGN_RULES, words, sizeof words);
		return error(err, errlen, "%s:%zu: %s: only for cancel = %s (this "
		    "campaign's cancel is %s)", c->path, c->line[i], k->name, words,
		    sr_campaign_get(c, "cancel"));
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
	for (i = 0; i < sizeof setting_keys / sizeof setting_keys[0]; i++) {
		class = sr_campaign_keys[key_index(setting_keys[i])].words;
		if (class_count(k, class) == 0)
			continue;
		value = sr_campaign_get(c, setting_keys[i]);
		used |= word_in(value, strlen(value), k->concerns);
		if (at < bysize)
			at += (size_t)snprintf(by + at, bysize - at, "%s%s = %s",
			    named++ ? " and " : "", setting_keys[i], value);
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
static void
find_warnings(sr_campaign *c)
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
			warn(c, g[i].line, "%s: not used by %s (it concerns %s)",
			    k->name, by, words);
		else if (strcmp(k->name, "method") == 0 &&
		    is(c, "method", "sobol") && !sr_campaign_is_tune(c))
			warn(c, g[i].line, "method: sobol plans a correlation "
			    "study on Sobol points; Sobol (variance-based) "
			    "indices are method = vbd");
		else if (is_slide_key(k->name) && !line_of(c, "slides"))
			warn(c, g[i].line, "%s: not used without slides (it is "
			    "an option of wsi-tiles)", k->name);
	}
	free(g);
}

/* The goal's defaults: tile_order shuffle for tune, list for
 * sensitivity, which cancels nothing. */
static void
sensitivity_settings(sr_campaign *c)
{
	if (!line_of(c, "tile_order"))
		set(c, "tile_order", sr_strdup(sr_campaign_is_tune(c) ? "shuffle" :
		    "list"));
	if (!sr_campaign_is_tune(c))
		set(c, "cancel", sr_strdup("none"));
}

/* batches: a drawn design (not grid) of at least one set per batch;
 * knowledge without batches prunes nothing (a warning). */
static int
check_batches(sr_campaign *c, char *err, size_t errlen)
{
	char where[SR_CAMPAIGN_ERRLEN];
	long n = strtol(sr_campaign_get(c, "batches"), NULL, 10);

	key_place(c, "batches", where, sizeof where);
	if (n > 1 && is(c, "method", "grid"))
		return error(err, errlen, "%s: a grid is one design, not drawn "
		    "in batches: use random, lhs, sobol, halton, hammersley or mc",
		    where);
	if (n > 1 && n > strtol(sr_campaign_get(c, "samples"), NULL, 10))
		return error(err, errlen, "%s: %ld batches of %s samples: at "
		    "most one batch per sample", where, n,
		    sr_campaign_get(c, "samples"));
	if (n == 1 && line_of(c, "knowledge"))
		warn(c, line_of(c, "knowledge"), "knowledge: not used with "
		    "batches = 1 (the space is pruned between batches)");
	return 0;
}

/* A tune campaign needs a ground truth, a design of parameter sets and a
 * score: reference = defaults, moat and vbd, and objects are refused. */
static int
check_tune(const sr_campaign *c, char *err, size_t errlen)
{
	char where[SR_CAMPAIGN_ERRLEN];
	const char *m = sr_campaign_get(c, "method");

	if (!sr_campaign_is_tune(c))
		return 0;
	if (c->refdir == NULL && line_of(c, "reference"))
		return error(err, errlen, "%s:%zu: reference: defaults is refused "
		    "with goal = tune: tuning scores every set against ground-truth "
		    "masks; give their directory", c->path, line_of(c, "reference"));
	if (c->refdir == NULL)
		return error(err, errlen, "%s:%zu: goal: tune needs a reference "
		    "directory of ground-truth masks (the default, reference = "
		    "defaults, is the default run's masks, no ground truth)",
		    c->path, line_of(c, "goal"));
	key_place(c, "method", where, sizeof where);
	if (is(c, "method", "moat") || is(c, "method", "vbd"))
		return error(err, errlen, "%s: %s is a design for sensitivity "
		    "indices, refused with goal = tune: use grid, random, lhs, "
		    "sobol, halton, hammersley or mc", where, m);
	key_place(c, "metric", where, sizeof where);
	if (is(c, "metric", "objects"))
		return error(err, errlen, "%s: objects is a count, not a score, "
		    "refused with goal = tune: use dice, jaccard, object_dice or "
		    "aji", where);
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
		    !word_in(rule, strlen(rule), k->concerns))
			continue;
		name = strncmp(k->name, "cancel_", 7) == 0 ? k->name + 7 : k->name;
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

	if (!is(c, "tile_order", "shuffle"))
		return sr_strdup("list");
	n = strlen(seed) + 9;
	s = sr_malloc(n);
	snprintf(s, n, "shuffle:%s", seed);
	return s;
}

/* Whether the fix items (in sample_args, after check_fixes) hold the
 * parameter name. */
static int
is_fixed(const sr_campaign *c, const char *name)
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
		if (is_fixed(c, s->p[j].name))
			continue;
		m = sr_param_count(&s->p[j]);
		n *= m ? (double)m : levels;
	}
	return n;
}

/* The bounds the tools hold to, checked here to name the campaign's
 * line: the seed, the design's run count, the bucket size. */
static int
check_bounds(const sr_campaign *c, const sr_space *s, char *err, size_t errlen)
{
	char where[SR_CAMPAIGN_ERRLEN];
	const char *m = sr_campaign_get(c, "method"), *key;
	enum sr_method meth = sr_method_parse(m);
	double runs, n = strtod(sr_campaign_get(c, "samples"), NULL);
	size_t k = s->n;

	key_place(c, "seed", where, sizeof where);
	if (strtod(sr_campaign_get(c, "seed"), NULL) > (double)SR_SEED_MAX)
		return error(err, errlen, "%s: seeds go from 0 to %lu", where,
		    SR_SEED_MAX);
	key_place(c, "bucket_size", where, sizeof where);
	if (strtod(sr_campaign_get(c, "bucket_size"), NULL) > 1e9)
		return error(err, errlen, "%s: at most 1e9", where);
	if (meth == SR_METHOD_GRID)
		n = grid_runs(c, s);
	runs = meth == SR_METHOD_GRID ? n : sr_method_runs(meth,
	    n > 1e18 ? (size_t)1e18 : (size_t)n, k,
	    (size_t)fmin(1e18, strtod(sr_campaign_get(c, "trajectories"), NULL)),
	    is(c, "second_order", "yes"));
	if (runs > SR_SAMPLE_MAX_ROWS) {
		key = meth == SR_METHOD_MOAT ? "trajectories" :
		    meth == SR_METHOD_GRID ? "levels" : "samples";
		key_place(c, key, where, sizeof where);
		return error(err, errlen, "%s: %s: %.3g runs is too many (limit "
		    "%.0g)", where, m, runs, SR_SAMPLE_MAX_ROWS);
	}
	return 0;
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
		if (sr_campaign_keys[i].required && c->value[i] == NULL) {
			error(err, errlen, "%s: no '%s' key (required)", c->path,
			    sr_campaign_keys[i].name);
			goto done;
		}
	sensitivity_settings(c);
	if (check_concerns(c, err, errlen) ||
	    check_tile_source(c, err, errlen) ||
	    resolve_files(c, dir, env, err, errlen) ||
	    resolve_reference(c, dir, err, errlen) ||
	    resolve_estimate_from(c, dir, err, errlen) ||
	    resolve_knowledge(c, dir, err, errlen) ||
	    check_tune(c, err, errlen) || check_batches(c, err, errlen))
		goto done;
	find_warnings(c);
	resolve_output(c, dir, env);
	if (check_paths(c, err, errlen))
		goto done;
	sample_args(c);
	space = sr_space_read(sr_campaign_get(c, "space"));
	if (check_fixes(c, space, err, errlen) ||
	    check_bounds(c, space, err, errlen))
		goto done;
	if (is(c, "merge", "trtma") && is(c, "max_buckets", "") &&
	    is(c, "cores", "")) {
		error(err, errlen, "%s: merge = trtma needs max_buckets or cores",
		    c->path);
		goto done;
	}
	merge_args(c);
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

	if (!readable_file(path) || (fp = fopen(path, "r")) == NULL) {
		error(err, errlen, "%s: no such readable file", path);
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

const char *
sr_campaign_indices_method(const sr_campaign *c)
{
	const char *m = sr_campaign_get(c, "method");

	int i = sr_method_parse(m);

	return sr_method_name(i == SR_METHOD_MOAT || i == SR_METHOD_VBD ? i :
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
	if (k->role != SR_ROLE_PLAN || !key_in_campaign(c, k))
		return 0;
	for (; w && *w; w += len, w += *w == ' ') {
		len = strcspn(w, " ");
		if (word_in(w, len, SR_CAMPAIGN_GOALS) ||
		    word_in(w, len, SR_CAMPAIGN_RULES))
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
 * fingerprints by their contents, and batches and knowledge at their
 * defaults (one batch, nothing pruned: the runs of an output planned
 * before these keys existed). */
static void
plan_keys(FILE *fp, const sr_campaign *c)
{
	const sr_campaign_key *k;
	size_t i;

	for (i = 0; i < sr_campaign_nkeys; i++) {
		k = &sr_campaign_keys[i];
		if ((strcmp(k->name, "batches") == 0 ||
		    strcmp(k->name, "knowledge") == 0) &&
		    strcmp(c->setting[i], k->def ? k->def : "") == 0)
			continue;
		/* wsi-tiles' options decide the tiles of slides only */
		if (is_slide_key(k->name) && is(c, "slides", ""))
			continue;
		if (k->type != SR_KEY_PATH && decides_runs(c, k))
			fprintf(fp, "plan_key=%s = %s%c", k->name, c->setting[i],
			    '\0');
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
