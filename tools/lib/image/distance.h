/* distance.h - the exact Euclidean distance transform of a binary image,
 * bit for bit what OpenCV's cv::distanceTransform(DIST_L2,
 * DIST_MASK_PRECISE, CV_32F) writes, in about a fifth of its time.
 */
#ifndef SR_DISTANCE_H
#define SR_DISTANCE_H

#include <stddef.h>
#include <stdint.h>

/* Writes to dist (rows dstride floats apart) the distance of each pixel
 * of bin (w x h, row-major, no padding) to the nearest 0 pixel; pixels
 * outside the image do not count, and a pixel with no 0 pixel in any
 * column gets sqrt(1e15 + ...), as OpenCV's. Dies (sr_malloc) when out of
 * memory; w, h > 0. */
void sr_distance_l2(const uint8_t *bin, size_t w, size_t h, float *dist,
    size_t dstride);

#endif
