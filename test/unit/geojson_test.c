/* geojson_test - pixel-edge outlines (image/outline) against brute force,
 * known rings, and the GeoJSON lines written and checked (image/geojson);
 * slide references read from GeoJSON and rasterized (image/georef):
 * outlines written and read back give the labels again, at any place and
 * downsample; known polygons; every refusal. */
#include "check.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "image/geojson.h"
#include "image/georef.h"
#include "image/outline.h"
#include "image/raster.h"

#define NRANDOM 3000

/* Whether the centre of pixel (px, py) lies inside ring r (even-odd by
 * brute force over every edge, not only vertical ones). */
static int
in_ring(const sr_outlines *o, size_t r, size_t px, size_t py)
{
	double cx = px + 0.5, cy = py + 0.5, x0, y0, x1, y1;
	size_t a = o->ring_vert[r], b = o->ring_vert[r + 1], i, j;
	int in = 0;

	for (i = a; i < b; i++) {
		j = i + 1 < b ? i + 1 : a;
		x0 = o->xy[2 * i];
		y0 = o->xy[2 * i + 1];
		x1 = o->xy[2 * j];
		y1 = o->xy[2 * j + 1];
		if ((y0 > cy) != (y1 > cy) &&
		    cx < x0 + (cy - y0) * (x1 - x0) / (y1 - y0))
			in = !in;
	}
	return in;
}

/* 8-connected pieces of label v (brute-force flood fill). */
static size_t
pieces(const uint32_t *lab, size_t w, size_t h, uint32_t v)
{
	unsigned char *seen = calloc(w * h, 1);
	size_t *stack = malloc(w * h * sizeof *stack), n = 0, top, p, q, i;
	long x, y, ex, ey;

	for (i = 0; i < w * h; i++) {
		if (lab[i] != v || seen[i])
			continue;
		n++;
		seen[i] = 1;
		stack[0] = i;
		top = 1;
		while (top) {
			p = stack[--top];
			for (ey = -1; ey <= 1; ey++)
				for (ex = -1; ex <= 1; ex++) {
					x = (long)(p % w) + ex;
					y = (long)(p / w) + ey;
					if (x < 0 || y < 0 || x >= (long)w || y >= (long)h)
						continue;
					q = (size_t)y * w + (size_t)x;
					if (lab[q] == v && !seen[q]) {
						seen[q] = 1;
						stack[top++] = q;
					}
				}
		}
	}
	free(seen);
	free(stack);
	return n;
}

/* Checks the outlines of lab against its pixels: every polygon (an
 * exterior and the holes after it) covers pixels of its object only, the
 * polygons are disjoint and cover the whole object; exteriors positive,
 * holes negative, one exterior per 8-connected piece; edges axis-aligned,
 * no collinear vertices; the labels those present, ascending. */
static void
check_outlines(const uint32_t *lab, size_t w, size_t h, const char *what)
{
	sr_outlines o;
	size_t k, r, e, i, x, y, next, ext, nobj = 0, a, b;
	unsigned char *cover = malloc(w * h + 1);
	int in;
	int64_t ar;
	uint32_t seenlab[64] = { 0 };

	sr_outlines_trace(lab, w, h, &o);
	for (i = 0; i < w * h; i++)
		if (lab[i] && !seenlab[lab[i] % 64]++)
			nobj++;
	if (o.n != nobj)
		fail("%s: %zu objects, expected %zu", what, o.n, nobj);
	for (k = 0; k < o.n; k++) {
		if (k && o.label[k] <= o.label[k - 1])
			fail("%s: labels not ascending", what);
		memset(cover, 0, w * h);
		ext = 0;
		for (e = o.obj_ring[k]; e < o.obj_ring[k + 1]; e = next) {
			if (!o.exterior[e])
				fail("%s: object %u starts with a hole", what,
				    o.label[k]);
			ext++;
			for (next = e + 1; next < o.obj_ring[k + 1] &&
			    !o.exterior[next]; next++)
				;
			for (y = 0; y < h; y++)
				for (x = 0; x < w; x++) {
					in = 0;
					for (r = e; r < next; r++)
						in ^= in_ring(&o, r, x, y);
					if (in && cover[y * w + x]++)
						fail("%s: polygons of object %u overlap "
						    "at (%zu, %zu)", what, o.label[k], x, y);
				}
		}
		for (i = 0; i < w * h; i++)
			if ((lab[i] == o.label[k]) != (cover[i] != 0)) {
				fail("%s: object %u: pixel (%zu, %zu) %s", what,
				    o.label[k], i % w, i / w, cover[i] ?
				    "covered but not the object's" :
				    "the object's but not covered");
				break;
			}
		if (ext != pieces(lab, w, h, o.label[k]))
			fail("%s: object %u: %zu exteriors, %zu pieces", what,
			    o.label[k], ext, pieces(lab, w, h, o.label[k]));
		for (r = o.obj_ring[k]; r < o.obj_ring[k + 1]; r++) {
			ar = sr_outlines_ring_area2(&o, r);
			if ((ar > 0) != o.exterior[r] || ar == 0)
				fail("%s: ring %zu: area2 %lld for a%s", what, r,
				    (long long)ar, o.exterior[r] ? "n exterior" :
				    " hole");
			a = o.ring_vert[r];
			b = o.ring_vert[r + 1];
			for (i = a; i < b; i++) {
				size_t j = i + 1 < b ? i + 1 : a;
				size_t p = i > a ? i - 1 : b - 1;
				int h1 = o.xy[2 * i + 1] == o.xy[2 * j + 1];
				int h0 = o.xy[2 * p + 1] == o.xy[2 * i + 1];

				if (h1 == (o.xy[2 * i] == o.xy[2 * j]))
					fail("%s: ring %zu: edge %zu not axis-aligned",
					    what, r, i - a);
				if (h1 == h0)
					fail("%s: ring %zu: vertex %zu collinear",
					    what, r, i - a);
			}
		}
	}
	sr_outlines_free(&o);
	free(cover);
}

/* Ring r as "x,y x,y ...". */
static const char *
ring_text(const sr_outlines *o, size_t r)
{
	static char buf[1024];
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = o->ring_vert[r]; i < o->ring_vert[r + 1]; i++)
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%u,%u",
		    len ? " " : "", o->xy[2 * i], o->xy[2 * i + 1]);
	return buf;
}

static void
expect_ring(const sr_outlines *o, size_t r, const char *want, const char *what)
{
	if (strcmp(ring_text(o, r), want) != 0)
		fail("%s: ring %zu is %s, expected %s", what, r, ring_text(o, r),
		    want);
}

static void
test_known(void)
{
	sr_outlines o;
	/* one pixel at (1, 0) of a 3 x 2 image */
	static const uint32_t one[6] = { 0, 7, 0, 0, 0, 0 };
	/* two pixels meeting at a corner: one ring through (1, 1) twice */
	static const uint32_t diag[4] = { 5, 0, 0, 5 };
	/* a ring of 8 pixels round a hole of another label */
	static const uint32_t hole[9] = { 2, 2, 2, 2, 9, 2, 2, 2, 2 };
	/* label 3 in two pieces, apart */
	static const uint32_t two[5] = { 3, 0, 0, 0, 3 };

	sr_outlines_trace(one, 3, 2, &o);
	if (o.n != 1 || o.label[0] != 7 || o.obj_ring[1] != 1)
		fail("one pixel: %zu objects", o.n);
	else
		expect_ring(&o, 0, "2,0 2,1 1,1 1,0", "one pixel");
	sr_outlines_free(&o);
	sr_outlines_trace(diag, 2, 2, &o);
	if (o.n != 1 || o.obj_ring[1] != 1)
		fail("diagonal: %zu objects", o.n);
	else
		expect_ring(&o, 0, "1,0 1,1 2,1 2,2 1,2 1,1 0,1 0,0", "diagonal");
	sr_outlines_free(&o);
	sr_outlines_trace(hole, 3, 3, &o);
	if (o.n != 2 || o.label[0] != 2 || o.obj_ring[1] != 2 ||
	    o.exterior[1] || sr_outlines_ring_area2(&o, 0) != 18 ||
	    sr_outlines_ring_area2(&o, 1) != -2)
		fail("hole: not an exterior of area 9 and a hole of area 1");
	else
		expect_ring(&o, 1, "1,1 1,2 2,2 2,1", "hole");
	sr_outlines_free(&o);
	sr_outlines_trace(two, 5, 1, &o);
	if (o.n != 1 || o.obj_ring[1] != 2 || !o.exterior[0] || !o.exterior[1])
		fail("two pieces: not one object of two exteriors");
	sr_outlines_free(&o);
	check_outlines(one, 3, 2, "one pixel");
	check_outlines(diag, 2, 2, "diagonal");
	check_outlines(hole, 3, 3, "hole");
	check_outlines(two, 5, 1, "two pieces");
}

/* Random label images: few labels, dense or sparse, so that corners,
 * holes, pieces and objects inside holes all occur. */
static void
test_random(void)
{
	uint32_t lab[14 * 14];
	size_t c, w, h, i, nlab, dens;
	char what[64];

	for (c = 0; c < NRANDOM; c++) {
		w = 1 + rnd(14);
		h = 1 + rnd(14);
		nlab = 1 + rnd(4);
		dens = 1 + rnd(9);
		for (i = 0; i < w * h; i++)
			lab[i] = rnd(10) < dens ? (uint32_t)(1 + rnd(nlab)) * 11 : 0;
		snprintf(what, sizeof what, "random %zu (%zux%zu)", c, w, h);
		check_outlines(lab, w, h, what);
	}
}

/* The lines of features of a traced image, placed: each checks, and its
 * numbers are the vertices placed. */
static void
test_features(void)
{
	static const uint32_t lab[12] = { 0, 4, 4, 0, 6, 4, 0, 6, 0, 0, 0, 6 };
	sr_geoplace pl = { 1000, 2000.5, 2 };
	sr_outlines o;
	char *buf = NULL, *line, *nl, err[SR_ERRLEN];
	size_t size = 0, k = 0;
	FILE *fp = open_memstream(&buf, &size);
	json_t *f, *c;
	const char *tile;
	double x, y;

	sr_outlines_trace(lab, 4, 3, &o);
	sr_geojson_features(fp, &o, "t \"1\"", &pl);
	fclose(fp);
	for (line = buf; *line; line = nl + 1, k++) {
		nl = strchr(line, '\n');
		if (line[0] != ',' || !nl) {
			fail("feature line %zu: no leading comma or newline", k);
			break;
		}
		if (sr_geojson_check_feature(line + 1, (size_t)(nl - line - 1),
		    err) < 0)
			fail("feature line %zu refused: %s", k, err);
		f = json_loadb(line + 1, (size_t)(nl - line - 1), 0, NULL);
		c = json_object_get(json_object_get(f, "geometry"),
		    "coordinates");
		if (strcmp(json_string_value(json_object_get(json_object_get(f,
		    "geometry"), "type")), "MultiPolygon") == 0)
			c = json_array_get(c, 0);
		x = json_number_value(json_array_get(json_array_get(
		    json_array_get(c, 0), 0), 0));
		y = json_number_value(json_array_get(json_array_get(
		    json_array_get(c, 0), 0), 1));
		if (k < o.n && (x != 1000 + 2.0 * o.xy[2 * o.ring_vert[
		    o.obj_ring[k]]] || y != 2000.5 + 2.0 * o.xy[2 *
		    o.ring_vert[o.obj_ring[k]] + 1]))
			fail("feature %zu: first vertex (%g, %g) not placed", k, x, y);
		if (k < o.n && json_integer_value(json_object_get(
		    json_object_get(f, "properties"), "label")) != o.label[k])
			fail("feature %zu: label", k);
		tile = json_string_value(json_object_get(json_object_get(f,
		    "properties"), "tile"));
		if (!tile || strcmp(tile, "t \"1\"") != 0)
			fail("feature %zu: tile name not escaped", k);
		json_decref(f);
	}
	if (k != 2 || o.n != 2)
		fail("features: %zu lines for %zu objects, expected 2", k, o.n);
	sr_outlines_free(&o);
	free(buf);
}

/* Feature lines the check refuses, with the reason it gives. */
static void
test_check(void)
{
	static const struct { const char *line, *why; } bad[] = {
		{ "{\"type\":\"Feature\"", "not JSON" },
		{ "[1,2]", "not a Feature" },
		{ "{\"type\":\"Point\"}", "not a Feature" },
		{ "{\"type\":\"Feature\",\"geometry\":null,\"properties\":{}}",
		    "without a geometry" },
		{ "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\","
		    "\"coordinates\":[1,2]},\"properties\":{}}", "not Polygon" },
		{ "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\","
		    "\"coordinates\":[[[0,0],[1,0],[0,0]]]},\"properties\":{}}",
		    "at least 4" },
		{ "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\","
		    "\"coordinates\":[[[0,0],[1,0],[1,1],[0,1]]]},\"properties\":{}}",
		    "not closed" },
		{ "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\","
		    "\"coordinates\":[[[0,0],[1,0],[1,\"a\"],[0,0]]]},"
		    "\"properties\":{}}", "position 3" },
		{ "{\"type\":\"Feature\",\"geometry\":{\"type\":\"MultiPolygon\","
		    "\"coordinates\":[]},\"properties\":{}}", "array of polygons" },
		{ "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\","
		    "\"coordinates\":[[[0,0],[1,0],[1,1],[0,0]]]}}",
		    "properties" },
		{ "{\"type\":\"Feature\",\"type\":\"Feature\"}", "duplicate" },
	};
	const char *good = "{\"type\":\"Feature\",\"geometry\":{\"type\":"
	    "\"MultiPolygon\",\"coordinates\":[[[[0,0],[1,0],[1,1],[0,0]]],"
	    "[[[5,5],[6,5],[6,6],[5,5]]]]},\"properties\":{}}";
	char err[SR_ERRLEN];
	size_t i;

	for (i = 0; i < sizeof bad / sizeof *bad; i++)
		if (sr_geojson_check_feature(bad[i].line, strlen(bad[i].line),
		    err) == 0 || !strstr(err, bad[i].why))
			fail("check: %s: accepted or not for '%s' (%s)", bad[i].line,
			    bad[i].why, err);
	if (sr_geojson_check_feature(good, strlen(good), err) < 0)
		fail("check: a good MultiPolygon refused: %s", err);
}


/* ---- slide references (georef) ---------------------------------------- */

static char tmpl[] = "/tmp/georef_test.XXXXXX";

/* Writes text to the test's file; returns its path. */
static const char *
put(const char *text)
{
	FILE *fp = fopen(tmpl, "w");

	fputs(text, fp);
	fclose(fp);
	return tmpl;
}

/* Reads text as a reference: 0, or -1 with err. */
static int
read_text(const char *text, sr_georef *g, char *err)
{
	return sr_georef_read(put(text), g, err);
}

/* Outlines of random labels, written as seg-run writes them (placed at
 * (x0, y0), downsample ds) and read back: the raster at that place is
 * the labels, each object numbered in the outlines' order. */
static void
test_georef_roundtrip(void)
{
	uint32_t lab[30 * 30], got[30 * 30], want;
	size_t c, w, h, i, k, nlab, dens, size;
	char *buf, err[SR_ERRLEN];
	sr_outlines o;
	sr_georef g;
	FILE *fp;

	for (c = 0; c < 400; c++) {
		w = 1 + rnd(30);
		h = 1 + rnd(30);
		nlab = 1 + rnd(5);
		dens = 1 + rnd(9);
		for (i = 0; i < w * h; i++)
			lab[i] = rnd(10) < dens ? (uint32_t)(1 + rnd(nlab)) : 0;
		sr_geoplace pl = { (double)rnd(5000), (double)rnd(5000),
		    (double)(1 + rnd(4)) };
		sr_outlines_trace(lab, w, h, &o);
		buf = NULL;
		fp = open_memstream(&buf, &size);
		sr_geojson_header(fp, 0, "s", 0, NULL, 0);
		sr_geojson_features(fp, &o, "t", &pl);
		sr_geojson_trailer(fp);
		fclose(fp);
		char *comma = strstr(buf, "\n,");	/* the first feature's */
		if (comma)
			comma[1] = ' ';
		if (sr_georef_read(put(buf), &g, err) < 0) {
			fail("roundtrip %zu: refused: %s", c, err);
			free(buf);
			sr_outlines_free(&o);
			continue;
		}
		if (g.nobj != o.n || g.skipped != 0)
			fail("roundtrip %zu: %zu objects of %zu", c, g.nobj, o.n);
		sr_georef_raster(&g, pl.x0, pl.y0, pl.ds, w, h, got);
		for (i = 0; i < w * h; i++) {
			for (want = 0, k = 0; lab[i] && k < o.n; k++)
				if (o.label[k] == lab[i])
					want = (uint32_t)(k + 1);
			if (got[i] != want) {
				fail("roundtrip %zu (%zux%zu at %g, %g, ds %g): "
				    "pixel %zu is %u, not %u", c, w, h, pl.x0,
				    pl.y0, pl.ds, i, got[i], want);
				break;
			}
		}
		sr_georef_free(&g);
		sr_outlines_free(&o);
		free(buf);
	}
}

/* The pixels of object 1 in the w x h raster at the origin. */
static size_t
area(const sr_georef *g, size_t w, size_t h, double ds)
{
	uint32_t px[64 * 64];
	size_t i, n = 0;

	sr_georef_raster(g, 0, 0, ds, w, h, px);
	for (i = 0; i < w * h; i++)
		n += px[i] != 0;
	return n;
}

static void
test_georef_known(void)
{
	char err[SR_ERRLEN];
	sr_georef g;
	size_t n = 0;

	/* a triangle: centres with x + y < 10, strictly (the hypotenuse's
	 * centres are out): 45 pixels */
	if (read_text("{\"type\":\"FeatureCollection\",\"features\":[{\"type\":"
	    "\"Feature\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":"
	    "[[[0,0],[10,0],[0,10],[0,0]]]},\"properties\":{}}]}", &g, err) < 0)
		fail("triangle refused: %s", err);
	else if ((n = area(&g, 20, 20, 1)) != 45)
		fail("triangle: %zu pixels, not 45", n);
	else if ((n = area(&g, 20, 20, 2)) != 10)	/* centres 1, 3, 5, ... */
		fail("triangle at downsample 2: %zu pixels, not 10", n);
	sr_georef_free(&g);
	/* a square with a hole (QuPath's array of Features), a point
	 * skipped */
	if (read_text("[{\"type\":\"Feature\",\"geometry\":{\"type\":"
	    "\"Point\",\"coordinates\":[1,1]}},{\"type\":\"Feature\","
	    "\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[0,0],"
	    "[10,0],[10,10],[0,10],[0,0]],[[3,3],[3,6],[6,6],[6,3],[3,3]]]}}]",
	    &g, err) < 0)
		fail("square with a hole refused: %s", err);
	else if ((n = area(&g, 20, 20, 1)) != 91 || g.skipped != 1 ||
	    g.nobj != 1)
		fail("square with a hole: %zu pixels (91), %zu skipped (1)", n,
		    g.skipped);
	sr_georef_free(&g);
	/* one Feature, a MultiPolygon of two squares: one object */
	if (read_text("{\"type\":\"Feature\",\"geometry\":{\"type\":"
	    "\"MultiPolygon\",\"coordinates\":[[[[0,0],[2,0],[2,2],[0,2],[0,0]]],"
	    "[[[5,5],[7,5],[7,7],[5,7],[5,5]]]]},\"properties\":null}", &g,
	    err) < 0)
		fail("MultiPolygon refused: %s", err);
	else if (g.nobj != 1 || (n = area(&g, 10, 10, 1)) != 8)
		fail("MultiPolygon: %zu objects, %zu pixels (8)", g.nobj, n);
	sr_georef_free(&g);
}

static void
test_georef_refused(void)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "{\"type\":", "not JSON" },
		{ "[1]", "feature 0: not a Feature" },
		{ "{\"type\":\"FeatureCollection\"}", "neither" },
		{ "{\"type\":\"Polygon\",\"coordinates\":[]}", "not a Feature" },
		{ "[{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\"}}]",
		    "feature 0: a geometry without coordinates" },
		{ "[{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\","
		    "\"coordinates\":[[[0,0],[1,0],[0,0]]]}}]",
		    "fewer than four positions" },
		{ "[{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\","
		    "\"coordinates\":[[[0,0],[1,0],[1,1],[0,1]]]}}]",
		    "not closed" },
		{ "[{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\","
		    "\"coordinates\":[[[0,0],[1,\"a\"],[1,1],[0,0]]]}}]",
		    "two finite numbers" },
		{ "[{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\","
		    "\"coordinates\":[[[0,0],[1,0],[1,1],[0,0]]]}},{\"type\":"
		    "\"Feature\",\"geometry\":{\"type\":\"MultiPolygon\","
		    "\"coordinates\":[[]]}}]", "feature 1: a polygon without rings" },
		{ "{\"type\":\"FeatureCollection\",\"features\":[],\"type\":1}",
		    "not JSON" },
	};
	char err[SR_ERRLEN];
	sr_georef g;
	size_t i;

	for (i = 0; i < sizeof bad / sizeof *bad; i++)
		if (read_text(bad[i].text, &g, err) == 0) {
			fail("'%s' accepted", bad[i].text);
			sr_georef_free(&g);
		} else if (!strstr(err, bad[i].why) || strncmp(err, tmpl,
		    strlen(tmpl)) != 0)
			fail("'%s': '%s' does not say '%s' after the file",
			    bad[i].text, err, bad[i].why);
	/* beyond the memory budget: refused before it is read */
	sr_image_set_budget((sr_budget){ 1000, "a test" });
	errno = 0;
	if (read_text("[                                                    ]",
	    &g, err) == 0 || errno != ENOMEM || !strstr(err, "a test"))
		fail("a file beyond the budget: '%s'", err);
	sr_image_set_budget((sr_budget){ (size_t)1 << 30, "a test" });
}

int
main(void)
{
	sr_init("geojson_test");
	test_known();
	test_random();
	test_features();
	test_check();
	close(mkstemp(tmpl));
	test_georef_roundtrip();
	test_georef_known();
	test_georef_refused();
	unlink(tmpl);
	if (failures)
		printf("%d failures\n", failures);
	return failures != 0;
}
