/* compare.h - a segmentation against a reference mask (seg-run, and
 * compare-dice): foreground is every pixel > 0 of either image. */
#ifndef SR_COMPARE_H
#define SR_COMPARE_H

#include <stddef.h>
#include <stdint.h>

/* Pixel Dice 2|A∩B|/(|A|+|B|) and Jaccard |A∩B|/|A∪B| of the foregrounds
 * of mask (NULL: empty) and ref, n pixels each; both 1 when both are
 * empty. */
void sr_compare_pixels(const uint32_t *mask, const uint32_t *ref, size_t n,
    double *dice, double *jaccard);

#endif
