/* image.c - TIFF (libtiff) and PNG (libpng) images read into sr_rgb and
 * sr_labels, and written from them; see image.h.
 *
 * Thread-safe: libtiff's error and warning handlers are process-wide, so
 * they are installed once (pthread_once) and write libtiff's message into
 * a thread-local buffer, read back by the thread whose call failed;
 * warnings are dropped. libpng's handlers are per png_struct. Nothing
 * else here is static and mutable.
 *
 * Labels are the stored sample values, whatever the photometric
 * interpretation (a MINISWHITE or a 1 to 4-bit image is not inverted or
 * rescaled); colour is scaled to 8 bits and MINISWHITE grey inverted.
 */
#include "image/image.h"
#include "core/err.h"

#include <errno.h>
#include <fcntl.h>
#include <png.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>
#include <unistd.h>

#define STRIP_BYTES	(256 * 1024)	/* target size of a written strip */
#define ERRNO_LEN	128

enum format { FMT_TIFF, FMT_PNG };

static pthread_once_t tiff_once = PTHREAD_ONCE_INIT;
static _Thread_local char tiff_msg[SR_ERRLEN];	/* libtiff's first error */

/* ---------------------------------------------------------------- misc */

/* strerror, thread-safely, into buf. */
static const char *
errno_text(int e, char *buf, size_t len)
{
	if (strerror_r(e, buf, len) != 0)
		snprintf(buf, len, "error %d", e);
	return buf;
}

/* malloc(a * b * c), or NULL when the product overflows or malloc
 * fails. */
static void *
alloc3(size_t a, size_t b, size_t c)
{
	size_t n;

	if (b && a > SIZE_MAX / b)
		return NULL;
	if (c && a * b > SIZE_MAX / c)
		return NULL;
	n = a * b * c;
	return malloc(n ? n : 1);
}

/* Refuses a size of 0 or above SR_IMAGE_MAX_PIXELS, before anything of
 * the image is allocated. */
static int
check_dims(const char *path, uint64_t w, uint64_t h, char *errbuf)
{
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
	return 0;
}

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

/* Opens path and tells TIFF from PNG by the first bytes; returns the
 * descriptor, positioned after the 8 bytes read, or -1 with errbuf set. */
static int
open_image(const char *path, enum format *fmt, char *errbuf)
{
	static const unsigned char png_sig[8] = {
		0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'
	};
	unsigned char b[8];
	char why[ERRNO_LEN];
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		sr_seterr(errbuf, "%s: %s", path, errno_text(errno, why,
		    sizeof why));
		return -1;
	}
	if ((n = read_some(fd, b, sizeof b)) < 0)
		sr_seterr(errbuf, "%s: %s", path, errno_text(errno, why,
		    sizeof why));
	else if (n == 0)
		sr_seterr(errbuf, "%s: empty file", path);
	else if (n >= 4 && (memcmp(b, "II*\0", 4) == 0 ||
	    memcmp(b, "MM\0*", 4) == 0 || memcmp(b, "II+\0", 4) == 0 ||
	    memcmp(b, "MM\0+", 4) == 0)) {
		*fmt = FMT_TIFF;
		return fd;
	} else if (n == 8 && memcmp(b, png_sig, 8) == 0) {
		*fmt = FMT_PNG;
		return fd;
	} else if (memcmp(b, png_sig, (size_t)n) == 0)
		sr_seterr(errbuf, "%s: truncated PNG (%zd bytes)", path, n);
	else
		sr_seterr(errbuf, "%s: not a TIFF or PNG file", path);
	close(fd);
	return -1;
}

/* ---------------------------------------------------- libtiff messages */

/* Keeps libtiff's first error message of the current call. */
static void
tiff_on_error(const char *module, const char *fmt, va_list ap)
{
	size_t n = 0;

	if (tiff_msg[0] != '\0')
		return;
	if (module && *module)
		n = (size_t)snprintf(tiff_msg, sizeof tiff_msg, "%s: ", module);
	if (n < sizeof tiff_msg)
		vsnprintf(tiff_msg + n, sizeof tiff_msg - n, fmt, ap);
}

/* Drops libtiff's warnings (unknown tags and the like). */
static void
tiff_on_warning(const char *module, const char *fmt, va_list ap)
{
	(void)module;
	(void)fmt;
	(void)ap;
}

static void
tiff_install_handlers(void)
{
	TIFFSetErrorHandler(tiff_on_error);
	TIFFSetWarningHandler(tiff_on_warning);
}

/* Starts a libtiff call sequence: handlers in place, no message yet. */
static void
tiff_begin(void)
{
	pthread_once(&tiff_once, tiff_install_handlers);
	tiff_msg[0] = '\0';
}

/* Sets errbuf to "PATH: WHAT (libtiff: MESSAGE)", where libtiff's own
 * "PATH: " is cut out of MESSAGE, or "PATH: WHAT (FALLBACK)" when libtiff
 * said nothing. */
static int
tiff_fail(const char *path, const char *what, const char *fallback,
    char *errbuf)
{
	char m[SR_ERRLEN], *at;
	size_t len = strlen(path);

	snprintf(m, sizeof m, "%s", tiff_msg);
	if (len && (at = strstr(m, path)) != NULL && strncmp(at + len, ": ",
	    2) == 0)
		memmove(at, at + len + 2, strlen(at + len + 2) + 1);
	if (*m)
		sr_seterr(errbuf, "%s: %s (libtiff: %s)", path, what, m);
	else
		sr_seterr(errbuf, "%s: %s (%s)", path, what, fallback);
	return -1;
}

/* ------------------------------------------------------- TIFF reading */

/* An open TIFF being read, with the tags that decide how. */
struct tiff_in {
	TIFF *tif;
	const char *path;
	uint32_t w, h;
	uint16_t bits, spp, photometric, planar, format;
	size_t rowbytes;	/* bytes of one row of a strip (w pixels) */
};

/* Where decoded rows go: row() stores n pixels of src at (x, y) of out. */
struct sink {
	int (*row)(struct sink *s, const uint8_t *src, size_t x, size_t y,
	    size_t n);
	const struct tiff_in *t;
	void *out;
	size_t out_rowbytes;	/* bytes per row of out */
	int direct;		/* strips decode straight into out */
	char *errbuf;
};

/* Bytes of n pixels of t's samples, rounded up to whole bytes. */
static size_t
tiff_bytes(const struct tiff_in *t, size_t n)
{
	return (size_t)(((uint64_t)n * t->spp * t->bits + 7) / 8);
}

/* Opens fd (closed here on failure, by TIFFClose later otherwise) and
 * reads the first directory's layout tags into t. */
static int
tiff_open(int fd, const char *path, struct tiff_in *t, char *errbuf)
{
	char why[ERRNO_LEN];

	memset(t, 0, sizeof *t);
	t->path = path;
	tiff_begin();
	if (lseek(fd, 0, SEEK_SET) != 0) {	/* libtiff reads from here */
		sr_seterr(errbuf, "%s: %s", path, errno_text(errno, why,
		    sizeof why));
		close(fd);
		return -1;
	}
	if ((t->tif = TIFFFdOpen(fd, path, "r")) == NULL) {
		close(fd);
		return tiff_fail(path, "corrupt TIFF", "cannot read its header",
		    errbuf);
	}
	if (!TIFFGetField(t->tif, TIFFTAG_IMAGEWIDTH, &t->w) ||
	    !TIFFGetField(t->tif, TIFFTAG_IMAGELENGTH, &t->h)) {
		sr_seterr(errbuf, "%s: corrupt TIFF (no image size)", path);
		return -1;
	}
	if (check_dims(path, t->w, t->h, errbuf))
		return -1;
	TIFFGetFieldDefaulted(t->tif, TIFFTAG_BITSPERSAMPLE, &t->bits);
	TIFFGetFieldDefaulted(t->tif, TIFFTAG_SAMPLESPERPIXEL, &t->spp);
	TIFFGetFieldDefaulted(t->tif, TIFFTAG_PLANARCONFIG, &t->planar);
	TIFFGetFieldDefaulted(t->tif, TIFFTAG_SAMPLEFORMAT, &t->format);
	if (t->format == SAMPLEFORMAT_VOID)	/* untyped: unsigned */
		t->format = SAMPLEFORMAT_UINT;
	if (!TIFFGetField(t->tif, TIFFTAG_PHOTOMETRIC, &t->photometric))
		t->photometric = PHOTOMETRIC_MINISBLACK;
	if (t->spp == 0 || t->bits == 0) {
		sr_seterr(errbuf, "%s: corrupt TIFF (%u samples of %u bits)",
		    path, t->spp, t->bits);
		return -1;
	}
	t->rowbytes = tiff_bytes(t, t->w);
	return 0;
}

/* Decodes every strip of t into s: rows of at most ROWSPERSTRIP. */
static int
tiff_read_strips(const struct tiff_in *t, struct sink *s, char *errbuf)
{
	uint32_t rps = 0;
	size_t y, r, rows, strip, want;
	uint8_t *buf = NULL, *dst;
	tmsize_t got;

	TIFFGetFieldDefaulted(t->tif, TIFFTAG_ROWSPERSTRIP, &rps);
	if (rps == 0 || rps > t->h)
		rps = t->h;
	if (TIFFScanlineSize64(t->tif) != t->rowbytes ||
	    TIFFNumberOfStrips(t->tif) < (t->h + rps - 1) / rps) {
		sr_seterr(errbuf, "%s: corrupt TIFF (strip layout does not "
		    "match the image size)", t->path);
		return -1;
	}
	if (!s->direct && (buf = alloc3(rps, t->rowbytes, 1)) == NULL) {
		sr_seterr(errbuf, "%s: out of memory", t->path);
		return -1;
	}
	for (strip = 0, y = 0; y < t->h; strip++, y += rows) {
		rows = t->h - y < rps ? t->h - y : rps;
		want = rows * t->rowbytes;
		dst = s->direct ? (uint8_t *)s->out + y * s->out_rowbytes : buf;
		got = TIFFReadEncodedStrip(t->tif, (uint32_t)strip, dst,
		    (tmsize_t)want);
		if (got < 0 || (size_t)got < want) {
			free(buf);
			return tiff_fail(t->path, "corrupt or truncated TIFF",
			    "short strip", errbuf);
		}
		for (r = 0; !s->direct && r < rows; r++)
			if (s->row(s, buf + r * t->rowbytes, 0, y + r, t->w)) {
				free(buf);
				return -1;
			}
	}
	free(buf);
	return 0;
}

/* Passes the rows of one decoded tile at (tx, ty), clipped to the image,
 * to s. */
static int
tiff_put_tile(const struct tiff_in *t, struct sink *s, const uint8_t *buf,
    size_t tilerow, size_t tx, size_t ty, size_t tw, size_t th)
{
	size_t r, rows = t->h - ty < th ? t->h - ty : th;
	size_t cols = t->w - tx < tw ? t->w - tx : tw;

	for (r = 0; r < rows; r++)
		if (s->row(s, buf + r * tilerow, tx, ty + r, cols))
			return -1;
	return 0;
}

/* Decodes every tile of t into s. */
static int
tiff_read_tiles(const struct tiff_in *t, struct sink *s, char *errbuf)
{
	uint32_t tw = 0, th = 0, tile;
	size_t tx, ty, tilerow, tilesize;
	uint8_t *buf;
	tmsize_t got;

	TIFFGetField(t->tif, TIFFTAG_TILEWIDTH, &tw);
	TIFFGetField(t->tif, TIFFTAG_TILELENGTH, &th);
	if (tw == 0 || th == 0 || tw > SR_IMAGE_MAX_PIXELS / th) {
		sr_seterr(errbuf, "%s: corrupt TIFF (tile size %ux%u)", t->path,
		    tw, th);
		return -1;
	}
	tilerow = tiff_bytes(t, tw);
	tilesize = tilerow * th;
	if (TIFFTileRowSize64(t->tif) != tilerow ||
	    (uint64_t)TIFFTileSize64(t->tif) != tilesize) {
		sr_seterr(errbuf, "%s: corrupt TIFF (tile layout does not match "
		    "the samples)", t->path);
		return -1;
	}
	if ((buf = alloc3(tilesize, 1, 1)) == NULL) {
		sr_seterr(errbuf, "%s: out of memory", t->path);
		return -1;
	}
	for (ty = 0; ty < t->h; ty += th)
		for (tx = 0; tx < t->w; tx += tw) {
			tile = TIFFComputeTile(t->tif, (uint32_t)tx, (uint32_t)ty,
			    0, 0);
			got = TIFFReadEncodedTile(t->tif, tile, buf,
			    (tmsize_t)tilesize);
			if (got < 0 || (size_t)got < tilesize) {
				free(buf);
				return tiff_fail(t->path, "corrupt or truncated "
				    "TIFF", "short tile", errbuf);
			}
			if (tiff_put_tile(t, s, buf, tilerow, tx, ty, tw, th)) {
				free(buf);
				return -1;
			}
		}
	free(buf);
	return 0;
}

/* Decodes the whole image of t (strips or tiles) into s. */
static int
tiff_decode(const struct tiff_in *t, struct sink *s, char *errbuf)
{
	tiff_msg[0] = '\0';	/* what went wrong opening it is past */
	if (TIFFIsTiled(t->tif)) {
		s->direct = 0;
		return tiff_read_tiles(t, s, errbuf);
	}
	return tiff_read_strips(t, s, errbuf);
}

/* 16 bits to 8, rounded (as libpng's png_set_scale_16). */
static inline uint8_t
scale16(uint16_t v)
{
	return (uint8_t)(((uint32_t)v * 255 + 32895) >> 16);
}

/* Sample i of a row of 16-bit samples in host order. */
static inline uint16_t
sample16(const uint8_t *src, size_t i)
{
	uint16_t v;

	memcpy(&v, src + 2 * i, 2);
	return v;
}

/* Stores n pixels of 8 or 16-bit grey or RGB (extra samples ignored) as
 * RGB; MINISWHITE grey is inverted. */
static int
put_rgb_row(struct sink *s, const uint8_t *src, size_t x, size_t y,
    size_t n)
{
	const struct tiff_in *t = s->t;
	uint8_t *dst = (uint8_t *)s->out + y * s->out_rowbytes + 3 * x;
	uint8_t v, inv = t->photometric == PHOTOMETRIC_MINISWHITE ? 255 : 0;
	size_t i, spp = t->spp;

	if (t->bits == 8 && spp == 3)
		memcpy(dst, src, 3 * n);
	else if (t->bits == 8 && spp >= 3)
		for (i = 0; i < n; i++, dst += 3, src += spp)
			dst[0] = src[0], dst[1] = src[1], dst[2] = src[2];
	else if (t->bits == 8)
		for (i = 0; i < n; i++, dst += 3) {
			v = src[i * spp] ^ inv;
			dst[0] = dst[1] = dst[2] = v;
		}
	else if (spp >= 3)
		for (i = 0; i < n; i++, dst += 3) {
			dst[0] = scale16(sample16(src, i * spp));
			dst[1] = scale16(sample16(src, i * spp + 1));
			dst[2] = scale16(sample16(src, i * spp + 2));
		}
	else
		for (i = 0; i < n; i++, dst += 3) {
			v = scale16(sample16(src, i * spp)) ^ inv;
			dst[0] = dst[1] = dst[2] = v;
		}
	return 0;
}

/* Whether put_rgb_row handles t: contiguous 8 or 16-bit unsigned grey
 * (with an optional extra sample) or RGB (with one). */
static int
tiff_rgb_direct(const struct tiff_in *t)
{
	if ((t->bits != 8 && t->bits != 16) ||
	    t->format != SAMPLEFORMAT_UINT ||
	    (t->spp > 1 && t->planar != PLANARCONFIG_CONTIG))
		return 0;
	if (t->photometric == PHOTOMETRIC_RGB)
		return t->spp == 3 || t->spp == 4;
	if (t->photometric == PHOTOMETRIC_MINISBLACK ||
	    t->photometric == PHOTOMETRIC_MINISWHITE)
		return t->spp == 1 || t->spp == 2;
	return 0;
}

/* Any other colour TIFF (palette, YCbCr, CMYK, 1 to 4 bits, separate
 * planes...) through libtiff's RGBA interface, packed to RGB in place. */
static int
tiff_rgb_via_rgba(const struct tiff_in *t, sr_rgb *img, char *errbuf)
{
	char emsg[1024];
	size_t i, n = (size_t)t->w * t->h;
	uint32_t *raster, v;
	uint8_t *p, *q;

	tiff_msg[0] = '\0';
	if (!TIFFRGBAImageOK(t->tif, emsg)) {
		sr_seterr(errbuf, "%s: unsupported TIFF (%s)", t->path, emsg);
		return -1;
	}
	if ((raster = alloc3(n, sizeof *raster, 1)) == NULL) {
		sr_seterr(errbuf, "%s: out of memory", t->path);
		return -1;
	}
	if (!TIFFReadRGBAImageOriented(t->tif, t->w, t->h, raster,
	    ORIENTATION_TOPLEFT, 1)) {
		free(raster);
		return tiff_fail(t->path, "corrupt or unsupported TIFF",
		    "cannot decode", errbuf);
	}
	/* pixel i's 3 bytes end before raster[i + 1] starts */
	for (i = 0, p = (uint8_t *)raster; i < n; i++, p += 3) {
		v = raster[i];
		p[0] = (uint8_t)TIFFGetR(v);
		p[1] = (uint8_t)TIFFGetG(v);
		p[2] = (uint8_t)TIFFGetB(v);
	}
	q = realloc(raster, 3 * n);
	img->rgb = q ? q : (uint8_t *)raster;
	return 0;
}

/* Reads the TIFF on fd as RGB into img. */
static int
tiff_read_rgb(int fd, const char *path, sr_rgb *img, char *errbuf)
{
	struct tiff_in t;
	struct sink s;
	int rc = -1;

	if (tiff_open(fd, path, &t, errbuf))
		goto done;
	if (!tiff_rgb_direct(&t)) {
		rc = tiff_rgb_via_rgba(&t, img, errbuf);
		goto done;
	}
	memset(&s, 0, sizeof s);
	s.row = put_rgb_row;
	s.t = &t;
	s.out_rowbytes = 3 * (size_t)t.w;
	s.direct = t.bits == 8 && t.spp == 3;
	if ((s.out = alloc3(t.w, t.h, 3)) == NULL)
		sr_seterr(errbuf, "%s: out of memory", path);
	else if ((rc = tiff_decode(&t, &s, errbuf)) == 0)
		img->rgb = s.out;
	else
		free(s.out);
done:
	if (rc == 0) {
		img->w = t.w;
		img->h = t.h;
	}
	if (t.tif)
		TIFFClose(t.tif);
	return rc;
}

/* Stores n label values of 1 to 32 bits (unsigned, or signed and not
 * negative) as uint32; values below 8 bits are unpacked, most
 * significant bits first. */
static int
put_label_row(struct sink *s, const uint8_t *src, size_t x, size_t y,
    size_t n)
{
	const struct tiff_in *t = s->t;
	uint32_t *dst = (uint32_t *)s->out + y * t->w + x;
	unsigned bits = t->bits, mask = (1u << (bits & 31)) - 1;
	size_t i;

	if (bits < 8)
		for (i = 0; i < n; i++)
			dst[i] = (src[i * bits / 8] >> (8 - bits -
			    i * bits % 8)) & mask;
	else if (bits == 8)
		for (i = 0; i < n; i++)
			dst[i] = src[i];
	else if (bits == 16)
		for (i = 0; i < n; i++)
			dst[i] = sample16(src, i);
	else
		memcpy(dst, src, 4 * n);
	if (t->format != SAMPLEFORMAT_INT)
		return 0;
	for (i = 0; i < n; i++)
		if (dst[i] >> (bits - 1)) {
			sr_seterr(s->errbuf, "%s: negative label at (%zu, %zu)",
			    t->path, x + i, y);
			return -1;
		}
	return 0;
}

/* Refuses a TIFF that is not one channel of 1, 2, 4, 8, 16 or 32-bit
 * integers. */
static int
tiff_check_labels(const struct tiff_in *t, char *errbuf)
{
	if (t->spp != 1)
		sr_seterr(errbuf, "%s: %u samples per pixel: not a single-channel "
		    "mask or label image", t->path, t->spp);
	else if (t->photometric != PHOTOMETRIC_MINISBLACK &&
	    t->photometric != PHOTOMETRIC_MINISWHITE)
		sr_seterr(errbuf, "%s: %s image: not a single-channel mask or "
		    "label image", t->path, t->photometric == PHOTOMETRIC_PALETTE ?
		    "palette (colour)" : "colour");
	else if (t->format != SAMPLEFORMAT_UINT && (t->format !=
	    SAMPLEFORMAT_INT || t->bits < 8))
		sr_seterr(errbuf, "%s: %s samples: not a mask or label image",
		    t->path, t->format == SAMPLEFORMAT_IEEEFP ? "floating-point" :
		    "non-integer");
	else if (t->bits > 32 || (t->bits & (t->bits - 1)) != 0)
		sr_seterr(errbuf, "%s: %u-bit samples: not supported (1, 2, 4, "
		    "8, 16 or 32 bits)", t->path, t->bits);
	else
		return 0;
	return -1;
}

/* Reads the TIFF on fd as labels into img. */
static int
tiff_read_labels(int fd, const char *path, sr_labels *img, char *errbuf)
{
	struct tiff_in t;
	struct sink s;
	int rc = -1;

	if (tiff_open(fd, path, &t, errbuf) || tiff_check_labels(&t, errbuf))
		goto done;
	memset(&s, 0, sizeof s);
	s.row = put_label_row;
	s.t = &t;
	s.errbuf = errbuf;
	s.out_rowbytes = 4 * (size_t)t.w;
	s.direct = t.bits == 32 && t.format == SAMPLEFORMAT_UINT;
	if ((s.out = alloc3(t.w, t.h, 4)) == NULL)
		sr_seterr(errbuf, "%s: out of memory", path);
	else if ((rc = tiff_decode(&t, &s, errbuf)) == 0) {
		img->px = s.out;
		img->w = t.w;
		img->h = t.h;
	} else
		free(s.out);
done:
	if (t.tif)
		TIFFClose(t.tif);
	return rc;
}

/* -------------------------------------------------------- PNG reading */

/* libpng's I/O and error state: the stream, why it stopped, what
 * libpng said. */
struct png_io {
	FILE *fp;
	int eof;		/* the file ended early */
	int sys_errno;		/* a read or write failed with this */
	char msg[SR_ERRLEN];
};

/* A PNG being read; everything that changes after setjmp lives here,
 * reached through a pointer, so longjmp leaves it intact. */
struct png_in {
	struct png_io io;
	const char *path;
	png_structp png;
	png_infop info;
	png_bytep *rows;
	uint8_t *buf;		/* the pixels (freed on error) */
	size_t w, h;
	size_t k;		/* bytes per label read (1 or 2) */
};

/* Keeps libpng's message and unwinds to the setjmp. */
static void
png_on_error(png_structp png, png_const_charp msg)
{
	struct png_io *io = png_get_error_ptr(png);

	snprintf(io->msg, sizeof io->msg, "%s", msg);
	png_longjmp(png, 1);
}

/* Drops libpng's warnings. */
static void
png_on_warning(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg;
}

/* Reads exactly len bytes or stops libpng, noting end of file or the
 * read error. */
static void
png_read_fn(png_structp png, png_bytep data, size_t len)
{
	struct png_io *io = png_get_io_ptr(png);

	if (fread(data, 1, len, io->fp) == len)
		return;
	if (ferror(io->fp)) {
		io->sys_errno = errno;
		png_error(png, "read error");
	}
	io->eof = 1;
	png_error(png, "unexpected end of file");
}

/* Sets errbuf from what stopped libpng. */
static int
png_fail(const struct png_in *r, char *errbuf)
{
	char why[ERRNO_LEN];

	if (r->io.sys_errno)
		sr_seterr(errbuf, "%s: read error: %s", r->path,
		    errno_text(r->io.sys_errno, why, sizeof why));
	else if (r->io.eof)
		sr_seterr(errbuf, "%s: truncated PNG (libpng: %s)", r->path,
		    r->io.msg);
	else
		sr_seterr(errbuf, "%s: corrupt PNG (libpng: %s)", r->path,
		    r->io.msg);
	return -1;
}

/* Sets up libpng to read fp, just past its 8-byte signature. */
static int
png_in_open(struct png_in *r, FILE *fp, const char *path, char *errbuf)
{
	memset(r, 0, sizeof *r);
	r->io.fp = fp;
	r->path = path;
	r->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &r->io,
	    png_on_error, png_on_warning);
	if (r->png)
		r->info = png_create_info_struct(r->png);
	if (r->info == NULL) {
		png_destroy_read_struct(&r->png, NULL, NULL);
		sr_seterr(errbuf, "%s: out of memory", path);
		return -1;
	}
	png_set_read_fn(r->png, &r->io, png_read_fn);
	png_set_sig_bytes(r->png, 8);
	png_set_user_limits(r->png, SR_IMAGE_MAX_PIXELS, SR_IMAGE_MAX_PIXELS);
	return 0;
}

/* Frees what reading r allocated, the pixels too unless kept. */
static void
png_in_close(struct png_in *r, int keep)
{
	png_destroy_read_struct(&r->png, &r->info, NULL);
	free(r->rows);
	if (!keep)
		free(r->buf);
}

/* Checks the declared size (after png_read_info) and the row size after
 * the transforms (after png_read_update_info), then allocates the pixels
 * (px_bytes each) and points row y at offset + y * rowbytes of them. */
static int
png_alloc(struct png_in *r, size_t rowbytes, size_t px_bytes, size_t offset,
    char *errbuf)
{
	size_t y;

	if (png_get_rowbytes(r->png, r->info) != rowbytes) {
		sr_seterr(errbuf, "%s: unexpected PNG row size", r->path);
		return -1;
	}
	r->buf = alloc3(r->w, r->h, px_bytes);
	r->rows = alloc3(r->h, sizeof *r->rows, 1);
	if (r->buf == NULL || r->rows == NULL) {
		sr_seterr(errbuf, "%s: out of memory", r->path);
		return -1;
	}
	for (y = 0; y < r->h; y++)
		r->rows[y] = r->buf + offset + y * rowbytes;
	return 0;
}

/* Reads the size from the header just read and refuses a bad one. */
static int
png_dims(struct png_in *r, char *errbuf)
{
	r->w = png_get_image_width(r->png, r->info);
	r->h = png_get_image_height(r->png, r->info);
	return check_dims(r->path, r->w, r->h, errbuf);
}

/* Asks libpng for 8-bit RGB whatever the PNG holds. */
static void
png_want_rgb(png_structp png, png_infop info)
{
	int color = png_get_color_type(png, info);
	int bits = png_get_bit_depth(png, info);

	if (color == PNG_COLOR_TYPE_PALETTE)
		png_set_palette_to_rgb(png);
	if (color == PNG_COLOR_TYPE_GRAY && bits < 8)
		png_set_expand_gray_1_2_4_to_8(png);
	if (bits == 16)
		png_set_scale_16(png);
	png_set_strip_alpha(png);
	if (!(color & PNG_COLOR_MASK_COLOR))
		png_set_gray_to_rgb(png);
	png_set_interlace_handling(png);
	png_read_update_info(png, info);
}

/* Decodes r's PNG as RGB into r->buf. */
static int
png_decode_rgb(struct png_in *r, char *errbuf)
{
	if (setjmp(png_jmpbuf(r->png)))
		return png_fail(r, errbuf);
	png_read_info(r->png, r->info);
	if (png_dims(r, errbuf))
		return -1;
	png_want_rgb(r->png, r->info);
	if (png_alloc(r, 3 * r->w, 3, 0, errbuf))
		return -1;
	png_read_image(r->png, r->rows);
	png_read_end(r->png, NULL);
	return 0;
}

/* Refuses a PNG that is not grey, asks libpng for 1 byte per pixel
 * (values kept) below 8 bits. */
static int
png_want_labels(struct png_in *r, char *errbuf)
{
	int color = png_get_color_type(r->png, r->info);

	if (color != PNG_COLOR_TYPE_GRAY) {
		sr_seterr(errbuf, "%s: %s PNG: not a single-channel mask or "
		    "label image", r->path, color == PNG_COLOR_TYPE_PALETTE ?
		    "palette (colour)" : color == PNG_COLOR_TYPE_GRAY_ALPHA ?
		    "grey+alpha" : "colour");
		return -1;
	}
	if (png_get_bit_depth(r->png, r->info) < 8)
		png_set_packing(r->png);
	png_set_interlace_handling(r->png);
	png_read_update_info(r->png, r->info);
	r->k = png_get_bit_depth(r->png, r->info) / 8;
	return 0;
}

/* Widens n values of k bytes (1, or 2 big-endian), stored at the end of
 * px, into px[0..n) in place: value i's source starts at or after the
 * end of px[i] and after every px[j] for j < i, so a forward pass never
 * overwrites a value not yet read. */
static void
widen_in_place(uint32_t *px, size_t n, size_t k)
{
	const uint8_t *src = (const uint8_t *)px + (4 - k) * n;
	size_t i;

	if (k == 2)
		for (i = 0; i < n; i++)
			px[i] = (uint32_t)src[2 * i] << 8 | src[2 * i + 1];
	else
		for (i = 0; i < n; i++)
			px[i] = src[i];
}

/* Decodes r's grey PNG into r->buf as uint32 labels: the rows go to the
 * top of the buffer, then are widened in place. */
static int
png_decode_labels(struct png_in *r, char *errbuf)
{
	if (setjmp(png_jmpbuf(r->png)))
		return png_fail(r, errbuf);
	png_read_info(r->png, r->info);
	if (png_dims(r, errbuf) || png_want_labels(r, errbuf))
		return -1;
	if (png_alloc(r, r->w * r->k, 4, (4 - r->k) * r->w * r->h, errbuf))
		return -1;
	png_read_image(r->png, r->rows);
	png_read_end(r->png, NULL);
	widen_in_place((uint32_t *)(void *)r->buf, r->w * r->h, r->k);
	return 0;
}

/* Reads the PNG on fd (just past its signature) into img: RGB when rgb
 * is set, else labels. */
static int
png_read_fd(int fd, const char *path, void *img, int rgb, char *errbuf)
{
	struct png_in r;
	char why[ERRNO_LEN];
	FILE *fp;
	int rc;

	if ((fp = fdopen(fd, "rb")) == NULL) {
		sr_seterr(errbuf, "%s: %s", path, errno_text(errno, why,
		    sizeof why));
		close(fd);
		return -1;
	}
	if (png_in_open(&r, fp, path, errbuf)) {
		fclose(fp);
		return -1;
	}
	rc = rgb ? png_decode_rgb(&r, errbuf) : png_decode_labels(&r, errbuf);
	if (rc == 0 && rgb)
		*(sr_rgb *)img = (sr_rgb){ r.w, r.h, r.buf };
	else if (rc == 0)
		*(sr_labels *)img = (sr_labels){ r.w, r.h,
		    (uint32_t *)(void *)r.buf };
	png_in_close(&r, rc == 0);
	fclose(fp);
	return rc;
}

/* --------------------------------------------------------- public: read */

int
sr_rgb_read(const char *path, sr_rgb *img, char *errbuf)
{
	enum format fmt;
	int fd;

	memset(img, 0, sizeof *img);
	if ((fd = open_image(path, &fmt, errbuf)) < 0)
		return -1;
	if (fmt == FMT_PNG)
		return png_read_fd(fd, path, img, 1, errbuf);
	if (tiff_read_rgb(fd, path, img, errbuf) == 0)
		return 0;
	memset(img, 0, sizeof *img);
	return -1;
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
	if ((fd = open_image(path, &fmt, errbuf)) < 0)
		return -1;
	if (fmt == FMT_PNG)
		return png_read_fd(fd, path, img, 0, errbuf);
	return tiff_read_labels(fd, path, img, errbuf);
}

void
sr_labels_free(sr_labels *img)
{
	if (img == NULL)
		return;
	free(img->px);
	memset(img, 0, sizeof *img);
}

/* ------------------------------------------------------- TIFF writing */

/* Refuses a size a writer cannot store (0, or above 32 bits). */
static int
check_write_dims(const char *name, size_t w, size_t h, size_t max,
    char *errbuf)
{
	if (w == 0 || h == 0 || w > max || h > max) {
		sr_seterr(errbuf, "%s: cannot write an image of %zux%zu pixels",
		    name, w, h);
		return -1;
	}
	return 0;
}

/* Opens a TIFF writer on a duplicate of fp's descriptor (fp flushed
 * first), so that TIFFClose leaves fp open. */
static TIFF *
tiff_open_write(FILE *fp, const char *name, int bigtiff, char *errbuf)
{
	char why[ERRNO_LEN];
	TIFF *tif;
	int fd;

	tiff_begin();
	if (fflush(fp) != 0 || (fd = dup(fileno(fp))) < 0) {
		sr_seterr(errbuf, "%s: %s", name, errno_text(errno, why,
		    sizeof why));
		return NULL;
	}
	if ((tif = TIFFFdOpen(fd, name, bigtiff ? "w8" : "w")) == NULL) {
		close(fd);
		tiff_fail(name, "cannot write TIFF", "cannot open", errbuf);
	}
	return tif;
}

/* Flushes and closes tif after writing (rc: how that went) and leaves fp
 * at the end of the file. */
static int
tiff_close_write(TIFF *tif, FILE *fp, const char *name, int rc,
    char *errbuf)
{
	if (rc == 0 && !TIFFFlush(tif))
		rc = tiff_fail(name, "cannot write TIFF", "write error", errbuf);
	TIFFClose(tif);
	fseek(fp, 0, SEEK_END);
	return rc;
}

/* Sets the tags every written TIFF has: size, samples, deflate with
 * horizontal differencing. */
static int
tiff_set_tags(TIFF *tif, size_t w, size_t h, int spp, int bits)
{
	return TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, (uint32_t)w) &&
	    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, (uint32_t)h) &&
	    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, spp) &&
	    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, bits) &&
	    TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, SAMPLEFORMAT_UINT) &&
	    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, spp == 3 ?
	    PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK) &&
	    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG) &&
	    TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE) &&
	    TIFFSetField(tif, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
}

/* Writes the rows of pix (rowbytes each) in strips of about STRIP_BYTES,
 * through a copy (the predictor rewrites its input). */
static int
tiff_write_strips(TIFF *tif, const uint8_t *pix, size_t rowbytes, size_t h)
{
	size_t rps = STRIP_BYTES / rowbytes, y, rows, strip;
	uint8_t *buf;

	if (rps == 0)
		rps = 1;
	if (rps > h)
		rps = h;
	if (!TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, (uint32_t)rps) ||
	    (buf = alloc3(rps, rowbytes, 1)) == NULL)
		return -1;
	for (strip = 0, y = 0; y < h; strip++, y += rows) {
		rows = h - y < rps ? h - y : rps;
		memcpy(buf, pix + y * rowbytes, rows * rowbytes);
		if (TIFFWriteEncodedStrip(tif, (uint32_t)strip, buf,
		    (tmsize_t)(rows * rowbytes)) < 0) {
			free(buf);
			return -1;
		}
	}
	free(buf);
	return 0;
}

/* Writes img as tile x tile tiles, zero beyond the image's edges. */
static int
tiff_write_tiles(TIFF *tif, const sr_rgb *img, size_t tile)
{
	size_t tx, ty, r, rows, cols, tilesize = tile * tile * 3;
	uint8_t *buf;

	if (!TIFFSetField(tif, TIFFTAG_TILEWIDTH, (uint32_t)tile) ||
	    !TIFFSetField(tif, TIFFTAG_TILELENGTH, (uint32_t)tile) ||
	    (buf = alloc3(tilesize, 1, 1)) == NULL)
		return -1;
	for (ty = 0; ty < img->h; ty += tile)
		for (tx = 0; tx < img->w; tx += tile) {
			rows = img->h - ty < tile ? img->h - ty : tile;
			cols = img->w - tx < tile ? img->w - tx : tile;
			if (rows < tile || cols < tile)
				memset(buf, 0, tilesize);
			for (r = 0; r < rows; r++)
				memcpy(buf + r * tile * 3, img->rgb +
				    ((ty + r) * img->w + tx) * 3, cols * 3);
			if (TIFFWriteEncodedTile(tif, TIFFComputeTile(tif,
			    (uint32_t)tx, (uint32_t)ty, 0, 0), buf,
			    (tmsize_t)tilesize) < 0) {
				free(buf);
				return -1;
			}
		}
	free(buf);
	return 0;
}

int
sr_labels_write_tiff(FILE *fp, const char *name, const uint32_t *px,
    size_t w, size_t h, char *errbuf)
{
	TIFF *tif;
	int rc = -1;

	if (check_write_dims(name, w, h, UINT32_MAX, errbuf))
		return -1;
	/* BigTIFF once the raw pixels pass 2 GiB: deflate may not shrink
	 * them under classic TIFF's 4 GiB */
	if ((tif = tiff_open_write(fp, name, w > ((size_t)1 << 29) / h,
	    errbuf)) == NULL)
		return -1;
	if (tiff_set_tags(tif, w, h, 1, 32))
		rc = tiff_write_strips(tif, (const uint8_t *)px, 4 * w, h);
	if (rc)
		tiff_fail(name, "cannot write TIFF", "write error", errbuf);
	return tiff_close_write(tif, fp, name, rc, errbuf);
}

int
sr_rgb_write_tiff(FILE *fp, const char *name, const sr_rgb *img,
    size_t tile, int bigtiff, char *errbuf)
{
	TIFF *tif;
	int rc = -1;

	if (check_write_dims(name, img->w, img->h, UINT32_MAX, errbuf))
		return -1;
	if (tile % 16 != 0 || tile > 65536) {
		sr_seterr(errbuf, "%s: tile size %zu: not a multiple of 16 up "
		    "to 65536", name, tile);
		return -1;
	}
	if ((tif = tiff_open_write(fp, name, bigtiff, errbuf)) == NULL)
		return -1;
	if (tiff_set_tags(tif, img->w, img->h, 3, 8))
		rc = tile ? tiff_write_tiles(tif, img, tile) :
		    tiff_write_strips(tif, img->rgb, 3 * img->w, img->h);
	if (rc)
		tiff_fail(name, "cannot write TIFF", "write error", errbuf);
	return tiff_close_write(tif, fp, name, rc, errbuf);
}

/* --------------------------------------------------------- PNG writing */

/* A PNG being written; as struct png_in, what changes after setjmp. */
struct png_out {
	struct png_io io;
	png_structp png;
	png_infop info;
	uint8_t *row;		/* a mask row (0/255) */
};

/* Writes all of len bytes or stops libpng with the error noted. */
static void
png_write_fn(png_structp png, png_bytep data, size_t len)
{
	struct png_io *io = png_get_io_ptr(png);

	if (fwrite(data, 1, len, io->fp) != len) {
		io->sys_errno = errno ? errno : EIO;
		png_error(png, "write error");
	}
}

static void
png_flush_fn(png_structp png)
{
	(void)png;
}

/* Writes the rows: the RGB rows of rgb, or else px > 0 as 0/255. */
static void
png_put_rows(struct png_out *o, const uint8_t *rgb, const uint32_t *px,
    size_t w, size_t h)
{
	size_t x, y;

	for (y = 0; y < h; y++) {
		if (rgb) {
			png_write_row(o->png, rgb + y * w * 3);
			continue;
		}
		for (x = 0; x < w; x++)
			o->row[x] = px[y * w + x] ? 255 : 0;
		png_write_row(o->png, o->row);
	}
}

/* Encodes an 8-bit RGB (rgb) or grey mask (px) PNG. */
static int
png_encode(struct png_out *o, const uint8_t *rgb, const uint32_t *px,
    size_t w, size_t h)
{
	if (setjmp(png_jmpbuf(o->png)))
		return -1;
	png_set_write_fn(o->png, &o->io, png_write_fn, png_flush_fn);
	png_set_user_limits(o->png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
	png_set_IHDR(o->png, o->info, (png_uint_32)w, (png_uint_32)h, 8,
	    rgb ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
	    PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(o->png, o->info);
	png_put_rows(o, rgb, px, w, h);
	png_write_end(o->png, o->info);
	return 0;
}

/* Writes rgb, or else the mask px > 0, as a PNG to fp. */
static int
png_write(FILE *fp, const char *name, const uint8_t *rgb, const uint32_t *px,
    size_t w, size_t h, char *errbuf)
{
	struct png_out o;
	char why[ERRNO_LEN];
	int rc = -1;

	if (check_write_dims(name, w, h, PNG_UINT_31_MAX, errbuf))
		return -1;
	memset(&o, 0, sizeof o);
	o.io.fp = fp;
	o.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &o.io,
	    png_on_error, png_on_warning);
	if (o.png)
		o.info = png_create_info_struct(o.png);
	if (o.info && (rgb || (o.row = malloc(w)) != NULL))
		rc = png_encode(&o, rgb, px, w, h);
	else
		snprintf(o.io.msg, sizeof o.io.msg, "out of memory");
	png_destroy_write_struct(&o.png, &o.info);
	free(o.row);
	if (rc == 0 && fflush(fp) != 0)
		rc = -1, o.io.sys_errno = errno ? errno : EIO;
	if (rc && o.io.sys_errno)
		sr_seterr(errbuf, "%s: write error: %s", name,
		    errno_text(o.io.sys_errno, why, sizeof why));
	else if (rc)
		sr_seterr(errbuf, "%s: cannot write PNG (libpng: %s)", name,
		    o.io.msg);
	return rc;
}

int
sr_mask_write_png(FILE *fp, const char *name, const uint32_t *px,
    size_t w, size_t h, char *errbuf)
{
	return png_write(fp, name, NULL, px, w, h, errbuf);
}

int
sr_rgb_write_png(FILE *fp, const char *name, const sr_rgb *img,
    char *errbuf)
{
	return png_write(fp, name, img->rgb, NULL, img->w, img->h, errbuf);
}
