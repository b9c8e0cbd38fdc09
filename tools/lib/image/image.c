/* image.c - images read into sr_rgb and sr_labels: the format told by
 * the file's signature (TIFF in tiff.c, PNG in png.c); the checks every
 * format shares are in raster.c (format.h); see image.h.
 *
 * Thread-safe: nothing here is static and mutable.
 */
#include "image/image.h"
#include "image/format.h"
#include "image/png.h"
#include "image/tiff.h"
#include "core/err.h"
#include "core/mem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SIGNATURE_LEN	8	/* PNG's; TIFF's is 4 */

enum format { FMT_TIFF, FMT_PNG };

/* ---------------------------------------------------------- dispatch */

/* Reads up to n bytes from fd; the count, or -1 with errno set. */
static ssize_t
read_some(int fd, unsigned char *buf, size_t n)
{
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		r = read(fd, buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* Whether the n bytes of sig start a TIFF or a BigTIFF, either byte
 * order. */
static int
is_tiff_signature(const unsigned char *sig, size_t n)
{
	return n >= 4 && (memcmp(sig, "II*\0", 4) == 0 ||
	    memcmp(sig, "MM\0*", 4) == 0 || memcmp(sig, "II+\0", 4) == 0 ||
	    memcmp(sig, "MM\0+", 4) == 0);
}

/* Opens path and tells TIFF from PNG by the first bytes; returns the
 * descriptor, positioned after the bytes read, or -1 with errbuf set. */
static int
open_image(const char *path, enum format *fmt, char *errbuf)
{
	static const unsigned char png_sig[SIGNATURE_LEN] = {
		0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'
	};
	unsigned char sig[SIGNATURE_LEN];
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return sr_image_errno_fail(errbuf, path, NULL, errno);
	if ((n = read_some(fd, sig, sizeof sig)) < 0)
		sr_image_errno_fail(errbuf, path, NULL, errno);
	else if (n == 0)
		sr_seterr(errbuf, "%s: empty file", path);
	else if (is_tiff_signature(sig, (size_t)n)) {
		*fmt = FMT_TIFF;
		return fd;
	} else if (n == sizeof sig && memcmp(sig, png_sig, sizeof sig) == 0) {
		*fmt = FMT_PNG;
		return fd;
	} else if (memcmp(sig, png_sig, (size_t)n) == 0)
		sr_seterr(errbuf, "%s: truncated PNG (%zd bytes)", path, n);
	else
		sr_seterr(errbuf, "%s: not a TIFF or PNG file", path);
	close(fd);
	return -1;
}

/* ------------------------------------------------------------ public */

int
sr_image_is_png(const char *path)
{
	char err[SR_ERRLEN];
	enum format fmt;
	int fd = open_image(path, &fmt, err);

	if (fd < 0)
		return 0;
	close(fd);
	return fmt == FMT_PNG;
}

int
sr_rgb_read(const char *path, sr_rgb *img, char *errbuf)
{
	enum format fmt;
	int fd;

	memset(img, 0, sizeof *img);
	errno = 0;
	if ((fd = open_image(path, &fmt, errbuf)) < 0)
		return -1;
	if (fmt == FMT_PNG)
		return sr_png_read_rgb(fd, path, img, errbuf);
	return sr_tiff_read_rgb(fd, path, img, errbuf);
}

int
sr_labels_read(const char *path, sr_labels *img, char *errbuf)
{
	enum format fmt;
	int fd;

	memset(img, 0, sizeof *img);
	errno = 0;
	if ((fd = open_image(path, &fmt, errbuf)) < 0)
		return -1;
	if (fmt == FMT_PNG)
		return sr_png_read_labels(fd, path, img, errbuf);
	return sr_tiff_read_labels(fd, path, img, errbuf);
}

int
sr_image_probe(const char *path, size_t *w, size_t *h, char *errbuf)
{
	enum format fmt;
	int fd;

	if ((fd = open_image(path, &fmt, errbuf)) < 0)
		return -1;
	if (fmt == FMT_PNG)
		return sr_png_probe(fd, path, w, h, errbuf);
	return sr_tiff_probe(fd, path, w, h, errbuf);
}
