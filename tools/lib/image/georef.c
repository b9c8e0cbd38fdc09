/* georef.c - slide-level references from GeoJSON (georef.h). JSON parsed
 * with jansson; the even-odd scanline fill written by hand, as OpenCV's
 * fillPoly rounds vertices to its pixel grid and has no pixel-centre
 * rule for real coordinates. */
#include "image/georef.h"
#include "core/err.h"
#include "image/raster.h"

#include <errno.h>
#include <gsl/gsl_sort.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The growing arrays of a file being read. */
typedef struct {
	sr_georef *g;
	size_t nedge, cap_edge, cap_obj;
} builder;

static int
grow_edges(builder *b)
{
	double *e;

	if (b->nedge < b->cap_edge)
		return 0;
	b->cap_edge = b->cap_edge ? 2 * b->cap_edge : 1024;
	if ((e = realloc(b->g->edge, b->cap_edge * 4 * sizeof *e)) == NULL)
		return -1;
	b->g->edge = e;
	return 0;
}

/* Position i of ring r: x and y, finite; -1 if not. */
static int
position(const json_t *r, size_t i, double *x, double *y)
{
	const json_t *p = json_array_get(r, i);

	if (!json_is_array(p) || json_array_size(p) < 2 ||
	    !json_is_number(json_array_get(p, 0)) ||
	    !json_is_number(json_array_get(p, 1)))
		return -1;
	*x = json_number_value(json_array_get(p, 0));
	*y = json_number_value(json_array_get(p, 1));
	return isfinite(*x) && isfinite(*y) ? 0 : -1;
}

/* Adds ring r's edges to the object being built, its box grown. Returns
 * 0, or -1 with why in why. */
static int
add_ring(builder *b, const json_t *r, double *box, const char **why)
{
	size_t n = json_array_size(r), i;
	double x0 = 0, y0 = 0, x1 = 0, y1 = 0, fx = 0, fy = 0;

	if (!json_is_array(r) || n < 4) {
		*why = "a ring of fewer than four positions";
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (position(r, i, &x1, &y1) < 0) {
			*why = "a position that is not two finite numbers";
			return -1;
		}
		box[0] = fmin(box[0], x1);
		box[1] = fmin(box[1], y1);
		box[2] = fmax(box[2], x1);
		box[3] = fmax(box[3], y1);
		if (i == 0) {
			fx = x1;
			fy = y1;
		} else if (y0 != y1) {	/* horizontal edges cross no row */
			if (grow_edges(b) < 0) {
				*why = "out of memory";
				return -1;
			}
			double *e = b->g->edge + 4 * b->nedge++;
			e[0] = x0;
			e[1] = y0;
			e[2] = x1;
			e[3] = y1;
		}
		x0 = x1;
		y0 = y1;
	}
	if (x1 != fx || y1 != fy) {
		*why = "a ring that is not closed (its last position is not its "
		    "first)";
		return -1;
	}
	return 0;
}

/* Adds the feature's object, or counts it skipped; -1 with why. */
static int
add_feature(builder *b, const json_t *f, const char **why)
{
	sr_georef *g = b->g;
	const json_t *geo, *coords, *poly;
	const char *type;
	size_t i, j, np;
	int multi;

	if (!json_is_object(f) || !json_is_string(json_object_get(f, "type")) ||
	    strcmp(json_string_value(json_object_get(f, "type")), "Feature")) {
		*why = "not a Feature";
		return -1;
	}
	geo = json_object_get(f, "geometry");
	type = json_is_object(geo) ? json_string_value(json_object_get(geo,
	    "type")) : NULL;
	multi = type && strcmp(type, "MultiPolygon") == 0;
	if (!type || (!multi && strcmp(type, "Polygon") != 0)) {
		g->skipped++;
		return 0;
	}
	coords = json_object_get(geo, "coordinates");
	if (!json_is_array(coords)) {
		*why = "a geometry without coordinates";
		return -1;
	}
	if (g->nobj + 1 >= b->cap_obj) {
		size_t cap = b->cap_obj ? 2 * b->cap_obj : 256;
		size_t *e0 = realloc(g->edge0, (cap + 1) * sizeof *e0);
		double *box = e0 ? realloc(g->box, cap * 4 * sizeof *box) : NULL;
		if (e0)
			g->edge0 = e0;
		if (!box) {
			*why = "out of memory";
			return -1;
		}
		g->box = box;
		b->cap_obj = cap;
	}
	double *box = g->box + 4 * g->nobj;
	box[0] = box[1] = INFINITY;
	box[2] = box[3] = -INFINITY;
	g->edge0[g->nobj] = b->nedge;
	np = multi ? json_array_size(coords) : 1;
	for (i = 0; i < np; i++) {
		poly = multi ? json_array_get(coords, i) : coords;
		if (!json_is_array(poly) || json_array_size(poly) == 0) {
			*why = "a polygon without rings";
			return -1;
		}
		for (j = 0; j < json_array_size(poly); j++)
			if (add_ring(b, json_array_get(poly, j), box, why) < 0)
				return -1;
	}
	g->nobj++;
	g->edge0[g->nobj] = b->nedge;
	return 0;
}

int
sr_georef_read(const char *path, sr_georef *g, char *errbuf)
{
	struct stat st;
	json_error_t jerr;
	json_t *root, *features;
	builder b = { g, 0, 0, 0 };
	const char *why = NULL;
	size_t i, n;

	memset(g, 0, sizeof *g);
	if (stat(path, &st) < 0) {
		sr_seterr(errbuf, "%s: %s", path, strerror(errno));
		return -1;
	}
	if ((double)st.st_size * SR_GEOREF_BYTES_PER_BYTE >
	    (double)sr_image_budget()) {
		sr_seterr(errbuf, "%s: %.0f MiB of GeoJSON would need %.0f MiB "
		    "to read, beyond the memory budget (%.0f MiB, %s)", path,
		    (double)st.st_size / 1048576, (double)st.st_size *
		    SR_GEOREF_BYTES_PER_BYTE / 1048576,
		    (double)sr_image_budget() / 1048576,
		    sr_image_budget_source());
		errno = ENOMEM;
		return -1;
	}
	if ((root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr)) ==
	    NULL) {
		sr_seterr(errbuf, "%s:%d: not JSON: %s", path, jerr.line,
		    jerr.text);
		return -1;
	}
	features = root;
	if (json_is_object(root) && json_is_string(json_object_get(root,
	    "type")) && strcmp(json_string_value(json_object_get(root,
	    "type")), "FeatureCollection") == 0)
		features = json_object_get(root, "features");
	n = json_is_array(features) ? json_array_size(features) : 0;
	if (json_is_object(root) && features == root) {	/* one Feature */
		if (add_feature(&b, root, &why) == 0)
			why = NULL;
	} else if (!json_is_array(features))
		why = "neither a FeatureCollection, an array of Features nor a "
		    "Feature";
	for (i = 0; !why && i < n; i++)
		if (add_feature(&b, json_array_get(features, i), &why) < 0)
			break;
	json_decref(root);
	if (why) {
		if (i < n)
			sr_seterr(errbuf, "%s: feature %zu: %s", path, i, why);
		else
			sr_seterr(errbuf, "%s: %s", path, why);
		sr_georef_free(g);
		return -1;
	}
	return 0;
}

void
sr_georef_free(sr_georef *g)
{
	free(g->edge0);
	free(g->edge);
	free(g->box);
	memset(g, 0, sizeof *g);
}

/* The first pixel whose centre, x0 + (i + 0.5) ds, is at or past v,
 * within [0, n]. */
static size_t
first_at(double v, double x0, double ds, size_t n)
{
	double i = ceil((v - x0) / ds - 0.5);

	return i <= 0 ? 0 : i >= (double)n ? n : (size_t)i;
}

size_t
sr_georef_raster(const sr_georef *g, double x0, double y0, double ds,
    size_t w, size_t h, uint32_t *lab)
{
	double x1 = x0 + (double)w * ds, y1 = y0 + (double)h * ds, cy;
	double *xs = NULL;
	size_t k, e, j, jlo, jhi, nx, m, i, a, z, cap = 0, hit = 0;

	memset(lab, 0, w * h * sizeof *lab);
	for (k = 0; k < g->nobj; k++) {
		const double *box = g->box + 4 * k;
		int any = 0;
		if (box[2] <= x0 || box[0] >= x1 || box[3] <= y0 || box[1] >= y1)
			continue;
		jlo = first_at(box[1], y0, ds, h);
		jhi = first_at(box[3], y0, ds, h);
		if (g->edge0[k + 1] - g->edge0[k] > cap) {
			cap = g->edge0[k + 1] - g->edge0[k];
			xs = sr_reallocarray(xs, cap, sizeof *xs);
		}
		for (j = jlo; j < jhi; j++) {
			cy = y0 + ((double)j + 0.5) * ds;
			for (nx = 0, e = g->edge0[k]; e < g->edge0[k + 1]; e++) {
				const double *p = g->edge + 4 * e;
				if ((p[1] > cy) != (p[3] > cy))
					xs[nx++] = p[0] + (cy - p[1]) *
					    (p[2] - p[0]) / (p[3] - p[1]);
			}
			gsl_sort(xs, 1, nx);
			/* a centre is inside when an odd number of crossings
			 * lie right of it: from xs[2m] to before xs[2m + 1] */
			for (m = 0; m + 1 < nx; m += 2) {
				a = first_at(xs[m], x0, ds, w);
				z = first_at(xs[m + 1], x0, ds, w);
				for (i = a; i < z; i++)
					lab[j * w + i] = (uint32_t)(k + 1);
				any |= z > a;
			}
		}
		hit += any;
	}
	free(xs);
	return hit;
}
