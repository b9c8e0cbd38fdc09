/* owner.c - which of overlapping tiles owns an object (owner.h). */
#include "image/owner.h"
#include "core/err.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const near_name[] = {
	"nw", "n", "ne", "w", "e", "sw", "s", "se"
};
#define NNEAR (sizeof near_name / sizeof *near_name)

/* Along an axis of n pixels, which tiles hold pixel c (bit 0 the one
 * before, bit 1 this one, bit 2 the one after) and how far c lies from
 * each one's core, d[0..2]: the core of the tile before ends at
 * floor(ov / 2), the one after's starts ov - floor(ov / 2) before the
 * end, this one's lies between. A band after exists only where the tile
 * is wide enough for one (a grid's last, narrower tile has no tile after
 * it). Every tile that holds c measures the same distances. */
static unsigned
axis(size_t c, size_t n, size_t ov, size_t d[3])
{
	size_t l = ov / 2, hi = n >= 2 * ov ? n - (ov - l) : n;
	unsigned in = 2;

	d[0] = c >= l ? c - l + 1 : 0;
	d[1] = c < l ? l - c : c >= hi ? c - hi + 1 : 0;
	d[2] = c < hi ? hi - c : 0;
	if (c < ov)
		in |= 1;
	if (n >= 2 * ov && c >= n - ov)
		in |= 4;
	return in;
}

/* Whether the tile at (dx, dy) from this one is kept. */
static int
kept(const sr_tileown *o, int dx, int dy)
{
	int k = (dy + 1) * 3 + dx + 1;

	if (k == 4)
		return 1;
	return (o->near >> (k < 4 ? k : k - 1)) & 1;
}

int
sr_tile_owns(const sr_tileown *o, size_t w, size_t h, size_t x, size_t y)
{
	size_t ddx[3], ddy[3], d, best = SIZE_MAX;
	int dx, dy, mine = 0;
	unsigned ix, iy;

	if (o == NULL || o->overlap == 0)
		return 1;
	ix = axis(x, w, o->overlap, ddx);
	iy = axis(y, h, o->overlap, ddy);
	/* the kept holder whose core is nearest (taxicab), the first in
	 * raster order of those as near */
	for (dy = -1; dy <= 1; dy++)
		for (dx = -1; dx <= 1; dx++) {
			if (!(iy >> (dy + 1) & 1) || !(ix >> (dx + 1) & 1) ||
			    !kept(o, dx, dy))
				continue;
			d = ddx[dx + 1] + ddy[dy + 1];
			if (d < best) {
				best = d;
				mine = dx == 0 && dy == 0;
			}
		}
	return mine;
}

size_t
sr_labels_keep_owned(uint32_t *lab, size_t w, size_t h, size_t n,
    const sr_tileown *o)
{
	uint64_t *sum;
	uint32_t *to;
	size_t x, y, k, m = 0;

	if (o == NULL || o->overlap == 0 || n == 0)
		return n;
	sum = sr_calloc(3 * (n + 1), sizeof *sum);	/* x, y, count */
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			uint32_t v = lab[y * w + x];
			if (v == 0 || v > n)
				continue;
			sum[3 * v] += x;
			sum[3 * v + 1] += y;
			sum[3 * v + 2]++;
		}
	to = sr_calloc(n + 1, sizeof *to);
	for (k = 1; k <= n; k++) {
		uint64_t c = sum[3 * k + 2];
		/* the pixel holding the centroid, (sum + c / 2) / c exactly
		 * (centres at +0.5): the same pixel whatever the tile */
		if (c && sr_tile_owns(o, w, h,
		    (size_t)((2 * sum[3 * k] + c) / (2 * c)),
		    (size_t)((2 * sum[3 * k + 1] + c) / (2 * c))))
			to[k] = (uint32_t)++m;
	}
	for (k = 0; k < w * h; k++)
		lab[k] = lab[k] <= n ? to[lab[k]] : 0;
	free(to);
	free(sum);
	return m;
}

int
sr_near_parse(const char *s, unsigned *near)
{
	size_t k = 0, len;

	*near = 0;
	if (strcmp(s, "-") == 0)
		return 0;
	for (;;) {
		len = strcspn(s, ",");
		while (k < NNEAR && (strlen(near_name[k]) != len ||
		    strncmp(s, near_name[k], len) != 0))
			k++;
		if (k == NNEAR)
			return -1;
		*near |= 1u << k++;
		if (s[len] == '\0')
			return 0;
		s += len + 1;
	}
}

void
sr_near_format(unsigned near, char *buf)
{
	size_t k;

	strcpy(buf, near ? "" : "-");
	for (k = 0; k < NNEAR; k++)
		if (near >> k & 1) {
			if (*buf)
				strcat(buf, ",");
			strcat(buf, near_name[k]);
		}
}

const char *
sr_tileown_check(const sr_tileown *o, size_t w, size_t h)
{
	size_t ov = o->overlap;

	if (ov == 0 || o->near == 0)
		return NULL;
	if ((o->near & (SR_NEAR_NW | SR_NEAR_W | SR_NEAR_SW)) && w <= ov)
		return "a neighbour to the west needs a tile wider than the "
		    "overlap";
	if ((o->near & (SR_NEAR_NE | SR_NEAR_E | SR_NEAR_SE)) && w < 2 * ov)
		return "a neighbour to the east needs a tile at least twice "
		    "the overlap wide";
	if ((o->near & (SR_NEAR_NW | SR_NEAR_N | SR_NEAR_NE)) && h <= ov)
		return "a neighbour to the north needs a tile taller than the "
		    "overlap";
	if ((o->near & (SR_NEAR_SW | SR_NEAR_S | SR_NEAR_SE)) && h < 2 * ov)
		return "a neighbour to the south needs a tile at least twice "
		    "the overlap tall";
	return NULL;
}
