/* segplan.c - the bucket seg-run executes (segplan.h). */
#include "exec/segplan.h"
#include "plan/instances.h"
#include "core/err.h"
#include "core/mem.h"
#include "image/image.h"
#include "plan/buckets.h"
#include "plan/reuse_tree.h"
#include "plan/stage_keys.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Whether task t of the workflow reads exactly the parameters nuclei task
 * k reads. */
static int
same_params(const sr_task *t, int k)
{
	size_t n = 0, i;
	const int *p = sr_nuc_task_param[k];

	for (; p[n] >= 0; n++) {
		for (i = 0; i < t->nparam; i++)
			if (strcmp(t->param[i], sr_nuc_param_name[p[n]]) == 0)
				break;
		if (i == t->nparam)
			return 0;
	}
	return n == t->nparam;
}

/* The segment stage: the one whose tasks are Seg0..Seg6 with nscale's
 * parameters, after a stage of parameter-free tasks (normalization) and
 * before at most one more (comparison). Dies naming what differs. */
static size_t
segment_stage(const sr_workflow *w, int *param_col)
{
	size_t s, t, k;

	for (s = 0; s < w->nstage; s++)
		if (w->stage[s].ntask == SR_NUC_NTASK &&
		    strcmp(w->stage[s].task[0].name, sr_nuc_task_name[0]) == 0)
			break;
	if (s == w->nstage || s != 1 || w->nstage > 3)
		sr_die(SR_EXIT_DATA, "%s: not the nuclei workflow: seg-run "
		    "executes a normalization stage, a stage of tasks Seg0 to "
		    "Seg6, and optionally a comparison stage", w->path);
	for (t = 0; t < SR_NUC_NTASK; t++) {
		const sr_task *task = &w->stage[s].task[t];
		if (strcmp(task->name, sr_nuc_task_name[t]) != 0 ||
		    !same_params(task, (int)t))
			sr_die(SR_EXIT_DATA, "%s:%zu: task %s: seg-run's task %s "
			    "reads other parameters", w->path, task->line,
			    task->name, sr_nuc_task_name[t]);
	}
	for (k = 0; k < w->nstage; k++)
		for (t = 0; k != s && t < w->stage[k].ntask; t++)
			if (w->stage[k].task[t].nparam > 0)
				sr_die(SR_EXIT_DATA, "%s:%zu: task %s: seg-run "
				    "runs no parameters outside stage %s", w->path,
				    w->stage[k].task[t].line,
				    w->stage[k].task[t].name, w->stage[s].name);
	for (k = 0; k < SR_NUC_NPARAM; k++)
		param_col[k] = sr_workflow_param(w, sr_nuc_param_name[k]);
	return s;
}

/* Reads row p->bucket of the plan: its instances and task count. */
static void
read_bucket(sr_segplan *p, size_t nstage)
{
	sr_buckets_in *b = sr_buckets_open(p->buckets, 1);
	const char *name = p->w->stage[p->st].name;
	const sr_bucket_row *row;
	size_t k;

	if (b->stage && strcmp(b->stage, name) != 0)
		sr_die(SR_EXIT_DATA, "%s: a plan of stage %s, not %s", b->path,
		    b->stage, name);
	sr_buckets_stage(b, nstage, name);
	while (b->rows < (size_t)p->bucket && sr_buckets_skip(b))
		;
	if (b->rows < (size_t)p->bucket || !(row = sr_buckets_next(b))) {
		if (b->rows == 0)
			sr_die(SR_EXIT_DATA, "%s: no buckets", b->path);
		sr_die(SR_EXIT_DATA, "%s: --bucket %ld: the plan has buckets 0 "
		    "to %zu", b->path, p->bucket, b->rows - 1);
	}
	p->n = row->ninst;
	p->inst = sr_calloc(p->n, sizeof *p->inst);
	memcpy(p->inst, row->inst, p->n * sizeof *p->inst);
	p->tasks = row->tasks;
	p->line = row->line;
	for (k = 0; k < p->n; k++)
		p->runs += p->in->inst[p->in->first[p->st] + p->inst[k]].nruns;
	sr_buckets_close(b);
}

/* Dies when a parameter of the nuclei workflow is a word enum: its
 * codes would reach the segmentation as numbers. */
static void
refuse_words(const sr_segplan *p)
{
	size_t i;

	for (i = 0; !p->commands && p->in->param && i < p->w->nparam; i++)
		if (p->in->param[i] && p->in->param[i]->word)
			sr_die(SR_EXIT_DATA, "%s: parameter %s is an enum of words "
			    "(its '#space' line): the built-in tasks take numbers",
			    p->instances, p->w->param[i]);
}

sr_segplan *
sr_segplan_read(const char *workflow, const char *instances,
    const char *buckets, long bucket)
{
	sr_segplan *p = sr_calloc(1, sizeof *p);
	size_t nstage;

	p->buckets = buckets;
	p->instances = instances;
	p->bucket = bucket;
	p->w = sr_workflow_read(workflow);
	if ((p->commands = p->w->commands)) {	/* checked when read */
		p->st = p->w->command_stage;
		p->m = p->w->stage[p->st].ntask;
		p->np = p->w->nparam;
	} else {
		p->st = segment_stage(p->w, p->col);
		p->m = SR_NUC_NTASK;
		p->np = SR_NUC_NPARAM;
	}
	p->has_norm = p->st > 0;
	p->has_compare = p->st + 1 < p->w->nstage;
	p->in = sr_instances_read(instances, p->w);
	refuse_words(p);
	nstage = p->in->first[p->st + 1] - p->in->first[p->st];
	if (nstage == 0)
		sr_die(SR_EXIT_DATA, "%s: no instances of stage %s", instances,
		    p->w->stage[p->st].name);
	read_bucket(p, nstage);
	return p;
}

/* The 15 parameter values of each of the bucket's instances; dies naming
 * the instances file, line and column of a value off its domain. A
 * workflow of commands takes every value as it is (the commands check
 * theirs). */
static void
bucket_params(sr_segplan *p)
{
	const sr_instances *in = p->in;
	size_t i, k;

	p->param = sr_calloc(p->n, p->np * sizeof *p->param);
	for (i = 0; p->commands && i < p->n; i++)
		memcpy(p->param + i * p->np, in->inst[in->first[p->st] +
		    p->inst[i]].value, p->np * sizeof *p->param);
	for (i = 0; !p->commands && i < p->n; i++) {
		size_t g = in->first[p->st] + p->inst[i];
		for (k = 0; k < SR_NUC_NPARAM; k++) {
			double v = in->inst[g].value[p->col[k]];
			const char *why = sr_nuc_param_check((int)k, v);
			if (why)
				sr_die(SR_EXIT_DATA, "%s:%zu: column %s: value "
				    "%.17g: %s", p->instances, in->line[g],
				    sr_nuc_param_name[k], v, why);
			p->param[i * SR_NUC_NPARAM + k] = v;
		}
	}
}

void
sr_segplan_check(sr_segplan *p)
{
	uint64_t *all = sr_stage_keys(p->in, p->st);
	sr_rtree *t;
	size_t i;

	bucket_params(p);
	p->key = sr_calloc(p->n, p->m * sizeof *p->key);
	for (i = 0; i < p->n; i++)
		memcpy(p->key + i * p->m, all + p->inst[i] * p->m,
		    p->m * sizeof *p->key);
	free(all);
	t = sr_rtree_build(p->n, p->m, p->key, NULL);
	p->ntasks = t->nnodes - 1;
	sr_rtree_free(t);
	sr_buckets_check_tasks(p->buckets, p->line, p->tasks, p->ntasks);
}

void
sr_segplan_free(sr_segplan *p)
{
	if (p == NULL)
		return;
	free(p->param);
	free(p->key);
	free(p->inst);
	sr_instances_free(p->in);
	sr_workflow_free(p->w);
	free(p);
}

void
sr_segplan_target(const char *target, double mean[3], double sd[3])
{
	char err[SR_ERRLEN];
	sr_rgb img;
	double fg;

	memcpy(mean, sr_norm_target_mean, 3 * sizeof *mean);
	memcpy(sd, sr_norm_target_std, 3 * sizeof *sd);
	if (target == NULL)
		return;
	if (sr_rgb_read(target, &img, err) < 0)
		sr_die(sr_exit_for_errno(errno), "%s", err);
	if (sr_norm_stats(&img, mean, sd, &fg) < 0)
		sr_die(SR_EXIT_DATA, "%s: no foreground pixels to take the "
		    "colour statistics from", target);
	sr_rgb_free(&img);
}

size_t
sr_memory_mib(size_t pixels, size_t active)
{
	double bytes = (double)pixels * (6.0 + 16.0 * (double)active);

	return 64 + (size_t)ceil(bytes / 1048576.0);
}

size_t
sr_commands_memory_mib(size_t pixels, size_t active)
{
	double bytes = (double)pixels * (11.0 + 12.0 * (double)active);

	return 128 + (size_t)ceil(bytes / 1048576.0);
}

/* The index, width and height of the largest tile (the first of the
 * largest); dies naming a tile whose size cannot be read. */
static size_t
largest_tile(const sr_tiles *tiles, size_t *wmax, size_t *hmax)
{
	char err[SR_ERRLEN];
	size_t i, w, h, max = 0;

	*wmax = *hmax = 0;
	for (i = 0; i < tiles->n; i++) {
		if (sr_tile_size(tiles, i, &w, &h, err) < 0)
			sr_die(SR_EXIT_DATA, "%s:%zu: %s", tiles->list,
			    tiles->line[i], err);
		if (i == 0 || w * h > *wmax * *hmax) {
			max = i;
			*wmax = w;
			*hmax = h;
		}
	}
	return max;
}

size_t
sr_segplan_memory_mib(const sr_tiles *tiles, size_t active)
{
	size_t w, h;

	largest_tile(tiles, &w, &h);
	return sr_memory_mib(w * h, active);
}

size_t
sr_segplan_estimate(const char *workflow, const sr_tiles *tiles,
    size_t active, size_t command_mem, int cmem_set)
{
	sr_workflow *w = workflow ? sr_workflow_read(workflow) : NULL;
	size_t wd, ht, mib;

	largest_tile(tiles, &wd, &ht);
	if (!w || !w->commands) {
		if (cmem_set)
			sr_die(SR_EXIT_DATA, "%s: --command-mem: a workflow "
			    "without commands", workflow);
		sr_workflow_free(w);
		return sr_memory_mib(wd * ht, active);
	}
	if (!cmem_set)
		sr_warn("%s: the memory of its commands is not estimated: "
		    "the figure is seg-run's own (--command-mem, campaign key "
		    "command_mem, adds theirs)", workflow);
	sr_workflow_free(w);
	mib = sr_commands_memory_mib(wd * ht, active);
	return mib + (size_t)ceil((double)active * (double)command_mem /
	    1048576.0);
}

void
sr_segplan_check_memory(const sr_tiles *tiles, size_t active, int commands)
{
	char label[SR_ERRLEN], have[32];
	size_t w, h, i = largest_tile(tiles, &w, &h);
	size_t mib = commands ? sr_commands_memory_mib(w * h, active) :
	    sr_memory_mib(w * h, active);
	sr_budget budget = { sr_image_budget(), sr_image_budget_source() };

	if (mib <= budget.bytes / 1048576)
		return;
	sr_die(SR_EXIT_DATA, "%s:%zu: %s: %zux%zu needs about %zu MiB for %zu "
	    "active path%s, over the memory budget of %s (%s)", tiles->list,
	    tiles->line[i], sr_tile_label(tiles, i, label, sizeof label), w, h,
	    mib, active, active == 1 ? "" : "s", sr_fmt_mib(have, sizeof have,
	    budget.bytes), budget.source);
}
