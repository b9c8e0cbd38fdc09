/* job.c - a sim-runtime job's inputs and predictions (job.h). */
#include "sim/job.h"
#include "plan/results.h"
#include "plan/instances.h"
#include "core/err.h"
#include "core/out.h"
#include "core/tsv.h"
#include "sim/model.h"
#include "sim/replay.h"
#include "sim/results.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
sr_simjob_check(const sr_simjob *j)
{
	if (!j->workflow != !j->instances)
		sr_usage_error("--workflow and --instances go together");
	if (j->cpt > 1 && !j->cores)
		sr_usage_error("--cpus-per-task goes with --cores");
	if (j->cores && j->cpt > j->cores)
		sr_usage_error("--cpus-per-task %zu: more than the %zu cores of a "
		    "node", j->cpt, j->cores);
	if (j->cancel != (j->results != NULL))
		sr_usage_error("--cancel and --results go together");
	if (j->metric && !j->results)
		sr_usage_error("--metric goes with --results");
	if ((j->model || j->fit || j->results || j->skip) && !j->workflow)
		sr_usage_error("--model, --fit, --results and --skip-stage need "
		    "--workflow and --instances");
	if (j->model && j->fit)
		sr_usage_error("--model and --fit exclude each other");
	if (j->nref && !j->fit)
		sr_usage_error("--ref-timings and --write-model go with --fit");
	if (j->tiles && !j->model && !j->fit)
		sr_usage_error("--tiles and --seed go with --model or --fit");
	if (j->per_task && (j->lines > 1 || j->cancel))
		sr_usage_error("--tiles-per-task excludes --lines and --cancel "
		    "(a tune campaign's task is a bucket on every tile)");
	if (j->tiles && j->results)
		sr_usage_error("--tiles and --results exclude each other: the "
		    "results name the tiles");
}

/* Every input file that j names (to free; not the strings): *n gets
 * their number. */
static const char **
simjob_inputs(const sr_simjob *j, size_t *n)
{
	const char *one[] = { j->timings, j->model, j->results, j->workflow,
	    j->instances };
	const char **in = sr_calloc(5 + j->nbuckets + j->nref, sizeof *in);
	size_t i;

	*n = 0;
	for (i = 0; i < 5; i++)
		if (one[i])
			in[(*n)++] = one[i];
	for (i = 0; i < j->nbuckets; i++)
		in[(*n)++] = j->buckets[i];
	for (i = 0; i < j->nref; i++)
		in[(*n)++] = j->ref[i];
	return in;
}

void
sr_simjob_operands(sr_simjob *j, int argc, char **argv,
    const char *const *outs, size_t nout)
{
	const char **in;
	size_t i, n, stdins = 0;

	if (argc < 1)
		sr_usage_error(j->model ? "no BUCKETS.tsv given" : "no TIMINGS given");
	if (!j->model) {
		j->timings = *argv++;
		argc--;
	}
	j->buckets = argv;
	j->nbuckets = (size_t)argc;
	if (j->nbuckets && !j->workflow)
		sr_usage_error("BUCKETS.tsv needs --workflow and --instances");
	if (j->fit && !j->nbuckets)
		sr_usage_error("--fit needs the plans BUCKETS.tsv to predict");
	in = simjob_inputs(j, &n);
	for (i = 0; i < n; i++)
		stdins += strcmp(in[i], "-") == 0;
	if (stdins > 1)
		sr_usage_error("only one input can be stdin");
	sr_out_refuse_inputs(outs, nout, in, n);
	free(in);
}

char *
sr_simjob_skip_flags(const char *list, const sr_workflow *w)
{
	char *skip = sr_calloc(w->nstage, 1), item[256];
	const char *p = list;
	int rc, s;

	while ((rc = sr_list_next(&p, item, sizeof item)) > 0) {
		if ((s = sr_workflow_stage(w, item)) < 0)
			sr_usage_error("--skip-stage %s: no such stage in %s", item,
			    w->path);
		skip[s] = 1;
	}
	if (rc != 0)
		sr_usage_error("--skip-stage '%s': a comma list of stages", list);
	return skip;
}

const char *
sr_simjob_metric(const sr_simjob *j)
{
	return j->metric ? j->metric : SR_RESULTS_DICE;
}

double
sr_simjob_overhead(const sr_simjob *j, const sr_siminputs *r)
{
	return !j->overhead_given && r->model_overhead >= 0 ?
	    r->model_overhead : j->overhead;
}

/* The tiles of a model's costs: the results', else --tiles N of them
 * (named 1, 2, ...), else the model's tiles with rows of their own (a
 * fitted model's: the timings'), else one. */
static void
model_tiles(const sr_simjob *j, sr_siminputs *r, const sr_simmodel *m,
    sr_interner *tiles)
{
	char name[32];
	size_t k;

	sr_interner_init(tiles);
	if (j->results) {
		r->value = sr_simresults_read(j->results, sr_simjob_metric(j),
		    tiles, 1, r->in->nruns);
		return;
	}
	if (!j->tiles && m->tiles.n) {
		for (k = 0; k < m->tiles.n; k++)
			sr_intern_str(tiles, sr_interner_key(&m->tiles, k, NULL), NULL);
		return;
	}
	for (k = 0; k < (j->tiles ? j->tiles : 1); k++) {
		snprintf(name, sizeof name, "%zu", k + 1);
		sr_intern_str(tiles, name, NULL);
	}
}

/* Reads the costs: timings, a model, or a model fitted to timings. */
static void
read_costs(const sr_simjob *j, sr_siminputs *r)
{
	sr_interner tiles;
	sr_simmodel model;
	const sr_simmodel *m = &model;

	r->model_overhead = -1;
	if (!j->model && !j->fit) {
		r->cost = sr_simcost_timings(j->timings, r->in, r->skip);
		if (j->results)
			r->value = sr_simresults_read(j->results, sr_simjob_metric(j),
			    &r->cost->tiles, 0, r->in->nruns);
		return;
	}
	if (j->fit) {
		r->fit = sr_calloc(1, sizeof *r->fit);
		sr_simfit_timings(r->fit, r->w, j->timings, j->ref, j->nref, r->skip);
		m = &r->fit->m;
	} else {
		sr_simmodel_init(&model, r->w, j->model);
		sr_simmodel_read(&model, r->skip);
	}
	model_tiles(j, r, m, &tiles);
	r->cost = sr_simcost_model(m, r->in, r->skip, &tiles, j->seed);
	r->model_overhead = m->overhead;
	if (!j->fit)
		sr_simmodel_free(&model);
}

void
sr_siminputs_read(const sr_simjob *j, sr_siminputs *r)
{
	size_t i;

	memset(r, 0, sizeof *r);
	if (j->workflow) {
		r->w = sr_workflow_read(j->workflow);
		r->in = sr_instances_read(j->instances, r->w);
		if (j->skip)
			r->skip = sr_simjob_skip_flags(j->skip, r->w);
	}
	read_costs(j, r);
	r->nplan = j->nbuckets ? j->nbuckets : 1;
	r->plan = sr_calloc(r->nplan, sizeof *r->plan);
	if (j->nbuckets == 0)
		r->plan[0] = sr_simplan_baseline(r->cost);
	for (i = 0; i < j->nbuckets; i++)
		r->plan[i] = sr_simplan_read(j->buckets[i], r->cost);
	r->best = r->value ? sr_simresults_best(r->value, r->in->nruns,
	    r->cost->tiles.n) : SR_NONE;
}

void
sr_siminputs_free(sr_siminputs *r)
{
	size_t i;

	for (i = 0; i < r->nplan; i++)
		sr_simplan_free(r->plan[i]);
	free(r->plan);
	free(r->value);
	sr_simcost_free(r->cost);
	if (r->fit)
		sr_simfit_free(r->fit);
	free(r->fit);
	free(r->skip);
	sr_instances_free(r->in);
	sr_workflow_free(r->w);
}

/* Predicts plan p (array tasks' work task[0..ntask), in order) on the
 * slot count of row x. */
static void
predict(const sr_simjob *j, const sr_siminputs *r, const sr_simplan *p,
    const double *task, size_t ntask, const size_t *order, sr_simrow *x)
{
	sr_simconf conf = { x->slots, sr_simjob_overhead(j, r), j->delay };
	unsigned char *cancelled;
	size_t i;

	x->nodes = j->cores ? ceil((double)x->slots / (double)(j->cores /
	    j->cpt)) : (double)x->slots;
	x->best_survived = -1;
	if (!j->cancel) {
		sr_sim_list(&conf, task, order, ntask, &x->st);
		return;
	}
	cancelled = sr_calloc(r->in->nruns + 1, 1);
	sr_sim_cancel(&conf, r->cost, p, j->lines, order, r->value, &j->rule,
	    &x->st, cancelled);
	for (i = 0, x->cancelled = 0; i < r->in->nruns; i++)
		x->cancelled += cancelled[i];
	if (r->best != SR_NONE)
		x->best_survived = !cancelled[r->best];
	free(cancelled);
}

sr_simrow *
sr_simjob_run(const sr_simjob *j, const sr_siminputs *r)
{
	size_t n = j->sweep.n, i, k, ntask, *order;
	sr_simrow *rows = sr_calloc(r->nplan * n + 1, sizeof *rows);
	double *task;

	for (i = 0; i < r->nplan; i++) {
		task = j->per_task ? sr_simplan_chunk_tasks(r->plan[i],
		    r->cost->tiles.n, j->per_task, &ntask) :
		    sr_simplan_tasks(r->plan[i], j->lines, &ntask);
		order = sr_sim_order(j->order, task, ntask);
		for (k = 0; k < n; k++) {
			rows[i * n + k].slots = j->sweep.slots[k];
			predict(j, r, r->plan[i], task, ntask, order, &rows[i * n + k]);
		}
		free(order);
		free(task);
	}
	return rows;
}
