/* tiles.c - reading tiles lists and tile tables, and their tiles. */
#include "image/tiles.h"
#include "image/format.h"
#include "image/tiletable.h"
#include "core/err.h"
#include "core/text.h"
#include "core/opt.h"
#include "core/path.h"
#include "core/rng.h"

#include <errno.h>
#include <gsl/gsl_randist.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The slides a tile table's tiles keep open at once (OpenSlide holds a
 * tile cache of 32 MiB for each). */
#define SLIDES_OPEN 4

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
			    "line %zu", t->list, t->line[ix[i]],
			    SR_SHOW(t->name[ix[i]]),
			    t->line[ix[i - 1]]);
	free(ix);
}

/* A tile table as tiles: each row's slide resolved against the table's
 * directory, its region kept. */
static sr_tiles *
read_table(const char *list)
{
	sr_tiletable *tt = sr_tiletable_read(list);
	sr_tiles *t = sr_calloc(1, sizeof *t);
	char *dir = sr_path_dir(list);
	size_t i;

	t->list = sr_strdup(list);
	t->n = tt->n;
	t->path = sr_calloc(t->n, sizeof *t->path);
	t->name = sr_calloc(t->n, sizeof *t->name);
	t->line = sr_calloc(t->n, sizeof *t->line);
	t->region = sr_calloc(t->n, sizeof *t->region);
	t->norm = sr_calloc(6 * t->n, sizeof *t->norm);
	for (i = 0; i < t->n; i++) {
		const sr_tilerow *r = &tt->row[i];

		t->path[i] = sr_path_resolve(dir, r->slide);
		t->name[i] = sr_strdup(r->tile);
		t->line[i] = r->line;
		t->region[i] = (sr_tileregion){ r->level, r->x, r->y, r->w,
		    r->h, r->own };
		memcpy(t->norm + 6 * i, r->norm, sizeof r->norm);
	}
	t->pool = sr_slidepool_new(SLIDES_OPEN);
	free(dir);
	sr_tiletable_free(tt);
	return t;
}

sr_tiles *
sr_tiles_read(const char *list)
{
	sr_tiles *t;
	FILE *fp;
	char *line = NULL, *dir, *p, *end;
	size_t cap = 0, lineno = 0;
	ssize_t got;

	if (sr_tiletable_sniff(list))
		return read_table(list);
	t = sr_calloc(1, sizeof *t);
	if (!(fp = fopen(list, "r")))
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
			    list, lineno, SR_SHOW(p));
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
	sr_tileregion *region = t->region ? sr_calloc(t->n ? t->n : 1,
	    sizeof *region) : NULL;
	double *norm = t->norm ? sr_calloc(6 * t->n + 1, sizeof *norm) : NULL;

	if (rng == NULL)
		sr_die(SR_EXIT_IO, "cannot allocate a random number generator");
	for (i = 0; i < t->n; i++)
		order[i] = i;
	gsl_ran_shuffle(rng, order, t->n, sizeof *order);
	for (i = 0; i < t->n; i++) {
		path[i] = t->path[order[i]];
		name[i] = t->name[order[i]];
		line[i] = t->line[order[i]];
		if (region)
			region[i] = t->region[order[i]];
		if (norm)
			memcpy(norm + 6 * i, t->norm + 6 * order[i],
			    6 * sizeof *norm);
	}
	free(t->region);
	t->region = region;
	free(t->norm);
	t->norm = norm;
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
	free(t->region);
	free(t->norm);
	sr_slidepool_free(t->pool);
	free(t);
}

/* ---- the tiles ------------------------------------------------------- */

const char *
sr_tile_label(const sr_tiles *t, size_t i, char *buf, size_t size)
{
	if (!t->region)
		return t->path[i];
	snprintf(buf, size, "%s (tile %s)", t->path[i], t->name[i]);
	return buf;
}

int
sr_tile_read(const sr_tiles *t, size_t i, sr_rgb *img, char *errbuf)
{
	const sr_tileregion *r = t->region ? &t->region[i] : NULL;
	char err[SR_ERRLEN];
	sr_slide *s;
	int rc, e;

	if (!r)
		return sr_rgb_read(t->path[i], img, errbuf);
	memset(img, 0, sizeof *img);
	errno = 0;
	if ((s = sr_slidepool_get(t->pool, t->path[i], err)) == NULL)
		rc = -1;
	else {
		rc = sr_slide_read(s, r->level, (int64_t)r->x, (int64_t)r->y,
		    r->w, r->h, img, err);
		e = errno;
		sr_slidepool_put(t->pool, s);
		errno = e;
	}
	if (rc < 0)
		sr_seterr(errbuf, "%s:%zu: tile %s: %s", t->list, t->line[i],
		    t->name[i], err);
	return rc;
}

int
sr_tile_size(const sr_tiles *t, size_t i, size_t *w, size_t *h,
    char *errbuf)
{
	const sr_tileregion *r;

	if (!t->region)
		return sr_image_probe(t->path[i], w, h, errbuf);
	r = &t->region[i];
	*w = (size_t)r->w;
	*h = (size_t)r->h;
	return sr_image_check_size(t->name[i], r->w, r->h, errbuf);
}

/* Dies naming row i of the table: "TABLE:LINE: tile NAME: why". */
static _Noreturn void
row_die(const sr_tiles *t, size_t i, const char *why)
{
	sr_die(SR_EXIT_DATA, "%s:%zu: tile %s: %s", t->list, t->line[i],
	    SR_SHOW(t->name[i]), why);
}

void
sr_tiles_check_slides(const sr_tiles *t)
{
	char err[SR_ERRLEN], why[2 * SR_ERRLEN];
	const sr_tileregion *r;
	sr_slide *s;
	double ds;
	size_t i;

	for (i = 0; t->region && i < t->n; i++) {
		r = &t->region[i];
		if ((s = sr_slidepool_get(t->pool, t->path[i], err)) == NULL)
			row_die(t, i, err);
		if (r->level >= s->nlevel) {
			snprintf(why, sizeof why, "%s: level %d does not exist "
			    "(levels 0 to %d)", s->path, r->level, s->nlevel - 1);
			row_die(t, i, why);
		}
		ds = s->ds[r->level];
		/* half a pixel of slack: level-0 corners are rounded */
		if ((double)r->x / ds + (double)r->w > (double)s->w[r->level] +
		    0.5 || (double)r->y / ds + (double)r->h >
		    (double)s->h[r->level] + 0.5) {
			snprintf(why, sizeof why, "%s: the region reaches beyond "
			    "level %d (%llux%llu)", s->path, r->level,
			    (unsigned long long)s->w[r->level],
			    (unsigned long long)s->h[r->level]);
			row_die(t, i, why);
		}
		sr_slidepool_put(t->pool, s);
	}
}

const double *
sr_tile_norm(const sr_tiles *t, size_t i)
{
	return t->norm && !isnan(t->norm[6 * i]) ? t->norm + 6 * i : NULL;
}

const sr_tileown *
sr_tile_own(const sr_tiles *t, size_t i)
{
	return t->region && t->region[i].own.overlap > 0 ?
	    &t->region[i].own : NULL;
}

/* DIR/SLIDE.geojson for tile i of a tile table (SLIDE its slide's file
 * name without extension), when it can be read; NULL otherwise. */
static char *
slide_geojson(const char *dir, const sr_tiles *t, size_t i)
{
	char *stem, *p;

	if (t->region == NULL)
		return NULL;
	stem = sr_path_stem(t->path[i]);
	p = sr_path_join(dir, stem, ".geojson");
	free(stem);
	if (access(p, R_OK) == 0)
		return p;
	free(p);
	return NULL;
}

char *
sr_tile_ref_path(const sr_tiles *t, size_t i, const char *dir,
    const char *suffix, int *err)
{
	char *ref, *geo;

	if (suffix)
		ref = sr_path_join(dir, t->name[i], suffix);
	else {
		ref = sr_path_join(dir, t->name[i], ".tif");
		if (access(ref, F_OK) != 0) {
			free(ref);
			ref = sr_path_join(dir, t->name[i], ".png");
		}
	}
	*err = 0;
	if (access(ref, R_OK) == 0)
		return ref;
	*err = errno;
	if ((geo = slide_geojson(dir, t, i)) != NULL) {
		free(ref);
		*err = 0;
		return geo;
	}
	return ref;
}
