/* watershed_test.c - unit tests of tools/lib/image/watershed.c: bit for
 * bit cv::watershed (through sr_opencv_watershed) on the masked, framed
 * copy of the tile that sr_watershed_masked does without, on random
 * tiles of 1x1 to 60x60 pixels: colours from 2 levels (ties everywhere,
 * so the queues' order decides) to 256, masks from empty to full,
 * markers as scattered pixels, as blobs, as the whole outside of the
 * mask (Seg5's background marker), and with negative inner pixels (which
 * both reset to unknown); then one 700 x 500 tile of blobs, where the
 * queues need many segments at once. Exits 0 on success; prints
 * "FAIL: ..." and exits 1 otherwise.
 */
#include "image/watershed.h"
#include "image/bits.h"
#include "image/opencv.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CHECK_SEED 0x3c6ef372fe94f82bULL
#include "check.h"

#define NRANDOM	1500

/* One case: tile rgb (w x h) masked by in (density per %, or blobs when
 * per < 0); markers of kind 0 (scattered), 1 (blobs), 2 (the outside of
 * the mask and a few inner seeds), 3 (scattered with negatives). */
static void
one(size_t w, size_t h, int levels, int per, int kind)
{
	size_t W = w + 2, H = h + 2, n = w * h, i, x, y;
	uint8_t *rgb = malloc(3 * n), *m8 = malloc(n);
	uint8_t *img = calloc(3 * W * H, 1);
	int32_t *want = calloc(W * H, sizeof *want);
	int32_t *got = calloc(W * H, sizeof *got);
	uint64_t *in;
	char err[256];

	for (i = 0; i < 3 * n; i++)
		rgb[i] = (uint8_t)(rnd((size_t)levels) * 255 / (size_t)(levels > 1 ?
		    levels - 1 : 1));
	if (per >= 0)
		for (i = 0; i < n; i++)
			m8[i] = (int)rnd(100) < per;
	else
		discs(m8, w, h, 1 + n / 80, 9, 1);
	in = sr_bits_pack(m8, n);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			size_t p = (y + 1) * W + x + 1, j = y * w + x;
			int32_t v = 0;

			if (m8[j])
				memcpy(img + 3 * p, rgb + 3 * j, 3);
			switch (kind) {
			case 0:
				v = rnd(40) == 0 ? 1 + (int32_t)rnd(5) : 0;
				break;
			case 1:
				v = (int32_t)((x / 7 + y / 5) % 4) * (rnd(3) == 0);
				break;
			case 2:
				v = !m8[j] ? 1 : rnd(60) == 0 ?
				    2 + (int32_t)rnd(9) : 0;
				break;
			default:
				v = rnd(30) == 0 ? 1 + (int32_t)rnd(3) :
				    rnd(10) == 0 ? -1 - (int32_t)rnd(2) : 0;
			}
			want[p] = got[p] = v;
		}
	if (sr_opencv_watershed(img, want, W, H, err) < 0)
		fail("cv::watershed: %s", err);
	sr_watershed_masked(rgb, in, w, h, got);
	for (i = 0; i < W * H; i++)
		if (got[i] != want[i]) {
			fail("%zux%zu, %d levels, mask %d, markers %d: pixel "
			    "(%zu, %zu) is %d, cv::watershed %d", w, h, levels,
			    per, kind, i % W, i / W, got[i], want[i]);
			break;
		}
	free(rgb);
	free(m8);
	free(img);
	free(want);
	free(got);
	free(in);
}

int
main(void)
{
	static const int levels[] = { 2, 3, 16, 256 };
	static const int per[] = { -1, 0, 30, 80, 100 };
	int k;

	for (k = 0; k < NRANDOM; k++)
		one(1 + rnd(60), 1 + rnd(60), levels[rnd(4)], per[rnd(5)],
		    (int)rnd(4));
	one(1, 1, 2, 100, 2);
	one(700, 500, 3, -1, 2);
	one(700, 500, 256, -1, 2);
	one(500, 700, 16, 100, 0);
	if (failures)
		return 1;
	printf("watershed: %d random tiles and 4 fixed ones as cv::watershed\n",
	    NRANDOM);
	return 0;
}
