/* tiletable.c - the tile table: reader and writers (tiletable.h). */
#include "image/tiletable.h"
#include "core/err.h"
#include "core/hash.h"
#include "core/num.h"
#include "core/path.h"
#include "core/tsv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const header[] = {
	SR_TILETABLE_TILE, SR_TILETABLE_SLIDE, SR_TILETABLE_LEVEL,
	SR_TILETABLE_X, SR_TILETABLE_Y, SR_TILETABLE_WIDTH,
	SR_TILETABLE_HEIGHT, SR_TILETABLE_TISSUE, SR_TILETABLE_OVERLAP,
	SR_TILETABLE_NEIGHBOURS
};
#define NCOL (sizeof header / sizeof *header)
#define NCOL_BASE (NCOL - 2)	/* without overlap and neighbours */

enum { C_TILE, C_SLIDE, C_LEVEL, C_X, C_Y, C_W, C_H, C_TISSUE, C_OVERLAP,
    C_NEIGHBOURS };

/* Whether line (without its newline) starts as the header does, with
 * its first two columns (the reader then checks the rest, so that a
 * table with a wrong column is refused as a table, not read as a tiles
 * list). */
static int
is_header(const char *line)
{
	size_t a = strlen(header[C_TILE]), b = strlen(header[C_SLIDE]);

	return strncmp(line, header[C_TILE], a) == 0 && line[a] == '\t' &&
	    strncmp(line + a + 1, header[C_SLIDE], b) == 0 &&
	    (line[a + 1 + b] == '\t' || line[a + 1 + b] == '\0');
}

int
sr_tiletable_sniff(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL, *p;
	size_t cap = 0;
	int found = 0;

	if (fp == NULL)
		return 0;
	while (getline(&line, &cap, fp) >= 0) {
		line[strcspn(line, "\r\n")] = '\0';
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		if (*p == '\0' || *p == '#')
			continue;
		found = is_header(line);
		break;
	}
	free(line);
	fclose(fp);
	return found;
}

/* A whole number of column col in [lo, hi]. */
static long long
whole(const sr_tsv *t, int col, long long lo, long long hi)
{
	long v = sr_tsv_long(t, col);

	if (v < lo || v > hi)
		sr_tsv_die_value(t, col, "is not a whole number from %lld to "
		    "%lld", lo, hi);
	return v;
}

/* The row's tile name, checked. */
static const char *
tile_name(const sr_tsv *t)
{
	const char *s = sr_tsv_str(t, C_TILE);

	if (*s == '\0')
		sr_tsv_die(t, C_TILE, "empty tile name");
	if (strchr(s, '/') || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		sr_tsv_die_value(t, C_TILE, "cannot name a file (a tile's masks "
		    "are named after it)");
	return s;
}

/* The row's overlap and neighbours, checked against its size. */
static void
read_own(const sr_tsv *t, sr_tilerow *r)
{
	const char *why;

	r->own.overlap = (size_t)whole(t, C_OVERLAP, 0,
	    SR_TILETABLE_MAX_SIDE);
	if (sr_near_parse(sr_tsv_str(t, C_NEIGHBOURS), &r->own.near) < 0)
		sr_tsv_die_value(t, C_NEIGHBOURS, "is not '-' or some of nw,n,"
		    "ne,w,e,sw,s,se in that order, joined by commas");
	if ((why = sr_tileown_check(&r->own, r->w, r->h)) != NULL)
		sr_tsv_die_value(t, C_OVERLAP, "%s (%llux%llu)", why,
		    (unsigned long long)r->w, (unsigned long long)r->h);
}

static void
read_row(const sr_tsv *t, sr_tilerow *r)
{
	double tissue;

	memset(r, 0, sizeof *r);
	r->tile = sr_strdup(tile_name(t));
	if (*sr_tsv_str(t, C_SLIDE) == '\0')
		sr_tsv_die(t, C_SLIDE, "empty slide path");
	r->slide = sr_strdup(sr_tsv_str(t, C_SLIDE));
	r->level = (int)whole(t, C_LEVEL, 0, SR_SLIDE_MAX_LEVELS - 1);
	r->x = (uint64_t)whole(t, C_X, 0, SR_TILETABLE_MAX_COORD);
	r->y = (uint64_t)whole(t, C_Y, 0, SR_TILETABLE_MAX_COORD);
	r->w = (uint64_t)whole(t, C_W, 1, SR_TILETABLE_MAX_SIDE);
	r->h = (uint64_t)whole(t, C_H, 1, SR_TILETABLE_MAX_SIDE);
	tissue = sr_tsv_double(t, C_TISSUE);
	if (!(tissue >= 0 && tissue <= 1))
		sr_tsv_die_value(t, C_TISSUE, "is not a fraction from 0 to 1");
	r->tissue = tissue;
	r->line = t->lineno;
	if (t->ncol == NCOL)
		read_own(t, r);
}

/* Three numbers "a,b,c" of the "#slide" line's word key into v (sd:
 * positive); 0 when absent, dies on a bad value. */
static int
moments_word(const sr_tsv *t, const char *line, const char *key, double *v,
    int sd)
{
	size_t klen = strlen(key);
	const char *p = line, *w = NULL;
	char buf[3 * SR_NUMLEN + 3], *tok, *save;
	int k = 0;

	while ((p = strstr(p, key)) != NULL) {	/* " key=" */
		if (p > line && p[-1] == ' ' && p[klen] == '=')
			w = p + klen + 1;
		p += klen;
	}
	if (w == NULL)
		return 0;
	snprintf(buf, sizeof buf, "%.*s", (int)strcspn(w, " "), w);
	for (tok = strtok_r(buf, ",", &save); tok && k < 3;
	    tok = strtok_r(NULL, ",", &save), k++)
		if (sr_parse_double(tok, &v[k]) || !isfinite(v[k]) ||
		    (sd && v[k] <= 0))
			break;
	if (k != 3 || tok != NULL)
		sr_die(SR_EXIT_DATA, "%s: '#%.60s': %s is not three %s numbers",
		    t->path, line, key, sd ? "positive" : "finite");
	return 1;
}

/* Gives each row its slide's moments from the "#slide NAME: ..." lines
 * (NAME the slide's file name without extension), NaN without. */
static void
slide_moments(const sr_tsv *t, sr_tiletable *tt)
{
	size_t i, j, k, len;
	char *stem;

	for (i = 0; i < tt->n; i++)
		for (k = 0; k < 6; k++)
			tt->row[i].norm[k] = NAN;
	for (j = 0; j < t->ncomment; j++) {
		const char *c = t->comment[j];
		double m[6];
		if (strncmp(c, "slide ", 6) != 0)
			continue;
		len = strcspn(c + 6, ":");
		if (!moments_word(t, c, "norm_mean", m, 0) +
		    !moments_word(t, c, "norm_sd", m + 3, 1))
			continue;	/* both or none */
		for (i = 0; i < tt->n; i++) {
			stem = sr_path_stem(tt->row[i].slide);
			if (strlen(stem) == len && strncmp(stem, c + 6, len) == 0)
				memcpy(tt->row[i].norm, m, sizeof m);
			free(stem);
		}
	}
}

sr_tiletable *
sr_tiletable_read(const char *path)
{
	sr_tsv *t = sr_tsv_open(path);
	sr_tiletable *tt = sr_calloc(1, sizeof *tt);
	sr_interner names;
	size_t cap = 0, id;
	int added;

	if (!sr_tsv_header_is(t, header, NCOL) &&
	    !sr_tsv_header_is(t, header, NCOL_BASE))
		sr_tsv_die(t, -1, "not a tile table header (tile slide level x y "
		    "width height tissue, then optionally overlap neighbours)");
	tt->file = sr_strdup(path);
	sr_interner_init(&names);
	while (sr_tsv_next(t)) {
		if (tt->n == cap) {
			cap = cap ? 2 * cap : 64;
			tt->row = sr_reallocarray(tt->row, cap, sizeof *tt->row);
		}
		read_row(t, &tt->row[tt->n]);
		id = sr_intern_str(&names, tt->row[tt->n].tile, &added);
		if (!added)
			sr_tsv_die_value(t, C_TILE, "repeats the tile of line %zu",
			    tt->row[id].line);
		tt->n++;
	}
	sr_interner_free(&names);
	if (tt->n == 0)
		sr_die(SR_EXIT_DATA, "%s: no tiles", path);
	slide_moments(t, tt);
	sr_tsv_close(t);
	return tt;
}

void
sr_tiletable_free(sr_tiletable *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++) {
		free(t->row[i].tile);
		free(t->row[i].slide);
	}
	free(t->row);
	free(t->file);
	free(t);
}

void
sr_tiletable_write_header(FILE *fp, int own)
{
	size_t i, n = own ? NCOL : NCOL_BASE;

	for (i = 0; i < n; i++)
		fprintf(fp, "%s%s", header[i], i + 1 < n ? "\t" : "\n");
}

void
sr_tiletable_write_slide(FILE *fp, const char *name, const sr_slide *s,
    int level, size_t size, size_t overlap, size_t kept, size_t grid,
    double threshold, double tissue_area, double covered, const double *norm)
{
	char num[SR_NUMLEN];

	int i;

	fprintf(fp, "#slide %s: %llux%llu levels=%d downsamples=", name,
	    (unsigned long long)s->w[0], (unsigned long long)s->h[0],
	    s->nlevel);
	for (i = 0; i < s->nlevel; i++) {
		fputs(i ? "," : "", fp);
		sr_put_double(fp, s->ds[i]);
	}
	fputs(" mpp=", fp);
	if (isnan(s->mpp))
		fputc('-', fp);
	else
		sr_put_double(fp, s->mpp);
	fprintf(fp, " vendor=%s level=%d tile_size=%zu overlap=%zu tiles=%zu/%zu"
	    " tissue_threshold=", s->vendor, level, size, overlap, kept, grid);
	sr_put_double(fp, threshold);
	fprintf(fp, " tissue_area=%.0f covered=%s", tissue_area, isnan(covered) ?
	    "-" : sr_fmt_sig(num, covered, 4));
	for (i = 0; norm && i < 6; i++)
		fprintf(fp, "%s%s", i == 0 ? " norm_mean=" : i == 3 ? " norm_sd=" :
		    ",", sr_fmt_double(num, norm[i]));
	fputc('\n', fp);
}

void
sr_tiletable_write_row(FILE *fp, const sr_tilerow *r, int own)
{
	char t[32], near[SR_NEAR_LEN];
	size_t n;

	/* four decimals, trailing zeros dropped: 0.5, 1, 0.3672 */
	n = (size_t)snprintf(t, sizeof t, "%.4f", r->tissue);
	while (n > 1 && t[n - 1] == '0')
		t[--n] = '\0';
	if (t[n - 1] == '.')
		t[n - 1] = '\0';
	fprintf(fp, "%s\t%s\t%d\t%llu\t%llu\t%llu\t%llu\t%s", r->tile,
	    r->slide, r->level, (unsigned long long)r->x,
	    (unsigned long long)r->y, (unsigned long long)r->w,
	    (unsigned long long)r->h, t);
	if (own) {
		sr_near_format(r->own.near, near);
		fprintf(fp, "\t%zu\t%s", r->own.overlap, near);
	}
	fputc('\n', fp);
}
