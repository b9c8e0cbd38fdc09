/* owner_test - which of overlapping tiles owns a pixel and an object
 * (image/owner), against brute force on random grids: every pixel of the
 * kept tiles owned by exactly one of them, by its home where that is
 * kept; objects seen by two tiles kept by one; the neighbours column. */
#include "check.h"

#include <stdlib.h>

#include "core/err.h"
#include "image/owner.h"

#define NGRID 60

typedef struct {
	size_t x, y, w, h;	/* slide pixels */
	int kept;
	sr_tileown own;
} tile;

/* A grid as wsi-tiles cuts it: tiles of size at step size - ov from 0,
 * the last of a row or column cut at the slide's edge. */
static tile *
grid(size_t sw, size_t sh, size_t size, size_t ov, size_t *nx, size_t *ny)
{
	size_t step = size - ov, i, j, b;
	tile *t;
	static const int dx[] = { -1, 0, 1, -1, 1, -1, 0, 1 };
	static const int dy[] = { -1, -1, -1, 0, 0, 1, 1, 1 };

	*nx = sw <= size ? 1 : (sw - size + step - 1) / step + 1;
	*ny = sh <= size ? 1 : (sh - size + step - 1) / step + 1;
	t = sr_calloc(*nx * *ny, sizeof *t);
	for (j = 0; j < *ny; j++)
		for (i = 0; i < *nx; i++) {
			tile *g = &t[j * *nx + i];
			g->x = i * step;
			g->y = j * step;
			g->w = sw - g->x < size ? sw - g->x : size;
			g->h = sh - g->y < size ? sh - g->y : size;
			g->kept = rnd(10) < 6;
		}
	for (j = 0; j < *ny; j++)
		for (i = 0; i < *nx; i++) {
			tile *g = &t[j * *nx + i];
			g->own.overlap = ov;
			for (b = 0; b < 8; b++) {
				long x = (long)i + dx[b], y = (long)j + dy[b];
				if (x >= 0 && y >= 0 && (size_t)x < *nx &&
				    (size_t)y < *ny && t[(size_t)y * *nx +
				    (size_t)x].kept)
					g->own.near |= 1u << b;
			}
		}
	return t;
}

/* The home of coordinate c along an axis of tiles at step with overlap
 * ov: the tile whose core (the halfway lines of the bands) holds it. */
static size_t
home(size_t c, size_t step, size_t ov, size_t n)
{
	size_t k = c < ov / 2 ? 0 : (c - ov / 2) / step;

	return k < n ? k : n - 1;
}

static void
test_partition(void)
{
	size_t g, nx, ny, x, y, k, owners, held, sw, sh, size, ov, hk;

	for (g = 0; g < NGRID; g++) {
		sw = 50 + rnd(500);
		sh = 50 + rnd(500);
		size = 8 + rnd(150);
		ov = g % 5 == 0 ? 0 : rnd(size / 2 + 1);
		tile *t = grid(sw, sh, size, ov, &nx, &ny);
		for (y = 0; y < sh; y++)
			for (x = 0; x < sw; x++) {
				owners = held = 0;
				hk = home(y, size - ov, ov, ny) * nx +
				    home(x, size - ov, ov, nx);
				for (k = 0; k < nx * ny; k++) {
					tile *u = &t[k];
					if (!u->kept || x < u->x || y < u->y ||
					    x >= u->x + u->w || y >= u->y + u->h)
						continue;
					held++;
					if (sr_tile_owns(&u->own, u->w, u->h,
					    x - u->x, y - u->y)) {
						owners++;
						if (t[hk].kept && k != hk)
							fail("grid %zu (%zux%zu, "
							    "size %zu, overlap %zu): "
							    "(%zu, %zu) owned by "
							    "tile %zu, its home %zu "
							    "is kept", g, sw, sh,
							    size, ov, x, y, k, hk);
					}
				}
				if (owners != (held > 0))
					fail("grid %zu (%zux%zu, size %zu, "
					    "overlap %zu): (%zu, %zu) in %zu "
					    "kept tiles, owned by %zu", g, sw, sh,
					    size, ov, x, y, held, owners);
			}
		free(t);
	}
}

/* A disc of radius r at (cx, cy) in slide pixels, drawn into the w x h
 * labels of the tile at (x0, y0) as label 1, with a second object (a
 * pixel) as 2 in the tile's corner. */
static void
draw(uint32_t *lab, size_t w, size_t h, long x0, long y0, long cx, long cy,
    long r)
{
	size_t x, y;

	memset(lab, 0, w * h * sizeof *lab);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			long dx = (long)x + x0 - cx, dy = (long)y + y0 - cy;
			if (dx * dx + dy * dy <= r * r)
				lab[y * w + x] = 1;
		}
	lab[0] = 2;
}

static void
test_objects(void)
{
	/* two tiles of 100 side by side, overlap 40: the second at x 60; a
	 * disc of radius 12 anywhere in the band is whole in both, owned by
	 * one, the one whose core holds its centre (core line at x 80) */
	sr_tileown a = { 40, SR_NEAR_E }, b = { 40, SR_NEAR_W };
	uint32_t la[100 * 100], lb[100 * 100];
	long cx;
	size_t na, nb;

	for (cx = 62; cx < 98; cx++) {
		draw(la, 100, 100, 0, 0, cx, 50, 12);
		draw(lb, 100, 100, 60, 0, cx, 50, 12);
		na = sr_labels_keep_owned(la, 100, 100, 2, &a);
		nb = sr_labels_keep_owned(lb, 100, 100, 2, &b);
		/* a keeps its corner pixel; b's lies in its band of a */
		if (na + nb != 2 + (cx < 80 ? 0 : 0) || (cx < 80) != (na == 2))
			fail("disc at x %ld: tile a keeps %zu, b %zu", cx, na,
			    nb);
		if (la[50 * 100 + (size_t)cx] != (cx < 80 ? 1u : 0u) ||
		    lb[50 * 100 + (size_t)(cx - 60)] != (cx < 80 ? 0u : 1u))
			fail("disc at x %ld: its pixels kept by the wrong tile",
			    cx);
	}
	/* no overlap: everything kept */
	sr_tileown none = { 0, SR_NEAR_E };
	draw(la, 100, 100, 0, 0, 95, 50, 12);
	if (sr_labels_keep_owned(la, 100, 100, 2, &none) != 2)
		fail("overlap 0: objects dropped");
}

static void
test_near(void)
{
	static const char *const good[] = { "-", "n", "nw,n,ne,w,e,sw,s,se",
	    "e,se", "w,s" };
	static const char *const bad[] = { "", "x", "n,n", "s,n", "n,", ",n",
	    "N", "n e", "nw,n,ne,w,e,sw,s,se,n" };
	char buf[SR_NEAR_LEN];
	unsigned near;
	size_t i;

	for (i = 0; i < sizeof good / sizeof *good; i++) {
		if (sr_near_parse(good[i], &near) < 0)
			fail("'%s' refused", good[i]);
		sr_near_format(near, buf);
		if (strcmp(buf, good[i]) != 0)
			fail("'%s' written back as '%s'", good[i], buf);
	}
	for (i = 0; i < sizeof bad / sizeof *bad; i++)
		if (sr_near_parse(bad[i], &near) == 0)
			fail("'%s' accepted", bad[i]);
	if (sr_near_parse("e,s", &near) < 0 || near != (SR_NEAR_E | SR_NEAR_S))
		fail("e,s: bits %u", near);
	sr_tileown o = { 10, SR_NEAR_E };
	if (sr_tileown_check(&o, 20, 5) != NULL || sr_tileown_check(&o, 19, 5)
	    == NULL)
		fail("a tile with a neighbour to the east needs 2 overlaps");
	o.near = SR_NEAR_N;
	if (sr_tileown_check(&o, 5, 11) != NULL || sr_tileown_check(&o, 5, 10)
	    == NULL)
		fail("a tile with a neighbour to the north needs more than the "
		    "overlap");
}

int
main(void)
{
	sr_init("owner_test");
	test_partition();
	test_objects();
	test_near();
	if (failures)
		printf("%d failures\n", failures);
	return failures != 0;
}
