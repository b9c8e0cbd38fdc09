/* sa-testimg - images for tests and benchmarks (a test helper: not
 * installed).
 *
 *   sa-testimg convert [--tile N] [--bigtiff] IN OUT
 *	reads IN (TIFF or PNG) as RGB and writes it as OUT, a PNG or a TIFF
 *	by OUT's extension (.png, .tif, .tiff); TIFFs in strips unless
 *	--tile N (N a multiple of 16), classic unless --bigtiff.
 *   sa-testimg mosaic SIZE OUT IN...
 *	a SIZE x SIZE RGB image: the inputs (all of one size) tile a grid
 *	row by row, cell k holding input k mod n; beyond the grid, up to
 *	SIZE, the image is mirrored at its edge without repeating the edge
 *	pixel (OpenCV's BORDER_REFLECT_101: ..., g-3, g-2 | g-1, g-2,
 *	g-3, ...). OUT is a PNG or a TIFF in strips, by its extension.
 *   sa-testimg labels W H OUT.tif
 *	a 32-bit label TIFF: six rectangles labelled 1 to 6 on 0.
 *   sa-testimg crop [--mask] IN X Y W H OUT
 *	the W x H rectangle at (X, Y) of IN: RGB, or with --mask a mask
 *	(labels > 0 become 255; OUT a PNG, or a 32-bit TIFF).
 *   sa-testimg solid W H R G B OUT
 *	an RGB image of one colour.
 *   sa-testimg blank W H OUT
 *	an empty mask: 8-bit PNG or 32-bit TIFF of zeros.
 *   sa-testimg threshold IN OUT T
 *	the pixels of IN whose red is below T, a mask as blank writes it.
 *   sa-testimg frame IN WIDTH R G B OUT
 *	IN with a frame WIDTH pixels wide painted in one colour.
 *   sa-testimg info FILE
 *	"W H NONZERO MAX BITS" of a mask or label image.
 *   sa-testimg absurd W H OUT.tif
 *	a TIFF header declaring a W x H RGB image and holding no pixels.
 *   sa-testimg zeros W H OUT.png
 *	an 8-bit grey PNG of zeros, written a row at a time (level 9: about
 *	1030 bytes decoded for each stored one; 32768 x 32768 in 1.0 MB).
 *   sa-testimg bomb TILE OUT.tif
 *	a TILE x TILE RGB TIFF of zeros in one deflated tile (level 9):
 *	about 1030 bytes decoded for each stored one.
 *   sa-testimg draw W H OUT 'LABEL X0 Y0 X1 Y1'...
 *	a label image of rectangles [X0, X1) x [Y0, Y1) of value LABEL on
 *	0, drawn in order (later ones on top, clipped to the image): OUT a
 *	32-bit TIFF, or a grey PNG of the values (8-bit when all are below
 *	256, else 16-bit).
 *   sa-testimg labelmosaic SIZE OUT.tif IN...
 *	a SIZE x SIZE 32-bit label TIFF: the label images IN (all of one
 *	size) tile a grid row by row, cell k holding input k mod n, the
 *	labels of each cell offset past those of the cells before it (so
 *	every cell's objects are distinct); 0 beyond the grid.
 *   sa-testimg diff A B
 *	"W H DIFFERING MAXDIFF" of two RGB images of one size.
 *   sa-testimg slide [options] W H OUT 'X Y IMAGE'...
 *	a pyramidal tiled TIFF or an Aperio SVS that OpenSlide reads, the
 *	images placed on an off-white background (testslide.c says how).
 *
 * Outputs are written atomically. Exit status: 0 done, 1 bad input or a
 * write error, 2 usage error.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <png.h>
#include <setjmp.h>
#include <tiffio.h>

#include "core/err.h"
#include "image/image.h"
#include "core/num.h"
#include "core/out.h"

enum { OPT_BIGTIFF = CHAR_MAX + 1 };

int testslide_main(int argc, char **argv);	/* testslide.c */
long testimg_whole(const char *s, long lo, long hi, const char *what);

static const struct option convert_opts[] = {
	{ "tile", required_argument, NULL, 't' },
	{ "bigtiff", no_argument, NULL, OPT_BIGTIFF },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static void
usage(FILE *fp)
{
	fputs(
"Usage: sa-testimg convert [--tile N] [--bigtiff] IN OUT\n"
"       sa-testimg mosaic SIZE OUT IN...\n"
"       sa-testimg labels W H OUT.tif\n"
"       sa-testimg crop [--mask] IN X Y W H OUT\n"
"       sa-testimg solid W H R G B OUT | blank W H OUT\n"
"       sa-testimg threshold IN OUT T\n"
"       sa-testimg frame IN WIDTH R G B OUT | info FILE | absurd W H OUT.tif\n"
"       sa-testimg raw LABELS OUT\n"
"       sa-testimg draw W H OUT 'LABEL X0 Y0 X1 Y1'...\n"
"       sa-testimg labelmosaic SIZE OUT.tif IN... | diff A B\n"
"       sa-testimg slide [--format tiff|svs] [--compression deflate|jpeg]\n"
"           [--quality Q] [--tile N] [--levels N] [--downsample D] [--mpp X]\n"
"           [--background R,G,B] [--margin M] [--seed S] [--bigtiff]\n"
"           W H OUT 'X Y IMAGE'...\n"
"Test and benchmark images. convert re-encodes IN (TIFF or PNG) as OUT\n"
"(.png, .tif or .tiff); mosaic tiles the inputs row by row over a SIZE x\n"
"SIZE image, mirroring beyond the grid; labels writes a 32-bit label TIFF\n"
"of six rectangles.\n"
"\n"
"  -t, --tile N             TIFF tiles of N x N (a multiple of 16) [strips]\n"
"      --bigtiff            write BigTIFF [classic TIFF]\n"
"  -h, --help               this help\n", fp);
}

/* Whether path ends in a TIFF extension (1), in .png (0); else a usage
 * error. */
static int
is_tiff_name(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (dot && strcasecmp(dot, ".png") == 0)
		return 0;
	if (dot && (strcasecmp(dot, ".tif") == 0 ||
	    strcasecmp(dot, ".tiff") == 0))
		return 1;
	sr_usage_error("%s: the output must end in .png, .tif or .tiff", path);
}

/* Parses s as a whole number in [lo, hi] for the argument named what
 * (testslide.c's options too). */
long
testimg_whole(const char *s, long lo, long hi, const char *what)
{
	const char *why;
	long v;

	if ((why = sr_parse_long(s, &v)) != NULL)
		sr_usage_error("%s '%s': %s", what, s, why);
	if (v < lo || v > hi)
		sr_usage_error("%s %ld: not in [%ld, %ld]", what, v, lo, hi);
	return v;
}

/* The same, as a size. */
static size_t
parse_size(const char *s, long lo, long hi, const char *what)
{
	return (size_t)testimg_whole(s, lo, hi, what);
}

/* Writes img to path (atomically) as PNG or TIFF by its extension. */
static void
write_rgb(const char *path, const sr_rgb *img, size_t tile, int bigtiff)
{
	char err[SR_ERRLEN];
	FILE *fp;
	int rc;

	if (is_tiff_name(path)) {
		fp = sr_out_open(path);
		rc = sr_rgb_write_tiff(fp, path, img, tile, bigtiff, err);
	} else {
		if (tile || bigtiff)
			sr_usage_error("--tile and --bigtiff are for TIFF outputs");
		fp = sr_out_open(path);
		rc = sr_rgb_write_png(fp, path, img, err);
	}
	if (rc)
		sr_die(SR_EXIT_DATA, "%s", err);
	sr_out_commit_all();
}

/* Reads path as RGB or dies. */
static void
read_rgb(const char *path, sr_rgb *img)
{
	char err[SR_ERRLEN];

	if (sr_rgb_read(path, img, err))
		sr_die(SR_EXIT_DATA, "%s", err);
}

static int
cmd_convert(int argc, char **argv)
{
	size_t tile = 0;
	int c, bigtiff = 0;
	sr_rgb img;

	while ((c = getopt_long(argc, argv, ":t:h", convert_opts, NULL)) != -1)
		switch (c) {
		case 't':
			tile = parse_size(optarg, 16, 65536, "--tile");
			if (tile % 16)
				sr_usage_error("--tile %zu: not a multiple of 16",
				    tile);
			break;
		case OPT_BIGTIFF: bigtiff = 1; break;
		case 'h': usage(stdout); exit(SR_EXIT_OK);
		default: sr_getopt_fail(c, argv);
		}
	if (argc - optind != 2)
		sr_usage_error("convert: expected IN and OUT, got %d arguments",
		    argc - optind);
	is_tiff_name(argv[optind + 1]);
	read_rgb(argv[optind], &img);
	write_rgb(argv[optind + 1], &img, tile, bigtiff);
	sr_rgb_free(&img);
	return SR_EXIT_OK;
}

/* i mirrored into [0, n) without repeating the edge (BORDER_REFLECT_101). */
static size_t
reflect101(size_t i, size_t n)
{
	size_t period = 2 * (n - 1);

	if (n == 1)
		return 0;
	i %= period;
	return i < n ? i : period - i;
}

/* Copies tile (tw x th) into out (size x size) at (x0, y0), clipped. */
static void
put_tile(sr_rgb *out, const sr_rgb *tile, size_t x0, size_t y0)
{
	size_t y, cols = out->w - x0 < tile->w ? out->w - x0 : tile->w;

	for (y = 0; y < tile->h && y0 + y < out->h; y++)
		memcpy(out->rgb + ((y0 + y) * out->w + x0) * 3,
		    tile->rgb + y * tile->w * 3, cols * 3);
}

/* Fills out beyond the gw x gh grid by mirroring: columns first, on the
 * grid's rows, then whole rows. */
static void
mirror_beyond(sr_rgb *out, size_t gw, size_t gh)
{
	size_t x, y;

	for (y = 0; y < gh && gw < out->w; y++)
		for (x = gw; x < out->w; x++)
			memcpy(out->rgb + (y * out->w + x) * 3, out->rgb +
			    (y * out->w + reflect101(x, gw)) * 3, 3);
	for (y = gh; y < out->h; y++)
		memcpy(out->rgb + y * out->w * 3, out->rgb +
		    reflect101(y, gh) * out->w * 3, out->w * 3);
}

static int
cmd_mosaic(int argc, char **argv)
{
	size_t size, n, i, cols, rows, r, c;
	sr_rgb *in, out;

	if (argc < 4)
		sr_usage_error("mosaic: expected SIZE, OUT and at least one IN");
	size = parse_size(argv[1], 1, 32768, "SIZE");
	is_tiff_name(argv[2]);
	n = (size_t)argc - 3;
	in = sr_calloc(n, sizeof *in);
	for (i = 0; i < n; i++) {
		read_rgb(argv[3 + i], &in[i]);
		if (in[i].w != in[0].w || in[i].h != in[0].h)
			sr_die(SR_EXIT_DATA, "%s: %zux%zu, unlike %s (%zux%zu)",
			    argv[3 + i], in[i].w, in[i].h, argv[3], in[0].w,
			    in[0].h);
	}
	cols = size / in[0].w ? size / in[0].w : 1;
	rows = size / in[0].h ? size / in[0].h : 1;
	out = (sr_rgb){ size, size, sr_calloc(size * size, 3) };
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			put_tile(&out, &in[(r * cols + c) % n], c * in[0].w,
			    r * in[0].h);
	mirror_beyond(&out, cols * in[0].w < size ? cols * in[0].w : size,
	    rows * in[0].h < size ? rows * in[0].h : size);
	write_rgb(argv[2], &out, 0, 0);
	for (i = 0; i < n; i++)
		sr_rgb_free(&in[i]);
	free(in);
	sr_rgb_free(&out);
	return SR_EXIT_OK;
}

/* Six rectangles on a 3 x 2 grid of cells, labelled 1 to 6. */
static void
draw_rectangles(uint32_t *px, size_t w, size_t h)
{
	size_t k, x, y, x0, y0, rw = w / 6 ? w / 6 : 1, rh = h / 4 ? h / 4 : 1;

	for (k = 0; k < 6; k++) {
		x0 = (k % 3) * w / 3 + w / 12;
		y0 = (k / 3) * h / 2 + h / 8;
		for (y = y0; y < y0 + rh && y < h; y++)
			for (x = x0; x < x0 + rw && x < w; x++)
				px[y * w + x] = (uint32_t)k + 1;
	}
}

static int
cmd_labels(int argc, char **argv)
{
	char err[SR_ERRLEN];
	size_t w, h;
	uint32_t *px;
	FILE *fp;

	if (argc != 4)
		sr_usage_error("labels: expected W, H and OUT.tif");
	w = parse_size(argv[1], 1, 32768, "W");
	h = parse_size(argv[2], 1, 32768, "H");
	if (!is_tiff_name(argv[3]))
		sr_usage_error("%s: labels are written as TIFF", argv[3]);
	if (w * h > SR_IMAGE_MAX_PIXELS)
		sr_usage_error("%zux%zu: more than %zu pixels", w, h,
		    SR_IMAGE_MAX_PIXELS);
	px = sr_calloc(w * h, sizeof *px);
	draw_rectangles(px, w, h);
	fp = sr_out_open(argv[3]);
	if (sr_labels_write_tiff(fp, argv[3], px, w, h, err))
		sr_die(SR_EXIT_DATA, "%s", err);
	sr_out_commit_all();
	free(px);
	return SR_EXIT_OK;
}

/* Writes a mask or labels (PNG: 0/255; TIFF: 32-bit) by path's name. */
static void
write_mask(const char *path, const uint32_t *px, size_t w, size_t h)
{
	char err[SR_ERRLEN];
	FILE *fp = sr_out_open(path);
	int rc = is_tiff_name(path) ? sr_labels_write_tiff(fp, path, px, w, h,
	    err) : sr_mask_write_png(fp, path, px, w, h, err);

	if (rc)
		sr_die(SR_EXIT_DATA, "%s", err);
	sr_out_commit_all();
}

static int
cmd_crop(int argc, char **argv)
{
	size_t x0, y0, w, h, y;
	int mask = argc > 1 && strcmp(argv[1], "--mask") == 0;
	char err[SR_ERRLEN];

	argv += mask;
	argc -= mask;
	if (argc != 7)
		sr_usage_error("crop: expected [--mask] IN X Y W H OUT");
	x0 = parse_size(argv[2], 0, 1 << 20, "X");
	y0 = parse_size(argv[3], 0, 1 << 20, "Y");
	w = parse_size(argv[4], 1, 1 << 20, "W");
	h = parse_size(argv[5], 1, 1 << 20, "H");
	if (mask) {
		sr_labels in;
		uint32_t *px;
		if (sr_labels_read(argv[1], &in, err))
			sr_die(SR_EXIT_DATA, "%s", err);
		if (x0 + w > in.w || y0 + h > in.h)
			sr_die(SR_EXIT_DATA, "%s: %zux%zu, smaller than the crop",
			    argv[1], in.w, in.h);
		px = sr_calloc(w * h, sizeof *px);
		for (y = 0; y < h; y++)
			memcpy(px + y * w, in.px + (y0 + y) * in.w + x0,
			    w * sizeof *px);
		write_mask(argv[6], px, w, h);
		free(px);
		sr_labels_free(&in);
	} else {
		sr_rgb in, out;
		read_rgb(argv[1], &in);
		if (x0 + w > in.w || y0 + h > in.h)
			sr_die(SR_EXIT_DATA, "%s: %zux%zu, smaller than the crop",
			    argv[1], in.w, in.h);
		out.w = w;
		out.h = h;
		out.rgb = sr_calloc(w * h, 3);
		for (y = 0; y < h; y++)
			memcpy(out.rgb + 3 * y * w, in.rgb + 3 * ((y0 + y) * in.w +
			    x0), 3 * w);
		write_rgb(argv[6], &out, 0, 0);
		sr_rgb_free(&out);
		sr_rgb_free(&in);
	}
	return SR_EXIT_OK;
}

/* Paints the pixels of img for which paint(x, y) in colour c. */
static void
paint(sr_rgb *img, size_t frame, const uint8_t c[3])
{
	size_t x, y;

	for (y = 0; y < img->h; y++)
		for (x = 0; x < img->w; x++)
			if (frame == 0 || x < frame || y < frame ||
			    x + frame >= img->w || y + frame >= img->h)
				memcpy(img->rgb + 3 * (y * img->w + x), c, 3);
}

static int
cmd_solid(int argc, char **argv)
{
	sr_rgb img;
	uint8_t c[3];
	int k;

	if (argc != 7)
		sr_usage_error("solid: expected W H R G B OUT");
	img.w = parse_size(argv[1], 1, 32768, "W");
	img.h = parse_size(argv[2], 1, 32768, "H");
	for (k = 0; k < 3; k++)
		c[k] = (uint8_t)parse_size(argv[3 + k], 0, 255, "colour");
	img.rgb = sr_calloc(img.w * img.h, 3);
	paint(&img, 0, c);
	write_rgb(argv[6], &img, 0, 0);
	sr_rgb_free(&img);
	return SR_EXIT_OK;
}

/* threshold IN OUT T: a local segmentation for tests of tiles that
 * overlap: the pixels of IN whose red is below T, as a binary mask. */
static int
cmd_threshold(int argc, char **argv)
{
	sr_rgb img;
	uint32_t *px;
	size_t i, t;

	if (argc != 4)
		sr_usage_error("threshold: expected IN OUT T");
	t = parse_size(argv[3], 0, 256, "T");
	read_rgb(argv[1], &img);
	px = sr_calloc(img.w * img.h, sizeof *px);
	for (i = 0; i < img.w * img.h; i++)
		px[i] = img.rgb[3 * i] < t;
	write_mask(argv[2], px, img.w, img.h);
	free(px);
	sr_rgb_free(&img);
	return SR_EXIT_OK;
}

static int
cmd_blank(int argc, char **argv)
{
	size_t w, h;
	uint32_t *px;

	if (argc != 4)
		sr_usage_error("blank: expected W H OUT");
	w = parse_size(argv[1], 1, 32768, "W");
	h = parse_size(argv[2], 1, 32768, "H");
	px = sr_calloc(w * h, sizeof *px);
	write_mask(argv[3], px, w, h);
	free(px);
	return SR_EXIT_OK;
}

static int
cmd_frame(int argc, char **argv)
{
	sr_rgb img;
	uint8_t c[3];
	size_t width;
	int k;

	if (argc != 7)
		sr_usage_error("frame: expected IN WIDTH R G B OUT");
	width = parse_size(argv[2], 1, 1 << 20, "WIDTH");
	for (k = 0; k < 3; k++)
		c[k] = (uint8_t)parse_size(argv[3 + k], 0, 255, "colour");
	read_rgb(argv[1], &img);
	paint(&img, width, c);
	write_rgb(argv[6], &img, 0, 0);
	sr_rgb_free(&img);
	return SR_EXIT_OK;
}

/* Bits per sample of a TIFF. */
static int
tiff_bits(const char *path)
{
	TIFF *t = TIFFOpen(path, "r");
	uint16_t bits = 0;

	if (!t)
		sr_die(SR_EXIT_DATA, "%s: cannot open as TIFF", path);
	TIFFGetFieldDefaulted(t, TIFFTAG_BITSPERSAMPLE, &bits);
	TIFFClose(t);
	return bits;
}

/* Bits per sample of a PNG or TIFF, from its header. */
static int
file_bits(const char *path)
{
	unsigned char b[32];
	FILE *fp = fopen(path, "rb");
	size_t n;

	if (!fp)
		sr_die_errno("%s", path);
	n = fread(b, 1, sizeof b, fp);
	fclose(fp);
	if (n >= 25 && memcmp(b, "\x89PNG", 4) == 0)
		return b[24];
	return tiff_bits(path);
}

/* "W H DIFFERING MAXDIFF" of two RGB images of one size: the pixels
 * that differ in any channel and the largest channel difference. */
static int
cmd_diff(int argc, char **argv)
{
	sr_rgb a, b;
	size_t i, n = 0;
	int d, dp, k, max = 0;

	if (argc != 3)
		sr_usage_error("diff: expected A and B");
	read_rgb(argv[1], &a);
	read_rgb(argv[2], &b);
	if (a.w != b.w || a.h != b.h)
		sr_die(SR_EXIT_DATA, "%s is %zux%zu, %s is %zux%zu", argv[1], a.w,
		    a.h, argv[2], b.w, b.h);
	for (i = 0; i < a.w * a.h; i++) {
		for (k = 0, dp = 0; k < 3; k++) {
			d = abs((int)a.rgb[3 * i + k] - (int)b.rgb[3 * i + k]);
			dp = d > dp ? d : dp;
		}
		max = dp > max ? dp : max;
		n += dp > 0;
	}
	printf("%zu %zu %zu %d\n", a.w, a.h, n, max);
	sr_rgb_free(&a);
	sr_rgb_free(&b);
	return SR_EXIT_OK;
}

static int
cmd_info(int argc, char **argv)
{
	char err[SR_ERRLEN];
	sr_labels l;
	size_t i, nz = 0;
	uint32_t max = 0;

	if (argc != 2)
		sr_usage_error("info: expected FILE");
	if (sr_labels_read(argv[1], &l, err))
		sr_die(SR_EXIT_DATA, "%s", err);
	for (i = 0; i < l.w * l.h; i++) {
		nz += l.px[i] > 0;
		if (l.px[i] > max)
			max = l.px[i];
	}
	printf("%zu %zu %zu %u %d\n", l.w, l.h, nz, max, file_bits(argv[1]));
	sr_labels_free(&l);
	sr_out_commit_all();
	return SR_EXIT_OK;
}

/* raw LABELS OUT: "W H\n", then the labels as 32-bit little-endian
 * words, row by row (what a test in another language reads). */
static int
cmd_raw(int argc, char **argv)
{
	char err[SR_ERRLEN];
	unsigned char b[4];
	sr_labels l;
	size_t i;
	FILE *fp;

	if (argc != 3)
		sr_usage_error("raw: expected LABELS and OUT");
	if (sr_labels_read(argv[1], &l, err))
		sr_die(SR_EXIT_DATA, "%s", err);
	fp = sr_out_open(argv[2]);
	fprintf(fp, "%zu %zu\n", l.w, l.h);
	for (i = 0; i < l.w * l.h; i++) {
		b[0] = l.px[i] & 0xff;
		b[1] = (l.px[i] >> 8) & 0xff;
		b[2] = (l.px[i] >> 16) & 0xff;
		b[3] = l.px[i] >> 24;
		fwrite(b, 1, 4, fp);
	}
	sr_labels_free(&l);
	sr_out_commit_all();
	return SR_EXIT_OK;
}

/* Appends a classic little-endian IFD entry of one value. */
static void
ifd_entry(unsigned char *p, unsigned tag, unsigned type, uint32_t v)
{
	p[0] = tag & 0xff;
	p[1] = tag >> 8;
	p[2] = type & 0xff;
	p[3] = 0;
	p[4] = 1;
	p[5] = p[6] = p[7] = 0;
	p[8] = v & 0xff;
	p[9] = (v >> 8) & 0xff;
	p[10] = (v >> 16) & 0xff;
	p[11] = (v >> 24) & 0xff;
}

static int
cmd_absurd(int argc, char **argv)
{
	static const unsigned tag[9] = { 256, 257, 258, 259, 262, 273, 277, 278,
	    279 };
	unsigned char buf[8 + 2 + 9 * 12 + 4];
	uint32_t w, h, val[9];
	FILE *fp;
	int k;

	if (argc != 4)
		sr_usage_error("absurd: expected W H OUT.tif");
	w = (uint32_t)parse_size(argv[1], 0, UINT32_MAX, "W");
	h = (uint32_t)parse_size(argv[2], 0, UINT32_MAX, "H");
	val[0] = w;
	val[1] = h;
	val[2] = 8;		/* bits per sample */
	val[3] = 1;		/* no compression */
	val[4] = 2;		/* RGB */
	val[5] = sizeof buf;	/* the strip would start at the end */
	val[6] = 3;
	val[7] = h;
	val[8] = (uint32_t)((uint64_t)w * h * 3 > UINT32_MAX ? UINT32_MAX :
	    (uint64_t)w * h * 3);
	memcpy(buf, "II*\0\x08\0\0\0", 8);
	buf[8] = 9;
	buf[9] = 0;
	for (k = 0; k < 9; k++)
		ifd_entry(buf + 10 + 12 * k, tag[k], k == 2 || k == 3 ||
		    k == 4 || k == 6 ? 3 : 4, val[k]);
	memset(buf + 10 + 9 * 12, 0, 4);
	fp = sr_out_open(argv[3]);
	fwrite(buf, 1, sizeof buf, fp);
	sr_out_commit_all();
	return SR_EXIT_OK;
}

/* Writes px as a grey PNG of its values, 8 or 16 bits (by the maximum). */
static void
write_grey_png(const char *path, const uint32_t *px, size_t w, size_t h)
{
	FILE *fp = sr_out_open(path);
	png_structp png;
	png_infop info;
	uint8_t *row = sr_calloc(w, 2);
	uint32_t max = 0;
	size_t i, x, y;
	int bits;

	for (i = 0; i < w * h; i++)
		max = px[i] > max ? px[i] : max;
	if (max > 65535)
		sr_die(SR_EXIT_DATA, "%s: label %u does not fit a PNG", path, max);
	bits = max > 255 ? 16 : 8;
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	info = png ? png_create_info_struct(png) : NULL;
	if (!info || setjmp(png_jmpbuf(png)))
		sr_die(SR_EXIT_DATA, "%s: cannot write PNG", path);
	png_init_io(png, fp);
	png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, bits,
	    PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
	    PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			uint32_t v = px[y * w + x];
			if (bits == 8)
				row[x] = (uint8_t)v;
			else {
				row[2 * x] = (uint8_t)(v >> 8);
				row[2 * x + 1] = (uint8_t)v;
			}
		}
		png_write_row(png, row);
	}
	png_write_end(png, info);
	png_destroy_write_struct(&png, &info);
	free(row);
	sr_out_commit_all();
}

/* zeros W H OUT.png: a grey PNG of zeros, a row at a time (a declared
 * size far beyond what the test allocates). */
static int
cmd_zeros(int argc, char **argv)
{
	png_structp png;
	png_infop info;
	uint8_t *row;
	size_t w, h, y;
	FILE *fp;

	if (argc != 4)
		sr_usage_error("zeros W H OUT.png");
	w = (size_t)parse_size(argv[1], 1, 1L << 20, "W");
	h = (size_t)parse_size(argv[2], 1, 1L << 20, "H");
	fp = sr_out_open(argv[3]);
	row = sr_calloc(w, 1);
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	info = png ? png_create_info_struct(png) : NULL;
	if (!info || setjmp(png_jmpbuf(png)))
		sr_die(SR_EXIT_DATA, "%s: cannot write PNG", argv[3]);
	png_init_io(png, fp);
	png_set_compression_level(png, 9);
	png_set_filter(png, 0, PNG_FILTER_NONE);
	png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8,
	    PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
	    PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (y = 0; y < h; y++)
		png_write_row(png, row);
	png_write_end(png, info);
	png_destroy_write_struct(&png, &info);
	free(row);
	sr_out_commit_all();
	return SR_EXIT_OK;
}

/* bomb TILE OUT.tif: one deflated tile of zeros (written in place: a
 * test input). */
static int
cmd_bomb(int argc, char **argv)
{
	uint32_t n;
	size_t bytes;
	uint8_t *buf;
	TIFF *tif;
	int ok;

	if (argc != 3)
		sr_usage_error("bomb TILE OUT.tif");
	n = (uint32_t)parse_size(argv[1], 16, 16384, "TILE");
	bytes = (size_t)n * n * 3;
	buf = sr_calloc(bytes, 1);
	if ((tif = TIFFOpen(argv[2], "w")) == NULL)
		sr_die(SR_EXIT_DATA, "%s: cannot create", argv[2]);
	ok = TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, n) &&
	    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, n) &&
	    TIFFSetField(tif, TIFFTAG_TILEWIDTH, n) &&
	    TIFFSetField(tif, TIFFTAG_TILELENGTH, n) &&
	    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, 8) &&
	    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, 3) &&
	    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_RGB) &&
	    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG) &&
	    TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE) &&
	    TIFFSetField(tif, TIFFTAG_ZIPQUALITY, 9) &&
	    TIFFWriteEncodedTile(tif, 0, buf, (tmsize_t)bytes) >= 0;
	TIFFClose(tif);
	free(buf);
	if (!ok)
		sr_die(SR_EXIT_DATA, "%s: cannot write", argv[2]);
	return 0;
}

static int
cmd_draw(int argc, char **argv)
{
	char err[SR_ERRLEN];
	size_t w, h, x, y, x0, y0, x1, y1;
	uint32_t *px;
	unsigned long label;
	int k, used;

	if (argc < 4)
		sr_usage_error("draw: expected W H OUT and rectangles");
	w = parse_size(argv[1], 1, 32768, "W");
	h = parse_size(argv[2], 1, 32768, "H");
	px = sr_calloc(w * h, sizeof *px);
	for (k = 4; k < argc; k++) {
		if (sscanf(argv[k], "%lu %zu %zu %zu %zu %n", &label, &x0, &y0,
		    &x1, &y1, &used) != 5 || argv[k][used] != '\0' ||
		    label > UINT32_MAX)
			sr_usage_error("draw: '%s': not 'LABEL X0 Y0 X1 Y1'",
			    argv[k]);
		for (y = y0; y < y1 && y < h; y++)
			for (x = x0; x < x1 && x < w; x++)
				px[y * w + x] = (uint32_t)label;
	}
	if (is_tiff_name(argv[3])) {
		FILE *fp = sr_out_open(argv[3]);
		if (sr_labels_write_tiff(fp, argv[3], px, w, h, err))
			sr_die(SR_EXIT_DATA, "%s", err);
		sr_out_commit_all();
	} else
		write_grey_png(argv[3], px, w, h);
	free(px);
	return SR_EXIT_OK;
}

static int
cmd_labelmosaic(int argc, char **argv)
{
	char err[SR_ERRLEN];
	size_t size, n, k, cols, rows, r, c, x, y;
	uint32_t *out, offset = 0, max;
	sr_labels *in;
	FILE *fp;

	if (argc < 4)
		sr_usage_error("labelmosaic: expected SIZE, OUT.tif and at least "
		    "one IN");
	size = parse_size(argv[1], 1, 32768, "SIZE");
	if (!is_tiff_name(argv[2]))
		sr_usage_error("%s: labels are written as TIFF", argv[2]);
	n = (size_t)argc - 3;
	in = sr_calloc(n, sizeof *in);
	for (k = 0; k < n; k++) {
		if (sr_labels_read(argv[3 + k], &in[k], err))
			sr_die(SR_EXIT_DATA, "%s", err);
		if (in[k].w != in[0].w || in[k].h != in[0].h)
			sr_die(SR_EXIT_DATA, "%s: %zux%zu, unlike %s", argv[3 + k],
			    in[k].w, in[k].h, argv[3]);
	}
	cols = size / in[0].w;
	rows = size / in[0].h;
	out = sr_calloc(size * size, sizeof *out);
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++) {
			const sr_labels *l = &in[(r * cols + c) % n];
			max = 0;
			for (y = 0; y < l->h; y++)
				for (x = 0; x < l->w; x++) {
					uint32_t v = l->px[y * l->w + x];
					if (v > max)
						max = v;
					if (v && (uint64_t)v + offset > UINT32_MAX)
						sr_die(SR_EXIT_DATA, "labelmosaic: "
						    "labels beyond 32 bits");
					out[(r * l->h + y) * size + c * l->w + x] =
					    v ? v + offset : 0;
				}
			offset += max;
		}
	fp = sr_out_open(argv[2]);
	if (sr_labels_write_tiff(fp, argv[2], out, size, size, err))
		sr_die(SR_EXIT_DATA, "%s", err);
	sr_out_commit_all();
	for (k = 0; k < n; k++)
		sr_labels_free(&in[k]);
	free(in);
	free(out);
	return SR_EXIT_OK;
}

int
main(int argc, char **argv)
{
	sr_init(argv[0]);
	if (argc < 2)
		sr_usage_error("expected a command: convert, mosaic or labels");
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		sr_out_commit_all();
		return SR_EXIT_OK;
	}
	if (strcmp(argv[1], "convert") == 0)
		return cmd_convert(argc - 1, argv + 1);
	if (strcmp(argv[1], "mosaic") == 0)
		return cmd_mosaic(argc - 1, argv + 1);
	if (strcmp(argv[1], "labels") == 0)
		return cmd_labels(argc - 1, argv + 1);
	if (strcmp(argv[1], "crop") == 0)
		return cmd_crop(argc - 1, argv + 1);
	if (strcmp(argv[1], "solid") == 0)
		return cmd_solid(argc - 1, argv + 1);
	if (strcmp(argv[1], "blank") == 0)
		return cmd_blank(argc - 1, argv + 1);
	if (strcmp(argv[1], "threshold") == 0)
		return cmd_threshold(argc - 1, argv + 1);
	if (strcmp(argv[1], "frame") == 0)
		return cmd_frame(argc - 1, argv + 1);
	if (strcmp(argv[1], "info") == 0)
		return cmd_info(argc - 1, argv + 1);
	if (strcmp(argv[1], "raw") == 0)
		return cmd_raw(argc - 1, argv + 1);
	if (strcmp(argv[1], "absurd") == 0)
		return cmd_absurd(argc - 1, argv + 1);
	if (strcmp(argv[1], "zeros") == 0)
		return cmd_zeros(argc - 1, argv + 1);
	if (strcmp(argv[1], "bomb") == 0)
		return cmd_bomb(argc - 1, argv + 1);
	if (strcmp(argv[1], "draw") == 0)
		return cmd_draw(argc - 1, argv + 1);
	if (strcmp(argv[1], "labelmosaic") == 0)
		return cmd_labelmosaic(argc - 1, argv + 1);
	if (strcmp(argv[1], "diff") == 0)
		return cmd_diff(argc - 1, argv + 1);
	if (strcmp(argv[1], "slide") == 0)
		return testslide_main(argc - 1, argv + 1);
	sr_usage_error("unknown command '%s'", argv[1]);
}
