/* opencv.h - the OpenCV (imgproc) operations of the nuclei workflow, behind C
 * wrappers: OpenCV 4 has no C API, so opencv.cpp is the one C++ file.
 *
 * Images are w x h, row-major, no padding, in caller-owned buffers (no
 * copies are made). Each function returns 0, or -1 with a message in
 * errbuf (SR_ERRLEN bytes) when OpenCV fails (out of memory, an image
 * larger than OpenCV's int indices). Thread-safe.
 */
#ifndef SR_OPENCV_H
#define SR_OPENCV_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Keeps OpenCV on the calling thread: seg-run runs paths in parallel
 * itself, and single-threaded OpenCV gives the same labels every time. */
void sr_opencv_init(void);

/* Erosion and dilation of a grey image by the kw x kh structuring element
 * k (non-zero = member; anchor at the centre); outside the image counts as
 * the maximum for erosion and the minimum for dilation, so an opening
 * never grows or shrinks objects at the border. src and dst may not
 * overlap. */
int sr_opencv_erode(const uint8_t *src, uint8_t *dst, size_t w, size_t h,
    const uint8_t *k, int kw, int kh, char *errbuf);
int sr_opencv_dilate(const uint8_t *src, uint8_t *dst, size_t w, size_t h,
    const uint8_t *k, int kw, int kh, char *errbuf);

/* Exact Euclidean distance of every non-zero pixel of bin to the nearest
 * zero pixel (0 on zero pixels). Seg5 uses sr_distance_l2 (distance.h),
 * which writes the same bits faster; this is its reference in the tests. */
int sr_opencv_distance(const uint8_t *bin, float *dist, size_t w, size_t h,
    char *errbuf);

/* Meyer's flooding of the 8-bit RGB image rgb from the seeds in markers
 * (1..n seeds, 0 unknown), in place: every pixel gets the label of the
 * basin it is flooded from, or -1 on the lines between basins (and on the
 * outermost frame of the image). Seg5 runs sr_watershed_masked
 * (watershed.h), which writes the same without the image; this is what
 * its unit test compares it with. */
int sr_opencv_watershed(const uint8_t *rgb, int32_t *markers, size_t w, size_t h,
    char *errbuf);

/* Labels the conn-connected objects of bin (non-zero) 1..n, 0 on
 * background; *n gets the number of objects. The numbering is OpenCV's
 * (not raster order of first pixels, for 8-connectivity), the same on
 * every run since OpenCV runs single-threaded (sr_opencv_init). */
int sr_opencv_label(const uint8_t *bin, int32_t *labels, size_t w, size_t h,
    int conn, size_t *n, char *errbuf);

/* sr_opencv_label from and into regions of interest: bin's rows are
 * bstride bytes apart, labels' lstride elements. */
int sr_opencv_label_roi(const uint8_t *bin, size_t bstride, int32_t *labels,
    size_t lstride, size_t w, size_t h, int conn, size_t *n, char *errbuf);

/* The median of every k x k neighbourhood (k odd; the border
 * replicated), OpenCV's medianBlur. src and dst may not overlap. */
int sr_opencv_median(const uint8_t *src, uint8_t *dst, size_t w, size_t h,
    int k, char *errbuf);

/* Otsu's threshold of a grey image into *threshold: the value t that
 * best splits it into pixels <= t and pixels > t. */
int sr_opencv_otsu(const uint8_t *src, size_t w, size_t h, double *threshold,
    char *errbuf);

#ifdef __cplusplus
}
#endif

#endif
