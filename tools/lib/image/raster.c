/* raster.c - what every reader and writer of the image library shares
 * (format.h): the memory budget, the size checks, allocation, errno
 * messages; and freeing the images (raster.h). Split from image.c so
 * that the formats (png.c, tiff.c) depend on it and image.c's dispatch
 * depends on them, with no circle.
 *
 * Thread-safe: nothing here is static and mutable but the budget, set
 * before any thread starts.
 */
#include "image/raster.h"
#include "image/format.h"
#include "core/err.h"
#include "core/mem.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ERRNO_LEN	128

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

void
sr_rgb_free(sr_rgb *img)
{
	if (img == NULL)
		return;
	free(img->rgb);
	memset(img, 0, sizeof *img);
}

void
sr_labels_free(sr_labels *img)
{
	if (img == NULL)
		return;
	free(img->px);
	memset(img, 0, sizeof *img);
}
