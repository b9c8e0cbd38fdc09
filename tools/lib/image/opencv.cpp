// opencv.cpp - C wrappers of the OpenCV operations in opencv.h. C++ only
// because OpenCV 4's C headers cannot be compiled as C; every exception
// stops here.
#include "image/opencv.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <climits>
#include <cstdio>
#include <exception>
#include <new>

namespace {

const size_t ERRLEN = 256;	// SR_ERRLEN

// Reports the exception being handled in errbuf; returns -1.
int
fail(char *errbuf, const char *what)
{
	if (errbuf) {
		try {
			throw;
		} catch (const std::bad_alloc &) {
			std::snprintf(errbuf, ERRLEN, "%s: out of memory", what);
		} catch (const cv::Exception &e) {
			std::snprintf(errbuf, ERRLEN, "%s: OpenCV: %s", what,
			    e.err.c_str());
		} catch (const std::exception &e) {
			std::snprintf(errbuf, ERRLEN, "%s: %s", what, e.what());
		} catch (...) {
			std::snprintf(errbuf, ERRLEN, "%s: unknown error", what);
		}
	}
	return -1;
}

// Whether w x h fits OpenCV's int sizes and indices.
bool
fits(size_t w, size_t h)
{
	return w > 0 && h > 0 && w <= INT_MAX / 4 && h <= INT_MAX / 4 &&
	    w * h <= (size_t)INT_MAX;
}

cv::Mat
wrap(const void *p, size_t w, size_t h, int type)
{
	return cv::Mat((int)h, (int)w, type, const_cast<void *>(p));
}

// Erosion (erode set) or dilation of src into dst by the kw x kh element
// k, outside the image neutral; see sr_opencv_erode in opencv.h.
int
erode_or_dilate(bool erode, const uint8_t *src, uint8_t *dst, size_t w,
    size_t h, const uint8_t *k, int kw, int kh, char *errbuf)
{
	try {
		if (!fits(w, h))
			throw std::length_error("image too large for OpenCV");
		cv::Mat s = wrap(src, w, h, CV_8UC1), d = wrap(dst, w, h, CV_8UC1);
		cv::Mat element = wrap(k, kw, kh, CV_8UC1);
		if (erode)
			cv::erode(s, d, element, cv::Point(-1, -1), 1,
			    cv::BORDER_CONSTANT, cv::morphologyDefaultBorderValue());
		else
			cv::dilate(s, d, element, cv::Point(-1, -1), 1,
			    cv::BORDER_CONSTANT, cv::morphologyDefaultBorderValue());
		return 0;
	} catch (...) {
		return fail(errbuf, erode ? "erosion" : "dilation");
	}
}

}	// namespace

extern "C" void
sr_opencv_init(void)
{
	cv::setNumThreads(0);
}

extern "C" int
sr_opencv_erode(const uint8_t *src, uint8_t *dst, size_t w, size_t h,
    const uint8_t *k, int kw, int kh, char *errbuf)
{
	return erode_or_dilate(true, src, dst, w, h, k, kw, kh, errbuf);
}

extern "C" int
sr_opencv_dilate(const uint8_t *src, uint8_t *dst, size_t w, size_t h,
    const uint8_t *k, int kw, int kh, char *errbuf)
{
	return erode_or_dilate(false, src, dst, w, h, k, kw, kh, errbuf);
}

extern "C" int
sr_opencv_distance(const uint8_t *bin, float *dist, size_t w, size_t h,
    char *errbuf)
{
	try {
		if (!fits(w, h))
			throw std::length_error("image too large for OpenCV");
		cv::Mat d = wrap(dist, w, h, CV_32FC1);
		cv::distanceTransform(wrap(bin, w, h, CV_8UC1), d, cv::DIST_L2,
		    cv::DIST_MASK_PRECISE, CV_32F);
		return 0;
	} catch (...) {
		return fail(errbuf, "distance transform");
	}
}

extern "C" int
sr_opencv_watershed(const uint8_t *rgb, int32_t *markers, size_t w, size_t h,
    char *errbuf)
{
	try {
		if (!fits(w, h))
			throw std::length_error("image too large for OpenCV");
		cv::Mat m = wrap(markers, w, h, CV_32SC1);
		cv::watershed(wrap(rgb, w, h, CV_8UC3), m);
		return 0;
	} catch (...) {
		return fail(errbuf, "watershed");
	}
}

extern "C" int
sr_opencv_label_roi(const uint8_t *bin, size_t bstride, int32_t *labels,
    size_t lstride, size_t w, size_t h, int conn, size_t *n, char *errbuf)
{
	try {
		if (!fits(w, h) || !fits(bstride, h) || !fits(lstride, h))
			throw std::length_error("image too large for OpenCV");
		cv::Mat b((int)h, (int)w, CV_8UC1, const_cast<uint8_t *>(bin),
		    bstride);
		cv::Mat l((int)h, (int)w, CV_32SC1, labels,
		    lstride * sizeof *labels);
		int k = cv::connectedComponents(b, l, conn == 4 ? 4 : 8, CV_32S,
		    cv::CCL_DEFAULT);
		if (l.data != (uchar *)labels)
			throw std::logic_error("labels reallocated");
		*n = (size_t)k - 1;
		return 0;
	} catch (...) {
		return fail(errbuf, "labelling");
	}
}

/* The whole image: rows of w pixels one after the other. */
extern "C" int
sr_opencv_label(const uint8_t *bin, int32_t *labels, size_t w, size_t h,
    int conn, size_t *n, char *errbuf)
{
	return sr_opencv_label_roi(bin, w, labels, w, w, h, conn, n, errbuf);
}

extern "C" int
sr_opencv_median(const uint8_t *src, uint8_t *dst, size_t w, size_t h, int k,
    char *errbuf)
{
	try {
		if (!fits(w, h))
			throw std::length_error("image too large for OpenCV");
		cv::Mat d = wrap(dst, w, h, CV_8UC1);
		cv::medianBlur(wrap(src, w, h, CV_8UC1), d, k);
		if (d.data != (uchar *)dst)
			throw std::logic_error("median reallocated");
		return 0;
	} catch (...) {
		return fail(errbuf, "median blur");
	}
}

extern "C" int
sr_opencv_otsu(const uint8_t *src, size_t w, size_t h, double *threshold,
    char *errbuf)
{
	try {
		if (!fits(w, h))
			throw std::length_error("image too large for OpenCV");
		cv::Mat out;
		*threshold = cv::threshold(wrap(src, w, h, CV_8UC1), out, 0, 255,
		    cv::THRESH_BINARY | cv::THRESH_OTSU);
		return 0;
	} catch (...) {
		return fail(errbuf, "Otsu's threshold");
	}
}
