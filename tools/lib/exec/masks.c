/* masks.c - seg-run's masks and normalized tiles, written atomically, and
 * the paths of its inputs and outputs (outputs.h). */
#include "exec/outputs.h"
#include "core/path.h"
#include "plan/instances.h"
#include "core/err.h"
#include "core/text.h"
#include "core/out.h"
#include "exec/geojson_out.h"
#include "image/image.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- paths ---------------------------------------------------------------- */

void
sr_make_dir(const char *d)
{
	if (mkdir(d, 0777) != 0 && errno != EEXIST)
		sr_die_errno("%s", d);
}

void
sr_make_dirs(const char *d)
{
	char *p = sr_strdup(d), *s;

	for (s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		sr_make_dir(p);
		*s = '/';
	}
	sr_make_dir(p);
	free(p);
}

void
sr_tiles_check(const sr_tiles *t)
{
	size_t i;

	if (t->region) {
		sr_tiles_check_slides(t);
		return;
	}
	for (i = 0; i < t->n; i++)
		if (access(t->path[i], R_OK) != 0)
			sr_die(SR_EXIT_DATA, "%s:%zu: %s: %s", t->list, t->line[i],
			    t->path[i], strerror(errno));
}

/* Whether run is one that instance list p serves. */
static int
serves_run(const sr_segplan *p, unsigned long run)
{
	const sr_instance *x;
	size_t i, r;

	for (i = 0; i < p->n; i++) {
		x = &p->in->inst[p->in->first[p->st] + p->inst[i]];
		for (r = 0; r < x->nruns; r++)
			if (x->runs[r] == run)
				return 1;
	}
	return 0;
}

/* Usage error when input `in` is a mask that --masks DIR would write,
 * DIR/RUN/TILE.EXT with RUN a run of the bucket; mdir is DIR resolved.
 * Decided from the input's path (its directory resolved, its own name
 * kept: a rename replaces a link, not its target), not by trying every
 * run and tile. */
static void
refuse_mask_input(const sr_segout *o, const char *mdir, const sr_segplan *p,
    const sr_tiles *t, const char *in)
{
	char *real = sr_path_real_dir(in), *run, *end;
	const char *name = strrchr(in, '/') ? strrchr(in, '/') + 1 : in;
	const char *ext = o->png8 ? ".png" : ".tif";
	size_t i, len;
	unsigned long r;

	if (!real || !(run = strrchr(real, '/')) || run == real) {
		free(real);
		return;
	}
	*run++ = '\0';
	errno = 0;
	r = strtoul(run, &end, 10);
	if (strcmp(real, mdir) != 0 || *run < '0' || *run > '9' || *end ||
	    errno || !serves_run(p, r)) {
		free(real);
		return;
	}
	free(real);
	for (i = 0; i < t->n; i++) {
		len = strlen(t->name[i]);
		if (strncmp(name, t->name[i], len) == 0 &&
		    strcmp(name + len, ext) == 0)
			sr_usage_error("--masks %s: the mask of run %lu on tile %s "
			    "is the input %s: it would be replaced", o->masks, r,
			    t->name[i], in);
	}
}

void
sr_segout_check_paths(const sr_segout *o, const sr_segplan *p,
    const char *const *inputs, size_t nin, const sr_tiles *t, char **ref)
{
	const char *outs[2] = { o->results, o->timings };
	size_t i;
	char *norm, *mdir;

	sr_out_refuse_inputs(outs, 2, inputs, nin);
	sr_out_refuse_inputs(outs, 2, (const char **)t->path, t->n);
	if (ref)
		sr_out_refuse_inputs(outs, 2, (const char **)ref, t->n);
	for (i = 0; o->save_norm && i < t->n; i++) {
		/* names are unique: only tile i's own files can be DIR/TILE.tif */
		norm = sr_path_join(o->save_norm, t->name[i], ".tif");
		sr_out_refuse_inputs((const char **)&norm, 1,
		    (const char **)&t->path[i], 1);
		if (ref)
			sr_out_refuse_inputs((const char **)&norm, 1,
			    (const char **)&ref[i], 1);
		free(norm);
	}
	if (!o->masks)
		return;
	norm = sr_path_join(o->masks, "", "");	/* DIR/: DIR resolved */
	mdir = sr_path_real_dir(norm);
	free(norm);
	if (!mdir)	/* not there yet: it holds no input */
		return;
	for (i = 0; i < nin; i++)
		if (inputs[i])
			refuse_mask_input(o, mdir, p, t, inputs[i]);
	for (i = 0; i < t->n; i++) {
		refuse_mask_input(o, mdir, p, t, t->path[i]);
		if (ref)
			refuse_mask_input(o, mdir, p, t, ref[i]);
	}
	free(mdir);
}

/* ---- temporary files -------------------------------------------------------- */

/* Temporary image files being written, removed if the run dies or is
 * killed: one fixed slot per thread (each writes one image at a time),
 * allocated before the run, so a signal handler can walk them. */
struct tmpslot {
	char *name;		/* PATH_MAX bytes */
	volatile sig_atomic_t live;
	int taken;
};
static struct tmpslot *slot;
static size_t nslot;
static pthread_mutex_t slot_mu = PTHREAD_MUTEX_INITIALIZER;
static void (*next_hook)(void);

static void
remove_tmps(void)
{
	size_t i;

	for (i = 0; i < nslot; i++)
		if (slot[i].live)
			unlink(slot[i].name);
	if (next_hook)
		next_hook();
}

/* Sets up n slots and chains remove_tmps before the output module's
 * cleanup. */
static void
slots_init(size_t n)
{
	size_t i;

	slot = sr_calloc(n, sizeof *slot);
	for (i = 0; i < n; i++)
		slot[i].name = sr_malloc(PATH_MAX);
	nslot = n;
	next_hook = sr_cleanup_hook;
	sr_cleanup_hook = remove_tmps;
}

void
sr_segout_masks_end(void)
{
	size_t i;

	sr_geojson_out_end();	/* chained last, unchained first */
	if (slot == NULL)
		return;
	sr_cleanup_hook = next_hook;
	for (i = 0; i < nslot; i++)
		free(slot[i].name);
	free(slot);
	slot = NULL;
	nslot = 0;
}

static struct tmpslot *
slot_take(void)
{
	size_t i;

	pthread_mutex_lock(&slot_mu);
	for (i = 0; slot[i].taken; i++)
		;
	slot[i].taken = 1;
	pthread_mutex_unlock(&slot_mu);
	return &slot[i];
}

static void
slot_give(struct tmpslot *s)
{
	s->live = 0;
	pthread_mutex_lock(&slot_mu);
	s->taken = 0;
	pthread_mutex_unlock(&slot_mu);
}

/* ---- images ------------------------------------------------------------------- */

/* What the callbacks need. */
static struct {
	const sr_segout *o;
	const sr_segplan *p;
	const sr_tiles *tiles;
} mc;

/* Writes one image file atomically: a temporary beside it, renamed; a
 * mask (px) or, when px is NULL, an RGB image. */
static void
write_image(const char *path, const uint32_t *px, size_t w, size_t h,
    const sr_rgb *rgb)
{
	char err[SR_ERRLEN];
	struct tmpslot *s;
	FILE *fp;
	int fd, rc;

	if (sr_out_temp_name(NULL, 0, path, NULL) >= PATH_MAX)
		sr_die(SR_EXIT_DATA, "%s: path too long", path);
	s = slot_take();
	sr_out_temp_name(s->name, PATH_MAX, path, NULL);
	s->live = 1;
	if ((fd = mkstemp(s->name)) < 0)
		sr_die_errno("%s", s->name);
	fchmod(fd, 0666 & ~sr_current_umask());
	if (!(fp = fdopen(fd, "w+b")))
		sr_die_errno("%s", s->name);
	if (!px)
		rc = sr_rgb_write_tiff_codec(fp, path, rgb, 0, 0,
		    mc.o->norm_codec, err);
	else
		rc = mc.o->png8 ? sr_mask_write_png(fp, path, px, w, h, err) :
		    sr_labels_write_tiff(fp, path, px, w, h, err);
	if (rc < 0)
		sr_die(ferror(fp) ? SR_EXIT_IO : sr_exit_for_errno(errno),
		    "%s", err);
	errno = 0;
	if (fflush(fp) != 0 || fsync(fileno(fp)) != 0 || ferror(fp))
		sr_die_io("%s: write error", path);
	if (fclose(fp) != 0)
		sr_die_io("%s: write error", path);
	if (rename(s->name, path) != 0)
		sr_die_io("%s: cannot rename %s into place", path, s->name);
	slot_give(s);
}

/* The runner's mask callback: DIR/RUN/TILE.tif (or .png) for every run of
 * the instance. */
static void
on_mask(void *ctx, size_t i, size_t tile, const uint32_t *labels, size_t w,
    size_t h)
{
	const sr_segplan *p = mc.p;
	const sr_instance *x = &p->in->inst[p->in->first[p->st] + p->inst[i]];
	char run[32], *dir, *path;
	uint32_t *zero = NULL;
	size_t r;

	(void)ctx;
	if (mc.o->geojson)
		sr_geojson_out_tile(i, tile, labels, w, h);
	if (!mc.o->masks)
		return;
	if (!labels)		/* an empty mask */
		labels = zero = sr_calloc(w * h, sizeof *zero);
	for (r = 0; r < x->nruns; r++) {
		snprintf(run, sizeof run, "%zu", x->runs[r]);
		dir = sr_path_join(mc.o->masks, run, "");
		sr_make_dir(dir);
		path = sr_path_join(dir, mc.tiles->name[tile], mc.o->png8 ?
		    ".png" : ".tif");
		write_image(path, labels, w, h, NULL);
		free(path);
		free(dir);
	}
	free(zero);
}

/* The runner's normalized-tile callback: DIR/TILE.tif. */
static void
on_normalized(void *ctx, size_t tile, const sr_rgb *img)
{
	char *path = sr_path_join(mc.o->save_norm, mc.tiles->name[tile], ".tif");

	(void)ctx;
	write_image(path, NULL, img->w, img->h, img);
	free(path);
}

void
sr_segout_masks(sr_runjob *job, const sr_segout *o, const sr_segplan *p,
    const sr_tiles *tiles)
{
	mc.o = o;
	mc.p = p;
	mc.tiles = tiles;
	if (o->masks) {
		sr_make_dir(o->masks);
		job->mask = on_mask;
	}
	if (o->save_norm) {
		sr_make_dir(o->save_norm);
		job->normalized = on_normalized;
	}
	if (o->masks || o->save_norm)
		slots_init(o->active);
	if (o->geojson) {
		sr_geojson_out_start(o, p, tiles);
		job->mask = on_mask;
	}
}
