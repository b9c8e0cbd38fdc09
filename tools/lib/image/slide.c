/* slide.c - whole-slide images through OpenSlide (see slide.h). */
#include "image/slide.h"
#include "image/format.h"
#include "image/tiff.h"
#include "core/err.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <openslide/openslide.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---------------------------------------------------------- OpenSlide */

/* OpenSlide, loaded when the first slide is opened (dlopen) rather than
 * linked: linked, its 45 libraries (glib, cairo, ICU, X11 among them)
 * cost every start of every tool ~30 ms, although most runs read no
 * slide and the driver starts the tools thousands of times. The
 * pointers have the header's types. */
static struct {
	__typeof__(openslide_detect_vendor) *detect_vendor;
	__typeof__(openslide_open) *open;
	__typeof__(openslide_close) *close;
	__typeof__(openslide_get_error) *get_error;
	__typeof__(openslide_get_level_count) *get_level_count;
	__typeof__(openslide_get_level_dimensions) *get_level_dimensions;
	__typeof__(openslide_get_level_downsample) *get_level_downsample;
	__typeof__(openslide_get_property_value) *get_property_value;
	__typeof__(openslide_read_region) *read_region;
} os;
static pthread_once_t os_once = PTHREAD_ONCE_INIT;
static char os_error[SR_ERRLEN];	/* why OpenSlide could not be loaded */

/* Looks f up in h into os.f (memcpy: ISO C has no cast from void * to a
 * function pointer); 0, or -1 naming the missing function. */
#define OS_SYM(h, f) os_sym((h), "openslide_" #f, &os.f, sizeof os.f)
static int
os_sym(void *h, const char *name, void *dst, size_t size)
{
	void *p = dlsym(h, name);

	if (p == NULL) {
		snprintf(os_error, sizeof os_error, "OpenSlide's library "
		    "lacks %s", name);
		return -1;
	}
	memcpy(dst, &p, size);
	return 0;
}

static void
os_load(void)
{
	static const char *const lib[] = { "libopenslide.so.0",
	    "libopenslide.so.1", "libopenslide.so" };
	void *h = NULL;

	for (size_t i = 0; h == NULL && i < sizeof lib / sizeof *lib; i++)
		h = dlopen(lib[i], RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		snprintf(os_error, sizeof os_error, "cannot load OpenSlide "
		    "(%s): install libopenslide0", dlerror());
		return;
	}
	if (OS_SYM(h, detect_vendor) < 0 || OS_SYM(h, open) < 0 ||
	    OS_SYM(h, close) < 0 || OS_SYM(h, get_error) < 0 ||
	    OS_SYM(h, get_level_count) < 0 ||
	    OS_SYM(h, get_level_dimensions) < 0 ||
	    OS_SYM(h, get_level_downsample) < 0 ||
	    OS_SYM(h, get_property_value) < 0 || OS_SYM(h, read_region) < 0)
		os.open = NULL;	/* not loaded: os_error says why */
	/* h stays open: the slides use it until the process ends */
}

/* Loads OpenSlide once (thread-safe); 0, or -1 with errbuf set. */
static int
os_ready(const char *path, char *errbuf)
{
	pthread_once(&os_once, os_load);
	if (os.open != NULL)
		return 0;
	sr_seterr(errbuf, "%s: %s", path, os_error);
	errno = 0;
	return -1;
}

/* ---------------------------------------------------------- opening */

/* A property parsed as a finite positive number, or NaN. */
static double
property_number(openslide_t *osr, const char *name)
{
	const char *v = os.get_property_value(osr, name);
	char *end;
	double d;

	if (v == NULL)
		return NAN;
	errno = 0;
	d = strtod(v, &end);
	return (end != v && *end == '\0' && errno == 0 && isfinite(d) &&
	    d > 0) ? d : NAN;
}

/* The microns per pixel: the mean of x and y, either alone, or NaN. */
static double
slide_mpp(openslide_t *osr)
{
	double x = property_number(osr, OPENSLIDE_PROPERTY_NAME_MPP_X);
	double y = property_number(osr, OPENSLIDE_PROPERTY_NAME_MPP_Y);

	if (isnan(x))
		return y;
	return isnan(y) ? x : (x + y) / 2;
}

/* openslide.background-color ("RRGGBB" in hex) into bg; white without
 * one (or with one that is not six hex digits). */
static void
slide_background(openslide_t *osr, uint8_t bg[3])
{
	const char *v = os.get_property_value(osr,
	    OPENSLIDE_PROPERTY_NAME_BACKGROUND_COLOR);
	unsigned long rgb;
	char *end;

	memset(bg, 255, 3);
	if (v == NULL || strlen(v) != 6 || strspn(v, "0123456789abcdefABCDEF")
	    != 6)
		return;
	rgb = strtoul(v, &end, 16);
	bg[0] = (uint8_t)(rgb >> 16);
	bg[1] = (uint8_t)(rgb >> 8);
	bg[2] = (uint8_t)rgb;
}

/* libtiff's first error since sr_tiff_begin as " (libtiff: MESSAGE)"
 * into buf, path cut out and line breaks made spaces; "" when none. */
static void
libtiff_note(const char *path, char *buf, size_t size)
{
	char m[SR_ERRLEN], *at;
	size_t len = strlen(path);

	snprintf(m, sizeof m, "%s", sr_tiff_message());
	if (len && (at = strstr(m, path)) != NULL && strncmp(at + len, ": ",
	    2) == 0)
		memmove(at, at + len + 2, strlen(at + len + 2) + 1);
	for (at = m; *at; at++)
		if (*at == '\n' || *at == '\r')
			*at = ' ';
	if (*m)
		snprintf(buf, size, " (libtiff: %s)", m);
	else
		buf[0] = '\0';
}

/* Sets errbuf to "PATH: OpenSlide: MESSAGE[ (libtiff: MESSAGE)]" for
 * OpenSlide's error on osr; returns -1. */
static int
openslide_fail(const char *path, openslide_t *osr, char *errbuf)
{
	const char *e = osr ? os.get_error(osr) : NULL;
	char note[SR_ERRLEN + 16];

	libtiff_note(path, note, sizeof note);
	sr_seterr(errbuf, "%s: OpenSlide: %s%s", path, e ? e : "unknown error",
	    note);
	errno = 0;	/* bad data (exit 1), whatever OpenSlide left in errno */
	return -1;
}

/* Whether path starts with a TIFF signature (classic or BigTIFF). */
static int
is_tiff(const char *path)
{
	unsigned char b[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return 0;
	ok = read(fd, b, 4) == 4 && (memcmp(b, "II*\0", 4) == 0 ||
	    memcmp(b, "MM\0*", 4) == 0 || memcmp(b, "II+\0", 4) == 0 ||
	    memcmp(b, "MM\0+", 4) == 0);
	close(fd);
	return ok;
}

/* Why OpenSlide recognises no format in path, into errbuf; -1. */
static int
unrecognised(const char *path, char *errbuf)
{
	char note[SR_ERRLEN + 16];

	libtiff_note(path, note, sizeof note);
	if (is_tiff(path))
		sr_seterr(errbuf, "%s: a TIFF that OpenSlide cannot read "
		    "(truncated, corrupt, or not tiled)%s", path, note);
	else
		sr_seterr(errbuf, "%s: not a slide OpenSlide can read (no "
		    "format it knows)", path);
	errno = 0;
	return -1;
}

/* Fills the levels; -1 with errbuf set when OpenSlide reports none, too
 * many, or one without pixels. */
/* Whether level i is narrower or shorter than its tiles
 * (openslide.level[i].tile-width, -height). */
static int
narrower_than_tiles(const sr_slide *s, int i)
{
	char name[64];
	double tw, th;

	snprintf(name, sizeof name, "openslide.level[%d].tile-width", i);
	tw = property_number(s->osr, name);
	snprintf(name, sizeof name, "openslide.level[%d].tile-height", i);
	th = property_number(s->osr, name);
	return (double)s->w[i] < tw || (double)s->h[i] < th;
}

static int
slide_levels(sr_slide *s, char *errbuf)
{
	int64_t w, h;
	int i;

	s->nlevel = os.get_level_count(s->osr);
	if (s->nlevel < 1 || os.get_error(s->osr))
		return openslide_fail(s->path, s->osr, errbuf);
	if (s->nlevel > SR_SLIDE_MAX_LEVELS) {
		sr_seterr(errbuf, "%s: %d levels (at most %d are read)", s->path,
		    s->nlevel, SR_SLIDE_MAX_LEVELS);
		return -1;
	}
	for (i = 0; i < s->nlevel; i++) {
		os.get_level_dimensions(s->osr, i, &w, &h);
		s->ds[i] = os.get_level_downsample(s->osr, i);
		if (w <= 0 || h <= 0 || !(s->ds[i] >= 1)) {
			sr_seterr(errbuf, "%s: level %d has no pixels (%lldx%lld)",
			    s->path, i, (long long)w, (long long)h);
			return -1;
		}
		s->w[i] = (uint64_t)w;
		s->h[i] = (uint64_t)h;
		s->narrow[i] = narrower_than_tiles(s, i);
	}
	return 0;
}

/* Refuses what is not a readable regular file, with the system's
 * reason. */
static int
check_file(const char *path, char *errbuf)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return sr_image_errno_fail(errbuf, path, NULL, errno);
	if (S_ISDIR(st.st_mode))
		return sr_image_errno_fail(errbuf, path, NULL, EISDIR);
	if (access(path, R_OK) != 0)
		return sr_image_errno_fail(errbuf, path, NULL, errno);
	errno = 0;
	return 0;
}

sr_slide *
sr_slide_open(const char *path, char *errbuf)
{
	sr_slide *s;
	const char *vendor;

	if (check_file(path, errbuf) < 0 ||
	    (is_tiff(path) && sr_tiff_check_pyramid(path, errbuf) < 0) ||
	    os_ready(path, errbuf) < 0)
		return NULL;
	sr_tiff_begin();
	if (os.detect_vendor(path) == NULL) {
		unrecognised(path, errbuf);
		return NULL;
	}
	s = sr_calloc(1, sizeof *s);
	s->path = sr_strdup(path);
	if ((s->osr = os.open(path)) == NULL) {
		unrecognised(path, errbuf);
		sr_slide_close(s);
		return NULL;
	}
	if (os.get_error(s->osr) || slide_levels(s, errbuf) < 0) {
		if (os.get_error(s->osr))
			openslide_fail(path, s->osr, errbuf);
		sr_slide_close(s);
		return NULL;
	}
	s->mpp = slide_mpp(s->osr);
	vendor = os.get_property_value(s->osr,
	    OPENSLIDE_PROPERTY_NAME_VENDOR);
	snprintf(s->vendor, sizeof s->vendor, "%s", vendor && *vendor ?
	    vendor : "-");
	slide_background(s->osr, s->bg);
	return s;
}

void
sr_slide_close(sr_slide *s)
{
	if (s == NULL)
		return;
	if (s->osr)
		os.close(s->osr);
	free(s->path);
	free(s);
}

/* ---------------------------------------------------------- reading */

int
sr_slide_read_argb(sr_slide *s, int level, int64_t x, int64_t y, size_t w,
    size_t h, uint32_t *argb, char *errbuf)
{
	if (level < 0 || level >= s->nlevel) {
		sr_seterr(errbuf, "%s: level %d does not exist (levels 0 to %d)",
		    s->path, level, s->nlevel - 1);
		errno = 0;
		return -1;
	}
	if (w == 0 || h == 0 || w > INT32_MAX || h > INT32_MAX) {
		sr_seterr(errbuf, "%s: cannot read a region of %zux%zu pixels",
		    s->path, w, h);
		errno = 0;
		return -1;
	}
	if (s->failed)
		return openslide_fail(s->path, s->osr, errbuf);
	sr_tiff_begin();
	os.read_region(s->osr, argb, x, y, level, (int64_t)w,
	    (int64_t)h);
	if (os.get_error(s->osr)) {
		s->failed = 1;
		return openslide_fail(s->path, s->osr, errbuf);
	}
	return 0;
}

void
sr_slide_argb_to_rgb(const sr_slide *s, const uint32_t *argb, size_t n,
    uint8_t *rgb)
{
	size_t i;
	uint32_t p, a, k;

	/* forward, 4 bytes read for 3 written: safe in place */
	for (i = 0; i < n; i++) {
		p = argb[i];
		a = p >> 24;
		if (a == 255) {		/* opaque, nearly always */
			rgb[3 * i] = (uint8_t)(p >> 16);
			rgb[3 * i + 1] = (uint8_t)(p >> 8);
			rgb[3 * i + 2] = (uint8_t)p;
			continue;
		}
		for (k = 0; k < 3; k++)
			rgb[3 * i + k] = (uint8_t)(((p >> (16 - 8 * k)) & 255) +
			    ((255 - a) * s->bg[k] + 127) / 255);
	}
}

int
sr_slide_read(sr_slide *s, int level, int64_t x, int64_t y, size_t w,
    size_t h, sr_rgb *img, char *errbuf)
{
	uint32_t *argb;
	uint8_t *rgb;

	memset(img, 0, sizeof *img);
	errno = 0;
	if (sr_image_check_size(s->path, w, h, errbuf) < 0)
		return -1;
	if ((argb = sr_image_alloc(w, h, 4, s->path, errbuf)) == NULL)
		return -1;
	if (sr_slide_read_argb(s, level, x, y, w, h, argb, errbuf) < 0) {
		free(argb);
		return -1;
	}
	sr_slide_argb_to_rgb(s, argb, w * h, (uint8_t *)argb);
	rgb = realloc(argb, w * h * 3);	/* shrinking: keeps argb on failure */
	img->rgb = rgb ? rgb : (uint8_t *)argb;
	img->w = w;
	img->h = h;
	return 0;
}

/* ---------------------------------------------------- the slide, small */

#define BAND_BYTES	((size_t)16 << 20)	/* ARGB read at once, at most */

/* Adds the n rows of level pixels in rgb (lw wide, a band starting at a
 * multiple of f) into sum (per small pixel of the band's rows, and
 * channel) and cnt (per small pixel). */
static void
accumulate(const sr_slide_small *sm, uint64_t lw, const uint8_t *rgb,
    size_t n, uint32_t *sum, uint32_t *cnt)
{
	size_t r, c, k, m, f = sm->f, w = sm->img.w;

	for (r = 0; r < n; r++) {
		size_t row = r / f * w;

		for (c = 0; c < lw; c++) {
			m = row + c / f;
			for (k = 0; k < 3; k++)
				sum[3 * m + k] += rgb[3 * (r * lw + c) + k];
			cnt[m]++;
		}
	}
}

/* Reads the level in bands (whole rows of the small image each) and
 * box-averages each into its rows of sm->img. */
static int
read_bands(sr_slide *s, sr_slide_small *sm, void (*progress)(void *, double),
    void *ctx, char *errbuf)
{
	uint64_t lw = s->w[sm->level], lh = s->h[sm->level], r;
	size_t f = sm->f, band = BAND_BYTES / (4 * lw) / f * f, n = 0, i;
	size_t w = sm->img.w, rows, np;
	uint32_t *argb, *sum, *cnt;
	uint8_t *out;
	int rc = 0;

	band = band ? band : f;
	rows = band / f;
	np = rows * w;
	if (sr_image_check_budget(s->path, "reading the slide in bands",
	    (uint64_t)band * lw * 4 + (uint64_t)np * 16, errbuf) < 0)
		return -1;
	sum = sr_image_alloc(np, 3, sizeof *sum, s->path, errbuf);
	cnt = sr_image_alloc(np, 1, sizeof *cnt, s->path, errbuf);
	argb = sr_image_alloc(band, lw, 4, s->path, errbuf);
	if (!sum || !cnt || !argb)
		rc = -1;
	for (r = 0; rc == 0 && r < lh; r += n) {
		n = lh - r < band ? (size_t)(lh - r) : band;
		rc = sr_slide_read_argb(s, sm->level, 0, llround((double)r *
		    s->ds[sm->level]), lw, n, argb, errbuf);
		if (rc < 0)
			break;
		memset(sum, 0, np * 3 * sizeof *sum);
		memset(cnt, 0, np * sizeof *cnt);
		sr_slide_argb_to_rgb(s, argb, lw * n, (uint8_t *)argb);
		accumulate(sm, lw, (uint8_t *)argb, n, sum, cnt);
		out = sm->img.rgb + 3 * (r / f) * w;
		for (i = 0; i < 3 * ((n + f - 1) / f) * w; i++)
			out[i] = (uint8_t)((sum[i] + cnt[i / 3] / 2) / cnt[i / 3]);
		if (progress)
			progress(ctx, (double)(r + n) / (double)lh);
	}
	free(argb);
	free(sum);
	free(cnt);
	return rc;
}

int
sr_slide_read_small(sr_slide *s, double ds,
    void (*progress)(void *ctx, double done), void *ctx,
    sr_slide_small *sm, char *errbuf)
{
	uint64_t lw, lh;
	double f;

	memset(sm, 0, sizeof *sm);
	sm->level = sr_slide_level_for_downsample(s, ds);
	lw = s->w[sm->level];
	lh = s->h[sm->level];
	f = floor(ds / s->ds[sm->level] + 0.5);
	sm->f = f < 1 ? 1 : (size_t)f;
	sm->img.w = (size_t)((lw + sm->f - 1) / sm->f);
	sm->img.h = (size_t)((lh + sm->f - 1) / sm->f);
	sm->sx = (double)sm->f * (double)s->w[0] / (double)lw;
	sm->sy = (double)sm->f * (double)s->h[0] / (double)lh;
	errno = 0;
	if (sr_image_check_size(s->path, sm->img.w, sm->img.h, errbuf) < 0 ||
	    (sm->img.rgb = sr_image_alloc(sm->img.w, sm->img.h, 3, s->path,
	    errbuf)) == NULL)
		return -1;
	if (read_bands(s, sm, progress, ctx, errbuf) < 0) {
		sr_rgb_free(&sm->img);
		return -1;
	}
	return 0;
}

int
sr_slide_level_for_mpp(const sr_slide *s, double mpp)
{
	double best = INFINITY, d;
	int i, level = -1;

	if (isnan(s->mpp))
		return -1;
	for (i = 0; i < s->nlevel; i++) {
		d = fabs(s->mpp * s->ds[i] - mpp);
		if (d < best) {
			best = d;
			level = i;
		}
	}
	return level;
}

int
sr_slide_level_for_downsample(const sr_slide *s, double ds)
{
	int i, level = 0;

	/* (not a level narrower than its tiles: through OpenSlide's
	 * generic TIFF reader, Debian 12's libtiff 4.5.0 warns "Raster
	 * width ... adapted" and returns scrambled pixels for it) */
	for (i = 1; i < s->nlevel; i++)
		if (s->ds[i] <= ds * (1 + 1e-9) && s->ds[i] > s->ds[level] &&
		    !s->narrow[i])
			level = i;
	return level;
}

/* ---------------------------------------------------------- the pool */

typedef struct {
	sr_slide *s;
	size_t refs;
	unsigned long long used;	/* the clock at the last get */
} pooled;

struct sr_slidepool {
	pthread_mutex_t mu;
	pooled *e;
	size_t n, cap, max;
	unsigned long long clock;
};

sr_slidepool *
sr_slidepool_new(size_t max)
{
	sr_slidepool *p = sr_calloc(1, sizeof *p);

	pthread_mutex_init(&p->mu, NULL);
	p->max = max ? max : 1;
	return p;
}

/* Closes the least recently used slide nobody holds, if max are open.
 * Called locked. */
static void
make_room(sr_slidepool *p)
{
	size_t i, lru = p->n;

	if (p->n < p->max)
		return;
	for (i = 0; i < p->n; i++)
		if (p->e[i].refs == 0 && (lru == p->n ||
		    p->e[i].used < p->e[lru].used))
			lru = i;
	if (lru == p->n)
		return;
	sr_slide_close(p->e[lru].s);
	p->e[lru] = p->e[--p->n];
}

sr_slide *
sr_slidepool_get(sr_slidepool *p, const char *path, char *errbuf)
{
	sr_slide *s = NULL;
	size_t i;

	pthread_mutex_lock(&p->mu);
	for (i = 0; i < p->n; i++)
		if (strcmp(p->e[i].s->path, path) == 0 && !p->e[i].s->failed)
			break;
	if (i == p->n) {
		make_room(p);
		if ((s = sr_slide_open(path, errbuf)) == NULL) {
			pthread_mutex_unlock(&p->mu);
			return NULL;
		}
		if (p->n == p->cap) {
			p->cap = p->cap ? 2 * p->cap : 4;
			p->e = sr_reallocarray(p->e, p->cap, sizeof *p->e);
		}
		p->e[p->n++] = (pooled){ s, 0, 0 };
		i = p->n - 1;
	}
	p->e[i].refs++;
	p->e[i].used = ++p->clock;
	s = p->e[i].s;
	pthread_mutex_unlock(&p->mu);
	return s;
}

void
sr_slidepool_put(sr_slidepool *p, sr_slide *s)
{
	size_t i;

	pthread_mutex_lock(&p->mu);
	for (i = 0; i < p->n; i++)
		if (p->e[i].s == s)
			break;
	if (i < p->n && --p->e[i].refs == 0 && s->failed) {
		sr_slide_close(s);
		p->e[i] = p->e[--p->n];
	}
	pthread_mutex_unlock(&p->mu);
}

void
sr_slidepool_free(sr_slidepool *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->n; i++)
		sr_slide_close(p->e[i].s);
	free(p->e);
	pthread_mutex_destroy(&p->mu);
	free(p);
}
