/* tiff.c - TIFF through libtiff, read into sr_rgb and sr_labels and
 * written from them (the writing in tiff_write.c); see tiff.h and
 * image.h.
 *
 * Thread-safe: libtiff's error and warning handlers are process-wide, so
 * they are installed once (pthread_once) and write libtiff's message into
 * a thread-local buffer, read back by the thread whose call failed;
 * warnings are dropped. Nothing else here is static and mutable.
 *
 * Labels are the stored sample values, whatever the photometric
 * interpretation (a MINISWHITE or a 1 to 4-bit image is not inverted or
 * rescaled); colour is scaled to 8 bits and MINISWHITE grey inverted.
 */
#include "image/tiff.h"
#include "image/format.h"
#include "core/err.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <tiffio.h>
#include <unistd.h>

static pthread_once_t tiff_once = PTHREAD_ONCE_INIT;
static _Thread_local char tiff_msg[SR_ERRLEN];	/* libtiff's first error */

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

int
sr_tiff_check_pyramid(const char *path, char *errbuf)
{
	uint32_t w, h, w0 = 0, h0 = 0;
	int fd, dir = 0, first = -1, rc = 0;
	TIFF *tif;

	tiff_begin();
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	if ((tif = TIFFFdOpen(fd, path, "rm")) == NULL) {
		close(fd);
		return 0;
	}
	do {
		if (!TIFFIsTiled(tif) || !TIFFGetField(tif, TIFFTAG_IMAGEWIDTH,
		    &w) || !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &h))
			continue;
		if (first < 0) {
			first = dir;
			w0 = w;
			h0 = h;
		} else if (w > w0 || h > h0) {
			sr_seterr(errbuf, "%s: TIFF directory %d (%ux%u) is larger "
			    "than directory %d (%ux%u): not a pyramid of levels",
			    path, dir, w, h, first, w0, h0);
			rc = -1;
			break;
		}
	} while (++dir < 1024 && TIFFReadDirectory(tif));
	TIFFClose(tif);	/* closes fd */
	tiff_msg[0] = '\0';
	errno = 0;	/* a refusal is bad data */
	return rc;
}

void
sr_tiff_begin(void)
{
	tiff_begin();
}

const char *
sr_tiff_message(void)
{
	return tiff_msg;
}

int
sr_tiff_fail(const char *path, const char *what, const char *fallback,
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
	uint16_t bits, spp, photometric, planar, format, compression;
	size_t rowbytes;	/* bytes of one row of a strip (w pixels) */
};

struct sink;

/* Stores n decoded pixels of src at (x, y) of s's output; -1 with
 * s->errbuf set when a value is refused. */
typedef int put_row_fn(struct sink *s, const uint8_t *src, size_t x,
    size_t y, size_t n);

/* Where decoded rows go. */
struct sink {
	put_row_fn *row;
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

/* Refuses an uncompressed image whose file is shorter than its pixels:
 * libtiff makes up the strip sizes of a directory that lacks them, so an
 * 860-byte file declaring 11536 x 18196 pixels would be "decoded" to
 * 5.5 GB of nothing for minutes (found by make fuzz). */
static int
tiff_check_size(int fd, const struct tiff_in *t, char *errbuf)
{
	uint64_t need = (uint64_t)t->rowbytes * t->h;
	struct stat st;

	if (t->compression != COMPRESSION_NONE || fstat(fd, &st) != 0 ||
	    (uint64_t)st.st_size >= need)
		return 0;
	sr_seterr(errbuf, "%s: truncated TIFF: %ux%u pixels uncompressed need "
	    "%llu bytes, the file has %lld", t->path, t->w, t->h,
	    (unsigned long long)need, (long long)st.st_size);
	return -1;
}

/* Opens fd (closed here on failure, by TIFFClose later otherwise) and
 * reads the first directory's layout tags into t. */
static int
tiff_open(int fd, const char *path, struct tiff_in *t, char *errbuf)
{
	memset(t, 0, sizeof *t);
	t->path = path;
	tiff_begin();
	if (lseek(fd, 0, SEEK_SET) != 0) {	/* libtiff reads from here */
		sr_image_errno_fail(errbuf, path, NULL, errno);
		close(fd);
		return -1;
	}
	if ((t->tif = TIFFFdOpen(fd, path, "r")) == NULL) {
		close(fd);
		return sr_tiff_fail(path, "corrupt TIFF", "cannot read its header",
		    errbuf);
	}
	if (!TIFFGetField(t->tif, TIFFTAG_IMAGEWIDTH, &t->w) ||
	    !TIFFGetField(t->tif, TIFFTAG_IMAGELENGTH, &t->h)) {
		sr_seterr(errbuf, "%s: corrupt TIFF (no image size)", path);
		return -1;
	}
	if (sr_image_check_size(path, t->w, t->h, errbuf))
		return -1;
	TIFFGetFieldDefaulted(t->tif, TIFFTAG_BITSPERSAMPLE, &t->bits);
	TIFFGetFieldDefaulted(t->tif, TIFFTAG_SAMPLESPERPIXEL, &t->spp);
	TIFFGetFieldDefaulted(t->tif, TIFFTAG_PLANARCONFIG, &t->planar);
	TIFFGetFieldDefaulted(t->tif, TIFFTAG_SAMPLEFORMAT, &t->format);
	TIFFGetFieldDefaulted(t->tif, TIFFTAG_COMPRESSION, &t->compression);
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
	return tiff_check_size(fd, t, errbuf);
}

/* Refuses decoding bytes (budget: what the budget's message calls it;
 * name: " strip K", " tile K" or "" for the image) when that exceeds the
 * memory budget or, compressed, SR_TIFF_MAX_RATIO times the stored bytes
 * (past SR_TIFF_RATIO_MIN_BYTES): before it is allocated or decoded. */
static int
tiff_check_decode(const struct tiff_in *t, const char *budget,
    const char *name, uint64_t bytes, uint64_t stored, char *errbuf)
{
	if (bytes > SIZE_MAX) {
		sr_seterr(errbuf, "%s:%s decodes to more bytes than memory can "
		    "hold", t->path, name);
		return -1;
	}
	if (sr_image_check_budget(t->path, budget, (size_t)bytes, errbuf))
		return -1;
	if (t->compression == COMPRESSION_NONE ||
	    bytes <= SR_TIFF_RATIO_MIN_BYTES)
		return 0;
	if (stored == 0 || bytes / stored > SR_TIFF_MAX_RATIO) {
		sr_seterr(errbuf, "%s:%s decodes to %llu bytes from %llu, more "
		    "than %d:1 (a decompression bomb?)", t->path, name,
		    (unsigned long long)bytes, (unsigned long long)stored,
		    SR_TIFF_MAX_RATIO);
		return -1;
	}
	return 0;
}

/* tiff_check_decode for strip or tile k (kind), of its stored bytes. */
static int
tiff_check_strile(const struct tiff_in *t, uint32_t k, const char *kind,
    size_t bytes, char *errbuf)
{
	char budget[64], name[64];

	snprintf(budget, sizeof budget, "decoding %s %u", kind, k);
	snprintf(name, sizeof name, " %s %u", kind, k);
	return tiff_check_decode(t, budget, name, bytes,
	    TIFFGetStrileByteCount(t->tif, k), errbuf);
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
	if (!s->direct && (buf = sr_image_alloc(rps, t->rowbytes, 1, t->path,
	    errbuf)) == NULL)
		return -1;
	for (strip = 0, y = 0; y < t->h; strip++, y += rows) {
		rows = t->h - y < rps ? t->h - y : rps;
		want = rows * t->rowbytes;
		if (tiff_check_strile(t, (uint32_t)strip, "strip", want,
		    errbuf)) {
			free(buf);
			return -1;
		}
		dst = s->direct ? (uint8_t *)s->out + y * s->out_rowbytes : buf;
		got = TIFFReadEncodedStrip(t->tif, (uint32_t)strip, dst,
		    (tmsize_t)want);
		if (got < 0 || (size_t)got < want) {
			free(buf);
			return sr_tiff_fail(t->path, "corrupt or truncated TIFF",
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
	if (sr_image_check_budget(t->path, "a tile", tilesize, errbuf) ||
	    (buf = sr_image_alloc(tilesize, 1, 1, t->path, errbuf)) == NULL)
		return -1;
	for (ty = 0; ty < t->h; ty += th)
		for (tx = 0; tx < t->w; tx += tw) {
			tile = TIFFComputeTile(t->tif, (uint32_t)tx, (uint32_t)ty,
			    0, 0);
			if (tiff_check_strile(t, tile, "tile", tilesize,
			    errbuf)) {
				free(buf);
				return -1;
			}
			got = TIFFReadEncodedTile(t->tif, tile, buf,
			    (tmsize_t)tilesize);
			if (got < 0 || (size_t)got < tilesize) {
				free(buf);
				return sr_tiff_fail(t->path, "corrupt or truncated "
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

/* Decodes the whole image of t (strips or tiles) into a new buffer of
 * px_bytes a pixel, each row through row; strips go straight into the
 * buffer when direct (their samples are its pixels). Returns the buffer,
 * or NULL with errbuf set. */
static void *
tiff_decode(const struct tiff_in *t, put_row_fn *row, size_t px_bytes,
    int direct, char *errbuf)
{
	struct sink s = { .row = row, .t = t, .errbuf = errbuf,
	    .out_rowbytes = px_bytes * t->w };
	int rc;

	if ((s.out = sr_image_alloc(t->w, t->h, px_bytes, t->path,
	    errbuf)) == NULL)
		return NULL;
	tiff_msg[0] = '\0';	/* what went wrong opening it is past */
	if (TIFFIsTiled(t->tif))
		rc = tiff_read_tiles(t, &s, errbuf);
	else {
		s.direct = direct;
		rc = tiff_read_strips(t, &s, errbuf);
	}
	if (rc == 0)
		return s.out;
	free(s.out);
	return NULL;
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

/* Refuses an image that libtiff's RGBA interface would decode to more
 * than the memory budget, or, compressed, to more than SR_TIFF_MAX_RATIO
 * times all its stored bytes (past SR_TIFF_RATIO_MIN_BYTES): that
 * interface allocates what it decodes itself, out of tiff_decode's
 * per-strip checks (a 238-byte TIFF of 18761 samples a pixel made it
 * allocate 4.4 GB: found by make fuzz). */
static int
tiff_check_image(const struct tiff_in *t, char *errbuf)
{
	uint64_t stored = 0;
	uint32_t k, n = TIFFNumberOfStrips(t->tif);

	for (k = 0; k < n; k++)
		stored += TIFFGetStrileByteCount(t->tif, k);
	return tiff_check_decode(t, "decoding the image", "",
	    (uint64_t)t->rowbytes * t->h, stored, errbuf);
}

/* Any other colour TIFF (palette, YCbCr, CMYK, 1 to 4 bits, separate
 * planes...) through libtiff's RGBA interface, packed to RGB in place. */
static int
tiff_rgb_via_rgba(const struct tiff_in *t, uint8_t **rgb, char *errbuf)
{
	char emsg[1024];
	size_t i, n = (size_t)t->w * t->h;
	uint32_t *raster, v;
	uint8_t *p, *q;

	if (tiff_check_image(t, errbuf))
		return -1;
	tiff_msg[0] = '\0';
	if (!TIFFRGBAImageOK(t->tif, emsg)) {
		sr_seterr(errbuf, "%s: unsupported TIFF (%s)", t->path, emsg);
		return -1;
	}
	if ((raster = sr_image_alloc(n, sizeof *raster, 1, t->path,
	    errbuf)) == NULL)
		return -1;
	if (!TIFFReadRGBAImageOriented(t->tif, t->w, t->h, raster,
	    ORIENTATION_TOPLEFT, 1)) {
		free(raster);
		return sr_tiff_fail(t->path, "corrupt or unsupported TIFF",
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
	*rgb = q ? q : (uint8_t *)raster;
	return 0;
}

int
sr_tiff_read_rgb(int fd, const char *path, sr_rgb *img, char *errbuf)
{
	struct tiff_in t;
	uint8_t *rgb = NULL;
	int rc = -1;

	if (tiff_open(fd, path, &t, errbuf) == 0) {
		if (!tiff_rgb_direct(&t))
			rc = tiff_rgb_via_rgba(&t, &rgb, errbuf);
		else if ((rgb = tiff_decode(&t, put_rgb_row, 3, t.bits == 8 &&
		    t.spp == 3, errbuf)) != NULL)
			rc = 0;
	}
	if (rc == 0)
		*img = (sr_rgb){ t.w, t.h, rgb };
	if (t.tif)
		TIFFClose(t.tif);
	return rc;
}

int
sr_tiff_probe(int fd, const char *path, size_t *w, size_t *h, char *errbuf)
{
	struct tiff_in t;
	int rc = tiff_open(fd, path, &t, errbuf);

	if (rc == 0) {
		*w = t.w;
		*h = t.h;
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

int
sr_tiff_read_labels(int fd, const char *path, sr_labels *img, char *errbuf)
{
	struct tiff_in t;
	uint32_t *px = NULL;

	if (tiff_open(fd, path, &t, errbuf) == 0 &&
	    tiff_check_labels(&t, errbuf) == 0)
		px = tiff_decode(&t, put_label_row, 4, t.bits == 32 &&
		    t.format == SAMPLEFORMAT_UINT, errbuf);
	if (px)
		*img = (sr_labels){ t.w, t.h, px };
	if (t.tif)
		TIFFClose(t.tif);
	return px ? 0 : -1;
}
