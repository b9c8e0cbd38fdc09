/* job.h - a sim-runtime job: what to read (timings or a cost model, the
 * plans, the results), how to replay it (slot counts, start-up and
 * dispatch costs, buckets per array task, dispatch order, cancellation),
 * and a row of predictions per plan and slot count. */
#ifndef SR_JOB_H
#define SR_JOB_H

#include <stddef.h>

#include "plan/instances.h"
#include "sa/cancel.h"
#include "sim/costs.h"
#include "sim/fit.h"
#include "sim/plans.h"
#include "sim/schedule.h"
#include "sim/sweep.h"

/* The settings (sim-runtime's options). */
typedef struct {
	const char *timings;	/* NULL with a model */
	const char *model, *workflow, *instances, *skip, *results, *metric;
	int fit;		/* a model fitted from the timings */
	char **ref;		/* --fit: the reference step's timings */
	size_t nref;
	char **buckets;		/* the plans BUCKETS.tsv, none: the baseline */
	size_t nbuckets;
	size_t tiles;		/* --model: tiles, 0 for 1; --fit: 0 for the
				 * timings' */
	unsigned long seed;	/* --model, --fit */
	sr_sweep sweep;		/* the slot counts */
	double overhead, delay;
	int overhead_given;	/* else the model's overhead, if any */
	size_t lines;		/* buckets per array task, >= 1 */
	size_t per_task;	/* tiles per array task: each bucket on chunks
				 * of them; 0: a bucket on every tile */
	size_t cores, cpt;	/* cores per node (0: a slot is a node), per task */
	sr_simorder order;
	int cancel;		/* replay with rule on the results */
	sr_cancelrule rule;
} sr_simjob;

/* Everything a job reads: costs, plans, results. */
typedef struct {
	sr_workflow *w;
	sr_instances *in;
	char *skip;		/* per stage: left out */
	sr_simcost *cost;
	sr_simfit *fit;		/* --fit: the model fitted, else NULL */
	sr_simplan **plan;
	size_t nplan;
	double *value;		/* runs x tiles, with results */
	size_t best;		/* the best run, or SR_NONE */
	double model_overhead;	/* the model's, or -1 */
} sr_siminputs;

/* One prediction: a plan on a slot count. */
typedef struct {
	size_t slots, cancelled;
	sr_simstats st;
	double nodes;
	int best_survived;	/* -1: no best */
} sr_simrow;

/* Usage error (exit 2) on settings that need others or exclude each
 * other. */
void sr_simjob_check(const sr_simjob *j);

/* Takes the operands argv[0..argc): TIMINGS (without a model), then the
 * plans BUCKETS.tsv. Usage error (exit 2) when one is missing, plans lack
 * the workflow, --fit has no plan, two inputs are stdin, or one of the
 * outputs outs[0..nout) would replace an input. */
void sr_simjob_operands(sr_simjob *j, int argc, char **argv,
    const char *const *outs, size_t nout);

/* The stages named in the comma list, as flags per stage of w; a usage
 * error on a stage w does not have. */
char *sr_simjob_skip_flags(const char *list, const sr_workflow *w);

/* Reads every input of job j into r; dies naming file, line and column
 * on bad input. */
void sr_siminputs_read(const sr_simjob *j, sr_siminputs *r);
void sr_siminputs_free(sr_siminputs *r);

/* The start-up seconds of every array task: --overhead, else the
 * model's, else 0. */
double sr_simjob_overhead(const sr_simjob *j, const sr_siminputs *r);
/* The metric of the results. */
const char *sr_simjob_metric(const sr_simjob *j);

/* Predicts every plan on every slot count: rows by plan, then count
 * (r->nplan x j->sweep.n, to free). */
sr_simrow *sr_simjob_run(const sr_simjob *j, const sr_siminputs *r);

#endif
