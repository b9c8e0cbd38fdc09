/* image_test.c - unit tests of image/ (image.c, tiff.c, png.c:
 * TIFF and PNG reading, writing).
 *
 * Round-trips every writer through the readers (strip, tiled and BigTIFF
 * RGB TIFFs, RGB and mask PNGs, 32-bit label TIFFs with values above
 * 65535) at odd sizes; reads PNGs and TIFFs written here with libpng and
 * libtiff directly (grey 1 to 16 bits, palette, alpha, 16-bit, interlaced,
 * MINISWHITE, separate planes, tiles, signed and float samples); and
 * checks the refusals: files truncated at many lengths, random byte
 * corruptions (no crash; a success has sane dimensions), not an image,
 * empty and missing files, 0-width and 100000x100000 images, colour
 * images given to sr_labels_read, bad tile sizes and write errors. Last,
 * threads read good and corrupt files at once, each getting its own
 * messages.
 * Exits 0 on success; prints "FAIL: ..." and exits 1 otherwise.
 */
#include "image/image.h"

#include <errno.h>
#include <png.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>
#include <unistd.h>

#define NCORRUPT	300	/* random corruptions per base file */
#define NTHREAD		4

static int failures;
static int verbose;		/* IMAGE_TEST_VERBOSE set: print refusals */
static char tmpdir[64];

/* Reports a failed check. */
static void
fail(const char *fmt, ...)
{
	va_list ap;

	printf("FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	failures++;
}

static uint64_t rng_state = 0x2545f4914f6cdd1dULL;

/* xorshift64*: uniform in [0, k). */
static size_t
rnd(size_t k)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (size_t)((rng_state * 0x2545f4914f6cdd1dULL) >> 33) % k;
}

/* ---------------------------------------------------------- files */

/* tmpdir/name into buf (PATH_MAX-ish: 256 bytes). */
static char *
tpath(char *buf, const char *name)
{
	snprintf(buf, 256, "%s/%s", tmpdir, name);
	return buf;
}

/* Writes n bytes of data to path. */
static void
write_bytes(const char *path, const void *data, size_t n)
{
	FILE *fp = fopen(path, "wb");

	if (fp == NULL || fwrite(data, 1, n, fp) != n || fclose(fp) != 0) {
		fail("cannot write %s: %s", path, strerror(errno));
		exit(1);
	}
}

/* Reads path whole into a malloc'd buffer; *n its size. */
static uint8_t *
read_bytes(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf;
	long len;

	if (fp == NULL || fseek(fp, 0, SEEK_END) != 0 || (len = ftell(fp)) < 0 ||
	    fseek(fp, 0, SEEK_SET) != 0) {
		fail("cannot read %s", path);
		exit(1);
	}
	buf = malloc((size_t)len + 1);
	if (buf == NULL || fread(buf, 1, (size_t)len, fp) != (size_t)len) {
		fail("cannot read %s", path);
		exit(1);
	}
	fclose(fp);
	*n = (size_t)len;
	return buf;
}

/* The CRC-32 of PNG chunks (zlib's crc32, written here to need no -lz). */
static uint32_t
crc32_of(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	int k;

	while (n--) {
		c ^= *p++;
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
	}
	return c ^ 0xffffffffu;
}

static void
put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t
get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

/* Recomputes the CRC of every whole chunk of a PNG in buf, so that a
 * corruption reaches the decoder instead of the CRC check. */
static void
fix_png_crcs(uint8_t *buf, size_t n)
{
	size_t off = 8, len;

	while (off + 12 <= n) {
		len = get_be32(buf + off);
		if (len > n - off - 12)
			break;
		put_be32(buf + off + 8 + len, crc32_of(buf + off + 4, len + 4));
		off += len + 12;
	}
}

/* Patches the IHDR of the PNG file path to w x h (with its CRC). */
static void
patch_png_size(const char *path, uint32_t w, uint32_t h)
{
	size_t n;
	uint8_t *buf = read_bytes(path, &n);

	put_be32(buf + 16, w);
	put_be32(buf + 20, h);
	put_be32(buf + 29, crc32_of(buf + 12, 17));
	write_bytes(path, buf, n);
	free(buf);
}

static void
put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void
put_le32(uint8_t *p, uint32_t v)
{
	put_le16(p, (uint16_t)v);
	put_le16(p + 2, (uint16_t)(v >> 16));
}

/* Builds by hand a little-endian classic TIFF, the IFD first: w x h grey
 * of bits per sample, one uncompressed strip of the n bytes of data,
 * declared as ndecl bytes. Returns the file's size (at most 122 + n). */
static size_t
make_tiff(uint8_t *buf, uint32_t w, uint32_t h, uint16_t bits,
    const uint8_t *data, uint32_t n, uint32_t ndecl)
{
	static const uint16_t tag[9] = { 256, 257, 258, 259, 262, 273, 277,
	    278, 279 };
	uint32_t val[9] = { w, h, bits, 1, 1, 122, 1, h ? h : 1, ndecl };
	int i, islong;

	memcpy(buf, "II*\0", 4);
	put_le32(buf + 4, 8);
	put_le16(buf + 8, 9);
	for (i = 0; i < 9; i++) {
		uint8_t *e = buf + 10 + 12 * i;

		islong = tag[i] != 258 && tag[i] != 259 && tag[i] != 262 &&
		    tag[i] != 277;
		put_le16(e, tag[i]);
		put_le16(e + 2, islong ? 4 : 3);
		put_le32(e + 4, 1);
		put_le32(e + 8, 0);
		if (islong)
			put_le32(e + 8, val[i]);
		else
			put_le16(e + 8, (uint16_t)val[i]);
	}
	put_le32(buf + 10 + 12 * 9, 0);
	memcpy(buf + 122, data, n);
	return 122 + (size_t)n;
}

/* ------------------------------------------------------ expectations */

/* Checks a failure's message: it names path and holds want. */
static void
check_msg(const char *err, const char *path, const char *want,
    const char *what)
{
	if (strstr(err, path) == NULL || (want && strstr(err, want) == NULL))
		fail("%s: message \"%s\" lacks \"%s\"%s%s%s", what, err, path,
		    want ? " or \"" : "", want ? want : "", want ? "\"" : "");
	if (strchr(err, '\n'))
		fail("%s: message \"%s\" is not one line", what, err);
	if (verbose)
		printf("%s: %s\n", what, err);
}

/* Expects sr_rgb_read(path) to fail with want in the message and the
 * image cleared. */
static void
expect_rgb_fail(const char *path, const char *want, const char *what)
{
	sr_rgb img = { 7, 7, (uint8_t *)&img };
	char err[SR_ERRLEN] = "";

	if (sr_rgb_read(path, &img, err) == 0) {
		fail("%s: sr_rgb_read succeeded", what);
		sr_rgb_free(&img);
		return;
	}
	check_msg(err, path, want, what);
	if (img.w || img.h || img.rgb)
		fail("%s: sr_rgb_read left the image set", what);
}

/* As expect_rgb_fail, with sr_labels_read. */
static void
expect_labels_fail(const char *path, const char *want, const char *what)
{
	sr_labels img = { 7, 7, (uint32_t *)&img };
	char err[SR_ERRLEN] = "";

	if (sr_labels_read(path, &img, err) == 0) {
		fail("%s: sr_labels_read succeeded", what);
		sr_labels_free(&img);
		return;
	}
	check_msg(err, path, want, what);
	if (img.w || img.h || img.px)
		fail("%s: sr_labels_read left the image set", what);
}

/* Reads path as RGB and compares with want (w x h). */
static void
expect_rgb(const char *path, const uint8_t *want, size_t w, size_t h,
    const char *what)
{
	char err[SR_ERRLEN] = "";
	sr_rgb img;
	size_t i;

	if (sr_rgb_read(path, &img, err) != 0) {
		fail("%s: %s", what, err);
		return;
	}
	if (img.w != w || img.h != h)
		fail("%s: size %zux%zu, want %zux%zu", what, img.w, img.h, w, h);
	else
		for (i = 0; i < w * h * 3; i++)
			if (img.rgb[i] != want[i]) {
				fail("%s: pixel (%zu, %zu) channel %zu is %u, want "
				    "%u", what, i / 3 % w, i / 3 / w, i % 3,
				    img.rgb[i], want[i]);
				break;
			}
	sr_rgb_free(&img);
	if (img.rgb || img.w)
		fail("%s: sr_rgb_free left the image set", what);
}

/* Reads path as labels and compares with want (w x h). */
static void
expect_labels(const char *path, const uint32_t *want, size_t w, size_t h,
    const char *what)
{
	char err[SR_ERRLEN] = "";
	sr_labels img;
	size_t i;

	if (sr_labels_read(path, &img, err) != 0) {
		fail("%s: %s", what, err);
		return;
	}
	if (img.w != w || img.h != h)
		fail("%s: size %zux%zu, want %zux%zu", what, img.w, img.h, w, h);
	else
		for (i = 0; i < w * h; i++)
			if (img.px[i] != want[i]) {
				fail("%s: pixel (%zu, %zu) is %u, want %u", what,
				    i % w, i / w, img.px[i], want[i]);
				break;
			}
	sr_labels_free(&img);
}

/* --------------------------------------------------- writers wrapped */

/* Opens path for a writer; kind: 0 RGB PNG, 1 RGB TIFF, 2 labels TIFF,
 * 3 mask PNG. Returns the writer's result, errbuf its message. */
static int
write_with(const char *path, int kind, const sr_rgb *img, const uint32_t *px,
    size_t w, size_t h, size_t tile, int big, char *errbuf)
{
	FILE *fp = fopen(path, "wb");
	int rc;

	if (fp == NULL) {
		fail("cannot create %s", path);
		exit(1);
	}
	if (kind == 0)
		rc = sr_rgb_write_png(fp, path, img, errbuf);
	else if (kind == 1)
		rc = sr_rgb_write_tiff(fp, path, img, tile, big, errbuf);
	else if (kind == 2)
		rc = sr_labels_write_tiff(fp, path, px, w, h, errbuf);
	else
		rc = sr_mask_write_png(fp, path, px, w, h, errbuf);
	if (fclose(fp) != 0)
		fail("%s: fclose failed after the writer", path);
	return rc;
}

/* A w x h RGB image of random bytes. */
static sr_rgb
random_rgb(size_t w, size_t h)
{
	sr_rgb img = { w, h, malloc(w * h * 3) };
	size_t i;

	for (i = 0; i < w * h * 3; i++)
		img.rgb[i] = (uint8_t)rnd(256);
	return img;
}

/* Labels: mostly 0, else random values up to 2^31, some above 65535. */
static uint32_t *
random_labels(size_t w, size_t h)
{
	uint32_t *px = malloc(w * h * sizeof *px);
	size_t i;

	for (i = 0; i < w * h; i++)
		px[i] = rnd(3) == 0 ? 0 : rnd(2) ? (uint32_t)rnd(70000) :
		    (uint32_t)rnd(1u << 31);
	return px;
}

/* ------------------------------------------------------ round trips */

/* Every RGB writer variant to a reader, at size w x h. */
static void
test_rgb_round_trip(size_t w, size_t h)
{
	static const struct { int kind; size_t tile; int big; const char *ext;
	    const char *magic; } v[] = {
		{ 0, 0, 0, "png", "\x89PNG" },
		{ 1, 0, 0, "tif", "II*" },
		{ 1, 16, 0, "tif", "II*" },
		{ 1, 64, 1, "tif", "II+" },
		{ 1, 0, 1, "tif", "II+" },
	};
	sr_rgb img = random_rgb(w, h);
	char path[256], name[64], what[128], err[SR_ERRLEN];
	uint8_t *bytes;
	size_t i, n;

	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		snprintf(name, sizeof name, "rt%zux%zu-%zu.%s", w, h, i, v[i].ext);
		snprintf(what, sizeof what, "RGB %zux%zu %s tile %zu big %d", w, h,
		    v[i].ext, v[i].tile, v[i].big);
		if (write_with(tpath(path, name), v[i].kind, &img, NULL, 0, 0,
		    v[i].tile, v[i].big, err)) {
			fail("%s: write: %s", what, err);
			continue;
		}
		bytes = read_bytes(path, &n);
		if (n < 4 || memcmp(bytes, v[i].magic, strlen(v[i].magic)))
			fail("%s: wrong signature", what);
		free(bytes);
		expect_rgb(path, img.rgb, w, h, what);
		unlink(path);
	}
	sr_rgb_free(&img);
}

/* Labels through the 32-bit TIFF, and their mask through the PNG. */
static void
test_labels_round_trip(size_t w, size_t h)
{
	uint32_t *px = random_labels(w, h), *mask = malloc(w * h * 4);
	uint8_t *grey = malloc(w * h * 3);
	char path[256], what[128], err[SR_ERRLEN];
	size_t i;

	for (i = 0; i < w * h; i++) {
		mask[i] = px[i] ? 255 : 0;
		memset(grey + 3 * i, px[i] ? 255 : 0, 3);
	}
	snprintf(what, sizeof what, "labels %zux%zu TIFF", w, h);
	if (write_with(tpath(path, "labels.tif"), 2, NULL, px, w, h, 0, 0, err))
		fail("%s: write: %s", what, err);
	else
		expect_labels(path, px, w, h, what);
	snprintf(what, sizeof what, "mask %zux%zu PNG", w, h);
	if (write_with(tpath(path, "mask.png"), 3, NULL, px, w, h, 0, 0, err))
		fail("%s: write: %s", what, err);
	else {
		expect_labels(path, mask, w, h, what);
		expect_rgb(path, grey, w, h, what);
	}
	free(px);
	free(mask);
	free(grey);
}

/* --------------------------------------------- PNGs written by libpng */

/* A PNG's description for write_png: rows in PNG's own layout. */
struct pngspec {
	uint32_t w, h;
	int bits, color, interlace;
	const png_color *pal;
	int npal;
	const uint8_t *trns;
	int ntrns;
};

/* Writes rows (PNG layout: packed, 16-bit big-endian) as path. */
static int
write_png(const char *path, const struct pngspec *s, uint8_t **rows)
{
	png_structp png;
	png_infop info;
	FILE *fp = fopen(path, "wb");

	if (fp == NULL)
		return -1;
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	info = png_create_info_struct(png);
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		fclose(fp);
		return -1;
	}
	png_init_io(png, fp);
	png_set_IHDR(png, info, s->w, s->h, s->bits, s->color, s->interlace,
	    PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	if (s->pal)
		png_set_PLTE(png, info, s->pal, s->npal);
	if (s->trns)
		png_set_tRNS(png, info, s->trns, s->ntrns, NULL);
	png_write_info(png, info);
	png_write_image(png, rows);
	png_write_end(png, info);
	png_destroy_write_struct(&png, &info);
	return fclose(fp);
}

/* Sample x of a PNG row of bits-deep samples (packed or big-endian). */
static unsigned
png_sample(const uint8_t *row, size_t x, int bits)
{
	if (bits == 16)
		return (unsigned)row[2 * x] << 8 | row[2 * x + 1];
	if (bits == 8)
		return row[x];
	return (row[x * bits / 8] >> (8 - bits - x * bits % 8)) &
	    ((1u << bits) - 1);
}

/* 16 bits to 8, as libpng's png_set_scale_16. */
static uint8_t
scale16(unsigned v)
{
	return (uint8_t)((v * 255 + 32895) >> 16);
}

/* A sample of bits scaled to 8 bits. */
static uint8_t
to8(unsigned v, int bits)
{
	if (bits == 16)
		return scale16(v);
	return (uint8_t)(v * 255 / ((1u << bits) - 1));
}

/* The RGB (and, for grey, the labels) a reader should make of s's rows. */
static void
png_expected(const struct pngspec *s, uint8_t **rows, uint8_t *rgb,
    uint32_t *lab)
{
	int ch = s->color == PNG_COLOR_TYPE_RGB ? 3 : s->color ==
	    PNG_COLOR_TYPE_RGB_ALPHA ? 4 : s->color ==
	    PNG_COLOR_TYPE_GRAY_ALPHA ? 2 : 1;
	size_t x, y, c;
	unsigned v;
	uint8_t *o;

	for (y = 0; y < s->h; y++)
		for (x = 0; x < s->w; x++) {
			o = rgb + 3 * (y * s->w + x);
			v = png_sample(rows[y], x * ch, s->bits);
			if (lab)
				lab[y * s->w + x] = v;
			if (s->color == PNG_COLOR_TYPE_PALETTE) {
				o[0] = s->pal[v].red;
				o[1] = s->pal[v].green;
				o[2] = s->pal[v].blue;
			} else if (ch >= 3)
				for (c = 0; c < 3; c++)
					o[c] = to8(png_sample(rows[y], x * ch + c,
					    s->bits), s->bits);
			else
				o[0] = o[1] = o[2] = to8(v, s->bits);
		}
}

/* Writes a random PNG of s, reads it both ways and compares. */
static void
test_png_kind(const struct pngspec *s, const char *what)
{
	int ch = s->color == PNG_COLOR_TYPE_RGB ? 3 : s->color ==
	    PNG_COLOR_TYPE_RGB_ALPHA ? 4 : s->color ==
	    PNG_COLOR_TYPE_GRAY_ALPHA ? 2 : 1;
	size_t rowbytes = ((size_t)s->w * ch * s->bits + 7) / 8, x, y;
	uint8_t **rows = malloc(s->h * sizeof *rows);
	uint8_t *data = malloc(s->h * rowbytes), *rgb = malloc(s->w * s->h * 3);
	uint32_t *lab = malloc(s->w * s->h * 4);
	char path[256];

	for (y = 0; y < s->h; y++) {
		rows[y] = data + y * rowbytes;
		for (x = 0; x < rowbytes; x++)	/* palettes: 2^bits entries */
			rows[y][x] = (uint8_t)rnd(256);
	}
	if (write_png(tpath(path, "kind.png"), s, rows) != 0)
		fail("%s: libpng could not write it", what);
	else {
		png_expected(s, rows, rgb, lab);
		expect_rgb(path, rgb, s->w, s->h, what);
		if (s->color == PNG_COLOR_TYPE_GRAY)
			expect_labels(path, lab, s->w, s->h, what);
		else
			expect_labels_fail(path, "not a single-channel", what);
	}
	free(rows);
	free(data);
	free(rgb);
	free(lab);
}

/* Grey 1 to 16 bits, palette (+tRNS), grey+alpha, RGB(A) 8 and 16 bits,
 * interlaced or not. */
static void
test_png_kinds(void)
{
	static const struct { int color, bits; } k[] = {
		{ PNG_COLOR_TYPE_GRAY, 1 }, { PNG_COLOR_TYPE_GRAY, 2 },
		{ PNG_COLOR_TYPE_GRAY, 4 }, { PNG_COLOR_TYPE_GRAY, 8 },
		{ PNG_COLOR_TYPE_GRAY, 16 }, { PNG_COLOR_TYPE_GRAY_ALPHA, 8 },
		{ PNG_COLOR_TYPE_GRAY_ALPHA, 16 }, { PNG_COLOR_TYPE_RGB, 8 },
		{ PNG_COLOR_TYPE_RGB, 16 }, { PNG_COLOR_TYPE_RGB_ALPHA, 8 },
		{ PNG_COLOR_TYPE_RGB_ALPHA, 16 }, { PNG_COLOR_TYPE_PALETTE, 8 },
		{ PNG_COLOR_TYPE_PALETTE, 4 },
	};
	png_color pal[256];
	uint8_t trns[16];
	struct pngspec s;
	char what[96];
	size_t i;
	int il;

	for (i = 0; i < 256; i++) {
		pal[i].red = (uint8_t)rnd(256);
		pal[i].green = (uint8_t)rnd(256);
		pal[i].blue = (uint8_t)rnd(256);
	}
	for (i = 0; i < 16; i++)
		trns[i] = (uint8_t)rnd(256);
	for (il = 0; il < 2; il++)
		for (i = 0; i < sizeof k / sizeof k[0]; i++) {
			memset(&s, 0, sizeof s);
			s.w = 13 + (uint32_t)i;
			s.h = 7 + (uint32_t)il * 4;
			s.bits = k[i].bits;
			s.color = k[i].color;
			s.interlace = il ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE;
			if (s.color == PNG_COLOR_TYPE_PALETTE) {
				s.pal = pal;
				s.npal = 1 << s.bits;
				s.trns = s.bits == 4 ? trns : NULL;
				s.ntrns = 16;
			}
			snprintf(what, sizeof what, "PNG colour type %d, %d bits%s",
			    s.color, s.bits, il ? ", interlaced" : "");
			test_png_kind(&s, what);
		}
}

/* ------------------------------------------- TIFFs written by libtiff */

/* A TIFF's description for write_tiff. */
struct tiffspec {
	uint32_t w, h, tile, rps;
	uint16_t spp, bits, photometric, format, planar, compression, extra;
	const uint16_t *cmap;	/* 3 x 2^bits entries, for palette */
	const char *mode;	/* TIFFOpen's ("wb": big-endian) or NULL */
};

/* Copies the rows of data (contiguous, rowbytes each) that tile (tx, ty)
 * covers into buf (tile x tile, zero-padded). */
static void
cut_tile(const struct tiffspec *s, const uint8_t *data, uint8_t *buf,
    uint32_t tx, uint32_t ty)
{
	size_t px = (size_t)s->spp * s->bits, rowbytes = (s->w * px + 7) / 8;
	size_t trow = (s->tile * px + 7) / 8, r, cols;

	memset(buf, 0, trow * s->tile);
	cols = s->w - tx < s->tile ? s->w - tx : s->tile;
	for (r = 0; r < s->tile && ty + r < s->h; r++)
		memcpy(buf + r * trow, data + (ty + r) * rowbytes + tx * px / 8,
		    (cols * px + 7) / 8);
}

/* Sets the tags of s on tif. */
static void
set_tiff_tags(TIFF *tif, const struct tiffspec *s)
{
	uint16_t extra = s->extra;

	TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, s->w);
	TIFFSetField(tif, TIFFTAG_IMAGELENGTH, s->h);
	TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, s->spp);
	TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, s->bits);
	TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, s->photometric);
	TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, s->format ? s->format :
	    SAMPLEFORMAT_UINT);
	TIFFSetField(tif, TIFFTAG_PLANARCONFIG, s->planar ? s->planar :
	    PLANARCONFIG_CONTIG);
	TIFFSetField(tif, TIFFTAG_COMPRESSION, s->compression ?
	    s->compression : COMPRESSION_NONE);
	if (s->extra)
		TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, 1, &extra);
	if (s->cmap)
		TIFFSetField(tif, TIFFTAG_COLORMAP, s->cmap, s->cmap +
		    (1 << s->bits), s->cmap + 2 * (1 << s->bits));
	if (s->tile) {
		TIFFSetField(tif, TIFFTAG_TILEWIDTH, s->tile);
		TIFFSetField(tif, TIFFTAG_TILELENGTH, s->tile);
	} else
		TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, s->rps);
}

/* Writes one plane of 8-bit samples, plane p of the contiguous data, in
 * strips (separate planes). */
static int
write_plane(TIFF *tif, const struct tiffspec *s, const uint8_t *data,
    uint16_t p)
{
	uint8_t *buf = malloc((size_t)s->w * s->h);
	size_t i;
	int rc;

	for (i = 0; i < (size_t)s->w * s->h; i++)
		buf[i] = data[i * s->spp + p];
	rc = TIFFWriteEncodedStrip(tif, TIFFComputeStrip(tif, 0, p), buf,
	    (tmsize_t)s->w * s->h) < 0;
	free(buf);
	return rc;
}

/* Writes data (contiguous rows, host-order samples: libtiff may swap them
 * in place) as the TIFF s. */
static int
write_tiff(const char *path, const struct tiffspec *s, const uint8_t *data)
{
	size_t rowbytes = ((size_t)s->w * s->spp * s->bits + 7) / 8;
	size_t trow = ((size_t)s->tile * s->spp * s->bits + 7) / 8;
	uint32_t y, tx, ty, st;
	uint8_t *buf;
	TIFF *tif = TIFFOpen(path, s->mode ? s->mode : "w");
	int rc = 0;

	if (tif == NULL)
		return -1;
	set_tiff_tags(tif, s);
	if (s->planar == PLANARCONFIG_SEPARATE)
		for (st = 0; st < s->spp; st++)
			rc |= write_plane(tif, s, data, (uint16_t)st);
	else if (s->tile) {
		buf = malloc(trow * s->tile);
		for (ty = 0; ty < s->h; ty += s->tile)
			for (tx = 0; tx < s->w; tx += s->tile) {
				cut_tile(s, data, buf, tx, ty);
				rc |= TIFFWriteTile(tif, buf, tx, ty, 0, 0) < 0;
			}
		free(buf);
	} else
		for (y = 0, st = 0; y < s->h; y += s->rps, st++)
			rc |= TIFFWriteEncodedStrip(tif, st, (void *)(data +
			    y * rowbytes), (tmsize_t)(rowbytes * (s->h - y <
			    s->rps ? s->h - y : s->rps))) < 0;
	TIFFClose(tif);
	return rc ? -1 : 0;
}

/* Sample i (of the contiguous data) of s's depth. */
static uint32_t
tiff_sample(const struct tiffspec *s, const uint8_t *data, size_t row,
    size_t i)
{
	size_t rowbytes = ((size_t)s->w * s->spp * s->bits + 7) / 8;
	const uint8_t *p = data + row * rowbytes;
	uint16_t v16;
	uint32_t v32;

	if (s->bits == 16) {
		memcpy(&v16, p + 2 * i, 2);
		return v16;
	}
	if (s->bits == 32) {
		memcpy(&v32, p + 4 * i, 4);
		return v32;
	}
	return png_sample(p, i, s->bits);	/* same packing as PNG */
}

/* The RGB a reader should make of s's data (grey, RGB(A), palette). */
static void
tiff_expected_rgb(const struct tiffspec *s, const uint8_t *data,
    uint8_t *rgb)
{
	size_t x, y, c, n;
	uint32_t v;
	uint8_t *o;

	for (y = 0; y < s->h; y++)
		for (x = 0; x < s->w; x++) {
			o = rgb + 3 * (y * s->w + x);
			v = tiff_sample(s, data, y, x * s->spp);
			n = (size_t)1 << s->bits;
			if (s->cmap)
				for (c = 0; c < 3; c++)
					o[c] = (uint8_t)(s->cmap[c * n + v] >> 8);
			else if (s->spp >= 3)
				for (c = 0; c < 3; c++)
					o[c] = to8(tiff_sample(s, data, y,
					    x * s->spp + c), s->bits);
			else {
				o[0] = to8(v, s->bits);
				if (s->photometric == PHOTOMETRIC_MINISWHITE)
					o[0] = (uint8_t)(255 - o[0]);
				o[1] = o[2] = o[0];
			}
		}
}

/* Random contiguous data for s (16 and 32-bit samples in host order). */
static uint8_t *
tiff_random_data(const struct tiffspec *s)
{
	size_t n = (((size_t)s->w * s->spp * s->bits + 7) / 8) * s->h, i;
	uint8_t *data = malloc(n);

	for (i = 0; i < n; i++)
		data[i] = (uint8_t)rnd(256);
	if (s->cmap)	/* indices within the colour map */
		for (i = 0; i < n && s->bits == 8; i++)
			data[i] &= 15;
	return data;
}

/* Writes a random TIFF of s and checks sr_rgb_read against it. */
static void
test_tiff_rgb(const struct tiffspec *s, const char *what)
{
	uint8_t *data = tiff_random_data(s), *rgb = malloc(s->w * s->h * 3);
	char path[256];

	tiff_expected_rgb(s, data, rgb);
	if (write_tiff(tpath(path, "kind.tif"), s, data) != 0)
		fail("%s: libtiff could not write it", what);
	else
		expect_rgb(path, rgb, s->w, s->h, what);
	free(data);
	free(rgb);
}

/* Writes a random single-channel TIFF of s and checks sr_labels_read
 * against it (or the refusal holding refuse). */
static void
test_tiff_labels(const struct tiffspec *s, const char *refuse,
    const char *what)
{
	uint8_t *data = tiff_random_data(s);
	uint32_t *lab = malloc((size_t)s->w * s->h * 4);
	char path[256];
	size_t i;

	for (i = 0; i < (size_t)s->w * s->h; i++)
		lab[i] = tiff_sample(s, data, i / s->w, i % s->w);
	if (s->format == SAMPLEFORMAT_INT && refuse == NULL)	/* >= 0 */
		for (i = 0; i < (size_t)s->w * s->h; i++) {
			lab[i] &= (uint32_t)(((uint64_t)1 << (s->bits - 1)) - 1);
			if (s->bits == 8)
				data[i] = (uint8_t)lab[i];
			else if (s->bits == 16)
				((uint16_t *)(void *)data)[i] = (uint16_t)lab[i];
			else
				memcpy(data + 4 * i, &lab[i], 4);
		}
	if (write_tiff(tpath(path, "kind.tif"), s, data) != 0)
		fail("%s: libtiff could not write it", what);
	else if (refuse)
		expect_labels_fail(path, refuse, what);
	else
		expect_labels(path, lab, s->w, s->h, what);
	free(data);
	free(lab);
}

/* TIFF layouts beyond what the writers make. */
static void
test_tiff_kinds(void)
{
	static uint16_t cmap[3 * 256];
	struct tiffspec s;
	size_t i;

	for (i = 0; i < 3 * 256; i++)
		cmap[i] = (uint16_t)(rnd(256) * 257);
#define SPEC(W, H, TILE, RPS, SPP, BITS, PHOT, FMT, PLANAR, COMP, EXTRA) \
	(s = (struct tiffspec){ W, H, TILE, RPS, SPP, BITS, PHOT, FMT, PLANAR, \
	    COMP, EXTRA, NULL, NULL })
	SPEC(33, 9, 0, 4, 1, 8, PHOTOMETRIC_MINISBLACK, 0, 0, 0, 0);
	test_tiff_rgb(&s, "TIFF grey 8-bit strips");
	test_tiff_labels(&s, NULL, "TIFF grey 8-bit labels, strips");
	SPEC(33, 9, 16, 0, 1, 8, PHOTOMETRIC_MINISWHITE, 0, 0,
	    COMPRESSION_LZW, 0);
	test_tiff_rgb(&s, "TIFF MINISWHITE 8-bit LZW tiles");
	SPEC(40, 35, 16, 0, 1, 16, PHOTOMETRIC_MINISBLACK, 0, 0,
	    COMPRESSION_ADOBE_DEFLATE, 0);
	test_tiff_labels(&s, NULL, "TIFF 16-bit labels, deflate tiles");
	test_tiff_rgb(&s, "TIFF grey 16-bit deflate tiles");
	s.mode = "wb";
	test_tiff_labels(&s, NULL, "big-endian TIFF 16-bit labels, tiles");
	SPEC(21, 6, 0, 5, 1, 1, PHOTOMETRIC_MINISBLACK, 0, 0, 0, 0);
	test_tiff_labels(&s, NULL, "TIFF 1-bit mask, strips");
	SPEC(37, 20, 16, 0, 1, 1, PHOTOMETRIC_MINISBLACK, 0, 0,
	    COMPRESSION_PACKBITS, 0);
	test_tiff_labels(&s, NULL, "TIFF 1-bit mask, packbits tiles");
	SPEC(19, 5, 0, 2, 1, 2, PHOTOMETRIC_MINISBLACK, 0, 0, 0, 0);
	test_tiff_labels(&s, NULL, "TIFF 2-bit labels");
	SPEC(19, 5, 0, 2, 1, 4, PHOTOMETRIC_MINISBLACK, 0, 0, 0, 0);
	test_tiff_labels(&s, NULL, "TIFF 4-bit labels");
	SPEC(23, 11, 0, 3, 1, 32, PHOTOMETRIC_MINISBLACK, 0, 0,
	    COMPRESSION_LZW, 0);
	test_tiff_labels(&s, NULL, "TIFF 32-bit LZW labels");
	for (i = 8; i <= 32; i *= 2) {
		SPEC(23, 11, 0, 3, 1, (uint16_t)i, PHOTOMETRIC_MINISBLACK,
		    SAMPLEFORMAT_INT, 0, 0, 0);
		test_tiff_labels(&s, NULL, "TIFF signed labels >= 0");
		test_tiff_labels(&s, "negative label", "TIFF negative labels");
	}
	SPEC(23, 11, 0, 3, 1, 32, PHOTOMETRIC_MINISBLACK,
	    SAMPLEFORMAT_IEEEFP, 0, 0, 0);
	test_tiff_labels(&s, "floating-point", "TIFF float labels");
	SPEC(23, 11, 0, 3, 3, 8, PHOTOMETRIC_RGB, 0, 0, 0, 0);
	test_tiff_labels(&s, "3 samples per pixel: not a single-channel mask "
	    "or label image", "TIFF RGB as labels");
	SPEC(23, 11, 0, 3, 3, 16, PHOTOMETRIC_RGB, 0, 0, 0, 0);
	test_tiff_rgb(&s, "TIFF RGB 16-bit");
	s.mode = "wb";
	test_tiff_rgb(&s, "big-endian TIFF RGB 16-bit");
	SPEC(23, 11, 0, 3, 1, 32, PHOTOMETRIC_MINISBLACK, 0, 0, 0, 0);
	s.mode = "wb";
	test_tiff_labels(&s, NULL, "big-endian TIFF 32-bit labels");
	SPEC(50, 20, 16, 0, 4, 8, PHOTOMETRIC_RGB, 0, 0,
	    COMPRESSION_ADOBE_DEFLATE, EXTRASAMPLE_UNASSALPHA);
	test_tiff_rgb(&s, "TIFF RGBA 8-bit tiles");
	SPEC(18, 7, 0, 7, 3, 8, PHOTOMETRIC_RGB, 0, PLANARCONFIG_SEPARATE, 0,
	    0);
	test_tiff_rgb(&s, "TIFF RGB separate planes");
	SPEC(18, 7, 0, 3, 1, 8, PHOTOMETRIC_PALETTE, 0, 0, 0, 0);
	s.cmap = cmap;
	test_tiff_rgb(&s, "TIFF palette");
	test_tiff_labels(&s, "palette", "TIFF palette as labels");
#undef SPEC
}

/* ----------------------------------------------------------- refusals */

/* Truncations of path at many lengths: each refused naming the file. */
static void
test_truncations(const char *path, int labels, const char *what)
{
	char cut[256], msg[128];
	size_t n, len;
	uint8_t *bytes = read_bytes(path, &n);

	tpath(cut, "cut.img");
	for (len = 0; len < n; len += len < 80 ? 1 : len / 8 + 1) {
		write_bytes(cut, bytes, len);
		snprintf(msg, sizeof msg, "%s cut to %zu of %zu bytes", what, len,
		    n);
		if (labels)
			expect_labels_fail(cut, len == 0 ? "empty file" : NULL, msg);
		else
			expect_rgb_fail(cut, len == 0 ? "empty file" : NULL, msg);
	}
	write_bytes(cut, bytes, n - 1);
	expect_rgb_fail(cut, NULL, "truncated by one byte");
	free(bytes);
	unlink(cut);
}

/* Whether a successful read of a corrupt file is sane: dimensions within
 * the limit and every pixel readable (the sanitizers watch). */
static void
check_sane(size_t w, size_t h, const void *pix, size_t px_bytes,
    const char *what)
{
	const uint8_t *p = pix;
	unsigned sum = 0;
	size_t i;

	if (w == 0 || h == 0 || w > SR_IMAGE_MAX_PIXELS / h || pix == NULL) {
		fail("%s: success with %zux%zu", what, w, h);
		return;
	}
	for (i = 0; i < w * h * px_bytes; i += 61)
		sum += p[i];
	sum += p[w * h * px_bytes - 1];
	if (sum == 0xdeadbeef)	/* keeps the loop */
		putchar(' ');
}

/* Reads a corrupt file both ways; either reader may refuse it (naming
 * it, the image cleared) or succeed sanely. */
static void
read_corrupt(const char *path, const char *what)
{
	char err[SR_ERRLEN];
	sr_labels lab;
	sr_rgb img;

	if (sr_rgb_read(path, &img, err) == 0)
		check_sane(img.w, img.h, img.rgb, 3, what);
	else {
		check_msg(err, path, NULL, what);
		if (img.w || img.h || img.rgb)
			fail("%s: image left set", what);
	}
	sr_rgb_free(&img);
	if (sr_labels_read(path, &lab, err) == 0)
		check_sane(lab.w, lab.h, lab.px, 4, what);
	else {
		check_msg(err, path, NULL, what);
		if (lab.w || lab.h || lab.px)
			fail("%s: labels left set", what);
	}
	sr_labels_free(&lab);
}

/* NCORRUPT copies of path with 1 to 4 bytes changed (PNG CRCs then fixed
 * half the time, to get past the CRC checks). */
static void
test_corruptions(const char *path, const char *what)
{
	char bad[256], msg[128];
	size_t n, i, k, nflip;
	uint8_t *orig = read_bytes(path, &n), *buf = malloc(n);
	int png = n > 8 && orig[0] == 0x89;

	tpath(bad, "bad.img");
	for (i = 0; i < NCORRUPT; i++) {
		memcpy(buf, orig, n);
		nflip = 1 + rnd(4);
		for (k = 0; k < nflip; k++) {
			size_t at = png && rnd(2) ? 8 + rnd(33) : rnd(n);

			buf[at] = rnd(4) == 0 ? 0xff : rnd(4) == 0 ? 0 :
			    buf[at] ^ (uint8_t)(1 + rnd(255));
		}
		if (png && rnd(2))
			fix_png_crcs(buf, n);
		write_bytes(bad, buf, n);
		snprintf(msg, sizeof msg, "%s corruption %zu", what, i);
		read_corrupt(bad, msg);
	}
	free(orig);
	free(buf);
	unlink(bad);
}

/* Files that are not images, or absurd ones. */
static void
test_refusals(void)
{
	static const uint8_t px[16] = { 1, 2, 3 };
	char path[256], why[128];
	uint8_t tiff[256];
	sr_rgb img = random_rgb(7, 5);
	size_t n;

	write_bytes(tpath(path, "text.png"), "hello, world\n", 13);
	expect_rgb_fail(path, "not a TIFF or PNG file", "text file");
	expect_labels_fail(path, "not a TIFF or PNG file", "text file");
	write_bytes(tpath(path, "empty.tif"), "", 0);
	expect_rgb_fail(path, "empty file", "empty file");
	tpath(path, "missing.png");
	snprintf(why, sizeof why, "%s", strerror(ENOENT));
	expect_rgb_fail(path, why, "missing file");
	expect_labels_fail(path, why, "missing file");
	snprintf(why, sizeof why, "%s", strerror(EISDIR));
	expect_rgb_fail(tmpdir, why, "directory");
	write_bytes(tpath(path, "sig.png"), "\x89PNG\r", 5);
	expect_rgb_fail(path, "truncated PNG", "PNG signature cut");

	n = make_tiff(tiff, 0, 5, 8, px, 16, 16);
	write_bytes(tpath(path, "zero.tif"), tiff, n);
	expect_rgb_fail(path, NULL, "TIFF 0x5");
	expect_labels_fail(path, NULL, "TIFF 0x5");
	n = make_tiff(tiff, 5, 0, 8, px, 16, 16);
	write_bytes(path, tiff, n);
	expect_rgb_fail(path, NULL, "TIFF 5x0");
	n = make_tiff(tiff, 100000, 100000, 8, px, 16, 16);
	write_bytes(tpath(path, "huge.tif"), tiff, n);
	expect_rgb_fail(path, "declared size 100000x100000 exceeds the limit of "
	    "1073741824 pixels", "TIFF 100000x100000");
	expect_labels_fail(path, "exceeds the limit", "TIFF 100000x100000");
	n = make_tiff(tiff, 32768, 32769, 8, px, 16, 16);
	write_bytes(tpath(path, "huge2.tif"), tiff, n);
	expect_labels_fail(path, "exceeds the limit", "TIFF 32768x32769");
	n = make_tiff(tiff, 4, 4, 8, px, 16, 16);
	write_bytes(tpath(path, "small.tif"), tiff, n);
	expect_labels(path, (const uint32_t[16]){ 1, 2, 3 }, 4, 4,
	    "hand-made TIFF");
	write_bytes(path, tiff, n - 3);
	expect_labels_fail(path, NULL, "hand-made TIFF, strip cut");

	write_with(tpath(path, "huge.png"), 0, &img, NULL, 0, 0, 0, 0, why);
	patch_png_size(path, 100000, 100000);
	expect_rgb_fail(path, "declared size 100000x100000 exceeds the limit",
	    "PNG 100000x100000");
	expect_labels_fail(path, NULL, "PNG 100000x100000");
	patch_png_size(path, 0, 5);
	expect_rgb_fail(path, "corrupt PNG", "PNG 0x5");
	patch_png_size(path, 7, 6);
	expect_rgb_fail(path, NULL, "PNG one row too many declared");
	write_with(path, 0, &img, NULL, 0, 0, 0, 0, why);
	expect_labels_fail(path, "colour PNG: not a single-channel mask or "
	    "label image", "RGB PNG as labels");
	sr_rgb_free(&img);
}

/* Refusals of the writers: bad sizes and tiles, a full disk. */
static void
test_write_errors(void)
{
	sr_rgb img = random_rgb(20, 10), none = { 0, 10, NULL };
	char err[SR_ERRLEN], path[256];
	FILE *fp;

	tpath(path, "w.tif");
	if (write_with(path, 1, &img, NULL, 0, 0, 24, 0, err) == 0)
		fail("tile 24 accepted");
	else
		check_msg(err, path, "multiple of 16", "tile 24");
	if (write_with(path, 1, &none, NULL, 0, 0, 0, 0, err) == 0)
		fail("0-width TIFF written");
	else
		check_msg(err, path, NULL, "0-width TIFF");
	if (write_with(path, 0, &none, NULL, 0, 0, 0, 0, err) == 0)
		fail("0-width PNG written");
	if ((fp = fopen("/dev/full", "w")) == NULL)
		return;
	if (sr_rgb_write_png(fp, "full.png", &img, err) == 0)
		fail("PNG written to /dev/full");
	else
		check_msg(err, "full.png", NULL, "PNG to /dev/full");
	if (sr_rgb_write_tiff(fp, "full.tif", &img, 16, 0, err) == 0)
		fail("TIFF written to /dev/full");
	else
		check_msg(err, "full.tif", NULL, "TIFF to /dev/full");
	if (sr_labels_write_tiff(fp, "full2.tif", (const uint32_t *)img.rgb,
	    5, 10, err) == 0)
		fail("labels written to /dev/full");
	else
		check_msg(err, "full2.tif", NULL, "labels to /dev/full");
	fclose(fp);
	sr_rgb_free(&img);
}

/* ------------------------------------------------------------ threads */

struct thread_arg {
	const char *good, *bad;
	const sr_rgb *want;
	int errors;
};

/* Reads a good and a corrupt TIFF over and over; counts wrong results
 * (a message about another thread's file, mostly). */
static void *
thread_reader(void *p)
{
	struct thread_arg *a = p;
	char err[SR_ERRLEN];
	sr_rgb img;
	int i;

	for (i = 0; i < 40; i++) {
		if (sr_rgb_read(a->good, &img, err) != 0 || img.w != a->want->w ||
		    memcmp(img.rgb, a->want->rgb, img.w * img.h * 3) != 0)
			a->errors++;
		sr_rgb_free(&img);
		if (sr_rgb_read(a->bad, &img, err) == 0 ||
		    strncmp(err, a->bad, strlen(a->bad)) != 0 ||
		    strstr(err, "libtiff") == NULL)
			a->errors++;
		sr_rgb_free(&img);
	}
	return NULL;
}

/* NTHREAD threads at once, each with its own files. */
static void
test_threads(void)
{
	static char good[NTHREAD][256], bad[NTHREAD][256];
	struct thread_arg arg[NTHREAD];
	pthread_t th[NTHREAD];
	sr_rgb img = random_rgb(64, 48);
	char name[64], err[SR_ERRLEN];
	uint8_t *bytes;
	size_t n;
	int t;

	for (t = 0; t < NTHREAD; t++) {
		snprintf(name, sizeof name, "good%d.tif", t);
		write_with(tpath(good[t], name), 1, &img, NULL, 0, 0, 16, t & 1,
		    err);
		bytes = read_bytes(good[t], &n);
		memset(bytes + n / 4, 0x55, n / 8);	/* tile data garbled */
		snprintf(name, sizeof name, "bad%d.tif", t);
		write_bytes(tpath(bad[t], name), bytes, n);
		free(bytes);
		arg[t] = (struct thread_arg){ good[t], bad[t], &img, 0 };
	}
	for (t = 0; t < NTHREAD; t++)
		pthread_create(&th[t], NULL, thread_reader, &arg[t]);
	for (t = 0; t < NTHREAD; t++) {
		pthread_join(th[t], NULL);
		if (arg[t].errors)
			fail("thread %d: %d wrong results", t, arg[t].errors);
		unlink(good[t]);
		unlink(bad[t]);
	}
	sr_rgb_free(&img);
}

/* ---------------------------------------------------------------- main */

/* Removes the files the tests leave in tmpdir. */
static void
remove_files(void)
{
	static const char *left[] = { "text.png", "empty.tif", "sig.png",
	    "zero.tif", "huge.tif", "huge2.tif", "small.tif", "huge.png",
	    "w.tif", "kind.png", "kind.tif", "labels.tif", "mask.png" };
	char path[256];
	size_t i;

	for (i = 0; i < sizeof left / sizeof left[0]; i++)
		unlink(tpath(path, left[i]));
}

/* Base files for the truncation and corruption tests. */
static void
test_damaged_files(void)
{
	sr_rgb img = random_rgb(40, 30);
	uint32_t *px = random_labels(33, 17);
	char p[5][256], err[SR_ERRLEN];
	uint8_t tiff[256];
	size_t n;
	int i;

	for (i = 0; i < 40 * 30 * 3; i++)	/* compressible, like a photo */
		img.rgb[i] = (uint8_t)(img.rgb[i] / 64 * 64);
	write_with(tpath(p[0], "base.png"), 0, &img, NULL, 0, 0, 0, 0, err);
	write_with(tpath(p[1], "base-strips.tif"), 1, &img, NULL, 0, 0, 0, 0,
	    err);
	write_with(tpath(p[2], "base-tiles.tif"), 1, &img, NULL, 0, 0, 16, 1,
	    err);
	write_with(tpath(p[3], "base-labels.tif"), 2, NULL, px, 33, 17, 0, 0,
	    err);
	n = make_tiff(tiff, 16, 8, 8, img.rgb, 128, 128);
	write_bytes(tpath(p[4], "base-raw.tif"), tiff, n);
	test_truncations(p[0], 0, "PNG");
	test_truncations(p[1], 0, "strip TIFF");
	test_truncations(p[2], 0, "tiled BigTIFF");
	test_truncations(p[3], 1, "label TIFF");
	for (i = 0; i < 5; i++) {
		test_corruptions(p[i], p[i] + strlen(tmpdir) + 1);
		unlink(p[i]);
	}
	sr_rgb_free(&img);
	free(px);
}

int
main(void)
{
	static const size_t sizes[][2] = { { 1, 1 }, { 17, 5 }, { 300, 7 },
	    { 64, 64 }, { 2000, 70 }, { 5, 300 } };
	const char *dir = getenv("TMPDIR");
	size_t i;

	verbose = getenv("IMAGE_TEST_VERBOSE") != NULL;
	snprintf(tmpdir, sizeof tmpdir, "%s/image_test.XXXXXX",
	    dir && *dir && strlen(dir) < 40 ? dir : "/tmp");
	if (mkdtemp(tmpdir) == NULL) {
		printf("FAIL: mkdtemp %s: %s\n", tmpdir, strerror(errno));
		return 1;
	}
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		test_rgb_round_trip(sizes[i][0], sizes[i][1]);
		test_labels_round_trip(sizes[i][0], sizes[i][1]);
	}
	test_png_kinds();
	test_tiff_kinds();
	test_refusals();
	test_write_errors();
	test_damaged_files();
	test_threads();
	remove_files();
	if (rmdir(tmpdir) != 0)
		printf("FAIL: rmdir %s: %s\n", tmpdir, strerror(errno)), failures++;
	return failures ? 1 : 0;
}
