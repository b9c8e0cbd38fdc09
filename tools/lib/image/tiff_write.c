/* tiff_write.c - TIFF written through libtiff from sr_rgb and sr_labels
 * (image.h's sr_labels_write_tiff, sr_rgb_write_tiff): strips or tiles,
 * BigTIFF, onto the caller's FILE with the first system error kept.
 * libtiff's messages are caught as tiff.c does (sr_tiff_begin,
 * sr_tiff_fail). */
#include "image/tiff.h"
#include "image/format.h"
#include "core/err.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <tiffio.h>
#include <unistd.h>

#define STRIP_BYTES	(256 * 1024)	/* target size of a written strip */

/* An image to write: h rows of w pixels of spp samples of bits each (a
 * whole number of bytes a pixel), in tile x tile tiles when tile > 0,
 * else in strips; BigTIFF when bigtiff is set. */
struct tiff_out {
	const uint8_t *pix;
	size_t w, h, tile;
	int spp, bits, bigtiff;
	int codec;		/* SR_TIFF_DEFLATE (0), _ZSTD or _NONE */
};

/* libtiff's compression scheme of a codec of image.h. */
static int
tiff_compression(int codec)
{
	switch (codec) {
	case SR_TIFF_ZSTD: return COMPRESSION_ZSTD;
	case SR_TIFF_NONE: return COMPRESSION_NONE;
	default: return COMPRESSION_ADOBE_DEFLATE;
	}
}

/* Where libtiff writes a TIFF: fp's descriptor, and the first system
 * error of a read, write or seek on it (libtiff itself reports only
 * "Write error", and its own descriptor is one ferror never sees). */
struct tiff_sink {
	int fd;
	int err;	/* errno of the first failure, 0 if none */
};

/* Notes the first failure's errno (0 read as EIO); returns -1. */
static tmsize_t
sink_fail(struct tiff_sink *k, int e)
{
	if (k->err == 0)
		k->err = e ? e : EIO;
	return -1;
}

/* Reads (writing 0) or writes size bytes at buf through k's descriptor,
 * again after EINTR: all of them, fewer at the end of the file, or -1 (a
 * write that makes no progress is a full disk). */
static tmsize_t
sink_io(struct tiff_sink *k, void *buf, tmsize_t size, int writing)
{
	tmsize_t done = 0;
	ssize_t n;

	while (done < size) {
		n = writing ? write(k->fd, (char *)buf + done, (size_t)(size -
		    done)) : read(k->fd, (char *)buf + done, (size_t)(size - done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || (n == 0 && writing))
			return sink_fail(k, n < 0 ? errno : ENOSPC);
		if (n == 0)
			break;
		done += n;
	}
	return done;
}

/* libtiff's read and write procedures. */
static tmsize_t
sink_read(thandle_t h, void *buf, tmsize_t size)
{
	return sink_io(h, buf, size, 0);
}

static tmsize_t
sink_write(thandle_t h, void *buf, tmsize_t size)
{
	return sink_io(h, buf, size, 1);
}

static toff_t
sink_seek(thandle_t h, toff_t off, int whence)
{
	struct tiff_sink *k = h;
	off_t at;

	if (off > (toff_t)INT64_MAX ||
	    (at = lseek(k->fd, (off_t)off, whence)) < 0) {
		sink_fail(k, off > (toff_t)INT64_MAX ? EFBIG : errno);
		return (toff_t)-1;
	}
	return (toff_t)at;
}

/* The descriptor stays open: it is fp's. */
static int
sink_close(thandle_t h)
{
	(void)h;
	return 0;
}

static toff_t
sink_size(thandle_t h)
{
	struct tiff_sink *k = h;
	struct stat sb;

	return fstat(k->fd, &sb) == 0 ? (toff_t)sb.st_size : 0;
}

static int
sink_map(thandle_t h, void **base, toff_t *size)
{
	(void)h;
	(void)base;
	(void)size;
	return 0;
}

static void
sink_unmap(thandle_t h, void *base, toff_t size)
{
	(void)h;
	(void)base;
	(void)size;
}

/* Opens a TIFF writer on fp's descriptor (fp flushed first) through
 * sink k, so that a failing write's errno is kept and TIFFClose leaves
 * fp open. */
static TIFF *
tiff_open_write(FILE *fp, const char *name, int bigtiff,
    struct tiff_sink *k, char *errbuf)
{
	TIFF *tif;

	sr_tiff_begin();
	*k = (struct tiff_sink){ -1, 0 };
	if (fflush(fp) != 0 || (k->fd = fileno(fp)) < 0) {
		sr_image_errno_fail(errbuf, name, "write error", errno);
		return NULL;
	}
	tif = TIFFClientOpen(name, bigtiff ? "w8" : "w", k, sink_read,
	    sink_write, sink_seek, sink_close, sink_size, sink_map,
	    sink_unmap);
	if (tif == NULL && k->err)
		sr_image_errno_fail(errbuf, name, "write error", k->err);
	else if (tif == NULL) {
		sr_tiff_fail(name, "cannot write TIFF", "cannot open", errbuf);
		errno = errno == ENOMEM ? ENOMEM : 0;
	}
	return tif;
}

/* Sets the tags every written TIFF has: size, samples, the compression
 * (deflate unless told otherwise) with horizontal differencing. */
static int
tiff_set_tags(TIFF *tif, const struct tiff_out *im)
{
	return TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, (uint32_t)im->w) &&
	    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, (uint32_t)im->h) &&
	    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, im->spp) &&
	    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, im->bits) &&
	    TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, SAMPLEFORMAT_UINT) &&
	    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, im->spp == 3 ?
	    PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK) &&
	    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG) &&
	    TIFFSetField(tif, TIFFTAG_COMPRESSION, tiff_compression(im->codec)) &&
	    (im->codec == SR_TIFF_NONE ||
	    TIFFSetField(tif, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL));
}

/* Writes the rows of im in strips of about STRIP_BYTES, through a copy
 * (the predictor rewrites its input). */
static int
tiff_write_strips(TIFF *tif, const struct tiff_out *im)
{
	size_t rowbytes = im->w * (size_t)(im->spp * im->bits / 8);
	size_t rows_per_strip = STRIP_BYTES / rowbytes, y, rows, strip;
	uint8_t *buf;

	if (rows_per_strip == 0)
		rows_per_strip = 1;
	if (rows_per_strip > im->h)
		rows_per_strip = im->h;
	if (!TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP,
	    (uint32_t)rows_per_strip) ||
	    (buf = sr_image_alloc(rows_per_strip, rowbytes, 1, NULL,
	    NULL)) == NULL)
		return -1;
	for (strip = 0, y = 0; y < im->h; strip++, y += rows) {
		rows = im->h - y < rows_per_strip ? im->h - y : rows_per_strip;
		memcpy(buf, im->pix + y * rowbytes, rows * rowbytes);
		if (TIFFWriteEncodedStrip(tif, (uint32_t)strip, buf,
		    (tmsize_t)(rows * rowbytes)) < 0) {
			free(buf);
			return -1;
		}
	}
	free(buf);
	return 0;
}

/* Writes im as tiles, zero beyond the image's edges. */
static int
tiff_write_tiles(TIFF *tif, const struct tiff_out *im)
{
	size_t px_bytes = (size_t)(im->spp * im->bits / 8), tile = im->tile;
	size_t tx, ty, r, rows, cols, tilesize = tile * tile * px_bytes;
	uint8_t *buf;

	if (!TIFFSetField(tif, TIFFTAG_TILEWIDTH, (uint32_t)tile) ||
	    !TIFFSetField(tif, TIFFTAG_TILELENGTH, (uint32_t)tile) ||
	    (buf = sr_image_alloc(tilesize, 1, 1, NULL, NULL)) == NULL)
		return -1;
	for (ty = 0; ty < im->h; ty += tile)
		for (tx = 0; tx < im->w; tx += tile) {
			rows = im->h - ty < tile ? im->h - ty : tile;
			cols = im->w - tx < tile ? im->w - tx : tile;
			if (rows < tile || cols < tile)
				memset(buf, 0, tilesize);
			for (r = 0; r < rows; r++)
				memcpy(buf + r * tile * px_bytes, im->pix +
				    ((ty + r) * im->w + tx) * px_bytes,
				    cols * px_bytes);
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

/* Writes im as a TIFF to fp, which is left open at the end of the
 * file. On a failure errno is the system error that stopped it (ENOSPC,
 * EIO, ENOMEM), else 0. */
static int
tiff_write(FILE *fp, const char *name, const struct tiff_out *im,
    char *errbuf)
{
	struct tiff_sink k;
	TIFF *tif;
	int rc = -1, e;

	errno = 0;
	if ((tif = tiff_open_write(fp, name, im->bigtiff, &k, errbuf)) == NULL)
		return -1;
	if (tiff_set_tags(tif, im))
		rc = im->tile ? tiff_write_tiles(tif, im) :
		    tiff_write_strips(tif, im);
	if (rc == 0 && !TIFFFlush(tif))
		rc = -1;
	e = errno == ENOMEM ? ENOMEM : 0;	/* a failed allocation */
	TIFFClose(tif);
	if (k.err) {	/* a write failed: ENOSPC, EIO */
		e = k.err;
		rc = sr_image_errno_fail(errbuf, name, "write error", e);
	} else if (rc)
		sr_tiff_fail(name, "cannot write TIFF", "write error", errbuf);
	fseek(fp, 0, SEEK_END);
	errno = e;
	return rc;
}

int
sr_labels_write_tiff(FILE *fp, const char *name, const uint32_t *px,
    size_t w, size_t h, char *errbuf)
{
	struct tiff_out im = { .pix = (const uint8_t *)px, .w = w, .h = h,
	    .spp = 1, .bits = 32 };

	if (sr_image_check_write_size(name, w, h, UINT32_MAX, errbuf))
		return -1;
	/* BigTIFF once the raw pixels pass 2 GiB: deflate may not shrink
	 * them under classic TIFF's 4 GiB */
	im.bigtiff = w > ((size_t)1 << 29) / h;
	return tiff_write(fp, name, &im, errbuf);
}

int
sr_rgb_write_tiff(FILE *fp, const char *name, const sr_rgb *img,
    size_t tile, int bigtiff, char *errbuf)
{
	return sr_rgb_write_tiff_codec(fp, name, img, tile, bigtiff,
	    SR_TIFF_DEFLATE, errbuf);
}

int
sr_rgb_write_tiff_codec(FILE *fp, const char *name, const sr_rgb *img,
    size_t tile, int bigtiff, int codec, char *errbuf)
{
	struct tiff_out im = { .pix = img->rgb, .w = img->w, .h = img->h,
	    .tile = tile, .spp = 3, .bits = 8, .bigtiff = bigtiff,
	    .codec = codec };

	if (sr_image_check_write_size(name, img->w, img->h, UINT32_MAX, errbuf))
		return -1;
	if (tile % 16 != 0 || tile > 65536) {
		sr_seterr(errbuf, "%s: tile size %zu: not a multiple of 16 up "
		    "to 65536", name, tile);
		errno = 0;
		return -1;
	}
	return tiff_write(fp, name, &im, errbuf);
}
