/* watershed.h - OpenCV's marker-controlled watershed (cv::watershed,
 * Meyer's flooding with 256 FIFO queues) of a tile masked by a bit
 * plane, bit for bit what cv::watershed writes, without the masked,
 * framed 3-byte copy of the tile it needs (48 MiB on a 4096 x 4096 tile)
 * and with its queue in 4 KiB segments of 4-byte entries instead of a
 * vector of 12-byte nodes grown by half at a time (33 MiB and a 22 MiB
 * copy on that tile). With two active paths both in Seg5's watershed,
 * these two buffers set seg-run's peak (issue 17).
 *
 * Written by hand because cv::watershed takes only a whole CV_8UC3
 * image; test/unit/watershed_test.c checks it against cv::watershed.
 */
#ifndef SR_WATERSHED_H
#define SR_WATERSHED_H

#include <stddef.h>
#include <stdint.h>

/* What cv::watershed(img, markers) writes to markers, where img is the
 * (w + 2) x (h + 2) CV_8UC3 image whose frame is black and whose inner
 * pixel (x + 1, y + 1) is rgb's pixel y * w + x (3 bytes) where bit
 * y * w + x of in (bits.h) is set, black elsewhere; markers is that
 * size, row-major with no padding (> 0 a marker, 0 unknown; on return
 * -1 on the lines and the frame). Dies (sr_malloc) when out of memory;
 * w, h > 0 and (w + 2) (h + 2) < 2^31. */
void sr_watershed_masked(const uint8_t *rgb, const uint64_t *in, size_t w,
    size_t h, int32_t *markers);

#endif
