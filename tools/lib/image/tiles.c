/* tiles.c - reading tiles lists. */
#include "image/tiles.h"
#include "core/err.h"
#include "core/opt.h"
#include "core/path.h"
#include "core/rng.h"

#include <errno.h>
#include <gsl/gsl_randist.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const sr_tiles *sort_tiles;	/* for cmp_name (qsort has no context) */

static int
cmp_name(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(sort_tiles->name[i], sort_tiles->name[j]);

	return c ? c : (i > j) - (i < j);
}

/* Dies naming the later line of two tiles of the same name. */
static void
check_unique(const sr_tiles *t)
{
	size_t *ix = sr_calloc(t->n, sizeof *ix), i;

	for (i = 0; i < t->n; i++)
		ix[i] = i;
	sort_tiles = t;
	qsort(ix, t->n, sizeof *ix, cmp_name);
	for (i = 1; i < t->n; i++)
		if (strcmp(t->name[ix[i]], t->name[ix[i - 1]]) == 0)
			sr_die(SR_EXIT_DATA, "%s:%zu: tile name '%s' repeats "
			    "line %zu", t->list, t->line[ix[i]], t->name[ix[i]],
			    t->line[ix[i - 1]]);
	free(ix);
}

sr_tiles *
sr_tiles_read(const char *list)
{
	sr_tiles *t = sr_calloc(1, sizeof *t);
	FILE *fp = fopen(list, "r");
	char *line = NULL, *dir, *p, *end;
	size_t cap = 0, lineno = 0;
	ssize_t got;

	if (!fp)
		sr_die_errno("%s", list);
	dir = sr_path_dir(list);
	t->list = sr_strdup(list);
	while ((errno = 0, got = getline(&line, &cap, fp)) >= 0) {
		lineno++;
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		end = p + strlen(p);
		while (end > p && (end[-1] == '\n' || end[-1] == '\r' ||
		    end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		if (*p == '\0' || *p == '#')
			continue;
		t->path = sr_reallocarray(t->path, t->n + 1, sizeof *t->path);
		t->name = sr_reallocarray(t->name, t->n + 1, sizeof *t->name);
		t->line = sr_reallocarray(t->line, t->n + 1, sizeof *t->line);
		t->path[t->n] = sr_path_resolve(dir, p);
		t->name[t->n] = sr_path_stem(p);
		t->line[t->n] = lineno;
		if (t->name[t->n][0] == '\0')
			sr_die(SR_EXIT_DATA, "%s:%zu: '%s' has no file name",
			    list, lineno, p);
		t->n++;
	}
	if (ferror(fp) || !feof(fp))	/* not end of file: a read error */
		sr_die_io("%s:%zu: read error", list, lineno + 1);
	fclose(fp);
	free(line);
	free(dir);
	if (t->n == 0)
		sr_die(SR_EXIT_DATA, "%s: no tiles", list);
	check_unique(t);
	return t;
}

int
sr_tiles_order_parse(const char *opt, const char *arg, unsigned long *seed)
{
	char what[64];

	if (strcmp(arg, "list") == 0)
		return 0;
	if (strncmp(arg, "shuffle:", 8) != 0)
		sr_usage_error("%s '%s': list or shuffle:SEED", opt, arg);
	snprintf(what, sizeof what, "%s shuffle", opt);
	*seed = sr_opt_seed(what, arg + 8);
	return 1;
}

void
sr_tiles_shuffle(sr_tiles *t, unsigned long seed)
{
	gsl_rng *rng = sr_rng_new(seed);
	size_t *order = sr_calloc(t->n ? t->n : 1, sizeof *order), i;
	char **path = sr_calloc(t->n ? t->n : 1, sizeof *path);
	char **name = sr_calloc(t->n ? t->n : 1, sizeof *name);
	size_t *line = sr_calloc(t->n ? t->n : 1, sizeof *line);

	if (rng == NULL)
		sr_die(SR_EXIT_IO, "cannot allocate a random number generator");
	for (i = 0; i < t->n; i++)
		order[i] = i;
	gsl_ran_shuffle(rng, order, t->n, sizeof *order);
	for (i = 0; i < t->n; i++) {
		path[i] = t->path[order[i]];
		name[i] = t->name[order[i]];
		line[i] = t->line[order[i]];
	}
	free(t->path);
	free(t->name);
	free(t->line);
	t->path = path;
	t->name = name;
	t->line = line;
	free(order);
	gsl_rng_free(rng);
}

void
sr_tiles_free(sr_tiles *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++) {
		free(t->path[i]);
		free(t->name[i]);
	}
	free(t->path);
	free(t->name);
	free(t->line);
	free(t->list);
	free(t);
}
