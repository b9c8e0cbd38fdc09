/* geojson_join.c - seg-merge --geojson: the chunks' GeoJSON files of every
 * run and slide joined into one FeatureCollection each (geojson.h). */
#include "image/geojson.h"
#include "core/err.h"
#include "core/out.h"
#include "core/path.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SUFFIX ".geojson"

typedef struct {
	unsigned long run;
	char *slide;
	long chunk;
	char *path;
} chunkfile;

/* The outputs' temporaries, removed if the join dies or is killed: the
 * array is allocated before the first is made, each name complete
 * before it is set. */
static char *volatile *tmps;
static size_t ntmps;
static void (*next_hook)(void);

static void
remove_tmps(void)
{
	size_t i;

	for (i = 0; i < ntmps; i++)
		if (tmps[i])
			unlink(tmps[i]);
	if (next_hook)
		next_hook();
}

/* Whether s is a decimal number without sign; its value in *v. */
static int
parse_number(const char *s, size_t len, unsigned long *v)
{
	size_t i;

	if (len == 0 || len > 9)
		return 0;
	*v = 0;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		*v = 10 * *v + (unsigned long)(s[i] - '0');
	}
	return 1;
}

/* Adds the chunk files of run directory rdir (run r) to *f. */
static void
scan_run(const char *rdir, unsigned long r, chunkfile **f, size_t *n)
{
	DIR *d = opendir(rdir);
	struct dirent *e;
	size_t len, s = strlen(SUFFIX);
	unsigned long c;
	char *path;

	if (!d)
		sr_die_errno("%s", rdir);
	while ((errno = 0, e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')	/* ., .., temporaries */
			continue;
		path = sr_path_join(rdir, e->d_name, "");
		len = strlen(e->d_name);
		if (len < s + 6 || strcmp(e->d_name + len - s, SUFFIX) != 0 ||
		    e->d_name[len - s - 5] != '.' ||
		    !parse_number(e->d_name + len - s - 4, 4, &c))
			sr_die(SR_EXIT_DATA, "%s: not a chunk's GeoJSON file "
			    "(SLIDE.CCCC.geojson)", path);
		*f = sr_reallocarray(*f, *n + 1, sizeof **f);
		(*f)[*n].run = r;
		(*f)[*n].slide = sr_strdup(e->d_name);
		(*f)[*n].slide[len - s - 5] = '\0';
		(*f)[*n].chunk = (long)c;
		(*f)[(*n)++].path = path;
	}
	if (errno)
		sr_die_errno("%s", rdir);
	closedir(d);
}

static int
by_run_slide_chunk(const void *a, const void *b)
{
	const chunkfile *x = a, *y = b;
	int c;

	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	if ((c = strcmp(x->slide, y->slide)) != 0)
		return c;
	return (x->chunk > y->chunk) - (x->chunk < y->chunk);
}

/* Every chunk file of dir, by run, slide and chunk. */
static chunkfile *
scan(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	chunkfile *f = NULL;
	unsigned long r;
	struct stat st;
	char *rdir;

	*n = 0;
	if (!d)
		sr_die_errno("%s", dir);
	while ((errno = 0, e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		rdir = sr_path_join(dir, e->d_name, "");
		if (!parse_number(e->d_name, strlen(e->d_name), &r) ||
		    stat(rdir, &st) != 0 || !S_ISDIR(st.st_mode))
			sr_die(SR_EXIT_DATA, "%s: not a run's directory (a run "
			    "number)", rdir);
		scan_run(rdir, r, &f, n);
		free(rdir);
	}
	if (errno)
		sr_die_errno("%s", dir);
	closedir(d);
	if (*n == 0)
		sr_die(SR_EXIT_DATA, "%s: no GeoJSON files (RUN/SLIDE.CCCC.geojson)",
		    dir);
	qsort(f, *n, sizeof *f, by_run_slide_chunk);
	return f;
}

/* The header line chunk file f must start with. */
static char *
expected_header(const chunkfile *f)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);

	if (!fp)
		sr_die_errno("open_memstream");
	sr_geojson_header(fp, f->run, f->slide, f->chunk, NULL, 0);
	if (fclose(fp) != 0)
		sr_die_errno("open_memstream");
	return buf;
}

/* Checks chunk file f in full: the header its name implies, feature
 * lines (the first without a comma, the others with one), the trailer,
 * nothing after it. */
static void
check_file(const chunkfile *f)
{
	FILE *fp = fopen(f->path, "r");
	char *line = NULL, *head = expected_header(f), err[SR_ERRLEN];
	size_t cap = 0, no = 0;
	ssize_t len;
	int end = 0;

	if (!fp)
		sr_die_errno("%s", f->path);
	while ((len = getline(&line, &cap, fp)) > 0) {
		no++;
		if (end)
			sr_die(SR_EXIT_DATA, "%s:%zu: text after the end of the "
			    "FeatureCollection", f->path, no);
		if (line[len - 1] != '\n')
			sr_die(SR_EXIT_DATA, "%s:%zu: truncated line (no newline)",
			    f->path, no);
		if (no == 1) {
			if (strcmp(line, head) != 0)
				sr_die(SR_EXIT_DATA, "%s:1: not the header of run "
				    "%lu, slide %s, chunk %ld", f->path, f->run,
				    f->slide, f->chunk);
			continue;
		}
		if (strcmp(line, "]}\n") == 0) {
			end = 1;
			continue;
		}
		if ((no == 2) != (line[0] != ','))
			sr_die(SR_EXIT_DATA, "%s:%zu: %s", f->path, no, no == 2 ?
			    "the first feature starts with a comma" :
			    "a feature after the first does not start with a comma");
		if (sr_geojson_check_feature(line + (no > 2), (size_t)len - 1 -
		    (no > 2), err) < 0)
			sr_die(SR_EXIT_DATA, "%s:%zu: %s", f->path, no, err);
	}
	if (ferror(fp))
		sr_die_io("%s: read error", f->path);
	if (!end)
		sr_die(SR_EXIT_DATA, "%s:%zu: truncated: no closing ]}", f->path,
		    no + 1);
	fclose(fp);
	free(line);
	free(head);
}

/* Writes files f[0..n) (one run and slide) joined to a new temporary
 * beside path, named in tmps[slot]. */
static void
write_joined(const chunkfile *f, size_t n, const char *path, size_t slot)
{
	char *tmp = sr_malloc(PATH_MAX), *line = NULL;
	long *chunks = sr_malloc(n * sizeof *chunks);
	size_t i, cap = 0, written = 0;
	ssize_t len;
	FILE *fp, *in;
	int fd;

	if (sr_out_temp_name(tmp, PATH_MAX, path, NULL) >= PATH_MAX)
		sr_die(SR_EXIT_DATA, "%s: path too long", path);
	tmps[slot] = tmp;
	if ((fd = mkstemp(tmp)) < 0 || !(fp = fdopen(fd, "w")))
		sr_die_errno("%s", tmp);
	fchmod(fd, 0666 & ~sr_current_umask());
	for (i = 0; i < n; i++)
		chunks[i] = f[i].chunk;
	sr_geojson_header(fp, f[0].run, f[0].slide, -1, chunks, n);
	for (i = 0; i < n; i++) {
		if (!(in = fopen(f[i].path, "r")))
			sr_die_errno("%s", f[i].path);
		len = getline(&line, &cap, in);		/* the header */
		while ((len = getline(&line, &cap, in)) > 0 &&
		    strcmp(line, "]}\n") != 0) {
			fputs(written++ ? "," : "", fp);
			fputs(line + (line[0] == ','), fp);
		}
		if (ferror(in))
			sr_die_io("%s: read error", f[i].path);
		fclose(in);
	}
	sr_geojson_trailer(fp);
	errno = 0;
	if (fflush(fp) != 0 || fsync(fd) != 0 || ferror(fp) || fclose(fp) != 0)
		sr_die_io("%s: write error", tmp);
	free(line);
	free(chunks);
}

/* Whether chunk files a and b are of one run and slide. */
static int
same_output(const chunkfile *a, const chunkfile *b)
{
	return a->run == b->run && strcmp(a->slide, b->slide) == 0;
}

static void
make_dir(const char *d)
{
	if (mkdir(d, 0777) != 0 && errno != EEXIST)
		sr_die_errno("%s", d);
}

size_t
sr_geojson_join(const char *dir, const char *outdir)
{
	size_t n, i, j, k, nout = 0;
	chunkfile *f = scan(dir, &n);
	char run[32], *rdir, **path, *tmp;

	for (i = 0; i < n; i++)
		check_file(&f[i]);
	for (i = 0; i < n; i++)
		nout += i == 0 || !same_output(&f[i], &f[i - 1]);
	tmps = sr_calloc(nout, sizeof *tmps);
	path = sr_calloc(nout, sizeof *path);
	ntmps = nout;
	next_hook = sr_cleanup_hook;
	sr_cleanup_hook = remove_tmps;
	make_dir(outdir);
	for (i = k = 0; i < n; i = j, k++) {
		for (j = i + 1; j < n && same_output(&f[j], &f[i]); j++)
			;
		snprintf(run, sizeof run, "%lu", f[i].run);
		rdir = sr_path_join(outdir, run, "");
		make_dir(rdir);
		path[k] = sr_path_join(rdir, f[i].slide, SUFFIX);
		free(rdir);
		write_joined(f + i, j - i, path[k], k);
	}
	for (k = 0; k < nout; k++) {
		if (rename(tmps[k], path[k]) != 0)
			sr_die_io("%s: cannot rename %s into place", path[k],
			    tmps[k]);
		tmp = tmps[k];
		tmps[k] = NULL;		/* before the handler could see it freed */
		free(tmp);
		free(path[k]);
	}
	sr_cleanup_hook = next_hook;
	free(path);
	free((void *)tmps);
	for (i = 0; i < n; i++) {
		free(f[i].slide);
		free(f[i].path);
	}
	free(f);
	return nout;
}
