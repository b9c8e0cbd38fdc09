/* norm_test.c - unit tests of the colour normalization (image/nuclei.c):
 * a small tile's colours are counted by sorting, a large one's through
 * the direct table of 2^24 colours; both must give the same bytes. A tile
 * repeated 2 x 2 has every colour 4 times as often, so the same lαβ
 * moments to the bit (the counts scale by a power of 2) and the same
 * mapping: its normalization must be the small tile's repeated, with the
 * small one on the sorted side of the threshold (2^20 pixels) and the
 * repeated one on the direct side. Crops of a MoNuSeg tile (the path is
 * the first argument) and random colours; a white tile is left as it is
 * by both. Exits 0 on success; prints "FAIL: ..." and exits 1 otherwise.
 */
#include "image/image.h"
#include "image/nuclei.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CHECK_SEED 0x6e0a91c4f2d3b857ULL
#include "check.h"

/* The w x h image at (x0, y0) of src, or random colours when src is
 * NULL (the foreground's share kept by drawing from a purplish range). */
static sr_rgb
crop(const sr_rgb *src, size_t x0, size_t y0, size_t w, size_t h)
{
	sr_rgb img = { w, h, malloc(w * h * 3) };
	size_t x, y;

	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			uint8_t *p = img.rgb + 3 * (y * w + x);
			if (src)
				memcpy(p, src->rgb + 3 * ((y0 + y) * src->w + x0 + x), 3);
			else {
				p[0] = (uint8_t)(60 + rnd(196));
				p[1] = (uint8_t)rnd(200);
				p[2] = (uint8_t)(100 + rnd(156));
			}
		}
	return img;
}

/* a repeated 2 x 2 */
static sr_rgb
tiled(const sr_rgb *a)
{
	sr_rgb img = { 2 * a->w, 2 * a->h, malloc(a->w * a->h * 12) };
	size_t x, y;

	for (y = 0; y < img.h; y++)
		for (x = 0; x < img.w; x++)
			memcpy(img.rgb + 3 * (y * img.w + x),
			    a->rgb + 3 * ((y % a->h) * a->w + x % a->w), 3);
	return img;
}

/* Normalizes a and a repeated 2 x 2; the two must agree. */
static void
check_pair(const char *what, sr_rgb a)
{
	sr_rgb b = tiled(&a), want;
	double ma[3], sa[3], mb[3], sb[3], fa, fb;
	int ra, rb, sta, stb;

	if (a.w * a.h > (size_t)1 << 20 || b.w * b.h <= (size_t)1 << 20)
		fail("%s: %zux%zu does not straddle the threshold", what, a.w, a.h);
	sta = sr_norm_stats(&a, ma, sa, &fa);
	stb = sr_norm_stats(&b, mb, sb, &fb);
	if (sta != stb || (sta == 0 && (memcmp(ma, mb, sizeof ma) ||
	    memcmp(sa, sb, sizeof sa))) || fa != fb)
		fail("%s: stats differ: %d %d, fg %.17g %.17g", what, sta, stb, fa, fb);
	ra = sr_normalize(&a, sr_norm_target_mean, sr_norm_target_std, &fa);
	rb = sr_normalize(&b, sr_norm_target_mean, sr_norm_target_std, &fb);
	want = tiled(&a);
	if (ra != rb || fa != fb)
		fail("%s: normalized %d %d, fg %.17g %.17g", what, ra, rb, fa, fb);
	else if (memcmp(want.rgb, b.rgb, b.w * b.h * 3) != 0)
		fail("%s: the repeated tile's normalization is not the tile's repeated", what);
	sr_rgb_free(&want);
	sr_rgb_free(&b);
	sr_rgb_free(&a);
}

int
main(int argc, char **argv)
{
	static const size_t sizes[][2] = { { 513, 512 }, { 800, 400 } };
	char err[512], what[64];
	sr_rgb tile, white;
	size_t i;

	if (argc != 2) {
		printf("usage: norm_test MONUSEG_TILE.png\n");
		return 2;
	}
	if (sr_rgb_read(argv[1], &tile, err) != 0) {
		printf("FAIL: %s\n", err);
		return 1;
	}
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		snprintf(what, sizeof what, "crop %zux%zu", sizes[i][0], sizes[i][1]);
		check_pair(what, crop(&tile, (tile.w - sizes[i][0]) / 2,
		    (tile.h - sizes[i][1]) / 3, sizes[i][0], sizes[i][1]));
		if (sizes[i][0] * sizes[i][1] > 400000)
			continue;	/* random colours: a second each */
		snprintf(what, sizeof what, "random %zux%zu", sizes[i][0], sizes[i][1]);
		check_pair(what, crop(NULL, 0, 0, sizes[i][0], sizes[i][1]));
	}
	white = crop(&tile, 0, 0, 600, 600);
	memset(white.rgb, 255, 600 * 600 * 3);
	check_pair("white", white);
	sr_rgb_free(&tile);
	return failures ? 1 : 0;
}
