/* geojson_out.c - seg-run's GeoJSON polygons per run and slide
 * (geojson_out.h). */
#include "exec/geojson_out.h"
#include "core/err.h"
#include "core/out.h"
#include "core/path.h"
#include "image/geojson.h"
#include "image/outline.h"
#include "plan/instances.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct {
	const sr_segout *o;
	const sr_segplan *p;
	const sr_tiles *t;
	size_t *slide;		/* per tile: the first tile of its slide */
	char **name;		/* per tile: its slide's name */
	size_t *order;		/* tiles by slide, then in list order */
	sr_geoplace *place;	/* per tile */
	char *volatile *frag;	/* per instance and tile: the fragment's
				 * temporary, NULL when none */
	unsigned char *ran;	/* per instance and tile: the mask came */
	char *volatile out_tmp;	/* the file being assembled */
	long chunk;
	void (*next_hook)(void);
} g;

static void
remove_tmps(void)
{
	size_t i, n = g.p->n * g.t->n;

	for (i = 0; i < n; i++)
		if (g.frag[i])
			unlink(g.frag[i]);
	if (g.out_tmp)
		unlink(g.out_tmp);
	if (g.next_hook)
		g.next_hook();
}

static const sr_tiles *sort_tiles;	/* for the comparisons (qsort) */

static int
by_path(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(sort_tiles->path[i], sort_tiles->path[j]);

	return c ? c : (i > j) - (i < j);
}

static int
by_slide(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	if (g.slide[i] != g.slide[j])
		return g.slide[i] < g.slide[j] ? -1 : 1;
	return (i > j) - (i < j);
}

static int
by_name(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(g.name[i], g.name[j]);

	return c ? c : (i > j) - (i < j);
}

/* A tile table's tiles: the slide of each (its first tile), its name,
 * and its place (the level's downsample read from the slide); dies when
 * two slides have one name. */
static void
group_slides(const sr_tiles *t)
{
	size_t i, n = t->n, *ix = g.order;
	char err[SR_ERRLEN];
	sr_slide *s;

	sort_tiles = t;
	qsort(ix, n, sizeof *ix, by_path);	/* by path, then list order */
	for (i = 0; i < n; i++)
		g.slide[ix[i]] = i && strcmp(t->path[ix[i]], t->path[ix[i - 1]])
		    == 0 ? g.slide[ix[i - 1]] : ix[i];
	for (i = 0; i < n; i++) {
		g.name[i] = g.slide[i] == i ? sr_path_stem(t->path[i]) :
		    g.name[g.slide[i]];
		if (!(s = sr_slidepool_get(t->pool, t->path[i], err)))
			sr_die(SR_EXIT_DATA, "%s:%zu: %s", t->list, t->line[i], err);
		g.place[i] = (sr_geoplace){ (double)t->region[i].x,
		    (double)t->region[i].y, s->ds[t->region[i].level] };
		sr_slidepool_put(t->pool, s);
	}
	for (i = n = 0; i < t->n; i++)	/* the slides, by name */
		if (g.slide[i] == i)
			ix[n++] = i;
	qsort(ix, n, sizeof *ix, by_name);
	for (i = 1; i < n; i++)
		if (strcmp(g.name[ix[i]], g.name[ix[i - 1]]) == 0)
			sr_die(SR_EXIT_DATA, "%s:%zu: slide %s has the name of slide "
			    "%s (line %zu), %s: --geojson would write both to one "
			    "file", t->list, t->line[ix[i]], t->path[ix[i]],
			    t->path[ix[i - 1]], t->line[ix[i - 1]], g.name[ix[i]]);
}

void
sr_geojson_out_start(const sr_segout *o, const sr_segplan *p,
    const sr_tiles *t)
{
	size_t i, n = t->n ? t->n : 1;

	g.o = o;
	g.chunk = o->chunk < 0 ? 0 : o->chunk;
	g.p = p;
	g.t = t;
	g.slide = sr_calloc(n, sizeof *g.slide);
	g.name = sr_calloc(n, sizeof *g.name);
	g.order = sr_calloc(n, sizeof *g.order);
	g.place = sr_calloc(n, sizeof *g.place);
	for (i = 0; i < t->n; i++) {
		g.order[i] = i;
		g.slide[i] = i;
		g.name[i] = t->name[i];
		g.place[i] = (sr_geoplace){ 0, 0, 1 };
	}
	if (t->region)
		group_slides(t);
	qsort(g.order, t->n, sizeof *g.order, by_slide);
	g.frag = sr_calloc(p->n * n, sizeof *g.frag);
	g.ran = sr_calloc(p->n * n, 1);
	if (mkdir(o->geojson, 0777) != 0 && errno != EEXIST)
		sr_die_errno("%s", o->geojson);
	g.next_hook = sr_cleanup_hook;
	sr_cleanup_hook = remove_tmps;
}

/* Opens a new temporary for path, named in *slot (before it exists, so
 * that a cleanup never misses it), with kind (NULL or of 4 bytes). */
static FILE *
open_temp(const char *path, const char *kind, char *volatile *slot)
{
	char *tmp = sr_malloc(PATH_MAX);
	FILE *fp;
	int fd;

	if (sr_out_temp_name(NULL, 0, path, kind) >= PATH_MAX)
		sr_die(SR_EXIT_DATA, "%s: path too long", path);
	sr_out_temp_name(tmp, PATH_MAX, path, kind);
	*slot = tmp;
	if ((fd = mkstemp(tmp)) < 0)
		sr_die_errno("%s", tmp);
	fchmod(fd, 0666 & ~sr_current_umask());
	if (!(fp = fdopen(fd, "w")))
		sr_die_errno("%s", tmp);
	return fp;
}

void
sr_geojson_out_tile(size_t inst, size_t tile, const uint32_t *labels,
    size_t w, size_t h)
{
	size_t k = inst * g.t->n + tile;
	sr_outlines ol;
	char *base;
	FILE *fp;

	g.ran[k] = 1;
	if (!labels)
		return;
	sr_outlines_trace(labels, w, h, &ol);
	if (ol.n > 0) {
		base = sr_path_join(g.o->geojson, g.t->name[tile], "");
		fp = open_temp(base, "gj", &g.frag[k]);
		sr_geojson_features(fp, &ol, g.t->name[tile], &g.place[tile]);
		errno = 0;
		if (fflush(fp) != 0 || ferror(fp) || fclose(fp) != 0)
			sr_die_io("%s: write error", g.frag[k]);
		free(base);
	}
	sr_outlines_free(&ol);
}

/* Appends fragment path to out, its first byte (a comma) dropped when
 * *first. */
static void
copy_fragment(FILE *out, const char *path, int *first)
{
	char buf[65536];
	FILE *in = fopen(path, "r");
	size_t n;

	if (!in)
		sr_die_errno("%s", path);
	while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
		fwrite(buf + *first, 1, n - (size_t)*first, out);
		*first = 0;
	}
	if (ferror(in))
		sr_die_io("%s: read error", path);
	fclose(in);
}

/* Writes run's file of slide tiles ts[0..n) from instance inst's
 * fragments. */
static void
write_run(size_t run, size_t inst, const size_t *ts, size_t n)
{
	char rdir[32], chunk[32], *dir, *path, *tmp;
	size_t i;
	int first = 1;
	FILE *fp;

	snprintf(rdir, sizeof rdir, "%zu", run);
	snprintf(chunk, sizeof chunk, ".%04ld.geojson", g.chunk);
	dir = sr_path_join(g.o->geojson, rdir, "");
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		sr_die_errno("%s", dir);
	path = sr_path_join(dir, g.name[ts[0]], chunk);
	fp = open_temp(path, NULL, &g.out_tmp);
	sr_geojson_header(fp, run, g.name[ts[0]], g.chunk, NULL, 0);
	for (i = 0; i < n; i++)
		if (g.frag[inst * g.t->n + ts[i]])
			copy_fragment(fp, g.frag[inst * g.t->n + ts[i]], &first);
	sr_geojson_trailer(fp);
	errno = 0;
	if (fflush(fp) != 0 || fsync(fileno(fp)) != 0 || ferror(fp) ||
	    fclose(fp) != 0)
		sr_die_io("%s: write error", path);
	if (rename(g.out_tmp, path) != 0)
		sr_die_io("%s: cannot rename %s into place", path, g.out_tmp);
	tmp = g.out_tmp;
	g.out_tmp = NULL;
	free(tmp);
	free(path);
	free(dir);
}

void
sr_geojson_out_end(void)
{
	const sr_instance *x;
	size_t a, b, i, k, r, nt;
	char *f;

	if (!g.o)	/* not started */
		return;
	nt = g.t->n;
	for (a = 0; a < nt; a = b) {	/* each slide: tiles order[a..b) */
		for (b = a + 1; b < nt && g.slide[g.order[b]] ==
		    g.slide[g.order[a]]; b++)
			;
		for (i = 0; i < g.p->n; i++) {
			for (k = a; k < b && !g.ran[i * nt + g.order[k]]; k++)
				;
			if (k == b)	/* the instance ran on none of them */
				continue;
			x = &g.p->in->inst[g.p->in->first[g.p->st] + g.p->inst[i]];
			for (r = 0; r < x->nruns; r++)
				write_run(x->runs[r], i, g.order + a, b - a);
		}
	}
	for (k = 0; k < g.p->n * nt; k++)
		if ((f = g.frag[k]) != NULL) {
			g.frag[k] = NULL;
			unlink(f);
			free(f);
		}
	sr_cleanup_hook = g.next_hook;
	for (i = 0; i < nt; i++)
		if (g.t->region && g.slide[i] == i)
			free(g.name[i]);
	free(g.slide);
	free(g.name);
	free(g.order);
	free(g.place);
	free((void *)g.frag);
	free(g.ran);
	memset(&g, 0, sizeof g);
}
