/* image.c - images read into sr_rgb and sr_labels: the format told by
 * the file's signature (TIFF in tiff.c, PNG in png.c), and the checks
 * every format shares (format.h); see image.h.
 *
 * Thread-safe: nothing here is static and mutable but the budget, set
 * before any thread starts.
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

#define ERRNO_LEN	128
#define SIGNATURE_LEN	8	/* PNG's; TIFF's is 4 */

enum format { FMT_TIFF, FMT_PNG };

/* ------------------------------------------------------ shared checks */

static size_t image_budget;	/* 0: physical memory */
static const char *image_budget_source = "physical memory";

void
sr_image_set_budget(sr_budget budget)
{
	image_budget = budget.bytes;
	image_budget_source = budget.bytes ? budget.source : "physical memory";
}

const char *
sr_image_budget_source(void)
{
	return image_budget_source;
}

size_t
sr_image_budget(void)
{
	return image_budget ? image_budget : sr_physical_memory();
}

int
sr_image_check_budget(const char *path, const char *what, uint64_t bytes,
    char *errbuf)
{
	char need[32], have[32];

	if (bytes <= sr_image_budget())
		return 0;
	sr_seterr(errbuf, "%s: %s would need %s, above the memory budget of %s "
	    "(%s)", path, what, sr_fmt_mib(need, sizeof need, bytes),
	    sr_fmt_mib(have, sizeof have, sr_image_budget()),
	    image_budget_source);
	return -1;
}

int
sr_image_errno_fail(char *errbuf, const char *path, const char *what, int e)
{
	char why[ERRNO_LEN];

	if (strerror_r(e, why, sizeof why) != 0)
		snprintf(why, sizeof why, "error %d", e);
	if (what)
		sr_seterr(errbuf, "%s: %s: %s", path, what, why);
	else
		sr_seterr(errbuf, "%s: %s", path, why);
	errno = e;	/* the caller's exit status: sr_exit_for_errno */
	return -1;
}

void *
sr_image_alloc(size_t a, size_t b, size_t c, const char *path, char *errbuf)
{
	void *p = NULL;
	size_t n = 0;

	if ((b == 0 || a <= SIZE_MAX / b) &&
	    (c == 0 || a * b <= SIZE_MAX / c)) {
		n = a * b * c;
		p = malloc(n ? n : 1);
	}
	if (p == NULL && errbuf)
		sr_seterr(errbuf, "%s: out of memory", path);
	if (p == NULL)	/* ENOMEM: exit 3; a size that overflows: bad data */
		errno = n ? ENOMEM : 0;
	return p;
}

int
sr_image_check_size(const char *path, uint64_t w, uint64_t h, char *errbuf)
{
	char what[64];

	if (w == 0 || h == 0) {
		sr_seterr(errbuf, "%s: empty image (%llux%llu)", path,
		    (unsigned long long)w, (unsigned long long)h);
		return -1;
	}
	if (w > SR_IMAGE_MAX_PIXELS / h) {
		sr_seterr(errbuf, "%s: declared size %llux%llu exceeds the limit "
		    "of %zu pixels", path, (unsigned long long)w,
		    (unsigned long long)h, SR_IMAGE_MAX_PIXELS);
		return -1;
	}
	snprintf(what, sizeof what, "reading %llux%llu pixels",
	    (unsigned long long)w, (unsigned long long)h);
	return sr_image_check_budget(path, what, w * h * 4 + h *
	    sizeof(void *), errbuf);
}

int
sr_image_check_write_size(const char *name, size_t w, size_t h, size_t max,
    char *errbuf)
{
	if (w == 0 || h == 0 || w > max || h > max) {
		sr_seterr(errbuf, "%s: cannot write an image of %zux%zu pixels",
		    name, w, h);
		errno = 0;	/* bad data, not a system failure */
		return -1;
	}
	return 0;
}

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

void
sr_rgb_free(sr_rgb *img)
{
	if (img == NULL)
		return;
	free(img->rgb);
	memset(img, 0, sizeof *img);
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

void
sr_labels_free(sr_labels *img)
{
	if (img == NULL)
		return;
	free(img->px);
	memset(img, 0, sizeof *img);
}
