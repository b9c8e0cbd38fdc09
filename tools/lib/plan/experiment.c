/* experiment.c - sa-prune's experiments read onto a space (experiment.h). */
#include "plan/experiment.h"
#include "core/err.h"
#include "core/path.h"
#include "plan/trials.h"
#include "sa/design.h"
#include "sa/metrics.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Whether path exists as a regular file (or anything but a directory). */
static int
have_file(const char *dir, const char *name)
{
	char *path = sr_path_join(dir, name, "");
	struct stat st;
	int ok = stat(path, &st) == 0 && !S_ISDIR(st.st_mode);

	free(path);
	return ok;
}

int
sr_experiment_is_output(const char *dir)
{
	return have_file(dir, SR_EXPERIMENT_TRIALS) ||
	    (have_file(dir, SR_EXPERIMENT_DESIGN) &&
	    have_file(dir, SR_EXPERIMENT_RESULTS));
}

static sr_experiment *
new_experiment(const char *name, const char *source, const sr_space *s,
    size_t cap)
{
	sr_experiment *e = sr_calloc(1, sizeof *e);

	e->name = sr_strdup(name);
	e->source = sr_strdup(source);
	e->raw = sr_calloc(cap * s->n + 1, sizeof *e->raw);
	e->y = sr_calloc(cap + 1, sizeof *e->y);
	return e;
}

/* For each parameter of s, its column among names[0..ncol), or -1 (held
 * at its default). A column that is no parameter of s is an error of the
 * current experiment (path names it), else left out in e->ignored. */
static int *
map_columns(sr_experiment *e, const sr_space *s, char *const *names,
    size_t ncol, const char *path, int current)
{
	int *map = sr_calloc(s->n + 1, sizeof *map), j;
	size_t c, i;

	for (i = 0; i < s->n; i++)
		map[i] = -1;
	for (c = 0; c < ncol; c++) {
		if ((j = sr_space_find(s, names[c])) >= 0) {
			map[j] = (int)c;
			continue;
		}
		if (current)
			sr_die(SR_EXIT_DATA, "%s: column %s is not a parameter of "
			    "the space", path, names[c]);
		e->ignored = sr_reallocarray(e->ignored, e->nignored + 1,
		    sizeof *e->ignored);
		e->ignored[e->nignored++] = sr_strdup(names[c]);
	}
	return map;
}

/* Adds a job: the row's values through map, the defaults elsewhere; a
 * value of a column whose parameter in its file is from (by column; NULL
 * without "#space" lines) is recoded onto s (a word enum's codes are
 * positions, which pruning changes: NaN for a word s no longer has). */
static void
add_job(sr_experiment *e, const sr_space *s, const int *map,
    const sr_param *const *from, const double *row, double y)
{
	size_t j;
	int c;

	if (isnan(y)) {
		e->nmissing++;
		return;
	}
	for (j = 0; j < s->n; j++) {
		double v = (c = map[j]) < 0 ? s->p[j].def : row[c];
		if (c >= 0 && from && from[c])
			v = sr_param_recode(from[c], &s->p[j], v);
		e->raw[e->n * s->n + j] = v;
	}
	e->y[e->n++] = y;
}

sr_experiment *
sr_experiment_read_files(const char *design, const char *metrics,
    const sr_space *s, const char *metric, int current)
{
	sr_design *d = sr_design_read(design);
	sr_metrics *m = sr_metrics_read(metrics, d->nrun, metric, SR_AGG_MEAN);
	size_t len = strlen(design) + strlen(metrics) + 2;
	char source[64], *name = sr_malloc(len);
	sr_experiment *e;
	size_t r;
	int *map;

	snprintf(name, len, "%s,%s", design, metrics);
	snprintf(source, sizeof source, "the mean of %.40s per run", metric);
	e = new_experiment(name, source, s, d->nrun);
	free(name);
	map = map_columns(e, s, d->name, d->ncol, d->path, current);
	for (r = 0; r < d->nrun; r++)
		add_job(e, s, map, d->cparam, d->x + r * d->ncol, m->value[r]);
	free(map);
	sr_metrics_free(m);
	sr_design_free(d);
	return e;
}

/* The experiment of a trials.tsv already read. */
static sr_experiment *
from_trials(const sr_trials_table *tt, const char *dir, const sr_space *s,
    int current)
{
	sr_experiment *e = new_experiment(dir, SR_EXPERIMENT_TRIALS " (its mean "
	    "column)", s, tt->n);
	int *map = map_columns(e, s, tt->name, tt->ncol, tt->path, current);
	size_t i;

	for (i = 0; i < tt->n; i++)
		add_job(e, s, map, tt->cparam, tt->x + i * tt->ncol, tt->mean[i]);
	free(map);
	return e;
}

/* Dies unless dir is a directory. */
static void
need_directory(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) != 0)
		sr_die_errno("%s", dir);
	if (!S_ISDIR(st.st_mode))
		sr_die(SR_EXIT_DATA, "%s: not a directory (a campaign output)", dir);
}

/* The experiment of dir's design.tsv and results.tsv. */
static sr_experiment *
from_design(const char *dir, const sr_space *s, const char *metric,
    int current)
{
	char *design = sr_path_join(dir, SR_EXPERIMENT_DESIGN, "");
	char *results = sr_path_join(dir, SR_EXPERIMENT_RESULTS, "");
	sr_experiment *e = sr_experiment_read_files(design, results, s, metric,
	    current);

	free(e->name);
	e->name = sr_strdup(dir);
	free(e->source);
	e->source = sr_strdup(SR_EXPERIMENT_DESIGN " and " SR_EXPERIMENT_RESULTS
	    " (the mean over the tiles)");
	free(design);
	free(results);
	return e;
}

sr_experiment *
sr_experiment_read_dir(const char *dir, const sr_space *s, const char *metric,
    int current)
{
	int design = have_file(dir, SR_EXPERIMENT_DESIGN);
	int results = have_file(dir, SR_EXPERIMENT_RESULTS);
	sr_trials_table *tt;
	sr_experiment *e;
	char *path;

	need_directory(dir);
	if (have_file(dir, SR_EXPERIMENT_TRIALS)) {
		path = sr_path_join(dir, SR_EXPERIMENT_TRIALS, "");
		tt = sr_trials_table_read(path);
		free(path);
		if (tt->metric && strcmp(tt->metric, metric) == 0) {
			e = from_trials(tt, dir, s, current);
			sr_trials_table_free(tt);
			return e;
		}
		if (!(design && results))
			sr_die(SR_EXIT_DATA, "%s: ranks %s, not %s, and %s has no %s "
			    "and %s to read %s from", tt->path, tt->metric ?
			    tt->metric : "no metric (no #metric=)", metric, dir,
			    SR_EXPERIMENT_DESIGN, SR_EXPERIMENT_RESULTS, metric);
		sr_trials_table_free(tt);
	}
	if (design && results)
		return from_design(dir, s, metric, current);
	if (current && !results)
		return new_experiment(dir, "no results yet: no " SR_EXPERIMENT_TRIALS
		    " or " SR_EXPERIMENT_RESULTS, s, 0);
	sr_die(SR_EXIT_DATA, "%s: not a campaign output: no %s, and no %s with "
	    "its %s", dir, SR_EXPERIMENT_TRIALS, SR_EXPERIMENT_RESULTS,
	    SR_EXPERIMENT_DESIGN);
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **
sr_experiment_knowledge(const char *dir, size_t *n)
{
	char **out = NULL, *path;
	struct dirent *de;
	struct stat st;
	DIR *dp;

	need_directory(dir);
	if (sr_experiment_is_output(dir)) {	/* one past experiment */
		out = sr_calloc(1, sizeof *out);
		out[0] = sr_strdup(dir);
		*n = 1;
		return out;
	}
	if ((dp = opendir(dir)) == NULL)
		sr_die_errno("%s", dir);
	*n = 0;
	errno = 0;
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		path = sr_path_join(dir, de->d_name, "");
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
		    sr_experiment_is_output(path)) {
			out = sr_reallocarray(out, *n + 1, sizeof *out);
			out[(*n)++] = path;
		} else
			free(path);
		errno = 0;
	}
	if (errno)
		sr_die_errno("%s", dir);
	closedir(dp);
	if (*n > 1)
		qsort(out, *n, sizeof *out, by_name);
	return out;
}

sr_experiment *
sr_experiment_read(const sr_experiment_arg *a, const sr_space *s,
    const char *metric, int current)
{
	if (a->kind == SR_EXP_FILES)
		return sr_experiment_read_files(a->path, a->metrics, s, metric,
		    current);
	return sr_experiment_read_dir(a->path, s, metric, current);
}

/* Whether directory dir (resolved) is among seen[0..n); adds it if not. */
static int
seen_before(char ***seen, size_t *n, const char *dir)
{
	char *slash = sr_path_join(dir, "", ""), *real = sr_path_real_dir(slash);
	size_t i;

	if (real == NULL)
		sr_die_errno("%s", dir);
	free(slash);
	for (i = 0; i < *n; i++)
		if (strcmp((*seen)[i], real) == 0) {
			free(real);
			return 1;
		}
	*seen = sr_reallocarray(*seen, *n + 1, sizeof **seen);
	(*seen)[(*n)++] = real;
	return 0;
}

/* Appends the experiment of directory dir unless seen. */
static void
add_dir(sr_experiment ***out, size_t *nout, char ***seen, size_t *nseen,
    const char *dir, const sr_space *s, const char *metric)
{
	need_directory(dir);
	if (seen_before(seen, nseen, dir))
		return;
	*out = sr_reallocarray(*out, *nout + 1, sizeof **out);
	(*out)[(*nout)++] = sr_experiment_read_dir(dir, s, metric, 0);
}

sr_experiment **
sr_experiment_read_past(const sr_experiment_arg *args, size_t n,
    const sr_experiment_arg *current, const sr_space *s, const char *metric,
    size_t *npast)
{
	sr_experiment **out = sr_calloc(1, sizeof *out);
	char **seen = NULL, **dirs;
	size_t nseen = 0, i, j, ndirs;

	*npast = 0;
	if (current && current->kind == SR_EXP_DIR)
		(void)seen_before(&seen, &nseen, current->path);
	for (i = 0; i < n; i++) {
		if (args[i].kind == SR_EXP_FILES) {
			out = sr_reallocarray(out, *npast + 1, sizeof *out);
			out[(*npast)++] = sr_experiment_read(&args[i], s, metric, 0);
		} else if (args[i].kind == SR_EXP_DIR)
			add_dir(&out, npast, &seen, &nseen, args[i].path, s, metric);
		else {
			dirs = sr_experiment_knowledge(args[i].path, &ndirs);
			for (j = 0; j < ndirs; j++) {
				add_dir(&out, npast, &seen, &nseen, dirs[j], s, metric);
				free(dirs[j]);
			}
			free(dirs);
		}
	}
	for (i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	return out;
}
