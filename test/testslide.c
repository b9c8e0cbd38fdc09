/* testslide.c - sa-testimg slide: whole-slide images for tests and
 * benchmarks, written with libtiff tile by tile (never whole in memory).
 *
 *   sa-testimg slide [options] W H OUT 'X Y IMAGE'...
 *	a W x H slide (level 0) on an off-white background, each IMAGE (PNG
 *	or TIFF, read whole: small tiles such as MoNuSeg's) placed with its
 *	top-left corner at level-0 pixel (X, Y), later ones on top. Light
 *	noise (+-3 on each channel) only within --margin pixels of a placed
 *	image, the background constant elsewhere, so that empty tiles
 *	compress to almost nothing. Levels k = 1 .. --levels - 1 are the
 *	box average of level 0 over D^k x D^k blocks (D = --downsample),
 *	their size rounded up; noise beside the images is drawn afresh at
 *	each level.
 *
 *	--format tiff (default): a generic pyramidal tiled TIFF, each level a
 *	top-level directory, the reduced ones of SUBFILETYPE reduced-image
 *	(what OpenSlide's generic-tiff driver reads); --mpp X writes X
 *	microns per pixel as its resolution (pixels per centimetre), which
 *	OpenSlide does not read for generic TIFF: such a slide has no mpp.
 *	--format svs: the same levels as an Aperio SVS, its first
 *	ImageDescription "Aperio Image Library v12.0.15 ... |AppMag = 40|MPP
 *	= X" (--mpp, default 0.25): OpenSlide's aperio driver, with mpp.
 *
 *	--compression deflate (default; lossless) or jpeg (YCbCr 2x2,
 *	--quality Q, default 90); --tile N (a multiple of 16, default 256);
 *	--levels N (default 3); --downsample D (2 or 4, default 4);
 *	--background R,G,B (default 240,236,242); --margin M (default 64);
 *	--seed S for the noise (default 1); --bigtiff.
 */
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>
#include <unistd.h>

#include "core/err.h"
#include "core/num.h"
#include "core/out.h"
#include "image/image.h"

#define MAX_LEVELS 10

enum { OPT_QUALITY = CHAR_MAX + 1, OPT_BIGTIFF, OPT_MPP, OPT_BACKGROUND,
	OPT_MARGIN, OPT_SEED, OPT_DOWNSAMPLE };

static const struct option slide_opts[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "compression", required_argument, NULL, 'c' },
	{ "quality", required_argument, NULL, OPT_QUALITY },
	{ "tile", required_argument, NULL, 't' },
	{ "levels", required_argument, NULL, 'l' },
	{ "downsample", required_argument, NULL, OPT_DOWNSAMPLE },
	{ "mpp", required_argument, NULL, OPT_MPP },
	{ "background", required_argument, NULL, OPT_BACKGROUND },
	{ "margin", required_argument, NULL, OPT_MARGIN },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "bigtiff", no_argument, NULL, OPT_BIGTIFF },
	{ NULL, 0, NULL, 0 }
};

typedef struct {
	uint64_t x, y;			/* level-0 top-left */
	const sr_rgb *img;		/* set once every image is read */
	size_t k;			/* the image's index */
} placement;

typedef struct {
	uint64_t w, h;			/* level 0 */
	int svs, jpeg, quality, bigtiff, nlevel;
	size_t tile, margin;
	unsigned ds;
	double mpp;			/* <= 0: none (TIFF) */
	uint8_t bg[3];
	uint32_t seed;
	placement *pl;
	size_t npl;
	sr_rgb *imgs;			/* distinct images, by path */
	char **img_path;
	size_t nimg;
} slide;

/* A number in [lo, hi] for the option or argument what (testimg.c). */
long testimg_whole(const char *s, long lo, long hi, const char *what);

/* The index of the image at path, read once however often it is
 * placed. */
static size_t
image(slide *s, const char *path)
{
	char err[SR_ERRLEN];
	size_t i;

	for (i = 0; i < s->nimg; i++)
		if (strcmp(s->img_path[i], path) == 0)
			return i;
	s->imgs = sr_reallocarray(s->imgs, s->nimg + 1, sizeof *s->imgs);
	s->img_path = sr_reallocarray(s->img_path, s->nimg + 1,
	    sizeof *s->img_path);
	if (sr_rgb_read(path, &s->imgs[s->nimg], err) < 0)
		sr_die(SR_EXIT_DATA, "%s", err);
	s->img_path[s->nimg] = sr_strdup(path);
	return s->nimg++;
}

/* 'X Y IMAGE' into a placement (inside the slide). */
static void
place(slide *s, const char *arg)
{
	char path[4096];
	unsigned long long x, y;
	placement *p;
	int n;

	if (sscanf(arg, "%llu %llu %n", &x, &y, &n) != 2 ||
	    snprintf(path, sizeof path, "%s", arg + n) >= (int)sizeof path ||
	    path[0] == '\0')
		sr_usage_error("'%s': expected 'X Y IMAGE'", arg);
	s->pl = sr_reallocarray(s->pl, s->npl + 1, sizeof *s->pl);
	p = &s->pl[s->npl++];
	p->x = x;
	p->y = y;
	p->k = image(s, path);
	if (x + s->imgs[p->k].w > s->w || y + s->imgs[p->k].h > s->h)
		sr_usage_error("'%s': the image (%zux%zu) does not fit in the "
		    "slide (%llux%llu)", arg, s->imgs[p->k].w, s->imgs[p->k].h,
		    (unsigned long long)s->w, (unsigned long long)s->h);
}

/* ---------------------------------------------------------- rendering */

/* Deterministic noise in [-3, 3] for (level, x, y): a 32-bit hash. */
static int
noise(const slide *s, int level, uint64_t x, uint64_t y, int k)
{
	uint64_t h = s->seed * 0x9E3779B97F4A7C15ULL ^ (uint64_t)level << 56 ^
	    x * 0xBF58476D1CE4E5B9ULL ^ y * 0x94D049BB133111EBULL ^
	    (uint64_t)k << 60;

	h ^= h >> 31;
	h *= 0xD6E8FEB86759CB27ULL;
	h ^= h >> 29;
	return (int)(h % 7) - 3;
}

/* The level-0 pixel (x, y) of the topmost placement among pl[0..n)
 * holding it into px; 0 when none does (background). */
static int
scene_pixel(placement *const *pl, size_t n, uint64_t x, uint64_t y,
    const uint8_t **px)
{
	size_t i = n;

	while (i-- > 0)
		if (x >= pl[i]->x && x < pl[i]->x + pl[i]->img->w &&
		    y >= pl[i]->y && y < pl[i]->y + pl[i]->img->h) {
			*px = pl[i]->img->rgb + 3 * ((y - pl[i]->y) *
			    pl[i]->img->w + (x - pl[i]->x));
			return 1;
		}
	return 0;
}

/* Level pixel (u, v) of downsample d: the mean of its block of level 0
 * (clipped to the slide) where the block meets a placement; else the
 * background, with noise near one. */
static void
render_pixel(const slide *s, int level, uint64_t d, placement *const *near,
    size_t nnear, uint64_t u, uint64_t v, uint8_t *out)
{
	uint64_t x0 = u * d, y0 = v * d, x1 = x0 + d, y1 = y0 + d, x, y, n = 0;
	uint64_t sum[3] = { 0, 0, 0 }, hit = 0, m = s->margin;
	const uint8_t *px;
	size_t i;
	int k, near_any = 0;

	x1 = x1 > s->w ? s->w : x1;
	y1 = y1 > s->h ? s->h : y1;
	for (i = 0; i < nnear; i++) {
		const placement *p = near[i];

		if (x0 < p->x + p->img->w && x1 > p->x && y0 < p->y + p->img->h &&
		    y1 > p->y)
			hit = 1;
		if (x0 + m >= p->x && x0 < p->x + p->img->w + m &&
		    y0 + m >= p->y && y0 < p->y + p->img->h + m)
			near_any = 1;
	}
	if (hit) {
		for (y = y0; y < y1; y++)
			for (x = x0; x < x1; x++, n++) {
				if (!scene_pixel(near, nnear, x, y, &px))
					px = s->bg;
				for (k = 0; k < 3; k++)
					sum[k] += px[k];
			}
		for (k = 0; k < 3; k++)
			out[k] = (uint8_t)((sum[k] + n / 2) / n);
		return;
	}
	for (k = 0; k < 3; k++) {
		int c = s->bg[k] + (near_any ? noise(s, level, u, v, k) : 0);

		out[k] = (uint8_t)(c < 0 ? 0 : c > 255 ? 255 : c);
	}
}

/* Renders tile (tx, ty) of level (downsample d, size lw x lh) into buf
 * (tile x tile x 3; beyond the level's edge: background). Returns
 * whether the tile is pure background (nothing placed or noisy near it). */
static int
render_tile(const slide *s, int level, uint64_t d, uint64_t lw, uint64_t lh,
    uint64_t tx, uint64_t ty, placement **near, uint8_t *buf)
{
	uint64_t T = s->tile, u, v, m = s->margin;
	uint64_t fx0 = tx * T * d, fy0 = ty * T * d, fx1 = fx0 + T * d,
	    fy1 = fy0 + T * d;
	size_t i, nnear = 0;

	for (i = 0; i < s->npl; i++) {
		const placement *p = &s->pl[i];

		if (fx0 < p->x + p->img->w + m && fx1 + m > p->x &&
		    fy0 < p->y + p->img->h + m && fy1 + m > p->y)
			near[nnear++] = &s->pl[i];
	}
	for (i = 0; i < T * T; i++)
		memcpy(buf + 3 * i, s->bg, 3);
	if (nnear == 0)
		return 1;
	for (v = 0; v < T && ty * T + v < lh; v++)
		for (u = 0; u < T && tx * T + u < lw; u++)
			render_pixel(s, level, d, near, nnear, tx * T + u,
			    ty * T + v, buf + 3 * (v * T + u));
	return 0;
}

/* ---------------------------------------------------------- writing */

/* The tags of one level's directory. */
static int
set_level_tags(TIFF *tif, const slide *s, int level, uint64_t lw,
    uint64_t lh)
{
	char desc[512];
	int ok;

	ok = TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, (uint32_t)lw) &&
	    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, (uint32_t)lh) &&
	    TIFFSetField(tif, TIFFTAG_TILEWIDTH, (uint32_t)s->tile) &&
	    TIFFSetField(tif, TIFFTAG_TILELENGTH, (uint32_t)s->tile) &&
	    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, 3) &&
	    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, 8) &&
	    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG) &&
	    TIFFSetField(tif, TIFFTAG_SUBFILETYPE, level ?
	    FILETYPE_REDUCEDIMAGE : 0);
	if (ok && s->jpeg)
		ok = TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_JPEG) &&
		    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_YCBCR) &&
		    TIFFSetField(tif, TIFFTAG_YCBCRSUBSAMPLING, 2, 2) &&
		    TIFFSetField(tif, TIFFTAG_JPEGQUALITY, s->quality) &&
		    TIFFSetField(tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
	else if (ok)
		ok = TIFFSetField(tif, TIFFTAG_COMPRESSION,
		    COMPRESSION_ADOBE_DEFLATE) &&
		    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_RGB) &&
		    TIFFSetField(tif, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
	if (ok && s->svs) {
		snprintf(desc, sizeof desc, "Aperio Image Library v12.0.15 \r\n"
		    "%llux%llu [0,0 %llux%llu] (%zux%zu) %s Q=%d%s",
		    (unsigned long long)s->w, (unsigned long long)s->h,
		    (unsigned long long)lw, (unsigned long long)lh, s->tile,
		    s->tile, s->jpeg ? "JPEG/RGB" : "Deflate", s->quality,
		    level ? "" : "|AppMag = 40|MPP = ");
		if (level == 0)
			snprintf(desc + strlen(desc), sizeof desc - strlen(desc),
			    "%g", s->mpp);
		ok = TIFFSetField(tif, TIFFTAG_IMAGEDESCRIPTION, desc);
	} else if (ok && s->mpp > 0)
		ok = TIFFSetField(tif, TIFFTAG_RESOLUTIONUNIT, RESUNIT_CENTIMETER) &&
		    TIFFSetField(tif, TIFFTAG_XRESOLUTION,
		    (float)(1e4 / (s->mpp * (double)(lw ? s->w / lw : 1)))) &&
		    TIFFSetField(tif, TIFFTAG_YRESOLUTION,
		    (float)(1e4 / (s->mpp * (double)(lh ? s->h / lh : 1))));
	return ok;
}

/* Writes level (downsample d) tile by tile, then its directory. */
static void
write_level(TIFF *tif, const slide *s, int level, uint64_t d, uint8_t *buf,
    placement **near, const char *out)
{
	uint64_t lw = (s->w + d - 1) / d, lh = (s->h + d - 1) / d, tx, ty;
	tmsize_t n = (tmsize_t)(s->tile * s->tile * 3);

	if (!set_level_tags(tif, s, level, lw, lh))
		sr_die(SR_EXIT_IO, "%s: cannot set the tags of level %d", out,
		    level);
	for (ty = 0; ty * s->tile < lh; ty++)
		for (tx = 0; tx * s->tile < lw; tx++) {
			render_tile(s, level, d, lw, lh, tx, ty, near, buf);
			if (TIFFWriteEncodedTile(tif, TIFFComputeTile(tif,
			    (uint32_t)(tx * s->tile), (uint32_t)(ty * s->tile),
			    0, 0), buf, n) < 0)
				sr_die(SR_EXIT_IO, "%s: cannot write a tile of "
				    "level %d", out, level);
		}
	if (!TIFFWriteDirectory(tif))
		sr_die(SR_EXIT_IO, "%s: cannot write level %d", out, level);
}

static void
write_slide(const slide *s, const char *out)
{
	FILE *fp = sr_out_open(out);
	placement **near = sr_calloc(s->npl + 1, sizeof *near);
	uint8_t *buf = sr_malloc(s->tile * s->tile * 3);
	uint64_t d = 1;
	TIFF *tif;
	int fd, level;

	if (fflush(fp) != 0 || (fd = dup(fileno(fp))) < 0)
		sr_die_errno("%s", out);
	if ((tif = TIFFFdOpen(fd, out, s->bigtiff ? "w8" : "w")) == NULL)
		sr_die(SR_EXIT_IO, "%s: cannot write TIFF", out);
	for (level = 0; level < s->nlevel; level++, d *= s->ds)
		write_level(tif, s, level, d, buf, near, out);
	TIFFClose(tif);
	free(buf);
	free(near);
	sr_out_commit_all();
}

/* ---------------------------------------------------------- options */

static void
parse_background(slide *s, const char *arg)
{
	unsigned r, g, b;
	char end;

	if (sscanf(arg, "%u,%u,%u%c", &r, &g, &b, &end) != 3 || r > 255 ||
	    g > 255 || b > 255)
		sr_usage_error("--background '%s': expected R,G,B from 0 to 255",
		    arg);
	s->bg[0] = (uint8_t)r;
	s->bg[1] = (uint8_t)g;
	s->bg[2] = (uint8_t)b;
}

static void
parse_slide_opts(slide *s, int argc, char **argv)
{
	const char *why;
	int c;

	while ((c = getopt_long(argc, argv, ":f:c:t:l:", slide_opts, NULL)) != -1)
		switch (c) {
		case 'f':
			if (strcmp(optarg, "svs") && strcmp(optarg, "tiff"))
				sr_usage_error("--format '%s': tiff or svs", optarg);
			s->svs = strcmp(optarg, "svs") == 0;
			break;
		case 'c':
			if (strcmp(optarg, "jpeg") && strcmp(optarg, "deflate"))
				sr_usage_error("--compression '%s': deflate or "
				    "jpeg", optarg);
			s->jpeg = strcmp(optarg, "jpeg") == 0;
			break;
		case OPT_QUALITY: s->quality = (int)testimg_whole(optarg, 1, 100,
		    "--quality"); break;
		case 't': s->tile = (size_t)testimg_whole(optarg, 16, 4096, "--tile");
			if (s->tile % 16)
				sr_usage_error("--tile %zu: not a multiple of 16",
				    s->tile);
			break;
		case 'l': s->nlevel = (int)testimg_whole(optarg, 1, MAX_LEVELS,
		    "--levels"); break;
		case OPT_DOWNSAMPLE: s->ds = (unsigned)testimg_whole(optarg, 2, 4,
		    "--downsample"); break;
		case OPT_MPP:
			if ((why = sr_parse_double(optarg, &s->mpp)) != NULL ||
			    !(s->mpp > 0))
				sr_usage_error("--mpp '%s': a number above 0",
				    optarg);
			break;
		case OPT_BACKGROUND: parse_background(s, optarg); break;
		case OPT_MARGIN: s->margin = (size_t)testimg_whole(optarg, 0, 1 << 20,
		    "--margin"); break;
		case OPT_SEED: s->seed = (uint32_t)testimg_whole(optarg, 0, INT32_MAX,
		    "--seed"); break;
		case OPT_BIGTIFF: s->bigtiff = 1; break;
		default: sr_getopt_fail(c, argv);
		}
}

int
testslide_main(int argc, char **argv)
{
	slide s = { .quality = 90, .tile = 256, .nlevel = 3, .ds = 4,
	    .margin = 64, .bg = { 240, 236, 242 }, .seed = 1 };
	int i;

	parse_slide_opts(&s, argc, argv);
	if (s.svs && s.mpp <= 0)
		s.mpp = 0.25;
	if (argc - optind < 3)
		sr_usage_error("slide: expected W H OUT ['X Y IMAGE'...]");
	s.w = (uint64_t)testimg_whole(argv[optind], 1, 1L << 24, "W");
	s.h = (uint64_t)testimg_whole(argv[optind + 1], 1, 1L << 24, "H");
	for (i = optind + 3; i < argc; i++)
		place(&s, argv[i]);
	for (i = 0; i < (int)s.npl; i++)
		s.pl[i].img = &s.imgs[s.pl[i].k];
	write_slide(&s, argv[optind + 2]);
	for (i = 0; i < (int)s.nimg; i++) {
		sr_rgb_free(&s.imgs[i]);
		free(s.img_path[i]);
	}
	free(s.imgs);
	free(s.img_path);
	free(s.pl);
	return SR_EXIT_OK;
}
