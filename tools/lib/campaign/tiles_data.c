/* tiles_data.c - the campaign's tiles for the driver (tiles_data.h). */
#include "campaign/tiles_data.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign/data.h"
#include "core/err.h"
#include "core/out.h"
#include "core/path.h"
#include "core/text.h"
#include "image/tiles.h"
#include "image/tiletable.h"
#include "plan/results.h"

/* The start of a tile table's header: its first two columns. */
#define TABLE_HEAD SR_TILETABLE_TILE "\t" SR_TILETABLE_SLIDE "\t"

/* Whether s is no tile: blank, or a comment after spaces. */
static int
skipped(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return *s == '\0' || *s == '#';
}

/* Drops one CR ending s. */
static void
drop_cr(char *s)
{
	size_t n = strlen(s);
	if (n > 0 && s[n - 1] == '\r')
		s[n - 1] = '\0';
}

int
sr_data_tiles_kind(const char *list)
{
	FILE *fp = fopen(list, "r");
	if (!fp)
		sr_die_errno("%s", list);
	fclose(fp);
	return sr_tiletable_sniff(list);
}

/* The directory of list, resolved, with a '/' after it. */
static char *
list_dir(const char *list)
{
	char *d = sr_path_real_dir(list);
	if (!d)
		sr_die_errno("%s: its directory", list);
	size_t n = strlen(d);
	if (n && d[n - 1] == '/')
		return d;
	char *s = sr_path_join(d, "", "");
	free(d);
	return s;
}

/* ---- a directory of tiles (tiles = DIR) ----------------------------- */

const char *sr_data_tiles_ref_suffix;

static int
by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Whether name ends in end, ASCII case ignored. */
static int
ends_with(const char *name, const char *end, int nocase)
{
	size_t n = strlen(name), m = strlen(end);

	return n > m && (nocase ? !strcasecmp(name + n - m, end) :
	    !strcmp(name + n - m, end));
}

int
sr_data_tiles_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The tiles of directory dir, absolute, in name order (bytes): its
 * regular files ending in .png, .tif or .tiff (any case), but for those
 * ending in suffix (references) and hidden ones. */
static void
dir_absolute(const char *dir, const char *suffix, FILE *fp)
{
	struct dirent **e;
	char *abs = sr_path_real(dir), *p;
	int n = abs ? scandir(abs, &e, NULL, by_name) : -1;
	struct stat st;
	size_t found = 0;

	if (n < 0)
		sr_die_errno("%s", dir);
	for (int i = 0; i < n; i++) {
		const char *name = e[i]->d_name;
		p = sr_path_join(abs, name, "");
		if (name[0] != '.' && (ends_with(name, ".png", 1) ||
		    ends_with(name, ".tif", 1) || ends_with(name, ".tiff", 1)) &&
		    !(suffix && *suffix && ends_with(name, suffix, 0)) &&
		    stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
			if (strchr(name, '\t') || strchr(name, '\n'))
				sr_die(SR_EXIT_DATA, "%s: a tab or newline in "
				    "the name of a tile: rename it", p);
			fprintf(fp, "%s\n", p);
			found++;
		}
		free(p);
		free(e[i]);
	}
	free(e);
	free(abs);
	if (!found)
		sr_die(SR_EXIT_DATA, "%s: no PNG or TIFF tile in the directory%s%s"
		    "%s", dir, suffix && *suffix ? " (images ending in " : "",
		    suffix && *suffix ? suffix : "", suffix && *suffix ?
		    " are references)" : "");
}

/* A tiles list (or a list of slides) with absolute paths. */
static void
list_absolute(const char *list, const char *what, FILE *fp)
{
	char *dir = list_dir(list);
	sr_datareader r;
	sr_data_open(&r, list);
	while (sr_data_next(&r)) {
		char *p = r.line, *e;
		drop_cr(p);
		if (skipped(p))
			continue;
		while (isspace((unsigned char)*p))
			p++;
		e = p + strlen(p);
		while (e > p && isspace((unsigned char)e[-1]))
			*--e = '\0';
		if (strchr(p, '\t')) {
			free(dir);
			sr_die(SR_EXIT_DATA, "%s:%ld: a tab in a %s's name: "
			    "rename the %s", list, r.lineno, what, what);
		}
		const char *name = strrchr(p, '/'), *dot;
		name = name ? name + 1 : p;
		dot = strrchr(name, '.');
		if ((dot ? dot : name + strlen(name)) == name) {
			free(dir);
			sr_die(SR_EXIT_DATA, "%s:%ld: '%s': a %s needs a name "
			    "before its extension", list, r.lineno, name, what);
		}
		fprintf(fp, "%s%s\n", *p == '/' ? "" : dir, p);
	}
	sr_data_close(&r);
	free(dir);
}

/* A tile table, checked, its slides absolute. */
static void
table_absolute(const char *list, FILE *fp)
{
	sr_tiletable_free(sr_tiletable_read(list));
	char *dir = list_dir(list);
	sr_datareader r;
	int head = 0;
	sr_data_open(&r, list);
	while (sr_data_next(&r)) {
		char *p = r.line, *slide;
		drop_cr(p);
		if (skipped(p) || !head++) {
			fprintf(fp, "%s\n", p);
			continue;
		}
		/* the reader checked the row: it has a slide column */
		slide = strchr(p, '\t') + 1;
		fprintf(fp, "%.*s%s%s\n", (int)(slide - p), p,
		    *slide == '/' ? "" : dir, slide);
	}
	sr_data_close(&r);
	free(dir);
}

void
sr_data_tiles(const char *list, const char *what, FILE *fp)
{
	if (!strcmp(what, "tile") && sr_data_tiles_is_dir(list))
		dir_absolute(list, sr_data_tiles_ref_suffix, fp);
	else if (!strcmp(what, "tile") && sr_data_tiles_kind(list))
		table_absolute(list, fp);
	else
		list_absolute(list, what, fp);
}

/* Calls fn on each tile line of list (a table's header not one) with its
 * index from 0, on the header with -1 and on a table's "#slide" comment
 * lines (the slides' colour moments, tiletable(5)) with -2; returns the
 * tiles. */
static long
each_tile(const char *list, void (*fn)(const char *line, long k, int table,
    void *arg), void *arg)
{
	sr_datareader r;
	long k = 0;
	int first = 1, table = 0;
	sr_data_open(&r, list);
	while (sr_data_next(&r)) {
		if (skipped(r.line)) {
			if (fn && !strncmp(r.line, "#slide ", 7))
				fn(r.line, -2, table, arg);
			continue;
		}
		if (first && !strncmp(r.line, TABLE_HEAD, strlen(TABLE_HEAD))) {
			first = 0;
			table = 1;
			if (fn)
				fn(r.line, -1, table, arg);
			continue;
		}
		first = 0;
		if (fn)
			fn(r.line, k, table, arg);
		k++;
	}
	sr_data_close(&r);
	return k;
}

long
sr_data_tiles_count(const char *list)
{
	return each_tile(list, NULL, NULL);
}

typedef struct {
	FILE *fp;
	const char *suffix;
	long lo, n;
} tiles_arg;

static void
put_name(const char *line, long k, int table, void *arg)
{
	tiles_arg *a = arg;
	if (k < 0)
		return;
	if (table) {
		fprintf(a->fp, "%.*s%s\n", (int)strcspn(line, "\t"), line,
		    a->suffix);
		return;
	}
	char *s = sr_strdup(line), *p = s, *e;
	while (isspace((unsigned char)*p))
		p++;
	e = p + strlen(p);
	while (e > p && isspace((unsigned char)e[-1]))
		*--e = '\0';
	char *stem = sr_path_stem(p);
	fprintf(a->fp, "%s%s\n", stem, a->suffix);
	free(stem);
	free(s);
}

void
sr_data_tiles_names(const char *list, const char *suffix, FILE *fp)
{
	tiles_arg a = { fp, suffix ? suffix : "", 0, 0 };
	each_tile(list, put_name, &a);
}

/* A chunk keeps the table's "#slide" lines and header, and its tiles. */
static void
put_chunk(const char *line, long k, int table, void *arg)
{
	tiles_arg *a = arg;
	(void)table;
	if (k < 0 || (k >= a->lo && k - a->lo < a->n))
		fprintf(a->fp, "%s\n", line);
}

void
sr_data_tiles_chunk(const char *list, long c, long n, FILE *fp)
{
	tiles_arg a = { fp, NULL, c * n, n };
	each_tile(list, put_chunk, &a);
}

/* ---- results per slide ------------------------------------------------ */

typedef struct {
	const char *tile;
	size_t slide;		/* index into the sorted slides */
} tile_slide;

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
cmp_tile(const void *a, const void *b)
{
	return strcmp(((const tile_slide *)a)->tile,
	    ((const tile_slide *)b)->tile);
}

/* Makes directory path unless it exists. */
static void
make_dir(const char *path)
{
	if (mkdir(path, 0777) < 0 && errno != EEXIST)
		sr_die_errno("%s", path);
}

/* The field col (0-based) of line, as a new string; NULL without it. */
static char *
field(const char *line, int col)
{
	for (int i = 0; i < col; i++) {
		if (!(line = strchr(line, '\t')))
			return NULL;
		line++;
	}
	size_t n = strcspn(line, "\t");
	char *s = sr_malloc(n + 1);
	memcpy(s, line, n);
	s[n] = '\0';
	return s;
}

/* The 0-based column named name in the header line, or -1. */
static int
column(const char *line, const char *name)
{
	size_t n = strlen(name);
	for (int i = 0; line; i++) {
		if (!strncmp(line, name, n) && (line[n] == '\t' || !line[n]))
			return i;
		if ((line = strchr(line, '\t')))
			line++;
	}
	return -1;
}

void
sr_data_slides(const char *out, FILE *fp)
{
	char *list = sr_path_join(out, "tiles.list", "");
	char *res = sr_path_join(out, "results.tsv", "");
	sr_tiletable *tt = sr_tiletable_read(list);
	char **stem = sr_calloc(tt->n, sizeof *stem), **slide;
	tile_slide *ts = sr_calloc(tt->n, sizeof *ts);
	size_t i, ns = 0;

	for (i = 0; i < tt->n; i++)
		stem[i] = sr_path_stem(tt->row[i].slide);
	slide = sr_calloc(tt->n, sizeof *slide);
	memcpy(slide, stem, tt->n * sizeof *slide);
	qsort(slide, tt->n, sizeof *slide, cmp_str);
	for (i = 0; i < tt->n; i++)
		if (!ns || strcmp(slide[i], slide[ns - 1]))
			slide[ns++] = slide[i];
	for (i = 0; i < tt->n; i++) {
		char **s = bsearch(&stem[i], slide, ns, sizeof *slide, cmp_str);
		ts[i] = (tile_slide){ tt->row[i].tile, (size_t)(s - slide) };
	}
	qsort(ts, tt->n, sizeof *ts, cmp_tile);

	/* the results' header checked before anything is made */
	sr_datareader r;
	int col = -1;
	sr_data_open(&r, res);
	while (col < 0 && sr_data_next(&r))
		if (r.line[0] != '#' && (col = column(r.line,
		    SR_RESULTS_TILE)) < 0)
			sr_die(SR_EXIT_DATA, "%s:%ld: no column %s in the "
			    "header", res, r.lineno, SR_RESULTS_TILE);
	sr_data_close(&r);
	if (col < 0)
		sr_die(SR_EXIT_DATA, "%s: no header", res);

	/* an output per slide, its directory made */
	FILE **o = sr_calloc(ns ? ns : 1, sizeof *o);
	char *dir = sr_path_join(out, "slides", "");
	make_dir(dir);
	for (i = 0; i < ns; i++) {
		char *d = sr_path_join(dir, slide[i], "");
		char *p = sr_path_join(d, "results.tsv", "");
		make_dir(d);
		o[i] = sr_out_open(p);
		free(p);
		free(d);
	}

	int head = 0;
	sr_data_open(&r, res);
	while (sr_data_next(&r)) {
		if (r.line[0] == '#' || !head++) {
			for (i = 0; i < ns; i++)
				fprintf(o[i], "%s\n", r.line);
			continue;
		}
		tile_slide key = { field(r.line, col), 0 }, *hit = NULL;
		if (key.tile)
			hit = bsearch(&key, ts, tt->n, sizeof *ts, cmp_tile);
		if (hit)
			fprintf(o[hit->slide], "%s\n", r.line);
		free((char *)key.tile);
	}
	sr_data_close(&r);
	for (i = 0; i < ns; i++)
		fprintf(fp, "%s\n", slide[i]);

	for (i = 0; i < tt->n; i++)
		free(stem[i]);
	free(stem);
	free(slide);
	free(ts);
	free(o);
	free(dir);
	free(res);
	free(list);
	sr_tiletable_free(tt);
}

/* ---- tiles and references checked before a plan ------------------------ */

/* A directory's tiles as a list file (dir_absolute), in a temporary
 * file: its path, newly allocated. */
static char *
dir_list_file(const char *dir, const char *suffix)
{
	const char *tmp = getenv("TMPDIR");
	char *path = sr_path_join(tmp && *tmp ? tmp : "/tmp",
	    "sa-campaign-data", ".XXXXXX");
	int fd = mkstemp(path);
	FILE *fp = fd < 0 ? NULL : fdopen(fd, "w");

	if (!fp)
		sr_die_errno("%s", path);
	dir_absolute(dir, suffix, fp);
	if (fclose(fp))
		sr_die_io("%s", path);
	return path;
}

void
sr_data_tiles_check(const char *list, const char *refdir, const char *suffix)
{
	int isdir = sr_data_tiles_is_dir(list);
	char *tmp = isdir ? dir_list_file(list, suffix) : NULL;
	sr_tiles *t;
	size_t i, bad = 0;
	char *ref;
	int e;

	if (isdir) {
		FILE *fp = fopen(tmp, "r");
		int empty = !fp || fgetc(fp) == EOF;
		if (fp)
			fclose(fp);
		if (empty) {
			unlink(tmp);
			sr_die(SR_EXIT_DATA, "%s: no PNG or TIFF tile in the "
			    "directory", list);
		}
	}
	t = sr_tiles_read(isdir ? tmp : list);
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}

	for (i = 0; i < t->n; i++) {
		if (!t->region && access(t->path[i], R_OK) != 0) {
			sr_warn("%s:%zu: %s: no such readable tile: %s", t->list,
			    t->line[i], SR_SHOW(t->path[i]), strerror(errno));
			bad++;
			continue;
		}
		if (!refdir || !*refdir)
			continue;
		ref = sr_tile_ref_path(t, i, refdir, suffix && *suffix ? suffix :
		    NULL, &e);
		if (e && isdir) {
			sr_warn("%s: no reference mask %s: %s",
			    SR_SHOW(t->path[i]), SR_SHOW(ref), strerror(e));
			bad++;
		} else if (e) {
			sr_warn("%s:%zu: tile %s: no reference mask %s%s: %s",
			    t->list, t->line[i], SR_SHOW(t->name[i]),
			    SR_SHOW(ref), t->region ? ", nor its slide's GeoJSON" :
			    "", strerror(e));
			bad++;
		}
		free(ref);
	}
	if (bad)
		sr_die(SR_EXIT_DATA, "%s: %zu of %zu tile(s) cannot be run "
		    "(above): nothing planned", list, bad, t->n);
	sr_tiles_free(t);
}
