/* saved.c - the work a campaign's buckets saved (saved.h). */
#include "campaign/saved.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/path.h"
#include "plan/buckets.h"
#include "plan/timings.h"

void
sr_saved_estimate(sr_saved *s, const double *sec, const size_t *n,
    size_t ntask)
{
	double per_run = 0;
	size_t k;

	for (k = 0; k < ntask; k++)
		per_run += n[k] ? sec[k] / (double)n[k] : NAN;
	/* every run, every task, every tile: each task at its mean */
	s->all_s = ntask ? s->runs * s->tiles * per_run : NAN;
	/* the nodes of the plan not run (cancelled sets, paths a task
	 * stopped): at the mean seconds of a node run */
	if (!(s->run > 0))
		s->planned_s = NAN;
	else if (s->planned > s->run)
		s->planned_s = s->run_s + (s->planned - s->run) * s->run_s /
		    s->run;
	else
		s->planned_s = s->run_s;
}

/* The runs and task nodes of dir's buckets.tsv; its stage, newly
 * allocated, or NULL. */
static char *
read_plan(sr_saved *s, const char *dir)
{
	char *path = sr_path_join(dir, "/", "buckets.tsv"), *stage;
	sr_buckets_in *b = sr_buckets_open(path, 0);
	sr_buckets_stats st;

	if (sr_buckets_read_stats(b, &st) == 0) {
		s->runs = (double)st.runs;
		s->all = st.tasks_noreuse * s->tiles;
		s->stage = st.tasks_stage * s->tiles;
		s->planned = (double)st.tasks_merged * s->tiles;
	}
	stage = b->stage;
	b->stage = NULL;
	sr_buckets_close(b);
	free(path);
	return stage;
}

/* The rows of dir's timings.tsv of stage st's tasks: their count and
 * seconds in s, and per task in sec and n. */
static void
read_run(sr_saved *s, const char *dir, const sr_stage *st, double *sec,
    size_t *n)
{
	char *path = sr_path_join(dir, "/", "timings.tsv");
	sr_timings_in *in = sr_timings_open(path);
	size_t k;
	enum sr_timings_kind kind;

	s->run = s->run_s = 0;
	while ((kind = sr_timings_next(in)) != SR_TIMINGS_END) {
		if (kind != SR_TIMINGS_ROW)
			continue;	/* a #read or #prefault line */
		for (k = 0; k < st->ntask; k++)
			if (strcmp(in->task, st->task[k].name) == 0)
				break;
		if (k == st->ntask)
			continue;	/* normalization, comparison */
		n[k]++;
		sec[k] += in->seconds;
		s->run++;
		s->run_s += in->seconds;
	}
	sr_timings_close(in);
	free(path);
}

void
sr_saved_read(sr_saved *s, const char *dir, size_t tiles,
    const sr_workflow *w)
{
	char *stage;
	int st;
	double *sec;
	size_t *n;

	s->tiles = (double)tiles;
	s->runs = s->all = s->stage = s->planned = NAN;
	s->run = s->run_s = s->all_s = s->planned_s = NAN;
	stage = read_plan(s, dir);
	st = w && stage ? sr_workflow_stage(w, stage) : -1;
	free(stage);
	if (st < 0)
		return;
	sec = sr_calloc(w->stage[st].ntask, sizeof *sec);
	n = sr_calloc(w->stage[st].ntask, sizeof *n);
	read_run(s, dir, &w->stage[st], sec, n);
	sr_saved_estimate(s, sec, n, w->stage[st].ntask);
	free(sec);
	free(n);
}

void
sr_saved_add(sr_saved *to, const sr_saved *from)
{
	to->runs += from->runs;
	to->tiles = from->tiles;
	to->all += from->all;
	to->stage += from->stage;
	to->planned += from->planned;
	to->run += from->run;
	to->run_s += from->run_s;
	to->all_s += from->all_s;
	to->planned_s += from->planned_s;
}
