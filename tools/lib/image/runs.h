/* runs.h - connected components of a binary image found as runs of
 * pixels joined by union-find, for the filters that need only each
 * component's size or whether it touches something: no label plane.
 *
 * Images are w x h, row-major, no padding; binary images are 0
 * (background) or non-zero (foreground); outputs are 0 or 255. conn is 4
 * or 8. Allocation failures die through sr_malloc.
 */
#ifndef SR_RUNS_H
#define SR_RUNS_H

#include <stddef.h>
#include <stdint.h>

/* Writes to out 255 on the conn-connected objects of bin whose area a
 * (pixels) has lo <= a < hi, 0 elsewhere (nscale's bwareaopen2); returns
 * the number of objects kept. */
size_t sr_runs_area_keep(const uint8_t *bin, uint8_t *out, size_t w,
    size_t h, int conn, double lo, double hi);

/* Fills the holes of bin in place: background pixels that no
 * conn-connected path of background joins to the image border become
 * 255, foreground becomes 255 too (MATLAB's imfill(BW, conn, 'holes')). */
void sr_fill_holes(uint8_t *bin, size_t w, size_t h, int conn);

/* Writes to out (0/255) the conn-connected objects of bin that hold at
 * least one pixel where seed is non-zero (MATLAB's bwselect). */
void sr_select(const uint8_t *bin, const uint8_t *seed, uint8_t *out,
    size_t w, size_t h, int conn);

#endif
