/* runner.c - the bucket executor (see runner.h). */
#include "exec/runner.h"
#include "image/compare.h"
#include "core/err.h"
#include "exec/arena.h"
#include "image/image.h"
#include "core/num.h"
#include "sa/metrics.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	size_t tile, node;
} item;

/* A thread's path: pushed and popped at hi (depth-first), stolen at lo
 * (the shallowest node waiting). */
typedef struct {
	item *a;
	size_t lo, hi, cap;
} deque;

/* A tile being worked on. */
typedef struct {
	sr_rgb img;
	size_t w, h;		/* the tile's size */
	char *in, *ref_in;	/* commands: the first task's input, the
				 * reference (absolute paths) */
	sr_cmdnode *cmd;	/* commands: per node, what it made */
	sr_labels ref;		/* numbered objects (sr_objects_number) */
	size_t nref;		/* objects of ref */
	sr_nuc_out *out;	/* per node */
	size_t *pending;	/* per node: children whose subtrees are not done */
	size_t *readers;	/* per node: tasks still to read its buffers */
	size_t *early;		/* per node: tasks still to read its early
				 * buffers (sr_nuc_early_reader) */
	double *secs;		/* per node: seconds from the tile's start through it */
} tstate;

typedef struct {
	const sr_runjob *job;
	sr_runout *out;
	const sr_rtree *t;
	size_t *rep;		/* an instance below each node */
	size_t *pre;		/* depth-first rank of each node */
	size_t *readers;	/* per node: the nodes below it at the depth of
				 * the last task reading its buffers */
	size_t *early;		/* the same for its early buffers */
	tstate *ts;		/* per tile */
	deque *dq;		/* per thread */
	unsigned char *alive;	/* per instance (job->gate): runs on this tile */
	size_t busy;		/* items being executed */
	size_t done, total;	/* task nodes, for progress */
	size_t tcap;		/* capacity of out->timing */
	pthread_mutex_t mu;
	pthread_cond_t cv;
} run;

typedef struct {
	run *r;
	size_t id;
} worker_arg;

static void
lock(run *r)
{
	pthread_mutex_lock(&r->mu);
}

static void
unlock(run *r)
{
	pthread_mutex_unlock(&r->mu);
}

static void
push(deque *d, item it)
{
	if (d->hi == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 64;
		d->a = sr_reallocarray(d->a, d->cap, sizeof *d->a);
	}
	d->a[d->hi++] = it;
}

/* Takes the next item for thread me: its own deepest, else the
 * shallowest of another thread. Called locked. */
static int
take(run *r, size_t me, item *it)
{
	size_t n = r->job->threads, k;
	deque *d = &r->dq[me];

	if (d->hi > d->lo) {
		*it = d->a[--d->hi];
		if (d->hi == d->lo)
			d->hi = d->lo = 0;
		return 1;
	}
	for (k = 1; k < n; k++) {
		d = &r->dq[(me + k) % n];
		if (d->hi > d->lo) {
			*it = d->a[d->lo++];
			if (d->hi == d->lo)
				d->hi = d->lo = 0;
			return 1;
		}
	}
	return 0;
}

/* Whether an instance alive on this tile is below node v (always without
 * a gate). */
static int
node_alive(const run *r, size_t v)
{
	const sr_runout *o = r->out;
	size_t k;

	if (!r->alive)
		return 1;
	for (k = o->node_first[v]; k < o->node_first[v + 1]; k++)
		if (r->alive[o->node_inst[k]])
			return 1;
	return 0;
}

/* Records a timing row. Called locked. */
static void
add_timing(run *r, size_t tile, size_t node, int task, double sec,
    size_t bytes)
{
	sr_runout *o = r->out;

	if (o->ntiming == r->tcap) {
		r->tcap = r->tcap ? 2 * r->tcap : 256;
		o->timing = sr_reallocarray(o->timing, r->tcap, sizeof *o->timing);
	}
	o->timing[o->ntiming++] = (sr_runtiming){ tile, node, task, sec, bytes };
}

static void
progress(run *r)
{
	if (r->job->progress)
		fprintf(stderr, "\r%s: %zu/%zu task nodes", sr_progname,
		    ++r->done, r->total);
}

/* Frees node v's outputs and those of its ancestors whose subtrees are
 * now done; the tile's state with its root. Returns 1 when that was the
 * root (the tile is done). Called locked. */
static int
release(run *r, size_t tile, size_t v)
{
	tstate *ts = &r->ts[tile];

	for (;;) {
		if (v == 0) {
			if (r->job->cmd) {
				sr_cmd_tile_free(r->job->cmd, tile, ts->in);
				free(ts->ref_in);
				free(ts->cmd);
			}
			sr_rgb_free(&ts->img);
			sr_labels_free(&ts->ref);
			free(ts->out);
			free(ts->pending);
			free(ts->readers);
			free(ts->early);
			free(ts->secs);
			memset(ts, 0, sizeof *ts);
			return 1;
		}
		sr_nuc_out_free(&ts->out[v]);
		if (r->job->cmd)
			sr_cmd_node_free(&ts->cmd[v]);
		v = sr_rparent(r->t, v);
		if (--ts->pending[v] > 0)
			return 0;
	}
}

/* Reads tile i, or its size only where commands read it themselves (a
 * PNG file, not normalized): 1 when read. */
static int
read_tile(run *r, size_t i)
{
	const sr_runjob *job = r->job;
	tstate *ts = &r->ts[i];
	char err[SR_ERRLEN];
	int decode = !job->cmd || job->normalize || job->tiles->region ||
	    !sr_image_is_png(job->tiles->path[i]);

	if (decode ? sr_tile_read(job->tiles, i, &ts->img, err) < 0 :
	    sr_tile_size(job->tiles, i, &ts->w, &ts->h, err) < 0)
		sr_die(sr_exit_for_errno(errno), "%s", err);
	if (decode) {
		ts->w = ts->img.w;
		ts->h = ts->img.h;
	}
	return decode;
}

/* Commands: writes tile i as their first input (the decoded tile as a
 * PNG, else its path) and drops the image. */
static void
command_input(run *r, size_t i, int decoded)
{
	tstate *ts = &r->ts[i];
	char err[SR_ERRLEN];

	ts->in = sr_cmd_tile(r->job->cmd, i, decoded ? &ts->img : NULL,
	    r->job->tiles->path[i], err);
	if (!ts->in)
		sr_die(sr_exit_for_errno(errno), "%s", err);
	if (r->job->ref_path)
		ts->ref_in = sr_cmd_abs(r->job->ref_path[i]);
	sr_rgb_free(&ts->img);
	ts->cmd = sr_calloc(r->t->nnodes, sizeof *ts->cmd);
}

/* The reference of tile ts from its slide's GeoJSON, rasterized at its
 * level (georef.h). */
static void
slide_reference(const sr_tileref *r, tstate *ts)
{
	size_t n = ts->w * ts->h;

	ts->ref.w = ts->w;
	ts->ref.h = ts->h;
	ts->ref.px = sr_reallocarray(NULL, n ? n : 1, sizeof *ts->ref.px);
	sr_georef_raster(r->g, r->x0, r->y0, r->ds, ts->w, ts->h, ts->ref.px);
}

/* Reads and normalizes tile i (node 0). */
static void
do_root(run *r, size_t i)
{
	const sr_runjob *job = r->job;
	tstate *ts = &r->ts[i];
	char err[SR_ERRLEN], lab[SR_ERRLEN];
	double t0 = sr_now(), t1, norm;
	size_t bytes;
	int decoded = read_tile(r, i);

	if (job->ref_path && job->georef && job->georef[i].g)
		slide_reference(&job->georef[i], ts);
	else if (job->ref_path) {
		if (sr_labels_read(job->ref_path[i], &ts->ref, err) < 0)
			sr_die(sr_exit_for_errno(errno), "%s", err);
	}
	if (job->ref_path) {
		if (ts->ref.w != ts->w || ts->ref.h != ts->h)
			sr_die(SR_EXIT_DATA, "%s: %zux%zu, but tile %s is %zux%zu",
			    job->ref_path[i], ts->ref.w, ts->ref.h,
			    sr_tile_label(job->tiles, i, lab, sizeof lab),
			    ts->w, ts->h);
		if (sr_objects_number(ts->ref.px, ts->ref.w, ts->ref.h,
		    job->georef && job->georef[i].g ? SR_OBJECTS_LABELS :
		    SR_OBJECTS_AUTO, &ts->nref, NULL, err) < 0)
			sr_die(SR_EXIT_DATA, "%s: %s", job->ref_path[i], err);
		ts->nref = sr_labels_keep_owned(ts->ref.px, ts->w, ts->h,
		    ts->nref, sr_tile_own(job->tiles, i));
	}
	t1 = sr_now();
	r->out->read_seconds[i] = t1 - t0;
	if (job->prefault) {
		r->out->prefault_seconds[i] = sr_arena_prefault(
		    sr_run_heap_bytes(ts->img.w, ts->img.h, job->threads,
		    job->gate ? 1 : job->ntiles, job->ref_path != NULL));
		t1 = sr_now();
	}
	if (job->normalize) {	/* a slide's tile: from the slide's moments */
		const double *m = sr_tile_norm(job->tiles, i);
		r->out->normalized[i] = sr_normalize_from(&ts->img, m,
		    m ? m + 3 : NULL, job->mean, job->sd,
		    &r->out->foreground[i]);
	}
	t0 = sr_now();
	norm = t0 - t1;
	if (job->normalized && decoded) {	/* writing the tile is not
						 * normalizing it */
		job->normalized(job->ctx, i, &ts->img);
		r->out->save_seconds[i] = sr_now() - t0;
	}
	bytes = 3 * ts->img.w * ts->img.h;
	if (job->cmd) {		/* writing the commands' input is */
		t0 = sr_now();
		command_input(r, i, decoded);
		norm += sr_now() - t0;
	}
	ts->out = sr_calloc(r->t->nnodes, sizeof *ts->out);
	ts->pending = sr_calloc(r->t->nnodes, sizeof *ts->pending);
	ts->readers = sr_reallocarray(NULL, r->t->nnodes, sizeof *ts->readers);
	memcpy(ts->readers, r->readers, r->t->nnodes * sizeof *ts->readers);
	ts->early = sr_reallocarray(NULL, r->t->nnodes, sizeof *ts->early);
	memcpy(ts->early, r->early, r->t->nnodes * sizeof *ts->early);
	ts->secs = sr_calloc(r->t->nnodes, sizeof *ts->secs);
	ts->secs[0] = norm;
	ts->out[0].status = SR_NUC_CONTINUE;
	if (job->ref_path)
		bytes += sizeof *ts->ref.px * ts->ref.w * ts->ref.h;
	lock(r);
	add_timing(r, i, 0, -1, ts->secs[0], bytes);
	unlock(r);
}

/* The depth of the last task that reads the buffers of node v at depth
 * d >= 1 (beyond the tree for Seg6's labels). */
static size_t
reader_depth(size_t d)
{
	return (size_t)sr_nuc_last_reader[d - 1] + 1;
}

/* The same for the early buffers of a node at depth d (0: none, no
 * task's depth). */
static size_t
early_depth(size_t d)
{
	return (size_t)(sr_nuc_early_reader[d - 1] + 1);
}

/* Node v has run: frees the buffers of the ancestors that no task still
 * to run reads (their last reader below them was v), and their early
 * buffers likewise, so that a path holds what its next tasks read, not
 * every output above it. Without
 * this (or where a gate leaves readers out) they go with the subtree.
 * Called locked. */
static void
drop_read(run *r, tstate *ts, size_t v)
{
	const sr_rtree *t = r->t;
	size_t d = t->node[v].depth, a;

	for (a = sr_rparent(t, v); a != 0; a = sr_rparent(t, a)) {
		if (reader_depth(t->node[a].depth) == d && --ts->readers[a] == 0)
			sr_nuc_out_drop(&ts->out[a]);
		if (early_depth(t->node[a].depth) == d && --ts->early[a] == 0)
			sr_nuc_out_drop_early(&ts->out[a]);
	}
}

/* The ancestors of node v (at depth d) whose buffers v may free once it
 * has read them (sr_nuc_task's own): those whose last readers are at
 * depth d and have all run but v, so that no task still to run reads
 * them (a gate's left-out readers never run: their ancestors are not
 * handed over). Called locked. */
static unsigned
handed_over(const run *r, const tstate *ts, size_t v)
{
	const sr_rtree *t = r->t;
	size_t d = t->node[v].depth, a;
	unsigned own = 0;

	for (a = sr_rparent(t, v); a != 0; a = sr_rparent(t, a))
		if (reader_depth(t->node[a].depth) == d && ts->readers[a] == 1)
			own |= 1u << (t->node[a].depth - 1);
	return own;
}

/* Runs node v's command on tile i: a failure ends the runs below v
 * there (SR_RUN_ERROR). */
static void
command_task(run *r, size_t i, size_t v)
{
	const sr_runjob *job = r->job;
	tstate *ts = &r->ts[i];
	size_t d = r->t->node[v].depth, p = sr_rparent(r->t, v), rss = 0;
	char why[SR_ERRLEN];
	double sec = 0;
	sr_cmdnode_in in = { i, v, d - 1, job->tiles->name[i], ts->ref_in,
	    p == 0 ? ts->in : ts->cmd[p].out, job->param + r->rep[v] * job->np };

	ts->out[v].status = sr_cmd_node(job->cmd, &in, &ts->cmd[v], &sec, &rss,
	    why, sizeof why) < 0 ? SR_RUN_ERROR : SR_NUC_CONTINUE;
	lock(r);
	add_timing(r, i, v, (int)d - 1, sec, rss);
	ts->secs[v] = sec + ts->secs[p];
	unlock(r);
}

/* Runs node v's task on tile i. */
static void
do_task(run *r, size_t i, size_t v)
{
	const sr_rtree *t = r->t;
	tstate *ts = &r->ts[i];
	sr_nuc_out *up[SR_NUC_NTASK];
	char err[SR_ERRLEN], lab[SR_ERRLEN];
	size_t d = t->node[v].depth, a;
	unsigned own;
	double t0;

	for (a = sr_rparent(t, v); a != 0; a = sr_rparent(t, a))
		up[t->node[a].depth - 1] = &ts->out[a];
	lock(r);
	own = handed_over(r, ts, v);
	unlock(r);
	t0 = sr_now();
	if (sr_nuc_task((int)d - 1, &ts->img, up, own,
	    r->job->param + r->rep[v] * r->job->np, &ts->out[v], err) < 0)
		sr_die(SR_EXIT_DATA, "%s: %s: %s", sr_tile_label(r->job->tiles,
		    i, lab, sizeof lab), sr_nuc_task_name[d - 1], err);
	ts->secs[v] = sr_now() - t0;
	lock(r);
	add_timing(r, i, v, (int)d - 1, ts->secs[v], ts->out[v].bytes);
	drop_read(r, ts, v);
	ts->secs[v] += ts->secs[sr_rparent(t, v)];
	unlock(r);
}

/* The object-level scores of labels (NULL: empty) against tile i's
 * numbered reference, as compare-dice scores them (objects read
 * automatically, matched at IoU >= SR_RUN_IOU). */
static size_t
score_objects(const tstate *ts, const uint32_t *labels, const char *path,
    sr_object_scores *sc)
{
	size_t n = ts->w * ts->h, nm = 0;
	uint32_t *m = sr_calloc(n ? n : 1, sizeof *m);
	char err[SR_ERRLEN];
	sr_overlap *o;

	if (labels) {
		memcpy(m, labels, n * sizeof *m);
		if (sr_objects_number(m, ts->w, ts->h, SR_OBJECTS_AUTO,
		    &nm, NULL, err) < 0)
			sr_die(SR_EXIT_DATA, "%s: %s", path, err);
	}
	o = sr_overlap_count(m, nm, ts->ref.px, ts->nref, n);
	sr_overlap_scores(o, SR_RUN_IOU, sc);
	sr_overlap_free(o);
	free(m);
	return nm;
}

/* A copy of labels numbered (sr_objects_number, automatically), holding
 * only the objects tile ts owns (owner.h; own NULL: all), their count in
 * *n. */
static uint32_t *
owned_objects(const tstate *ts, const uint32_t *labels, const sr_tileown *own,
    const char *label, size_t *n)
{
	size_t np = ts->w * ts->h;
	uint32_t *m = sr_calloc(np ? np : 1, sizeof *m);
	char err[SR_ERRLEN];

	memcpy(m, labels, np * sizeof *m);
	if (sr_objects_number(m, ts->w, ts->h, SR_OBJECTS_AUTO, n, NULL,
	    err) < 0)
		sr_die(SR_EXIT_DATA, "%s: %s", label, err);
	*n = sr_labels_keep_owned(m, ts->w, ts->h, *n, own);
	return m;
}

/* Commands: reads the output of node v (a run's last) on tile i as
 * labels into lab; 0, or -1 (warned) when it is no image of the tile's
 * size, which fails the runs. */
static int
read_output(run *r, size_t i, size_t v, sr_labels *lab)
{
	tstate *ts = &r->ts[i];
	const sr_task *task = &r->job->cmd->w->stage[r->job->cmd->st].task[
	    r->t->node[v].depth - 1];
	char err[SR_ERRLEN];

	if (sr_labels_read(ts->cmd[v].out, lab, err) < 0) {
		sr_warn("%s: task %s (node %zu): its output: %s",
		    r->job->tiles->name[i], task->name, v, err);
		return -1;
	}
	if (lab->w == ts->w && lab->h == ts->h)
		return 0;
	sr_warn("%s: task %s (node %zu): its output is %zux%zu, the tile "
	    "%zux%zu", r->job->tiles->name[i], task->name, v, lab->w, lab->h,
	    ts->w, ts->h);
	sr_labels_free(lab);
	return -1;
}

/* Commands: the metrics of the tasks from the root to node v into
 * result row k's. */
static void
copy_metrics(run *r, size_t i, size_t v, size_t k)
{
	const sr_runjob *job = r->job;
	const sr_stage *s = &job->cmd->w->stage[job->cmd->st];
	double *m = r->out->metric + (k * job->ntiles + i) * job->nmetric;
	size_t a, t;

	for (a = v; a != 0; a = sr_rparent(r->t, a)) {
		t = r->t->node[a].depth - 1;
		if (r->ts[i].cmd[a].metric)
			memcpy(m + job->cmd->moff[t], r->ts[i].cmd[a].metric,
			    s->task[t].nmetric * sizeof *m);
	}
}

/* Node v ended its path on tile i (a final mask, or a status that stops
 * the run): compares, reports the masks and records the results of every
 * instance below it. */
static void
finish(run *r, size_t i, size_t v)
{
	const sr_runjob *job = r->job;
	sr_runout *o = r->out;
	tstate *ts = &r->ts[i];
	const sr_nuc_out *nv = &ts->out[v];
	const uint32_t *labels = nv->status == SR_NUC_OK ? nv->labels : NULL;
	double dice = NAN, jac = NAN, t0 = sr_now(), csec = 0;
	sr_object_scores sc = { .object_dice = NAN, .aji = NAN };
	sr_labels out = { 0 };
	int status = nv->status == SR_NUC_CONTINUE ? SR_NUC_OK : nv->status;
	size_t k, objects = labels ? nv->objects : 0;
	const sr_tileown *own;
	uint32_t *owned = NULL;
	char lab[SR_ERRLEN];

	if (job->cmd && status == SR_NUC_OK && (job->ref_path || job->mask)) {
		if (read_output(r, i, v, &out) < 0)
			status = SR_RUN_ERROR;
		labels = out.px;
	}
	own = sr_tile_own(job->tiles, i);
	if (labels && status != SR_RUN_ERROR && (job->cmd || own)) {
		/* a command's objects numbered as the comparison reads them;
		 * only the objects the tile owns */
		owned = owned_objects(ts, labels, own, sr_tile_label(job->tiles,
		    i, lab, sizeof lab), &objects);
		labels = owned;
	}
	if (job->ref_path && status != SR_RUN_ERROR) {
		sr_compare_pixels(labels, ts->ref.px, ts->w * ts->h, &dice,
		    &jac);
		k = score_objects(ts, labels, sr_tile_label(job->tiles, i, lab,
		    sizeof lab), &sc);
		if (job->cmd && !owned)
			objects = k;
		csec = sr_now() - t0;
	}
	for (k = o->node_first[v]; k < o->node_first[v + 1]; k++)
		if (job->mask && status != SR_RUN_ERROR && (!r->alive ||
		    r->alive[o->node_inst[k]]))
			job->mask(job->ctx, o->node_inst[k], i, labels, ts->w,
			    ts->h);
	sr_labels_free(&out);
	free(owned);
	lock(r);
	if (job->ref_path && status != SR_RUN_ERROR)
		add_timing(r, i, v, (int)job->m, csec, 0);
	for (k = o->node_first[v]; k < o->node_first[v + 1]; k++) {
		sr_runresult *res = &o->result[o->node_inst[k] * job->ntiles + i];

		if (r->alive && !r->alive[o->node_inst[k]])
			continue;	/* left to the gate */
		res->status = status;
		res->dice = dice;
		res->jaccard = jac;
		res->object_dice = sc.object_dice;
		res->aji = sc.aji;
		res->objects = objects;
		res->seconds = ts->secs[v] + csec;
		if (job->cmd)
			copy_metrics(r, i, v, o->node_inst[k]);
	}
	unlock(r);
}

/* With a gate: opens the next tile from i on where an instance runs
 * (gate sets which), queuing its root; a tile where none does is reported
 * done at once. Called unlocked, with nothing else in flight. */
static void
open_tile(run *r, size_t i)
{
	const sr_runjob *job = r->job;
	size_t k;

	for (; i < job->ntiles; i++) {
		job->gate(job->ctx, i, r->alive, r->out);
		for (k = 0; k < job->ninst && !r->alive[k]; k++)
			;
		if (k < job->ninst) {
			lock(r);
			push(&r->dq[0], (item){ i, 0 });
			unlock(r);
			return;
		}
		if (job->tile_done)
			job->tile_done(job->ctx, i, r->out);
	}
}

/* After the last item of tile i (done: release freed its root), with a
 * gate: reports the tile and opens the next. Called unlocked. */
static void
next_tile(run *r, size_t i, int done)
{
	const sr_runjob *job = r->job;

	if (!job->gate || !done)
		return;
	if (job->tile_done)
		job->tile_done(job->ctx, i, r->out);
	open_tile(r, i + 1);
}

/* Executes one item and queues what follows it. */
static void
execute(run *r, size_t me, item it)
{
	const sr_rtree *t = r->t;
	tstate *ts = &r->ts[it.tile];
	size_t v = it.node, c, n = 0;
	item kids[64], *kid = kids;
	int done;

	if (v == 0)
		do_root(r, it.tile);
	else if (r->job->cmd)
		command_task(r, it.tile, v);
	else
		do_task(r, it.tile, v);
	if (ts->out[v].status == SR_NUC_CONTINUE && sr_rchild(t, v) !=
	    SR_NONE) {
		for (c = sr_rchild(t, v); c != SR_NONE;
		    c = sr_rnext(t, c))
			n++;
		if (n > 64)
			kid = sr_calloc(n, sizeof *kid);
		n = 0;
		for (c = sr_rchild(t, v); c != SR_NONE;
		    c = sr_rnext(t, c))
			if (node_alive(r, c))
				kid[n++] = (item){ it.tile, c };
		if (n == 0) {	/* (a gate's) every instance below is out */
			if (kid != kids)
				free(kid);
			lock(r);
			done = release(r, it.tile, v);
			progress(r);
			unlock(r);
			next_tile(r, it.tile, done);
			return;
		}
		lock(r);
		ts->pending[v] = n;
		while (n > 0)		/* the first child on top */
			push(&r->dq[me], kid[--n]);
		progress(r);
		unlock(r);
		if (kid != kids)
			free(kid);
		return;
	}
	finish(r, it.tile, v);
	lock(r);
	done = release(r, it.tile, v);
	progress(r);
	unlock(r);
	next_tile(r, it.tile, done);
}

static void *
worker(void *arg)
{
	worker_arg *w = arg;
	run *r = w->r;
	item it;

	lock(r);
	for (;;) {
		if (take(r, w->id, &it)) {
			r->busy++;
			unlock(r);
			execute(r, w->id, it);
			lock(r);
			r->busy--;
			pthread_cond_broadcast(&r->cv);
		} else if (r->busy == 0)
			break;
		else
			pthread_cond_wait(&r->cv, &r->mu);
	}
	pthread_cond_broadcast(&r->cv);
	unlock(r);
	return NULL;
}

/* Fills node_inst/node_first (instances below each node), rep and the
 * depth-first ranks. */
static void
index_tree(run *r, sr_runout *o, size_t n)
{
	const sr_rtree *t = o->tree;
	size_t m = t->m, i, d, v, *fill, *stack, sp = 0, rank = 0;

	o->node_first = sr_calloc(t->nnodes + 1, sizeof *o->node_first);
	o->node_inst = sr_calloc(n * (m + 1), sizeof *o->node_inst);
	r->rep = sr_calloc(t->nnodes, sizeof *r->rep);
	r->pre = sr_calloc(t->nnodes, sizeof *r->pre);
	for (i = 0; i < n; i++)
		for (d = 0; d <= m; d++)
			o->node_first[t->path[i * (m + 1) + d] + 1]++;
	for (v = 0; v < t->nnodes; v++)
		o->node_first[v + 1] += o->node_first[v];
	fill = sr_calloc(t->nnodes, sizeof *fill);
	for (i = 0; i < n; i++)
		for (d = 0; d <= m; d++) {
			v = t->path[i * (m + 1) + d];
			if (fill[v] == 0)
				r->rep[v] = i;
			o->node_inst[o->node_first[v] + fill[v]++] = i;
		}
	free(fill);
	stack = sr_calloc(t->nnodes, sizeof *stack);
	stack[sp++] = 0;
	while (sp > 0) {	/* children pushed last to first */
		size_t c, k = 0, j = 0;
		v = stack[--sp];
		r->pre[v] = rank++;
		for (c = sr_rchild(t, v); c != SR_NONE;
		    c = sr_rnext(t, c))
			k++;
		for (c = sr_rchild(t, v); c != SR_NONE;
		    c = sr_rnext(t, c))
			stack[sp + k - 1 - j++] = c;
		sp += k;
	}
	free(stack);
	r->readers = sr_calloc(t->nnodes, sizeof *r->readers);
	r->early = sr_calloc(t->nnodes, sizeof *r->early);
	for (v = 1; !r->job->cmd && v < t->nnodes; v++) {
		size_t a, dv = t->node[v].depth;
		for (a = sr_rparent(t, v); a != 0; a = sr_rparent(t, a)) {
			if (reader_depth(t->node[a].depth) == dv)
				r->readers[a]++;
			if (early_depth(t->node[a].depth) == dv)
				r->early[a]++;
		}
	}
}

static run *sort_run;	/* for cmp_timing: qsort has no context */

static int
cmp_timing(const void *a, const void *b)
{
	const sr_runtiming *x = a, *y = b;

	if (x->tile != y->tile)
		return x->tile < y->tile ? -1 : 1;
	if (x->node != y->node)
		return sort_run->pre[x->node] < sort_run->pre[y->node] ? -1 : 1;
	return (x->task > y->task) - (x->task < y->task);
}

/* Measured peak heap of seg-run on a 4096^2 tile, one active path
 * (--no-prefault, 2026-11-26): 3 bytes per pixel for each tile in flight
 * (4 more with a reference mask) and about 10 for the first path on it
 * (209 MiB in all), at Seg5's h-minima step: its two framed float
 * planes and their queue, seg_big and the minima as bits. The outputs that
 * are masks wait in the tree as bits (image/bits.h); a task that is the
 * last to read an output frees it once read (sr_nuc_task's own), and a
 * node's buffers go once the last task reading them has run (see
 * drop_read). It was 23 before issue 17, when every output above a
 * path's deepest node stayed, and 16 before the bits and the hand-over
 * (259 MiB: the heap's holes then did not fit Seg5's second float
 * plane). A further path adds 10 to 12 (2 paths against 1 on a bucket
 * of 8, 5 rounds, with Seg5's own watershed: the spread is how the
 * paths' Seg5 overlap and where the heap has room), less where paths
 * part late. The model
 * counts the first path of each tile in flight only: a heap short of
 * the peak leaves page faults to the further paths, one beyond it would
 * hold memory for nothing. The normalization's colour table (64 MiB,
 * touched only where the tile has colours; a tile of up to 2^20 pixels
 * sorts its colours instead, 8 bytes a pixel) is left out. */
size_t
sr_run_heap_bytes(size_t w, size_t h, size_t threads, size_t tiles, int ref)
{
	size_t k = threads < tiles ? threads : tiles;

	return w * h * k * ((ref ? 7 : 3) + 10);
}

void
sr_run_bucket(const sr_runjob *job, sr_runout *o)
{
	run r;
	pthread_t *th;
	worker_arg *wa;
	size_t i, k;

	memset(o, 0, sizeof *o);
	memset(&r, 0, sizeof r);
	r.job = job;
	r.out = o;
	o->tree = sr_rtree_build(job->ninst, job->m, job->key, NULL);
	r.t = o->tree;
	index_tree(&r, o, job->ninst);
	o->result = sr_calloc(job->ninst * job->ntiles, sizeof *o->result);
	o->metric = sr_calloc(job->ninst * job->ntiles * job->nmetric + 1,
	    sizeof *o->metric);
	for (i = 0; i < job->ninst * job->ntiles * job->nmetric; i++)
		o->metric[i] = NAN;
	o->normalized = sr_calloc(job->ntiles, sizeof *o->normalized);
	o->foreground = sr_calloc(job->ntiles, sizeof *o->foreground);
	o->read_seconds = sr_calloc(job->ntiles, sizeof *o->read_seconds);
	o->prefault_seconds = sr_calloc(job->ntiles,
	    sizeof *o->prefault_seconds);
	o->save_seconds = sr_calloc(job->ntiles, sizeof *o->save_seconds);
	r.ts = sr_calloc(job->ntiles, sizeof *r.ts);
	r.dq = sr_calloc(job->threads, sizeof *r.dq);
	r.total = job->ntiles * r.t->nnodes;
	pthread_mutex_init(&r.mu, NULL);
	pthread_cond_init(&r.cv, NULL);
	if (job->gate) {	/* one tile at a time, opened as they end */
		r.alive = sr_calloc(job->ninst ? job->ninst : 1, 1);
		for (i = 0; i < job->ninst * job->ntiles; i++)
			o->result[i].status = SR_RESULT_NOT_RUN;
		for (i = 0; i < job->ntiles; i++)
			o->normalized[i] = -1;	/* until read */
		open_tile(&r, 0);
	} else
		for (i = job->ntiles; i > 0; i--)	/* tile 0 on top */
			push(&r.dq[0], (item){ i - 1, 0 });
	th = sr_calloc(job->threads, sizeof *th);
	wa = sr_calloc(job->threads, sizeof *wa);
	for (k = 0; k < job->threads; k++) {
		wa[k] = (worker_arg){ &r, k };
		if (pthread_create(&th[k], NULL, worker, &wa[k]) != 0)
			sr_die(SR_EXIT_DATA, "cannot start thread %zu of %zu", k + 1,
			    job->threads);
	}
	for (k = 0; k < job->threads; k++)
		pthread_join(th[k], NULL);
	if (job->progress)
		fputc('\n', stderr);
	sort_run = &r;
	if (o->ntiming > 1)	/* none: timing is NULL, which qsort may not take */
		qsort(o->timing, o->ntiming, sizeof *o->timing, cmp_timing);
	pthread_mutex_destroy(&r.mu);
	pthread_cond_destroy(&r.cv);
	for (k = 0; k < job->threads; k++)
		free(r.dq[k].a);
	free(r.dq);
	free(r.ts);
	free(r.alive);
	free(r.rep);
	free(r.pre);
	free(r.readers);
	free(r.early);
	free(th);
	free(wa);
}

void
sr_runout_free(sr_runout *o)
{
	sr_rtree_free(o->tree);
	free(o->node_inst);
	free(o->node_first);
	free(o->result);
	free(o->metric);
	free(o->timing);
	free(o->normalized);
	free(o->foreground);
	free(o->read_seconds);
	free(o->prefault_seconds);
	free(o->save_seconds);
	memset(o, 0, sizeof *o);
}
