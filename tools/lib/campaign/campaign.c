/* campaign.c - the table of a campaign file's keys, the checks of their
 * values, and the parser of the file's lines (campaign(5)). */
#include "campaign/campaign.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/text.h"
#include "core/num.h"

#define PLAN SR_ROLE_PLAN
#define ANALYSIS SR_ROLE_ANALYSIS
#define ENGINE SR_ROLE_ENGINE
#define TUNE_PLAN SR_ROLE_TUNE_PLAN

/* Every key of campaign(5), in its order. A test checks that the man
 * page lists the same keys. */
const sr_campaign_key sr_campaign_keys[] = {
	/* the goal */
	{ "goal", SR_KEY_ENUM, "sensitivity", 0, SR_CAMPAIGN_GOALS, TUNE_PLAN,
	    NULL, 0 },
	/* the design */
	{ "space", SR_KEY_PATH, NULL, 0, NULL, PLAN, NULL, SR_KEY_REQUIRED },
	{ "method", SR_KEY_ENUM, NULL, 0,
	    SR_CAMPAIGN_METHODS, PLAN, NULL, SR_KEY_REQUIRED },
	{ "samples", SR_KEY_INT, "1000", 1, NULL, PLAN,
	    "vbd efast rbd_fast mc lhs halton hammersley sobol random pso anneal "
	    "tpe", 0 },
	{ "trajectories", SR_KEY_INT, "20", 1, NULL, PLAN, "moat", 0 },
	{ "levels", SR_KEY_INT, "4", 2, NULL, PLAN, "moat grid", 0 },
	{ "optimize", SR_KEY_INT, NULL, 1, NULL, PLAN, "moat", 0 },
	{ "base", SR_KEY_ENUM, "sobol", 0, "mc lhs halton hammersley sobol",
	    PLAN, "vbd", 0 },
	{ "second_order", SR_KEY_YESNO, "no", 0, NULL, PLAN, "vbd", 0 },
	{ "groups", SR_KEY_ENUM, "no", 0, "no stages tasks", PLAN, "vbd moat",
	    SR_KEY_LATE },
	{ "tpe_gamma", SR_KEY_FRACTION, "0.1", 0, NULL, PLAN, "tpe", 0 },
	{ "tpe_candidates", SR_KEY_INT, "24", 1, NULL, PLAN, "tpe", 0 },
	{ "tpe_multivariate", SR_KEY_YESNO, "yes", 0, NULL, PLAN, "tpe", 0 },
	{ "pso_inertia", SR_KEY_REAL, "0.7298", 0, NULL, PLAN, "pso", 0 },
	{ "pso_c1", SR_KEY_REAL, "1.49618", 0, NULL, PLAN, "pso", 0 },
	{ "pso_c2", SR_KEY_REAL, "1.49618", 0, NULL, PLAN, "pso", 0 },
	{ "anneal_cooling", SR_KEY_FRACTION, NULL, 0, NULL, PLAN, "anneal", 0 },
	{ "seed", SR_KEY_INT, "1", 0, NULL, PLAN, NULL, 0 },
	{ "fix", SR_KEY_FIX, NULL, 0, NULL, PLAN, NULL, 0 },
	{ "vary", SR_KEY_TEXT, NULL, 0, NULL, PLAN, NULL, 0 },
	/* the workflow and the tiles */
	{ "workflow", SR_KEY_PATH, NULL, 0, NULL, PLAN, NULL, 0 },
	{ "tiles", SR_KEY_PATH, NULL, 0, NULL, PLAN, NULL, 0 },
	/* slides: wsi-tiles makes the tile table (tiles or slides, one) */
	{ "slides", SR_KEY_PATH, NULL, 0, NULL, PLAN, NULL, 0 },
	{ "tile_size", SR_KEY_INT, "4096", 1, NULL, PLAN, NULL, 0 },
	{ "tile_overlap", SR_KEY_INT, "192", 0, NULL, PLAN, NULL, 0 },
	{ "level", SR_KEY_INT, NULL, 0, NULL, PLAN, NULL, 0 },
	{ "mpp", SR_KEY_REAL, NULL, 0, NULL, PLAN, NULL, 0 },
	{ "min_tissue", SR_KEY_FRACTION, "0.25", 0, NULL, PLAN, NULL, 0 },
	{ "reference", SR_KEY_REFERENCE, "defaults", 0, NULL, PLAN, NULL, 0 },
	{ "reference_suffix", SR_KEY_TEXT, NULL, 0, NULL, PLAN, NULL, 0 },
	{ "masks", SR_KEY_ENUM, "no", 0, "no yes geojson", PLAN, NULL, 0 },
	/* the metric and the indices */
	{ "metric", SR_KEY_TEXT, "dice", 0, NULL, TUNE_PLAN, NULL, 0 },
	{ "aggregate", SR_KEY_ENUM, "mean", 0, "mean median sum", ANALYSIS,
	    "sensitivity", 0 },
	{ "aggregate_by", SR_KEY_ENUM, "all", 0, "all slide", ANALYSIS,
	    "sensitivity", 0 },
	{ "indices", SR_KEY_ENUM, NULL, 0, SR_CAMPAIGN_ANALYSES, ANALYSIS,
	    "sensitivity", 0 },
	{ "max_missing", SR_KEY_FRACTION, "0.1", 0, NULL, ANALYSIS,
	    "sensitivity", 0 },
	{ "resamples", SR_KEY_INT, NULL, 1, NULL, ANALYSIS,
	    "moat vbd efast rbd_fast delta", 0 },
	{ "plot", SR_KEY_YESNO, "yes", 0, NULL, ANALYSIS, NULL, 0 },
	{ "report", SR_KEY_YESNO, "yes", 0, NULL, ANALYSIS, NULL, 0 },
	{ "estimate_from", SR_KEY_RUN, NULL, 0, NULL, ANALYSIS, NULL, 0 },
	/* tuning: the order of the tiles, the cancellation rule */
	{ "tile_order", SR_KEY_ENUM, NULL, 0, "shuffle list", TUNE_PLAN, NULL,
	    0 },
	{ "cancel", SR_KEY_ENUM, "stable", 0, "none " SR_CAMPAIGN_RULES, PLAN,
	    "tune", 0 },
	{ "cancel_acc", SR_KEY_REAL, "0.05", 0, NULL, PLAN, "tune stable", 0 },
	{ "cancel_time", SR_KEY_REAL, "2", 0, NULL, PLAN, "tune stable", 0 },
	{ "cancel_window", SR_KEY_INT, "5", 1, NULL, PLAN, "tune stable", 0 },
	{ "cancel_warmup", SR_KEY_INT, "2", 1, NULL, PLAN,
	    "tune median wilcoxon", 0 },
	{ "cancel_startup", SR_KEY_INT, "5", 1, NULL, PLAN, "tune median", 0 },
	{ "cancel_p", SR_KEY_FRACTION, "0.1", 0, NULL, PLAN, "tune wilcoxon", 0 },
	/* tuning in batches, the space pruned between them */
	{ "batches", SR_KEY_INT, "1", 1, NULL, PLAN, "tune", 0 },
	{ "knowledge", SR_KEY_DIR, NULL, 0, NULL, PLAN, "tune", 0 },
	{ "prune_k", SR_KEY_INT, "5", 1, NULL, PLAN, "tune", 0 },
	{ "prune_min_ncorr", SR_KEY_FRACTION, "0.5", 0, NULL, PLAN, "tune", 0 },
	{ "prune_paggr", SR_KEY_FRACTION, "auto", 0, "auto", PLAN, "tune", 0 },
	{ "prune_paggr_max", SR_KEY_FRACTION, "0.9", 0, NULL, PLAN, "tune", 0 },
	{ "prune_bins", SR_KEY_INT, "10", 2, NULL, PLAN, "tune", 0 },
	/* tuning: the best sets evaluated on tiles held out of the search */
	{ "validate", SR_KEY_PATH, NULL, 0, NULL, ANALYSIS, "tune", 0 },
	{ "validate_reference", SR_KEY_DIR, NULL, 0, NULL, ANALYSIS, "tune",
	    0 },
	{ "validate_top", SR_KEY_INT, "1", 1, NULL, ANALYSIS, "tune", 0 },
	/* the buckets */
	{ "merge", SR_KEY_ENUM, "rtma", 0, SR_CAMPAIGN_MERGES, PLAN, NULL, 0 },
	{ "bucket_size", SR_KEY_INT, "8", 1, NULL, PLAN, "naive sca rtma", 0 },
	{ "double_prune", SR_KEY_YESNO, "no", 0, NULL, PLAN, "rtma", 0 },
	{ "max_buckets", SR_KEY_INT, NULL, 1, NULL, PLAN, "trtma", 0 },
	{ "nodes", SR_KEY_INT, "1", 1, NULL, PLAN, "trtma", 0 },
	{ "cores", SR_KEY_INT, NULL, 1, NULL, PLAN, "trtma local", 0 },
	{ "max_bucket_tasks", SR_KEY_INT, NULL, 1, NULL, PLAN, "trtma", 0 },
	{ "cost", SR_KEY_ENUM, "tasks", 0, "tasks weights", PLAN,
	    "naive sca rtma trtma", 0 },
	/* array tasks: a bucket on a chunk of tiles */
	{ "tiles_per_task", SR_KEY_INT, "16", 1, NULL, PLAN, "sensitivity", 0 },
	/* running the buckets */
	{ "active_paths", SR_KEY_INT, "1", 1, NULL, ENGINE, NULL, 0 },
	/* a workflow of commands: {threads} may change what they compute */
	{ "threads_per_path", SR_KEY_INT, "1", 1, NULL, PLAN, NULL, 0 },
	{ "task_timeout", SR_KEY_REAL, NULL, 0, NULL, ENGINE, NULL, 0 },
	{ "scratch", SR_KEY_TEXT, NULL, 0, NULL, ENGINE, NULL, 0 },
	{ "command_mem", SR_KEY_SIZE, NULL, 0, NULL, ENGINE, NULL, 0 },
	{ "engine", SR_KEY_ENUM, "local", 0, SR_CAMPAIGN_ENGINES, ENGINE, NULL,
	    0 },
	{ "jobs", SR_KEY_INT, NULL, 1, NULL, ENGINE, "local", 0 },
	{ "partition", SR_KEY_TEXT, NULL, 0, NULL, ENGINE, "slurm", 0 },
	{ "account", SR_KEY_WORDS, NULL, 0, NULL, ENGINE, "slurm pbs", 0 },
	{ "qos", SR_KEY_TEXT, NULL, 0, NULL, ENGINE, "slurm", 0 },
	{ "time", SR_KEY_TEXT, NULL, 0, NULL, ENGINE, "slurm", 0 },
	{ "array_limit", SR_KEY_INT, NULL, 1, NULL, ENGINE, "slurm pbs", 0 },
	{ "max_array_size", SR_KEY_INT, NULL, 1, NULL, ENGINE, "slurm pbs", 0 },
	{ "mem", SR_KEY_SIZE, NULL, 0, NULL, ENGINE, "slurm pbs", 0 },
	{ "sbatch_options", SR_KEY_TEXT, NULL, 0, NULL, ENGINE, "slurm", 0 },
	{ "pbs", SR_KEY_ENUM, "pro", 0, "pro torque", ENGINE, "pbs", 0 },
	{ "queue", SR_KEY_WORDS, NULL, 0, NULL, ENGINE, "pbs", 0 },
	{ "walltime", SR_KEY_WORDS, NULL, 0, NULL, ENGINE, "pbs", 0 },
	{ "qsub_options", SR_KEY_WORDS, NULL, 0, NULL, ENGINE, "pbs", 0 },
	{ "output", SR_KEY_OUTPUT, NULL, 0, NULL, ENGINE, NULL, 0 },
};
const size_t sr_campaign_nkeys = sizeof sr_campaign_keys /
    sizeof sr_campaign_keys[0];

int
sr_campaign_key_find(const char *name)
{
	size_t i;

	for (i = 0; i < sr_campaign_nkeys; i++)
		if (strcmp(sr_campaign_keys[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Written here: no library the project uses (libc, libpng, libtiff)
 * has an edit distance, and the keys are short (one row of 64 costs
 * per name is plenty; longer names are cut there, past any near miss). */
size_t
sr_edit_distance(const char *a, const char *b)
{
	enum { MAXLEN = 64 };
	size_t row[3][MAXLEN + 1], m = strnlen(a, MAXLEN),
	    n = strnlen(b, MAXLEN), i, j, cost, best;
	size_t *prev2 = row[0], *prev = row[1], *cur = row[2], *t;

	for (j = 0; j <= n; j++)
		prev[j] = j;
	for (i = 1; i <= m; i++) {
		cur[0] = i;
		for (j = 1; j <= n; j++) {
			cost = a[i - 1] != b[j - 1];
			best = prev[j - 1] + cost;
			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[n];
}

const char *
sr_campaign_key_suggest(const char *name)
{
	size_t i, d, len = strlen(name), most = len <= 4 ? 1 : 2,
	    best = most + 1, nbest = 0, nprefix = 0;
	const char *near = NULL, *prefix = NULL;
	char lower[65];

	for (i = 0; i < sizeof lower - 1 && name[i]; i++)
		lower[i] = name[i] >= 'A' && name[i] <= 'Z' ?
		    (char)(name[i] - 'A' + 'a') : name[i];
	lower[i] = '\0';
	for (i = 0; i < sr_campaign_nkeys; i++) {
		d = sr_edit_distance(lower, sr_campaign_keys[i].name);
		if (d < best) {
			best = d;
			nbest = 0;
			near = sr_campaign_keys[i].name;
		}
		nbest += d == best;
		if (len >= 3 &&
		    strncmp(sr_campaign_keys[i].name, lower, len) == 0) {
			prefix = sr_campaign_keys[i].name;
			nprefix++;
		}
	}
	if (near && nbest == 1)
		return near;
	return nprefix == 1 ? prefix : NULL;
}

const char *
sr_campaign_type_name(enum sr_key_type t)
{
	static const char *const name[] = { "path", "reference", "output",
	    "int", "real", "fraction", "enum", "yes/no", "size", "text", "fix",
	    "words", "campaign", "directory" };

	return name[t];
}

const char *
sr_campaign_role_name(enum sr_key_role r)
{
	static const char *const name[] = { "plan", "analysis", "engine",
	    "tune-plan" };

	return name[r];
}

void
sr_strlist_add(sr_strlist *l, const char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = sr_reallocarray(l->v, l->cap, sizeof *l->v);
	}
	l->v[l->n++] = sr_strdup(s);
}

void
sr_strlist_free(sr_strlist *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

sr_campaign *
sr_campaign_new(const char *path)
{
	sr_campaign *c = sr_calloc(1, sizeof *c);

	c->path = sr_strdup(path);
	c->value = sr_calloc(sr_campaign_nkeys, sizeof *c->value);
	c->line = sr_calloc(sr_campaign_nkeys, sizeof *c->line);
	return c;
}

void
sr_campaign_free(sr_campaign *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < sr_campaign_nkeys; i++) {
		free(c->value[i]);
		if (c->setting)
			free(c->setting[i]);
	}
	free(c->value);
	free(c->line);
	free(c->setting);
	free(c->path);
	free(c->abspath);
	free(c->refdir);
	sr_strlist_free(&c->sample_args);
	sr_strlist_free(&c->merge_args);
	sr_strlist_free(&c->warnings);
	free(c);
}

/* Whether word is one of the blank-separated words. */
static int
is_word_of(const char *word, const char *words)
{
	size_t n = strlen(word), len;

	while (*words) {
		len = strcspn(words, " ");
		if (len == n && strncmp(words, word, n) == 0)
			return 1;
		words += len;
		words += *words == ' ';
	}
	return 0;
}

/* Writes the words as "a, b or c" into buf. */
static void
word_list(const char *words, char *buf, size_t size)
{
	size_t len, at = 0;
	const char *p = words;

	buf[0] = '\0';
	while (*p && at < size) {
		len = strcspn(p, " ");
		at += (size_t)snprintf(buf + at, size - at, "%s%.*s",
		    p == words ? "" : strchr(p, ' ') ? ", " : " or ", (int)len, p);
		p += len;
		p += *p == ' ';
	}
}

/* Whether v is decimal digits that make a long of at least min. */
static int
is_int_from(const char *v, long min)
{
	char *end;
	long n;

	if (*v < '0' || *v > '9' || v[strspn(v, "0123456789")] != '\0')
		return 0;
	errno = 0;
	n = strtol(v, &end, 10);
	return errno == 0 && n >= min;
}

/* Checks a real: above 0, and below 1 for a fraction; or one of the
 * key's words (prune_paggr's auto). */
static int
check_real(const sr_campaign_key *k, const char *v, char *err, size_t errlen)
{
	double x;

	if (sr_parse_double(v, &x) == NULL && x > 0 &&
	    (k->type == SR_KEY_REAL || x < 1))
		return 0;
	if (k->words && is_word_of(v, k->words))
		return 0;
	snprintf(err, errlen, "%s: '%s' is not %s%s%s", k->name, SR_SHOW(v),
	    k->type == SR_KEY_REAL ? "a positive number" :
	    "a number between 0 and 1 (both excluded)", k->words ? " or " : "",
	    k->words ? k->words : "");
	return -1;
}

/* Checks the syntax of a fix list: every item NAME=VALUE. */
static int
check_fix(const char *v, char *err, size_t errlen)
{
	const char *sep = ", \t\v\f\r";
	size_t len;

	for (v += strspn(v, sep); *v; v += strspn(v, sep)) {
		len = strcspn(v, sep);
		if (v[0] == '=' || memchr(v, '=', len) == NULL) {
			snprintf(err, errlen, "fix: '%.*s': expected NAME=VALUE",
			    (int)len, v);
			return -1;
		}
		v += len;
	}
	return 0;
}

/* Checks that v is blank-separated words of SR_CAMPAIGN_WORDCHARS: the
 * PBS keys reach qsub, and slurm-wlm-torque's qsub (among other front
 * ends) builds a shell command line of its arguments. */
static int
check_words(const char *name, const char *v, char *err, size_t errlen)
{
	const char *blank = " \t\v\f\r";
	size_t i;

	for (i = 0; v[i]; i++)
		if (strchr(blank, v[i]) == NULL &&
		    strchr(SR_CAMPAIGN_WORDCHARS, v[i]) == NULL) {
			if ((unsigned char)v[i] < 0x20 ||
			    (unsigned char)v[i] >= 0x7f)
				snprintf(err, errlen, "%s: byte \\x%02x: only "
				    "letters, digits and _.,:=@%%+/- are passed to "
				    "the scheduler", name,
				    (unsigned)(unsigned char)v[i]);
			else
				snprintf(err, errlen, "%s: '%c' in '%s': only "
				    "letters, digits and _.,:=@%%+/- are passed to "
				    "the scheduler (a qsub may hand them to a shell)",
				    name, v[i], SR_SHOW(v));
			return -1;
		}
	return 0;
}

int
sr_campaign_check_value(const sr_campaign_key *k, const char *v, char *err,
    size_t errlen)
{
	char words[512];

	switch (k->type) {
	case SR_KEY_INT:
		if (is_int_from(v, k->min))
			return 0;
		if (k->min == 1)
			snprintf(err, errlen, "%s: '%s' is not a positive integer",
			    k->name, SR_SHOW(v));
		else
			snprintf(err, errlen, "%s: '%s' is not an integer from %ld",
			    k->name, SR_SHOW(v), k->min);
		return -1;
	case SR_KEY_ENUM:
	case SR_KEY_YESNO:
		if (is_word_of(v, k->type == SR_KEY_YESNO ? "yes no" : k->words))
			return 0;
		word_list(k->type == SR_KEY_YESNO ? "yes no" : k->words, words,
		    sizeof words);
		snprintf(err, errlen, "%s: '%s' is not %s", k->name, SR_SHOW(v),
		    words);
		return -1;
	case SR_KEY_SIZE:
		if (*v >= '0' && *v <= '9' && (v[strspn(v, "0123456789")] == '\0' ||
		    (strchr("KMGT", v[strspn(v, "0123456789")]) &&
		    v[strspn(v, "0123456789") + 1] == '\0')))
			return 0;
		snprintf(err, errlen, "%s: '%s' is not a size such as 2000M or 4G",
		    k->name, SR_SHOW(v));
		return -1;
	case SR_KEY_REAL:
	case SR_KEY_FRACTION:
		return check_real(k, v, err, errlen);
	case SR_KEY_FIX:
		return check_fix(v, err, errlen);
	case SR_KEY_WORDS:
		return check_words(k->name, v, err, errlen);
	default:
		return 0;
	}
}

/* Reads one line of fp into buf (at most size - 1 bytes, NUL-terminated,
 * without its newline) and its length into *len. Returns 1 for a line, 0
 * at the end of the file, -1 for a line too long (not read to its end)
 * and -2 for a read error. */
static int
read_line(FILE *fp, char *buf, size_t size, size_t *len)
{
	size_t n = 0;
	int ch;

	while ((ch = getc_unlocked(fp)) != EOF && ch != '\n') {
		if (n + 1 >= size)
			return -1;
		buf[n++] = (char)ch;
	}
	buf[n] = '\0';
	*len = n;
	if (ferror(fp))
		return -2;
	return ch == EOF && n == 0 ? 0 : 1;
}

static int
is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' ||
	    ch == '\f' || ch == '\r';
}

static int
is_key_char(char ch, int first)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	    ch == '_' || (!first && ch >= '0' && ch <= '9');
}

/* Sets err to "PATH:LINE: message". */
static int
line_error(const sr_campaign *c, size_t lineno, char *err, size_t errlen,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int
line_error(const sr_campaign *c, size_t lineno, char *err, size_t errlen,
    const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, errlen, "%s:%zu: ", c->path, lineno);

	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Takes one line (comment cut, key and value split) into c. */
static int
take_line(sr_campaign *c, char *s, size_t lineno, char *err, size_t errlen)
{
	char *key, *end, msg[SR_CAMPAIGN_ERRLEN];
	const char *near;
	int k;

	s[strcspn(s, "#")] = '\0';
	s += strspn(s, " \t\n\v\f\r");
	if (*s == '\0')
		return 0;
	for (key = s; is_key_char(*s, s == key); s++)
		;
	end = s;
	s += strspn(s, " \t\n\v\f\r");
	if (end == key || *s != '=')
		return line_error(c, lineno, err, errlen,
		    "not a 'key = value' line");
	*end = '\0';
	s += 1 + strspn(s + 1, " \t\n\v\f\r");
	for (end = s + strlen(s); end > s && is_blank(end[-1]); end--)
		;
	*end = '\0';
	if ((k = sr_campaign_key_find(key)) < 0 &&
	    (near = sr_campaign_key_suggest(key)) != NULL)
		return line_error(c, lineno, err, errlen,
		    "unknown key '%s': did you mean '%s'?", SR_SHOW(key), near);
	if (k < 0)
		return line_error(c, lineno, err, errlen, "unknown key '%s'",
		    SR_SHOW(key));
	if (c->line[k])
		return line_error(c, lineno, err, errlen,
		    "key '%s' repeats line %zu", key, c->line[k]);
	c->line[k] = lineno;
	if (*s == '\0')
		return line_error(c, lineno, err, errlen, "%s: no value", key);
	if (sr_campaign_check_value(&sr_campaign_keys[k], s, msg, sizeof msg))
		return line_error(c, lineno, err, errlen, "%s", msg);
	c->value[k] = sr_strdup(s);
	return 0;
}

int
sr_campaign_parse(sr_campaign *c, FILE *fp, char *err, size_t errlen)
{
	char *buf = sr_malloc(SR_CAMPAIGN_MAXLINE + 1);
	size_t lineno = 0, len;
	int r, status = 0;

	while (status == 0 && (r = read_line(fp, buf, SR_CAMPAIGN_MAXLINE + 1,
	    &len)) != 0) {
		lineno++;
		if (r == -1)
			status = line_error(c, lineno, err, errlen,
			    "a line longer than %d bytes", SR_CAMPAIGN_MAXLINE);
		else if (r == -2) {	/* EIO and the like exit 3 */
			int e = errno;

			free(buf);
			errno = e;
			sr_die_errno("%s:%zu", c->path, lineno);
		}
		else if (memchr(buf, '\0', len))
			status = line_error(c, lineno, err, errlen,
			    "a NUL byte: not a text file");
		else
			status = take_line(c, buf, lineno, err, errlen);
	}
	free(buf);
	return status;
}

/* The table of keys as TSV: name, type, default, role, concerns. */
void
sr_campaign_keys_write(FILE *fp)
{
	const sr_campaign_key *k;
	size_t i;

	fprintf(fp, "key\ttype\tdefault\trole\tconcerns\n");
	for (i = 0; i < sr_campaign_nkeys; i++) {
		k = &sr_campaign_keys[i];
		fprintf(fp, "%s\t%s\t%s\t%s\t%s\n", k->name, sr_campaign_type_name(k->type),
		    k->flags & SR_KEY_REQUIRED ? "(required)" : k->def ? k->def : "-",
		    sr_campaign_role_name(k->role), k->concerns ? k->concerns : "all");
	}
}
