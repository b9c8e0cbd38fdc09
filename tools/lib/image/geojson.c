/* geojson.c - outlines as GeoJSON lines, and their check (geojson.h).
 * Written by hand, a line per feature; read back through Jansson, one
 * line at a time. */
#include "image/geojson.h"
#include "core/err.h"
#include "core/num.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

/* s as a JSON string: quotes, backslashes and control characters
 * escaped; other bytes (UTF-8, checked by the tiles' readers) kept. */
static void
put_string(FILE *fp, const char *s)
{
	const unsigned char *p;

	fputc('"', fp);
	for (p = (const unsigned char *)s; *p; p++)
		if (*p == '"' || *p == '\\')
			fprintf(fp, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(fp, "\\u%04x", *p);
		else
			fputc(*p, fp);
	fputc('"', fp);
}

void
sr_geojson_header(FILE *fp, unsigned long run, const char *slide,
    long chunk, const long *chunks, size_t nchunks)
{
	size_t i;

	fprintf(fp, "{\"type\":\"FeatureCollection\",\"sareuse\":{\"run\":%lu,"
	    "\"slide\":", run);
	put_string(fp, slide);
	if (chunk >= 0)
		fprintf(fp, ",\"chunk\":%ld", chunk);
	else {
		fputs(",\"chunks\":[", fp);
		for (i = 0; i < nchunks; i++)
			fprintf(fp, "%s%ld", i ? "," : "", chunks[i]);
		fputc(']', fp);
	}
	fputs("},\"features\":[\n", fp);
}

void
sr_geojson_trailer(FILE *fp)
{
	fputs("]}\n", fp);
}

/* One ring, closed: its first vertex repeated at the end. */
static void
ring(FILE *fp, const sr_outlines *o, size_t r, const sr_geoplace *pl)
{
	char bx[SR_NUMLEN], by[SR_NUMLEN];
	size_t a = o->ring_vert[r], b = o->ring_vert[r + 1], i, k;

	fputc('[', fp);
	for (i = a; i <= b; i++) {
		k = i < b ? i : a;
		fprintf(fp, "%s[%s,%s]", i > a ? "," : "",
		    sr_fmt_double(bx, pl->x0 + pl->ds * o->xy[2 * k]),
		    sr_fmt_double(by, pl->y0 + pl->ds * o->xy[2 * k + 1]));
	}
	fputc(']', fp);
}

/* Object k's geometry: a Polygon, or a MultiPolygon of its pieces. */
static void
geometry(FILE *fp, const sr_outlines *o, size_t k, const sr_geoplace *pl)
{
	size_t r, ext = 0;

	for (r = o->obj_ring[k]; r < o->obj_ring[k + 1]; r++)
		ext += o->exterior[r];
	fprintf(fp, "{\"type\":\"%s\",\"coordinates\":[", ext > 1 ?
	    "MultiPolygon" : "Polygon");
	for (r = o->obj_ring[k]; r < o->obj_ring[k + 1]; r++) {
		if (ext > 1)
			fputs(o->exterior[r] ? (r > o->obj_ring[k] ? "],[" : "[") :
			    ",", fp);
		else if (r > o->obj_ring[k])
			fputc(',', fp);
		ring(fp, o, r, pl);
	}
	fputs(ext > 1 ? "]]}" : "]}", fp);
}

void
sr_geojson_features(FILE *fp, const sr_outlines *o, const char *tile,
    const sr_geoplace *pl)
{
	size_t k;

	for (k = 0; k < o->n; k++) {
		fputs(",{\"type\":\"Feature\",\"geometry\":", fp);
		geometry(fp, o, k, pl);
		fprintf(fp, ",\"properties\":{\"objectType\":\"detection\","
		    "\"name\":\"nucleus\",\"label\":%lu,\"tile\":",
		    (unsigned long)o->label[k]);
		put_string(fp, tile);
		fputs("}}\n", fp);
	}
}

/* ---- checking ------------------------------------------------------------ */

/* A ring: an array of at least 4 positions of 2 finite numbers, the last
 * equal to the first. */
static int
check_ring(const json_t *r, char *errbuf)
{
	size_t i, n = json_is_array(r) ? json_array_size(r) : 0;
	const json_t *p;

	if (n < 4) {
		sr_seterr(errbuf, "a ring is not an array of at least 4 positions");
		return -1;
	}
	for (i = 0; i < n; i++) {
		p = json_array_get(r, i);
		if (!json_is_array(p) || json_array_size(p) != 2 ||
		    !json_is_number(json_array_get(p, 0)) ||
		    !json_is_number(json_array_get(p, 1)) ||
		    !isfinite(json_number_value(json_array_get(p, 0))) ||
		    !isfinite(json_number_value(json_array_get(p, 1)))) {
			sr_seterr(errbuf, "position %zu of a ring is not [x, y]",
			    i + 1);
			return -1;
		}
	}
	if (!json_equal(json_array_get(r, 0), json_array_get(r, n - 1))) {
		sr_seterr(errbuf, "a ring is not closed (its last position is "
		    "not its first)");
		return -1;
	}
	return 0;
}

/* A Polygon's coordinates: an array of at least one ring. */
static int
check_polygon(const json_t *c, char *errbuf)
{
	size_t i, n = json_is_array(c) ? json_array_size(c) : 0;

	if (n == 0) {
		sr_seterr(errbuf, "a polygon is not an array of rings");
		return -1;
	}
	for (i = 0; i < n; i++)
		if (check_ring(json_array_get(c, i), errbuf) < 0)
			return -1;
	return 0;
}

static int
check_geometry(const json_t *g, char *errbuf)
{
	const char *type = json_string_value(json_object_get(g, "type"));
	const json_t *c = json_object_get(g, "coordinates");
	size_t i, n;

	if (!json_is_object(g) || !type) {
		sr_seterr(errbuf, "a feature without a geometry object");
		return -1;
	}
	if (strcmp(type, "Polygon") == 0)
		return check_polygon(c, errbuf);
	if (strcmp(type, "MultiPolygon") != 0) {
		sr_seterr(errbuf, "geometry type is not Polygon or MultiPolygon");
		return -1;
	}
	n = json_is_array(c) ? json_array_size(c) : 0;
	if (n == 0) {
		sr_seterr(errbuf, "a MultiPolygon is not an array of polygons");
		return -1;
	}
	for (i = 0; i < n; i++)
		if (check_polygon(json_array_get(c, i), errbuf) < 0)
			return -1;
	return 0;
}

int
sr_geojson_check_feature(const char *line, size_t len, char *errbuf)
{
	json_error_t e;
	json_t *f;
	int rc = -1;

	f = json_loadb(line, len, JSON_REJECT_DUPLICATES, &e);
	if (!f) {
		sr_seterr(errbuf, "not JSON: %s (column %d)", e.text, e.column);
		return -1;
	}
	if (!json_is_object(f) || !json_string_value(json_object_get(f,
	    "type")) || strcmp(json_string_value(json_object_get(f, "type")),
	    "Feature") != 0)
		sr_seterr(errbuf, "not a Feature object");
	else if (check_geometry(json_object_get(f, "geometry"), errbuf) == 0) {
		if (!json_is_object(json_object_get(f, "properties")))
			sr_seterr(errbuf, "a feature without a properties object");
		else
			rc = 0;
	}
	json_decref(f);
	return rc;
}
