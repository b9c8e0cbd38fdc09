/* tiling.c - a slide cut into tiles (tiling.h). */
#include "image/tiling.h"
#include "core/err.h"
#include "core/path.h"
#include "image/nuclei.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
sr_tiling_check_names(char *const *slide, size_t n)
{
	char *a, *b;
	size_t i, j;

	for (i = 0; i < n; i++) {
		a = sr_path_stem(slide[i]);
		if (*a == '\0' || strpbrk(slide[i], "\t\n\r"))
			sr_usage_error("'%s': a slide needs a file name without "
			    "tabs or line breaks", slide[i]);
		for (j = 0; j < i; j++) {
			b = sr_path_stem(slide[j]);
			if (strcmp(a, b) == 0)
				sr_usage_error("slides %s and %s have one name, %s: "
				    "their tiles' names would clash", slide[j],
				    slide[i], a);
			free(b);
		}
		free(a);
	}
}

int
sr_tiling_level(const sr_slide *s, const sr_tilingopts *o, char *errbuf)
{
	int level;

	if (o->mpp > 0) {
		if ((level = sr_slide_level_for_mpp(s, o->mpp)) < 0)
			sr_seterr(errbuf, "%s: the slide has no microns per pixel "
			    "(mpp) to choose a level by: give --level instead",
			    s->path);
		return level;
	}
	level = o->level < 0 ? 0 : o->level;
	if (level >= s->nlevel) {
		sr_seterr(errbuf, "%s: level %d does not exist (the slide has "
		    "levels 0 to %d)", s->path, level, s->nlevel - 1);
		return -1;
	}
	return level;
}

/* The number of tiles of side size at step along a side of n pixels:
 * tiles start at 0, step, 2 step, ... until one reaches the end. */
static size_t
count_along(uint64_t n, size_t size, size_t step)
{
	if (n <= size)
		return 1;
	return (size_t)((n - size + step - 1) / step) + 1;
}

/* Fills r with tile (i, j) of the grid: its level-0 corner, its size at
 * the level (cut at the level's edge). */
static void
grid_tile(const sr_slide *s, int level, const sr_tilingopts *o, size_t i,
    size_t j, sr_tilerow *r)
{
	uint64_t step = o->size - o->overlap;
	uint64_t u = i * step, v = j * step;

	r->level = level;
	r->x = (uint64_t)llround((double)u * s->ds[level]);
	r->y = (uint64_t)llround((double)v * s->ds[level]);
	r->w = s->w[level] - u < o->size ? s->w[level] - u : o->size;
	r->h = s->h[level] - v < o->size ? s->h[level] - v : o->size;
}

/* A tile of the grid, kept or not: its level-0 rectangle, its tissue. */
typedef struct {
	double x, y, w, h, tissue;
} grid_rect;

/* The first of n mask pixels of side px whose centre, (k + 0.5) px, is
 * at or past v. */
static size_t
first_centre(double v, double px, size_t n)
{
	double k = ceil(v / px - 0.5);

	return k <= 0 ? 0 : k >= (double)n ? n : (size_t)k;
}

/* The share of t's tissue whose mask pixels have their centre in a tile
 * of r[0..n) with at least m tissue (r's tiles with tissue > 0 when m is
 * 0); NaN when t has none. A tile that reaches the slide's right or
 * bottom edge (w, h, level 0) holds the mask's pixels past it: the mask
 * is whole pixels of the level it was read at, the last ones straddling
 * the edge. in: t->w * t->h bytes of scratch. */
static double
coverage_at(const sr_tissue *t, const grid_rect *r, size_t n, double m,
    double w, double h, uint8_t *in)
{
	size_t i, y, x0, x1, y0, y1, tissue = 0, held = 0;

	memset(in, 0, t->w * t->h);
	for (i = 0; i < n; i++) {
		if (r[i].tissue < m || r[i].tissue <= 0)
			continue;
		x0 = first_centre(r[i].x, t->sx, t->w);
		x1 = r[i].x + r[i].w >= w ? t->w :
		    first_centre(r[i].x + r[i].w, t->sx, t->w);
		y0 = first_centre(r[i].y, t->sy, t->h);
		y1 = r[i].y + r[i].h >= h ? t->h :
		    first_centre(r[i].y + r[i].h, t->sy, t->h);
		for (y = y0; x1 > x0 && y < y1; y++)
			memset(in + y * t->w + x0, 1, x1 - x0);
	}
	for (i = 0; i < t->w * t->h; i++)
		if (t->mask[i]) {
			tissue++;
			held += in[i];
		}
	return tissue ? (double)held / (double)tissue : NAN;
}

/* The tissue's area and share in the kept tiles into out, and the lower
 * min_tissue to suggest (tiling.h). */
static void
coverage(const sr_slide *s, const sr_tissue *t, const sr_tilingopts *o,
    const grid_rect *r, size_t n, sr_tiling *out)
{
	double w = (double)s->w[0], h = (double)s->h[0];
	uint8_t *in = sr_malloc(t->w * t->h + 1);
	size_t i, tissue = 0;
	double m;

	for (i = 0; i < t->w * t->h; i++)
		tissue += t->mask[i] != 0;
	out->tissue_area = (double)tissue * t->sx * t->sy;
	out->covered = coverage_at(t, r, n, o->min_tissue, w, h, in);
	out->suggest = NAN;
	for (m = o->min_tissue / 2; !isnan(out->covered) &&
	    out->covered < o->min_coverage; m /= 2) {
		if (m < 1.0 / 256)
			m = 0;
		if (coverage_at(t, r, n, m, w, h, in) >= o->min_coverage) {
			out->suggest = m;
			break;
		}
		if (m == 0)
			break;
	}
	free(in);
}

/* The slide's colour moments into out (tiling.h): one image of the
 * sampled regions' pixels, side by side (the moments count colours,
 * wherever they are). The regions are centred on tissue pixels of t
 * spread evenly in raster order, so that the moments depend on the slide,
 * its tissue and the level, never on the tiles: a slide cut at any tile
 * size is normalized alike. */
static void
slide_moments(sr_slide *s, int level, const sr_tissue *t, sr_tiling *out)
{
	size_t i, k = 0, n, ntissue = 0, next, total = 0;
	size_t side = SR_TILING_NORM_SIDE, rw, rh;
	double ds = s->ds[level], fg, cx, cy;
	int64_t x, y;
	char err[SR_ERRLEN];
	sr_rgb all = { 0, 0, NULL }, part;

	for (i = 0; i < t->w * t->h; i++)
		ntissue += t->mask[i] != 0;
	n = out->n == 0 ? 0 : ntissue < SR_TILING_NORM_SAMPLES ? ntissue :
	    SR_TILING_NORM_SAMPLES;
	rw = s->w[level] < side ? s->w[level] : side;
	rh = s->h[level] < side ? s->h[level] : side;
	next = ntissue / (2 * (n ? n : 1));	/* the middle of each share */
	for (i = 0; k < n && i < t->w * t->h; i++) {
		if (t->mask[i] == 0 || next-- > 0)
			continue;
		next = ntissue / n - 1;
		/* the region of the level centred there, inside the level */
		cx = ((double)(i % t->w) + 0.5) * t->sx / ds - (double)rw / 2;
		cy = ((double)(i / t->w) + 0.5) * t->sy / ds - (double)rh / 2;
		x = llround(fmin(fmax(cx, 0), (double)(s->w[level] - rw)));
		y = llround(fmin(fmax(cy, 0), (double)(s->h[level] - rh)));
		if (sr_slide_read(s, level, llround((double)x * ds),
		    llround((double)y * ds), rw, rh, &part, err) < 0)
			sr_die(SR_EXIT_DATA, "%s", err);
		all.rgb = sr_reallocarray(all.rgb, total + rw * rh, 3);
		memcpy(all.rgb + 3 * total, part.rgb, 3 * rw * rh);
		total += rw * rh;
		sr_rgb_free(&part);
		k++;
	}
	all.w = total;
	all.h = 1;
	out->has_norm = k > 0 && sr_norm_stats(&all, out->norm, out->norm + 3,
	    &fg) == 0 && fg >= SR_NORM_MIN_FOREGROUND && out->norm[3] > 0 &&
	    out->norm[4] > 0 && out->norm[5] > 0;
	free(all.rgb);
}

/* Each kept tile's neighbours in the grid that are kept too (owner.h);
 * r->own.near holds the tile's cell, j nx + i, until then. */
static void
neighbours(sr_tiling *g, const grid_rect *all, double min_tissue)
{
	static const int dx[] = { -1, 0, 1, -1, 1, -1, 0, 1 };
	static const int dy[] = { -1, -1, -1, 0, 0, 1, 1, 1 };
	size_t k, i, j;
	long x, y;
	int b;

	for (k = 0; k < g->n; k++) {
		i = g->row[k].own.near % g->nx;
		j = g->row[k].own.near / g->nx;
		g->row[k].own.near = 0;
		for (b = 0; b < 8; b++) {
			x = (long)i + dx[b];
			y = (long)j + dy[b];
			if (x >= 0 && y >= 0 && (size_t)x < g->nx &&
			    (size_t)y < g->ny && all[(size_t)y * g->nx +
			    (size_t)x].tissue >= min_tissue)
				g->row[k].own.near |= 1u << b;
		}
		if (g->row[k].own.overlap == 0)
			g->row[k].own.near = 0;
	}
}

void
sr_tiling_make(sr_slide *s, int level, const sr_tilingopts *o,
    const sr_tissue *t, const char *name, const char *slide, sr_tiling *out)
{
	size_t step = o->size - o->overlap, i, j, cap = 0, len;
	double ds = s->ds[level];
	grid_rect *all;
	sr_tilerow r;
	FILE *mem;

	memset(out, 0, sizeof *out);
	out->level = level;
	out->nx = count_along(s->w[level], o->size, step);
	out->ny = count_along(s->h[level], o->size, step);
	all = sr_calloc(out->nx * out->ny, sizeof *all);
	for (j = 0; j < out->ny; j++)
		for (i = 0; i < out->nx; i++) {
			memset(&r, 0, sizeof r);
			grid_tile(s, level, o, i, j, &r);
			r.tissue = sr_tissue_fraction(t, (double)r.x, (double)r.y,
			    (double)r.w * ds, (double)r.h * ds);
			all[j * out->nx + i] = (grid_rect){ (double)r.x,
			    (double)r.y, (double)r.w * ds, (double)r.h * ds,
			    r.tissue };
			if (r.tissue < o->min_tissue)
				continue;
			len = strlen(name) + 2 * 21 + 3;
			r.tile = sr_malloc(len);
			snprintf(r.tile, len, "%s_%llu_%llu", name,
			    (unsigned long long)r.x, (unsigned long long)r.y);
			r.slide = sr_strdup(slide);
			r.own.overlap = o->overlap;
			r.own.near = j * out->nx + i;	/* its cell, for now */
			if (out->n == cap) {
				cap = cap ? 2 * cap : 64;
				out->row = sr_reallocarray(out->row, cap,
				    sizeof *out->row);
			}
			out->row[out->n++] = r;
		}
	neighbours(out, all, o->min_tissue);
	coverage(s, t, o, all, out->nx * out->ny, out);
	free(all);
	slide_moments(s, level, t, out);
	if ((mem = open_memstream(&out->comment, &len)) == NULL)
		sr_die_errno("memory stream");
	sr_tiletable_write_slide(mem, name, s, level, o->size, o->overlap,
	    out->n, out->nx * out->ny, t->threshold, out->tissue_area,
	    out->covered, out->has_norm ? out->norm : NULL);
	if (fclose(mem) != 0)
		sr_die_errno("memory stream");
}

/* What keeps more of the tissue: "a smaller --size (N) or --min-tissue
 * F (P %% or more kept)". */
static const char *
suggestion(char *buf, size_t len, const sr_tilingopts *o, const sr_tiling *g)
{
	char size[64] = "";

	if (o->size / 2 >= 256)
		snprintf(size, sizeof size, " (%zu)", o->size / 2);
	if (isnan(g->suggest))
		snprintf(buf, len, "a smaller --size%s", size);
	else
		snprintf(buf, len, "a smaller --size%s or --min-tissue %g (%g %% "
		    "or more kept)", size, g->suggest,
		    100 * o->min_coverage);
	return buf;
}

void
sr_tiling_check_coverage(const sr_slide *s, const sr_tilingopts *o,
    const sr_tiling *g, int quiet)
{
	char area[64] = "", buf[256];

	if (isnan(g->covered)) {
		sr_warn("%s: no tissue found%s", s->path, g->n ? "" : ": no tiles");
		return;
	}
	if (!isnan(s->mpp))
		snprintf(area, sizeof area, ", %.3g mm²", g->tissue_area *
		    s->mpp * s->mpp / 1e6);
	if (!quiet)
		fprintf(stderr, "%s: %s: tissue %.4g level-0 pixels%s, %.1f %% of "
		    "it in the %zu tiles kept of %zu\n", sr_progname, s->path,
		    g->tissue_area, area, 100 * g->covered, g->n, g->nx * g->ny);
	if (g->n == 0)
		sr_die(SR_EXIT_DATA, "%s: tissue found, but no tile of the %zu "
		    "has %g %% tissue or more: try %s", s->path, g->nx * g->ny,
		    100 * o->min_tissue, suggestion(buf, sizeof buf, o, g));
	if (g->covered < o->min_coverage)
		sr_warn("%s: the kept tiles hold %.1f %% of the tissue, below "
		    "--min-coverage %g %%: try %s", s->path,
		    100 * g->covered, 100 * o->min_coverage,
		    suggestion(buf, sizeof buf, o, g));
}

void
sr_tiling_free(sr_tiling *g)
{
	size_t i;

	for (i = 0; i < g->n; i++) {
		free(g->row[i].tile);
		free(g->row[i].slide);
	}
	free(g->row);
	free(g->comment);
	memset(g, 0, sizeof *g);
}

/* The level-0 rectangles (x, y, w, h) of the kept tiles (free()). */
static double *
tiling_rects(const sr_slide *s, const sr_tiling *g)
{
	double *rect = sr_calloc(4 * g->n + 1, sizeof *rect);
	double ds = s->ds[g->level];
	size_t i;

	for (i = 0; i < g->n; i++) {
		rect[4 * i] = (double)g->row[i].x;
		rect[4 * i + 1] = (double)g->row[i].y;
		rect[4 * i + 2] = (double)g->row[i].w * ds;
		rect[4 * i + 3] = (double)g->row[i].h * ds;
	}
	return rect;
}

int
sr_tiling_picture(sr_slide *s, const sr_tissue *t, const sr_tiling *g,
    double side, sr_rgb *pic, char *errbuf)
{
	double *rect, longest = (double)(s->w[0] > s->h[0] ? s->w[0] : s->h[0]);
	sr_slide_small small;
	int rc;

	memset(pic, 0, sizeof *pic);
	if (sr_slide_read_small(s, longest > side ? longest / side : 1, NULL,
	    NULL, &small, errbuf) < 0)
		return -1;
	rect = tiling_rects(s, g);
	rc = sr_tissue_picture(t, &small, rect, g->n, pic, errbuf);
	free(rect);
	sr_rgb_free(&small.img);
	return rc;
}
