/* png.c - PNG through libpng, read into sr_rgb and sr_labels and written
 * from them; see png.h and image.h.
 *
 * Thread-safe: libpng's error handlers are per png_struct, and nothing
 * here is static and mutable. libpng unwinds errors by longjmp to the
 * setjmp of the function that called it, so what changes after a setjmp
 * lives in a struct reached through a pointer.
 */
#include "image/png.h"
#include "image/format.h"
#include "core/err.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Deflate's best ratio: a 258-byte match in about 2 bits (1032:1). */
#define PNG_MAX_RATIO 1032

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
	size_t label_bytes;	/* bytes of a label as read (1 or 2) */
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
	if (r->io.sys_errno)
		sr_image_errno_fail(errbuf, r->path, "read error",
		    r->io.sys_errno);
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
	if ((r->buf = sr_image_alloc(r->w, r->h, px_bytes, r->path,
	    errbuf)) == NULL || (r->rows = sr_image_alloc(r->h,
	    sizeof *r->rows, 1, r->path, errbuf)) == NULL)
		return -1;
	for (y = 0; y < r->h; y++)
		r->rows[y] = r->buf + offset + y * rowbytes;
	return 0;
}

/* Reads the size from the header just read and refuses a bad one. */
static int
png_check_size(struct png_in *r, char *errbuf)
{
	struct stat st;
	uint64_t raw;

	r->w = png_get_image_width(r->png, r->info);
	r->h = png_get_image_height(r->png, r->info);
	if (sr_image_check_size(r->path, r->w, r->h, errbuf))
		return -1;
	/* the filtered rows, a byte each and their samples, cannot come out
	 * of fewer than 1/PNG_MAX_RATIO as many bytes of deflate data */
	raw = (uint64_t)r->h * (1 + (uint64_t)png_get_rowbytes(r->png,
	    r->info));
	if (fstat(fileno(r->io.fp), &st) == 0 && S_ISREG(st.st_mode) &&
	    raw / PNG_MAX_RATIO > (uint64_t)st.st_size) {
		sr_seterr(errbuf, "%s: truncated or corrupt PNG: %zux%zu pixels "
		    "need at least %llu bytes of compressed data (deflate "
		    "compresses at most %d:1), the file has %lld", r->path,
		    r->w, r->h, (unsigned long long)(raw / PNG_MAX_RATIO),
		    PNG_MAX_RATIO, (long long)st.st_size);
		return -1;
	}
	return 0;
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
	if (png_check_size(r, errbuf))
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
	r->label_bytes = png_get_bit_depth(r->png, r->info) / 8;
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
	if (png_check_size(r, errbuf) || png_want_labels(r, errbuf))
		return -1;
	if (png_alloc(r, r->w * r->label_bytes, 4, (4 - r->label_bytes) *
	    r->w * r->h, errbuf))
		return -1;
	png_read_image(r->png, r->rows);
	png_read_end(r->png, NULL);
	widen_in_place((uint32_t *)(void *)r->buf, r->w * r->h,
	    r->label_bytes);
	return 0;
}

/* fd (just past the signature) as a stream, and libpng set up to read it
 * into r; NULL with errbuf set (fd closed) on failure. */
static FILE *
png_fd_open(int fd, const char *path, struct png_in *r, char *errbuf)
{
	FILE *fp;

	if ((fp = fdopen(fd, "rb")) == NULL) {
		sr_image_errno_fail(errbuf, path, NULL, errno);
		close(fd);
		return NULL;
	}
	if (png_in_open(r, fp, path, errbuf)) {
		fclose(fp);
		return NULL;
	}
	return fp;
}

/* Reads the PNG on fd (just past its signature) into img: RGB when rgb
 * is set, else labels. */
static int
png_read_fd(int fd, const char *path, void *img, int rgb, char *errbuf)
{
	struct png_in r;
	FILE *fp;
	int rc;

	if ((fp = png_fd_open(fd, path, &r, errbuf)) == NULL)
		return -1;
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

int
sr_png_read_rgb(int fd, const char *path, sr_rgb *img, char *errbuf)
{
	return png_read_fd(fd, path, img, 1, errbuf);
}

int
sr_png_read_labels(int fd, const char *path, sr_labels *img, char *errbuf)
{
	return png_read_fd(fd, path, img, 0, errbuf);
}

int
sr_png_probe(int fd, const char *path, size_t *w, size_t *h, char *errbuf)
{
	struct png_in r;
	FILE *fp;

	if ((fp = png_fd_open(fd, path, &r, errbuf)) == NULL)
		return -1;
	if (setjmp(png_jmpbuf(r.png))) {
		png_fail(&r, errbuf);
		png_in_close(&r, 0);
		fclose(fp);
		return -1;
	}
	png_read_info(r.png, r.info);
	if (png_check_size(&r, errbuf)) {
		png_in_close(&r, 0);
		fclose(fp);
		return -1;
	}
	*w = r.w;
	*h = r.h;
	png_in_close(&r, 0);
	fclose(fp);
	return 0;
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
	if (rgb) {	/* tiles for commands and tests, read once: speed over
			 * size (a 1000^2 tile: 0.23 s at zlib's default,
			 * 0.04 s unfiltered at level 1, 1.3x larger) */
		png_set_compression_level(o->png, 1);
		png_set_filter(o->png, 0, PNG_FILTER_NONE);
	}
	png_write_info(o->png, o->info);
	png_put_rows(o, rgb, px, w, h);
	png_write_end(o->png, o->info);
	return 0;
}

/* Writes rgb, or else the mask px > 0, as a PNG to fp. On a failure
 * errno is the system error that stopped it (ENOSPC, EIO, ENOMEM), else
 * 0. */
static int
png_write(FILE *fp, const char *name, const uint8_t *rgb, const uint32_t *px,
    size_t w, size_t h, char *errbuf)
{
	struct png_out o;
	int rc = -1, oom = 0;

	if (sr_image_check_write_size(name, w, h, PNG_UINT_31_MAX, errbuf))
		return -1;
	memset(&o, 0, sizeof o);
	o.io.fp = fp;
	o.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &o.io,
	    png_on_error, png_on_warning);
	if (o.png)
		o.info = png_create_info_struct(o.png);
	if (o.info && (rgb || (o.row = malloc(w)) != NULL))
		rc = png_encode(&o, rgb, px, w, h);
	else {
		snprintf(o.io.msg, sizeof o.io.msg, "out of memory");
		oom = 1;
	}
	png_destroy_write_struct(&o.png, &o.info);
	free(o.row);
	if (rc == 0 && fflush(fp) != 0)
		rc = -1, o.io.sys_errno = errno ? errno : EIO;
	if (rc && o.io.sys_errno)
		sr_image_errno_fail(errbuf, name, "write error",
		    o.io.sys_errno);
	else if (rc) {
		sr_seterr(errbuf, "%s: cannot write PNG (libpng: %s)", name,
		    o.io.msg);
		errno = oom ? ENOMEM : 0;
	}
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
