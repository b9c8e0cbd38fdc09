/* report.c - the report and the plot of a sim-runtime job (report.h). */
#include "sim/report.h"
#include "core/err.h"
#include "core/num.h"
#include "core/out.h"
#include "core/plot.h"
#include "core/tsv.h"

#include <math.h>
#include <stdlib.h>

/* a / b, or NaN where b (a makespan) is 0. */
static double
ratio(double a, double b)
{
	return b > 0 ? a / b : NAN;
}

/* The significant digits of the report's durations and ratios. */
#define DIGITS 4

/* v with DIGITS significant digits. */
static void
put_sig(FILE *fp, double v)
{
	char buf[SR_NUMLEN];

	fputs(sr_fmt_sig(buf, v, DIGITS), fp);
}

/* A duration in seconds as h:mm:ss. */
static void
put_hms(FILE *fp, double v)
{
	char buf[SR_NUMLEN];

	fputs(sr_fmt_hms(buf, v), fp);
}

/* A value of the rule, "off" for none. */
static void
put_rule(FILE *fp, double v)
{
	if (isnan(v))
		fputs("off", fp);
	else
		sr_put_double(fp, v);
}

/* The cancellation line: metric, rule (the stable one's parameters as
 * they always were, another by its parse form), runs and the best run. */
static void
write_cancel_meta(FILE *fp, const sr_simjob *j, const sr_siminputs *r)
{
	char rule[SR_CANCEL_RULELEN];

	fprintf(fp, "#cancel metric=%s ", sr_simjob_metric(j));
	if (j->rule.kind == SR_CANCEL_STABLE) {
		fputs("acc=", fp);
		put_rule(fp, j->rule.acc);
		fputs(" time=", fp);
		put_rule(fp, j->rule.time);
		fprintf(fp, " window=%zu", j->rule.window);
	} else {
		sr_cancelrule_format(&j->rule, rule, sizeof rule);
		fprintf(fp, "rule=%s", rule);
	}
	fprintf(fp, " runs=%zu best_run=", r->in->nruns);
	if (r->best == SR_NONE)
		fputs("none\n", fp);
	else
		fprintf(fp, "%zu\n", r->best);
}

/* Whether stage s is left out (--skip-stage). */
static int
skipped(const sr_siminputs *r, size_t s)
{
	return r->skip && r->skip[s];
}

/* A #fit line: the row of task for every tile. */
static void
write_fit_row(FILE *fp, const sr_simmodel *m, size_t task, const char *name,
    const char *stage)
{
	const sr_modelrow *row = sr_simmodel_get(m, task, SR_NONE);

	fprintf(fp, "#fit task=%s", name);
	if (stage)
		fprintf(fp, " stage=%s", stage);
	fputs(" seconds=", fp);
	put_sig(fp, row->mean);
	fputs(" spread=", fp);
	put_sig(fp, row->spread);
	fprintf(fp, " n=%zu from=%s\n", row->n, row->from_ref ? "ref_timings" :
	    "timings");
}

/* The fitted model's lines: what it was fitted to, then a line per task
 * of the stages run, and the read seconds. */
static void
write_fit_meta(FILE *fp, const sr_simjob *j, const sr_siminputs *r)
{
	const sr_simmodel *m = &r->fit->m;
	const sr_workflow *w = r->w;
	const sr_modelrow *rd = sr_simmodel_get(m, sr_simmodel_read_task(m),
	    SR_NONE);
	size_t s, k, tasks = 0, rows = 0;

	for (s = 0; s < w->nstage; s++)
		for (k = 0; k < w->stage[s].ntask && !skipped(r, s); k++) {
			tasks++;
			rows += sr_simmodel_get(m, sr_simmodel_task(m, s, k),
			    SR_NONE)->n;
		}
	fprintf(fp, "#costs=fitted timings=%s", j->timings);
	for (k = 0; k < j->nref; k++)
		fprintf(fp, "%s%s", k ? "," : " ref_timings=", j->ref[k]);
	fprintf(fp, " tasks=%zu rows=%zu read_lines=%zu tiles=%zu seed=%lu\n",
	    tasks, rows, rd ? rd->n : 0, r->cost->tiles.n, j->seed);
	for (s = 0; s < w->nstage; s++)
		for (k = 0; k < w->stage[s].ntask && !skipped(r, s); k++)
			write_fit_row(fp, m, sr_simmodel_task(m, s, k),
			    w->stage[s].task[k].name, w->stage[s].name);
	if (rd)
		write_fit_row(fp, m, sr_simmodel_read_task(m), "read", NULL);
}

/* The costs' and the replay's metadata lines. */
static void
write_meta(FILE *fp, const sr_simjob *j, const sr_siminputs *r)
{
	const sr_simcost *c = r->cost;

	if (r->fit)
		write_fit_meta(fp, j, r);
	else if (j->model)
		fprintf(fp, "#costs=model tiles=%zu seed=%lu\n", c->tiles.n,
		    j->seed);
	else
		fprintf(fp, "#costs=timings tiles=%zu rows=%zu read_lines=%zu\n",
		    c->tiles.n, c->nrows, c->nread);
	fputs("#overhead=", fp);
	sr_put_double(fp, sr_simjob_overhead(j, r));
	fputs(" delay=", fp);
	sr_put_double(fp, j->delay);
	fprintf(fp, " lines=%zu order=%s", j->lines,
	    sr_simorder_names[j->order]);
	if (j->per_task)
		fprintf(fp, " tiles_per_task=%zu", j->per_task);
	if (j->cores)
		fprintf(fp, " cores=%zu cpus_per_task=%zu", j->cores, j->cpt);
	fputc('\n', fp);
	if (j->cancel)
		write_cancel_meta(fp, j, r);
}

/* The plan's comment line: its size and how many nodes went unmeasured. */
static void
write_plan_meta(FILE *fp, const sr_simjob *j, const sr_siminputs *r,
    const sr_simplan *p)
{
	size_t ntiles = r->cost->tiles.n, per = j->per_task;

	fprintf(fp, "#plan=%s buckets=%zu array_tasks=%zu", p->name, p->n,
	    per ? p->n * ((ntiles + per - 1) / per) :
	    (p->n + j->lines - 1) / j->lines);
	if (r->in)
		fprintf(fp, " stage=%s tasks=%zu nodes=%zu unmeasured=%zu",
		    r->w->stage[p->stage].name, p->tasks, p->nodes, p->unmeasured);
	fputs(" work=", fp);
	put_sig(fp, sr_simplan_work(p));
	fputc('\n', fp);
}

/* A row: the plan on x's slot count. */
static void
write_row(FILE *fp, const sr_simjob *j, const sr_simplan *p,
    const sr_simrow *x)
{
	const sr_simstats *s = &x->st;
	double area = (double)x->slots * s->makespan;

	fprintf(fp, "%s\t%zu\t%zu\t", p->name, x->slots, p->n);
	put_sig(fp, s->work);
	fputc('\t', fp);
	put_sig(fp, s->makespan);
	fputc('\t', fp);
	put_sig(fp, ratio(s->busy, area));
	fputc('\t', fp);
	put_sig(fp, ratio(s->work, area));
	fputc('\t', fp);
	put_sig(fp, x->nodes * s->makespan / 3600);
	if (j->cancel)
		fprintf(fp, "\t%zu\t%s", x->cancelled, x->best_survived < 0 ?
		    "none" : x->best_survived ? "yes" : "no");
	fputc('\t', fp);
	put_hms(fp, s->work);
	fputc('\t', fp);
	put_hms(fp, s->makespan);
	fputc('\n', fp);
}

void
sr_simreport_write(FILE *fp, const sr_simjob *j, const sr_siminputs *r,
    const sr_simrow *rows)
{
	size_t i, k, n = j->sweep.n;

	write_meta(fp, j, r);
	for (i = 0; i < r->nplan; i++)
		write_plan_meta(fp, j, r, r->plan[i]);
	fputs("plan\tslots\tbuckets\twork\tmakespan\tutilisation\tefficiency\t"
	    "node_hours", fp);
	fputs(j->cancel ? "\tcancelled\tbest_survived" : "", fp);
	fputs("\twork_hms\tmakespan_hms\n", fp);
	for (i = 0; i < r->nplan; i++)
		for (k = 0; k < n; k++)
			write_row(fp, j, r->plan[i], &rows[i * n + k]);
}

void
sr_simreport_model(FILE *fp, const sr_simjob *j, const sr_siminputs *r,
    int argc, char **argv)
{
	sr_out_provenance(fp, argc, argv);
	write_fit_meta(fp, j, r);
	sr_simmodel_write(fp, &r->fit->m);
}

void
sr_simreport_plot(const char *path, const sr_simjob *j, const sr_siminputs *r,
    const sr_simrow *rows)
{
	size_t n = j->sweep.n, i, k;
	sr_plot_line *l = sr_calloc(r->nplan, sizeof *l);
	double *x = sr_calloc(r->nplan * n, sizeof *x);
	double *y = sr_calloc(r->nplan * n, sizeof *y);

	for (i = 0; i < r->nplan; i++) {
		for (k = 0; k < n; k++) {
			x[i * n + k] = (double)rows[i * n + k].slots;
			y[i * n + k] = rows[i * n + k].st.makespan;
		}
		l[i] = (sr_plot_line){ r->plan[i]->name, x + i * n, y + i * n, n };
	}
	sr_plot_lines(path, "sim-runtime: predicted makespan", "slots",
	    "makespan (s)", 1, l, r->nplan);
	free(l);
	free(x);
	free(y);
}
