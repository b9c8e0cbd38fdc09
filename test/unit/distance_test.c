/* distance_test.c - unit tests of tools/lib/image/distance.c: bit for bit
 * OpenCV's cv::distanceTransform(DIST_L2, DIST_MASK_PRECISE) on random
 * binary images of 1x1 to 70x70 pixels (1xN and Nx1, all 0 and no 0
 * included) at densities from sparse to full, and on 4096-pixel-wide
 * strips (the tile width of the benchmark: squares of row positions near
 * 2^24); the exact distance to the nearest 0 by brute force on the small
 * images that have a 0; and a strided output whose padding stays as it
 * was. Exits 0 on success; prints "FAIL: ..." and exits 1 otherwise.
 */
#include "image/distance.h"
#include "image/opencv.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CHECK_SEED 0x51e2a7c3d9b40f65ULL
#include "check.h"

#define NRANDOM	800	/* small random images */

/* Random binary image: each pixel foreground with probability per/100;
 * or blobs (squares and discs) on a background when per < 0. */
static void
random_image(uint8_t *bin, size_t w, size_t h, int per)
{
	size_t i, n = w * h;

	if (per >= 0) {
		for (i = 0; i < n; i++)
			bin[i] = (int)rnd(100) < per ? (uint8_t)(1 + rnd(255)) : 0;
		return;
	}
	discs(bin, w, h, 1 + n / 200, 30, 255);
}

/* The squared distance from (x, y) to the nearest 0 pixel, by brute
 * force; -1 when there is none. */
static long
brute(const uint8_t *bin, size_t w, size_t h, size_t x, size_t y)
{
	long best = -1, dx, dy, d;
	size_t i, j;

	for (j = 0; j < h; j++)
		for (i = 0; i < w; i++) {
			if (bin[j * w + i])
				continue;
			dx = (long)i - (long)x;
			dy = (long)j - (long)y;
			d = dx * dx + dy * dy;
			if (best < 0 || d < best)
				best = d;
		}
	return best;
}

/* Compares sr_distance_l2 with OpenCV (bitwise) and, if brute, with the
 * exact distance; the output strided, padding checked. */
static void
check_one(const uint8_t *bin, size_t w, size_t h, int check_brute,
    const char *what)
{
	size_t pad = 1 + rnd(5), stride = w + pad, x, y, bad = 0;
	float *ref = calloc(w * h, sizeof *ref);
	float *out = malloc(stride * h * sizeof *out);
	char errbuf[256];

	if (!ref || !out) {
		printf("FAIL: out of memory\n");
		exit(1);
	}
	for (x = 0; x < stride * h; x++)
		out[x] = -7.f;
	if (sr_opencv_distance(bin, ref, w, h, errbuf) < 0)
		fail("%s %zux%zu: OpenCV: %s", what, w, h, errbuf);
	sr_distance_l2(bin, w, h, out, stride);
	for (y = 0; y < h; y++)
		for (x = 0; x < stride; x++) {
			float o = out[y * stride + x];
			if (x >= w) {
				if (o != -7.f && !bad++)
					fail("%s %zux%zu: padding (%zu,%zu) written",
					    what, w, h, x, y);
				continue;
			}
			if (memcmp(&o, &ref[y * w + x], sizeof o) && !bad++)
				fail("%s %zux%zu: (%zu,%zu) %.9g, OpenCV %.9g",
				    what, w, h, x, y, o, ref[y * w + x]);
			if (check_brute) {
				long d = brute(bin, w, h, x, y);
				if (d >= 0 && o != sqrtf((float)d) && !bad++)
					fail("%s %zux%zu: (%zu,%zu) %.9g, exact %.9g",
					    what, w, h, x, y, o, sqrtf((float)d));
			}
		}
	free(ref);
	free(out);
}

int
main(void)
{
	static const int dens[] = { 0, 5, 30, 60, 90, 99, 100, -1 };
	uint8_t *bin = malloc(4096 * 64);
	int k;

	if (!bin)
		return 1;
	for (k = 0; k < NRANDOM; k++) {
		size_t w = 1 + rnd(k % 4 == 0 ? 3 : 70);
		size_t h = 1 + rnd(k % 4 == 1 ? 3 : 70);
		int per = dens[rnd(sizeof dens / sizeof *dens)];
		random_image(bin, w, h, per);
		check_one(bin, w, h, w * h <= 900, "random");
	}
	for (k = 0; k < 8; k++) {	/* wide strips: squares near 2^24 */
		size_t h = 1 + rnd(64);
		random_image(bin, 4096, h, dens[rnd(sizeof dens / sizeof *dens)]);
		check_one(bin, 4096, h, 0, "strip");
		random_image(bin, h, 4096, dens[rnd(sizeof dens / sizeof *dens)]);
		check_one(bin, h, 4096, 0, "column");
	}
	/* a lone 0 at the far end of a wide row: distances up to 4095 */
	memset(bin, 1, 4096 * 2);
	bin[0] = 0;
	check_one(bin, 4096, 2, 0, "lone zero");
	free(bin);
	if (failures)
		return 1;
	printf("ok\n");
	return 0;
}
