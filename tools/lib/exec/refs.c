/* refs.c - seg-run's reference of every tile: a mask named after the
 * tile, or the annotations of its slide as GeoJSON (outputs.h). */
#include "exec/outputs.h"
#include "core/err.h"
#include "core/path.h"
#include "core/text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char **
sr_ref_paths(const char *dir, const char *suffix, const sr_tiles *t)
{
	char **ref = sr_calloc(t->n, sizeof *ref);
	size_t i;
	int e;

	for (i = 0; i < t->n; i++) {
		ref[i] = sr_tile_ref_path(t, i, dir, suffix, &e);
		if (e)
			sr_die(SR_EXIT_DATA, "%s: no reference mask for tile %s "
			    "(%s:%zu)%s: %s", ref[i], SR_SHOW(t->name[i]),
			    t->list, t->line[i], t->region ? ", nor its slide's "
			    "GeoJSON" : "", strerror(e));
	}
	return ref;
}

void
sr_ref_paths_free(char **ref, size_t n)
{
	size_t i;

	for (i = 0; ref && i < n; i++)
		free(ref[i]);
	free(ref);
}

/* Whether path names a GeoJSON reference. */
static int
is_geojson(const char *path)
{
	size_t n = strlen(path);

	return n > 8 && strcmp(path + n - 8, ".geojson") == 0;
}

sr_tileref *
sr_ref_georefs(char *const *ref, const sr_tiles *t)
{
	sr_tileref *r = NULL;
	char err[SR_ERRLEN];
	sr_slide *s;
	size_t i, j;

	for (i = 0; ref && i < t->n; i++) {
		if (!is_geojson(ref[i]))
			continue;
		if (r == NULL)
			r = sr_calloc(t->n, sizeof *r);
		for (j = 0; j < i && (!r[j].g || strcmp(ref[j], ref[i])); j++)
			;
		if (j < i)	/* read once per slide */
			r[i].g = r[j].g;
		else {
			r[i].g = sr_calloc(1, sizeof *r[i].g);
			r[i].first = 1;
			if (sr_georef_read(ref[i], r[i].g, err) < 0)
				sr_die(sr_exit_for_errno(errno), "%s", err);
		}
		if (!(s = sr_slidepool_get(t->pool, t->path[i], err)))
			sr_die(SR_EXIT_DATA, "%s:%zu: %s", t->list, t->line[i], err);
		r[i].x0 = (double)t->region[i].x;
		r[i].y0 = (double)t->region[i].y;
		r[i].ds = s->ds[t->region[i].level];
		sr_slidepool_put(t->pool, s);
	}
	return r;
}

void
sr_ref_georefs_free(sr_tileref *r, size_t n)
{
	size_t i;

	for (i = 0; r && i < n; i++)
		if (r[i].first) {
			sr_georef_free(r[i].g);
			free(r[i].g);
		}
	free(r);
}
