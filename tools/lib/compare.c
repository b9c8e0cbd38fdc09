/* compare.c - pixel overlap of a segmentation and a reference. */
#include "compare.h"

void
sr_compare_pixels(const uint32_t *mask, const uint32_t *ref, size_t n,
    double *dice, double *jaccard)
{
	size_t inter = 0, a = 0, b = 0, i;

	for (i = 0; i < n; i++) {
		int m = mask && mask[i] > 0, r = ref[i] > 0;
		a += m;
		b += r;
		inter += m & r;
	}
	if (a + b == 0) {
		*dice = *jaccard = 1;
		return;
	}
	*dice = 2.0 * (double)inter / (double)(a + b);
	*jaccard = (double)inter / (double)(a + b - inter);
}
