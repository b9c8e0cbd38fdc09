/* outputs.c - seg-run's results and timings of a bucket (outputs.h). */
#include "exec/outputs.h"
#include "plan/instances.h"
#include "core/err.h"
#include "core/num.h"
#include "core/opt.h"
#include "core/out.h"
#include "exec/arena.h"
#include "image/image.h"
#include "plan/merge.h"
#include "plan/results.h"
#include "plan/timings.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A nuclei status is the run status of the same number. */
_Static_assert((int)SR_NUC_OK == (int)SR_RUN_OK && (int)SR_NUC_BACKGROUND ==
    (int)SR_RUN_BACKGROUND && (int)SR_NUC_BACKGROUND_LIKELY ==
    (int)SR_RUN_BACKGROUND_LIKELY && (int)SR_NUC_NO_CANDIDATES ==
    (int)SR_RUN_NO_CANDIDATES, "status numbers");

/* The results' first metadata line: what a complete bucket must match. */
static const char *
done_line(const sr_segplan *p, size_t ntiles)
{
	static char line[160];

	snprintf(line, sizeof line, "#bucket=%ld instances=%zu runs=%zu "
	    "tiles=%zu tasks=%zu\n", p->bucket, p->n, p->runs, ntiles,
	    p->ntasks);
	return line;
}

int
sr_segout_done(const sr_segout *o, const sr_segplan *p, size_t ntiles)
{
	const char *want = done_line(p, ntiles);
	char line[256];
	int done = 0, n = 0;
	FILE *fp;

	if (access(o->timings, F_OK) != 0 || !(fp = fopen(o->results, "r")))
		return 0;
	while (!done && n++ < 8 && fgets(line, sizeof line, fp))
		done = strcmp(line, want) == 0;
	fclose(fp);
	return done;
}

/* The instance (of stage st) that is the bucket's k-th. */
static const sr_instance *
instance(const sr_segplan *p, size_t k)
{
	return &p->in->inst[p->in->first[p->st] + p->inst[k]];
}

/* The instances below node v, sorted, into ids; returns their count. */
static size_t
node_instances(const sr_segplan *p, const sr_runout *r, size_t v,
    size_t *ids)
{
	size_t k, n = r->node_first[v + 1] - r->node_first[v];

	for (k = 0; k < n; k++)
		ids[k] = p->inst[r->node_inst[r->node_first[v] + k]];
	qsort(ids, n, sizeof *ids, sr_cmp_size);
	return n;
}

/* The distinct upstream (normalization) instances of the bucket. */
static size_t
upstream(const sr_segplan *p, size_t *ids)
{
	size_t k, m = 0;

	for (k = 0; k < p->n; k++)
		ids[k] = instance(p, k)->upstream;
	qsort(ids, p->n, sizeof *ids, sr_cmp_size);
	for (k = 0; k < p->n; k++)
		if (k == 0 || ids[k] != ids[m - 1])
			ids[m++] = ids[k];
	return m;
}

/* The comparison instances (stage st + 1) downstream of the instances
 * below node v, in instance order. */
static size_t
downstream(const sr_segplan *p, const sr_runout *r, size_t v, size_t **ids,
    size_t *cap)
{
	const sr_instances *in = p->in;
	size_t c, k, m = 0;

	for (c = in->first[p->st + 1]; c < in->first[p->st + 2]; c++)
		for (k = r->node_first[v]; k < r->node_first[v + 1]; k++)
			if (in->inst[c].upstream == p->inst[r->node_inst[k]]) {
				if (m == *cap) {
					*cap = 2 * *cap + 16;
					*ids = sr_reallocarray(*ids, *cap,
					    sizeof **ids);
				}
				(*ids)[m++] = in->inst[c].id;
			}
	return m;
}

/* The timing's depth, task name and instances (into *ids). */
static size_t
timing_row(const sr_segplan *p, const sr_runout *r, const sr_runtiming *t,
    size_t *depth, const char **task, size_t **ids, size_t *cap)
{
	const sr_workflow *w = p->in->w;

	*depth = 1;
	if (t->task < 0) {
		*task = w->stage[p->st - 1].task[0].name;
		return upstream(p, *ids);
	}
	if (t->task == (int)p->m) {
		*task = w->stage[p->st + 1].task[0].name;
		return downstream(p, r, t->node, ids, cap);
	}
	*depth = (size_t)t->task + 1;
	*task = w->stage[p->st].task[t->task].name;
	return node_instances(p, r, t->node, *ids);
}

void
sr_segout_timings(FILE *fp, const sr_segout *o, const sr_segplan *p,
    const sr_tiles *tiles, const sr_runout *r, int argc, char **argv)
{
	size_t i, k, n, depth, cap = p->n + 1, *ids = sr_calloc(cap, sizeof *ids);
	const char *task;

	sr_out_provenance(fp, argc, argv);
	sr_timings_write_meta(fp, p->bucket, tiles->n, sr_arena_size(),
	    sr_peak_rss());
	if (!o->normalize)
		sr_timings_write_no_normalize(fp);
	for (i = 0; i < tiles->n; i++) {
		sr_timings_write_tile(fp, 0, tiles->name[i], r->read_seconds[i]);
		if (o->prefault)
			sr_timings_write_tile(fp, 1, tiles->name[i],
			    r->prefault_seconds[i]);
		if (o->save_norm)
			sr_timings_write_saved(fp, tiles->name[i],
			    r->save_seconds[i]);
	}
	sr_timings_write_header(fp);
	for (k = 0; k < r->ntiming; k++) {
		const sr_runtiming *t = &r->timing[k];
		if ((t->task == (int)p->m && !p->has_compare) ||
		    (t->task < 0 && !p->has_norm))
			continue;
		n = timing_row(p, r, t, &depth, &task, &ids, &cap);
		sr_timings_write_row(fp, p->bucket, tiles->name[t->tile], depth,
		    task, ids, n, t->seconds, t->bytes);
	}
	free(ids);
}

/* A run and the bucket's instance that serves it. */
struct runref {
	size_t run, i;
};

static int
cmp_runref(const void *a, const void *b)
{
	const struct runref *x = a, *y = b;

	return (x->run > y->run) - (x->run < y->run);
}

/* The metadata lines before the results' header. */
static void
results_meta(FILE *fp, const sr_segout *o, const sr_segplan *p,
    const sr_tiles *tiles, const sr_runout *r)
{
	size_t t;

	fputs(done_line(p, tiles->n), fp);
	fprintf(fp, "#active_paths=%zu normalize=%s\n", o->active,
	    !o->normalize ? "none" : o->target ? "target-image" : "reinhard");
	for (t = 0; t < tiles->n; t++)
		if (o->normalize && !r->normalized[t])
			fprintf(fp, "#unnormalized tile=%s foreground=%.4f\n",
			    tiles->name[t], r->foreground[t]);
}

void
sr_segout_results(FILE *fp, const sr_segout *o, const sr_segplan *p,
    const sr_tiles *tiles, const sr_runout *r, int argc, char **argv)
{
	struct runref *rr = sr_calloc(p->runs + 1, sizeof *rr);
	size_t nr = 0, i, k, t;

	for (i = 0; i < p->n; i++)
		for (k = 0; k < instance(p, i)->nruns; k++)
			rr[nr++] = (struct runref){ instance(p, i)->runs[k], i };
	qsort(rr, nr, sizeof *rr, cmp_runref);
	sr_out_provenance(fp, argc, argv);
	results_meta(fp, o, p, tiles, r);
	sr_results_write_header(fp, o->ref != NULL, p->w->metric,
	    p->w->nmetric);
	for (k = 0; k < nr; k++)
		for (t = 0; t < tiles->n; t++) {
			const sr_runresult *res = &r->result[rr[k].i * tiles->n + t];
			sr_result_row row = { rr[k].run, tiles->name[t],
			    res->status == SR_RESULT_NOT_RUN ? SR_RUN_CANCELLED :
			    res->status, res->dice, res->jaccard,
			    res->object_dice, res->aji, res->objects,
			    res->seconds, r->metric + (rr[k].i * tiles->n + t) *
			    p->w->nmetric };
			sr_results_write_row(fp, &row, o->ref != NULL,
			    p->w->nmetric);
		}
	free(rr);
}

void
sr_segout_warn(const sr_segout *o, const sr_tiles *tiles, const sr_runout *r)
{
	char lab[SR_ERRLEN];
	size_t i;

	for (i = 0; i < tiles->n; i++)
		if (o->normalize && !r->normalized[i])
			sr_warn("%s: not normalized: %.2f %% foreground (at least "
			    "%.1f %% needed, or no colour spread)",
			    sr_tile_label(tiles, i, lab, sizeof lab),
			    100 * r->foreground[i], 100 * SR_NORM_MIN_FOREGROUND);
}

void
sr_segout_job(sr_runjob *job, const sr_segout *u, const sr_segplan *p,
    const sr_tiles *tiles, char **ref, const char *target, int progress)
{
	sr_segplan_check_memory(tiles, u->active, p->commands);
	memset(job, 0, sizeof *job);
	job->ntiles = tiles->n;
	job->tiles = tiles;
	job->ref_path = ref;
	job->normalize = u->normalize;
	sr_segplan_target(target, job->mean, job->sd);
	job->ninst = p->n;
	job->m = p->m;
	job->np = p->np;
	job->param = p->param;
	job->key = p->key;
	job->nmetric = p->w->nmetric;
	job->threads = u->active;
	job->prefault = u->prefault && !p->commands;
	job->progress = progress;
}

/* ---- options -------------------------------------------------------- */

static const char *const mask_formats[] = { "tif32", "png8" };
/* in the order of image.h's SR_TIFF_DEFLATE, _ZSTD, _NONE */
static const char *const norm_formats[] = { "deflate", "zstd", "none" };

void
sr_segout_init(sr_segout *u)
{
	memset(u, 0, sizeof *u);
	u->active = 1;
	u->normalize = u->prefault = 1;
	u->norm_codec = SR_TIFF_ZSTD;
	u->chunk = -1;
}

int
sr_segout_option(sr_segout *u, int c, const char *arg)
{
	switch (c) {
	case SR_SEGOUT_OPT_REF: u->ref = arg; break;
	case SR_SEGOUT_OPT_ACTIVE: u->active = sr_opt_count("--active-paths",
	    arg, 1, SR_SEGOUT_MAX_ACTIVE); break;
	case SR_SEGOUT_OPT_MASKS: u->masks = arg; break;
	case SR_SEGOUT_OPT_MASK_FORMAT: u->png8 = sr_opt_word("--mask-format",
	    arg, mask_formats, 2); break;
	case SR_SEGOUT_OPT_GEOJSON: u->geojson = arg; break;
	case SR_SEGOUT_OPT_CHUNK: u->chunk = (long)sr_opt_count("--chunk", arg,
	    0, SR_SEGOUT_MAX_CHUNK); break;
	case SR_SEGOUT_OPT_TIMINGS: u->timings = arg; break;
	case SR_SEGOUT_OPT_NO_NORMALIZE: u->normalize = 0; break;
	case SR_SEGOUT_OPT_NO_PREFAULT: u->prefault = 0; break;
	case SR_SEGOUT_OPT_SAVE_NORM: u->save_norm = arg; break;
	case SR_SEGOUT_OPT_NORM_FORMAT: u->norm_codec = sr_opt_word(
	    "--normalized-format", arg, norm_formats, 3); break;
	default: return 0;
	}
	return 1;
}

void
sr_segout_check_options(const sr_segout *u)
{
	if (u->chunk >= 0 && !u->geojson)
		sr_usage_error("--chunk needs --geojson");
}
