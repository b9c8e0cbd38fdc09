/* probe.c - image sizes from the PNG or TIFF header (probe.h). */
#include "image/probe.h"
#include "core/err.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <tiffio.h>

static char tiff_msg[SR_ERRLEN];

/* Keeps libtiff's last error message. */
static void
on_tiff_error(const char *module, const char *fmt, va_list ap)
{
	(void)module;
	vsnprintf(tiff_msg, sizeof tiff_msg, fmt, ap);
}

static void
on_tiff_warning(const char *module, const char *fmt, va_list ap)
{
	(void)module;
	(void)fmt;
	(void)ap;
}

/* The size of the TIFF's first directory. */
static int
probe_tiff(const char *path, size_t *w, size_t *h, char *errbuf)
{
	TIFFErrorHandler err = TIFFSetErrorHandler(on_tiff_error);
	TIFFErrorHandler warn = TIFFSetWarningHandler(on_tiff_warning);
	uint32_t tw = 0, th = 0;
	TIFF *tif;
	int rc = -1;

	tiff_msg[0] = '\0';
	if ((tif = TIFFOpen(path, "r")) == NULL)
		sr_seterr(errbuf, "%s: not a TIFF it can read (libtiff: %s)",
		    path, *tiff_msg ? tiff_msg : "no message");
	else if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &tw) ||
	    !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &th) || tw == 0 || th == 0)
		sr_seterr(errbuf, "%s: a TIFF without a width and height", path);
	else {
		*w = tw;
		*h = th;
		rc = 0;
	}
	if (tif)
		TIFFClose(tif);
	TIFFSetErrorHandler(err);
	TIFFSetWarningHandler(warn);
	return rc;
}

/* A PNG being probed: what changes after setjmp lives here. */
struct png_probe {
	png_structp png;
	png_infop info;
	char msg[SR_ERRLEN];
};

/* Keeps libpng's message and unwinds to the setjmp. */
static void
on_png_error(png_structp png, png_const_charp msg)
{
	struct png_probe *p = png_get_error_ptr(png);

	snprintf(p->msg, sizeof p->msg, "%s", msg);
	png_longjmp(png, 1);
}

static void
on_png_warning(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg;
}

/* The size in the PNG's IHDR chunk, read by libpng's png_read_info (the
 * chunks before the pixels). */
static int
probe_png(FILE *fp, const char *path, size_t *w, size_t *h, char *errbuf)
{
	struct png_probe p = { 0 }, *pp = &p;

	pp->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, pp,
	    on_png_error, on_png_warning);
	if (pp->png == NULL || (pp->info = png_create_info_struct(pp->png)) ==
	    NULL) {
		png_destroy_read_struct(&pp->png, NULL, NULL);
		sr_seterr(errbuf, "%s: out of memory", path);
		return -1;
	}
	if (setjmp(png_jmpbuf(pp->png))) {
		png_destroy_read_struct(&pp->png, &pp->info, NULL);
		sr_seterr(errbuf, "%s: a bad PNG header (libpng: %s)", path,
		    pp->msg);
		return -1;
	}
	png_init_io(pp->png, fp);
	png_read_info(pp->png, pp->info);
	*w = png_get_image_width(pp->png, pp->info);
	*h = png_get_image_height(pp->png, pp->info);
	png_destroy_read_struct(&pp->png, &pp->info, NULL);
	return 0;
}

int
sr_image_probe(const char *path, size_t *w, size_t *h, char *errbuf)
{
	unsigned char b[8];
	size_t n;
	FILE *fp;
	int rc;

	if ((fp = fopen(path, "rb")) == NULL) {
		sr_seterr(errbuf, "%s: %s", path, strerror(errno));
		return -1;
	}
	n = fread(b, 1, 8, fp);
	if (n == 8 && png_sig_cmp(b, 0, 8) == 0) {
		rewind(fp);
		rc = probe_png(fp, path, w, h, errbuf);
		fclose(fp);
		return rc;
	}
	fclose(fp);
	if (n >= 4 && (memcmp(b, "II*\0", 4) == 0 || memcmp(b, "MM\0*", 4) == 0 ||
	    memcmp(b, "II+\0", 4) == 0 || memcmp(b, "MM\0+", 4) == 0))
		return probe_tiff(path, w, h, errbuf);
	sr_seterr(errbuf, "%s: neither a PNG nor a TIFF", path);
	return -1;
}
