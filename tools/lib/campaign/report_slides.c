/* report_slides.c - the section of sa-report's page on the slides of a
 * campaign on slides (report_page.h): for each slide, what wsi-tiles
 * found and kept (its "#slide" line in OUT/tiles.list: the level, the
 * tiles of the grid kept, the tissue and the share of it in the kept
 * tiles), its thumbnail (OUT/slides/NAME.png: the tissue outlined in
 * green, the kept tiles in blue) and its joined GeoJSON files. */
#include "campaign/report_page.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/html.h"
#include "campaign/report_html.h"
#include "core/tsv.h"
#include "core/err.h"
#include "core/mem.h"
#include "core/num.h"
#include "image/tiling.h"

#define SLIDE_LINE "#slide "

/* The "#slide" lines of OUT/tiles.list (without "#slide "), at most
 * max, newly allocated; the comments before its first other line. */
static size_t
slide_lines(const char *outdir, char **line, size_t max)
{
	char *path = sr_report_path(outdir, "tiles.list"), *buf = NULL;
	size_t cap = 0, n = 0;
	ssize_t len;
	FILE *fp = fopen(path, "r");

	if (fp == NULL) {
		if (errno != ENOENT)
			sr_die_errno("%s", path);
		free(path);
		return 0;
	}
	while ((len = getline(&buf, &cap, fp)) > 0 && buf[0] == '#') {
		if (strncmp(buf, SLIDE_LINE, strlen(SLIDE_LINE)) != 0)
			continue;
		buf[strcspn(buf, "\r\n")] = '\0';
		if (line && n < max)
			line[n] = sr_strdup(buf + strlen(SLIDE_LINE));
		n++;
	}
	if (ferror(fp))
		sr_die_errno("%s", path);
	fclose(fp);
	free(buf);
	free(path);
	return n;
}

size_t
sr_report_nslides(const char *outdir)
{
	return slide_lines(outdir, NULL, 0);
}

/* The slide's name: its line up to the colon, newly allocated. */
static char *
slide_name(const char *line)
{
	size_t len = strcspn(line, ":");
	char *name = sr_malloc(len + 1);

	memcpy(name, line, len);
	name[len] = '\0';
	return name;
}

/* The number of key in the slide's line, NaN when absent or not one. */
static double
slide_num(const char *line, const char *key)
{
	char *v = sr_tsv_word(line, key);
	double x = NAN;

	if (v && sr_parse_double(v, &x))
		x = NAN;
	free(v);
	return x;
}

/* The slide's tissue: level-0 pixels, and mm² when its mpp is known. */
static void
tissue_cell(FILE *fp, const char *line)
{
	char a[SR_REPORT_NUMLEN], b[SR_REPORT_NUMLEN], text[160];
	double area = slide_num(line, "tissue_area"), mpp = slide_num(line,
	    "mpp");

	if (isnan(area))
		snprintf(text, sizeof text, "-");
	else if (isnan(mpp))
		snprintf(text, sizeof text, "%s px", sr_report_num(a, area, 4));
	else
		snprintf(text, sizeof text, "%s mm² (%s px)", sr_report_num(a,
		    area * mpp * mpp / 1e6, 3), sr_report_num(b, area, 4));
	sr_report_cell(fp, "td", "n", text);
}

/* The share of the tissue in the kept tiles, a warning below what
 * wsi-tiles warns of. */
static void
covered_cell(FILE *fp, const char *line)
{
	char a[SR_REPORT_NUMLEN], text[160];
	double c = slide_num(line, "covered");

	if (isnan(c))
		snprintf(text, sizeof text, "no tissue");
	else
		snprintf(text, sizeof text, "%s %%%s", sr_report_num(a, 100 * c,
		    3), c < SR_TILING_MIN_COVERAGE ? " (tissue left out)" : "");
	sr_report_cell(fp, "td", "n", text);
}

/* The runs' joined GeoJSON files of slide name (OUT/geojson/RUN/
 * NAME.geojson): how many, the first linked. */
static void
geojson_note(FILE *fp, const char *outdir, const char *name)
{
	char *dir = sr_report_path(outdir, "geojson"), *rel, *first = NULL;
	struct dirent *e;
	size_t n = 0;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		size_t len = strlen(e->d_name) + strlen(name) + 20;
		rel = sr_malloc(len);
		snprintf(rel, len, "geojson/%s/%s.geojson", e->d_name, name);
		if (!sr_report_has(outdir, rel)) {
			free(rel);
			continue;
		}
		if (first == NULL || strcmp(rel, first) < 0) {
			free(first);
			first = rel;
		} else
			free(rel);
		n++;
	}
	if (d)
		closedir(d);
	if (n > 0) {
		fputs("<p class=\"note\">Its nuclei, joined per run: <a href=\"",
		    fp);
		sr_html_text(fp, first);
		fputs("\">", fp);
		sr_html_text(fp, first);
		fprintf(fp, "</a>%s, one file per run (%zu).</p>\n",
		    n > 1 ? " and the others beside it" : "", n);
	}
	free(first);
	free(dir);
}

/* The slide's figure: its thumbnail, when the plan drew one. */
static void
slide_figure(FILE *fp, const char *outdir, const char *name, const char *line)
{
	size_t len = strlen(name) + 12;
	char *rel = sr_malloc(len), *path, *tiles = sr_tsv_word(line, "tiles");

	snprintf(rel, len, "slides/%s.png", name);
	if (sr_report_has(outdir, rel)) {
		path = sr_report_path(outdir, rel);
		fputs("<figure>\n", fp);
		sr_report_png(fp, path, rel);
		fputs("\n<figcaption><b>", fp);
		sr_html_text(fp, name);
		fputs("</b>: the tissue found outlined in green, the ", fp);
		sr_html_text(fp, tiles ? tiles : "?");
		fputs(" tiles kept (of the grid's) in blue.</figcaption>\n"
		    "</figure>\n", fp);
		free(path);
	}
	geojson_note(fp, outdir, name);
	free(tiles);
	free(rel);
}

void
sr_report_section_slides(FILE *fp, const sr_report_page *r)
{
	static const char *const word[] = { "level", "tile_size", "overlap",
	    "tiles" };	/* the columns after the slide's name */
	size_t n = r->nslides, i, k;
	char **line = sr_calloc(n + 1, sizeof *line), *name, *v;

	n = slide_lines(r->out, line, n);
	fputs("<section id=\"slides\">\n<h2>Slides</h2>\n<p class=\"note\">"
	    "The tiles wsi-tiles cut from each slide and kept for their tissue; "
	    "the tissue is that of its detection on a low level, a share of it "
	    "in the kept tiles below 95 % means tissue no run has seen.</p>\n"
	    "<table class=\"data\">\n<thead><tr><th>slide</th>"
	    "<th class=\"n\">level</th><th class=\"n\">tile size</th>"
	    "<th class=\"n\">overlap</th><th class=\"n\">tiles kept</th>"
	    "<th class=\"n\">tissue</th><th class=\"n\">in the tiles</th></tr>"
	    "</thead>\n<tbody>\n", fp);
	for (i = 0; i < n; i++) {
		name = slide_name(line[i]);
		fputs("<tr>", fp);
		sr_report_cell(fp, "td", NULL, name);
		for (k = 0; k < sizeof word / sizeof word[0]; k++) {
			v = sr_tsv_word(line[i], word[k]);
			sr_report_cell(fp, "td", "n", v ? v : "-");
			free(v);
		}
		tissue_cell(fp, line[i]);
		covered_cell(fp, line[i]);
		fputs("</tr>\n", fp);
		free(name);
	}
	fputs("</tbody>\n</table>\n", fp);
	for (i = 0; i < n; i++) {
		name = slide_name(line[i]);
		slide_figure(fp, r->out, name, line[i]);
		free(name);
		free(line[i]);
	}
	fputs("</section>\n", fp);
	free(line);
}
