/* simulate_test.c - unit tests of sim/: the schedule, sweeps, orders,
 * plans and results.
 *
 * Exact makespans of small cases (10 equal tasks on 3 slots, one long
 * task among short ones in file order and longest first, start-up
 * overhead and dispatch delay); the heap schedules against two brute
 * forces on random inputs: an O(n s) scan for the slot that starts first,
 * and, for whole-second costs, a clock that ticks second by second; tasks
 * split into steps give the same schedule; the values of --sweep and
 * their usage errors (in a child process), dispatch orders by name, the
 * merged stage, the best run of a results matrix and array tasks of
 * several buckets; a cost model fitted to timings (means and coefficients
 * of variation by hand, rows of seg-run --no-normalize left out, the
 * reference step's timings for the tasks the timings lack, refusals) and
 * written and read back; the report's numbers (4 significant digits,
 * h:mm:ss). (The cancellation rules: cancel_test.)
 * Exits 0 on success; prints "FAIL: ..." and exits 1 otherwise.
 */
#include "core/err.h"
#include "core/num.h"
#include "core/opt.h"
#include "plan/stage_rule.h"
#include "sim/fit.h"
#include "sim/plans.h"
#include "sim/results.h"
#include "sim/schedule.h"
#include "sim/sweep.h"

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"


static void
expect(const char *what, double got, double want)
{
	if (fabs(got - want) > 1e-9 * (1 + fabs(want)))
		fail("%s: %.17g, expected %.17g", what, got, want);
}

/* ---- brute forces ----------------------------------------------------------- */

/* List scheduling by a scan of every slot per task: O(n s). */
static double
brute_scan(const sr_simconf *c, const double *cost, const size_t *order,
    size_t n, double *busy)
{
	double *next = calloc(c->slots, sizeof *next), end, mk = 0;
	size_t k, i, best;

	*busy = 0;
	for (k = 0; k < n; k++) {
		for (best = 0, i = 1; i < c->slots; i++)
			if (next[i] < next[best])
				best = i;
		end = next[best] + c->overhead + cost[order ? order[k] : k];
		*busy += c->overhead + cost[order ? order[k] : k];
		mk = end > mk ? end : mk;
		next[best] = end + c->delay;
	}
	free(next);
	return mk;
}

/* A clock ticking second by second (whole-second costs, overhead and
 * delay): at every tick, as long as a slot is idle (its delay over), the
 * lowest such slot takes the next task; a task of no work leaves its
 * slot idle at the same tick. */
static long
brute_clock(size_t slots, long overhead, long delay, const long *cost,
    size_t n)
{
	long *busy_until = calloc(slots, sizeof *busy_until), t, mk = 0;
	size_t next = 0, i;

	for (t = 0; next < n; t++)
		for (i = 0; i < slots && next < n; i++)
			if (busy_until[i] <= t) {
				long end = t + overhead + cost[next++];
				mk = end > mk ? end : mk;
				busy_until[i] = end + delay;
				i = (size_t)-1;		/* rescan from slot 0 */
			}
	free(busy_until);
	return mk;
}

/* ---- steps ------------------------------------------------------------------ */

/* Tasks of several steps each: step k of task j costs part[j][k]. */
struct parts {
	double **part;
	size_t *nparts, *at;
	size_t dones;
};

static int
parts_step(void *ctx, size_t j, double now, double *cost)
{
	struct parts *p = ctx;

	(void)now;
	if (p->at[j] == p->nparts[j])
		return 0;
	*cost = p->part[j][p->at[j]];
	return 1;
}

static void
parts_done(void *ctx, size_t j, double now)
{
	struct parts *p = ctx;

	(void)now;
	p->at[j]++;
	p->dones++;
}

/* Runs cost[] split into random steps through sr_sim_steps. */
static void
steps_of(const sr_simconf *c, const double *cost, const size_t *order,
    size_t n, sr_simstats *st)
{
	struct parts p;
	sr_simsteps ops = { parts_step, parts_done, &p };
	size_t j, k, total = 0;

	p.part = calloc(n, sizeof *p.part);
	p.nparts = calloc(n, sizeof *p.nparts);
	p.at = calloc(n, sizeof *p.at);
	p.dones = 0;
	for (j = 0; j < n; j++) {
		double left = cost[j];
		p.nparts[j] = rnd(4);	/* 0 steps: a task of no work */
		if (cost[j] > 0 && p.nparts[j] == 0)
			p.nparts[j] = 1;
		p.part[j] = calloc(p.nparts[j] + 1, sizeof **p.part);
		for (k = 0; k + 1 < p.nparts[j]; k++) {
			p.part[j][k] = left / 2;
			left -= p.part[j][k];
		}
		if (p.nparts[j])
			p.part[j][k] = left;
		total += p.nparts[j];
	}
	sr_sim_steps(c, &ops, order, n, st);
	if (p.dones != total)
		fail("steps: %zu steps done, expected %zu", p.dones, total);
	for (j = 0; j < n; j++)
		free(p.part[j]);
	free(p.part);
	free(p.nparts);
	free(p.at);
}

/* Records the calls: "s<task>@<time>" and "d<task>@<time>". */
struct trace {
	char log[512];
	size_t steps[8];
};

static int
trace_step(void *ctx, size_t j, double now, double *cost)
{
	struct trace *t = ctx;
	size_t n = strlen(t->log);

	snprintf(t->log + n, sizeof t->log - n, " s%zu@%g", j, now);
	*cost = 1;
	return t->steps[j]-- > 0;
}

static void
trace_done(void *ctx, size_t j, double now)
{
	struct trace *t = ctx;
	size_t n = strlen(t->log);

	snprintf(t->log + n, sizeof t->log - n, " d%zu@%g", j, now);
}

/* The order of events: at one time, every end before any start; the
 * lower slot first; a freed slot takes the next task. */
static void
event_order(void)
{
	struct trace t = { "", { 1, 2, 1, 1 } };
	sr_simsteps ops = { trace_step, trace_done, &t };
	sr_simconf c = { 2, 0, 0 };
	sr_simstats st;
	/* task 0 ends at 1 and slot 0 takes task 2 before slot 1 goes on */
	const char *want = " s0@0 s1@0 d0@1 d1@1 s0@1 s2@1 s1@1 d2@2 d1@2"
	    " s2@2 s3@2 s1@2 d3@3 s3@3";

	sr_sim_steps(&c, &ops, NULL, 4, &st);
	if (strcmp(t.log, want) != 0)
		fail("event order:\n  %s\nexpected\n  %s", t.log, want);
	expect("traced makespan", st.makespan, 3);
}

/* ---- the cases --------------------------------------------------------------- */

static void
exact_cases(void)
{
	double ten[10], one_long[10], last_long[10];
	sr_simconf c = { 3, 0, 0 };
	sr_simstats st;
	size_t i, *order;

	for (i = 0; i < 10; i++) {
		ten[i] = 1;
		one_long[i] = i == 0 ? 10 : 1;
		last_long[i] = i == 9 ? 10 : 1;
	}
	sr_sim_list(&c, ten, NULL, 10, &st);
	expect("10 x 1 s on 3 slots", st.makespan, 4);
	expect("10 x 1 s on 3 slots: busy", st.busy, 10);
	steps_of(&c, ten, NULL, 10, &st);
	expect("10 x 1 s on 3 slots (steps)", st.makespan, 4);
	sr_sim_list(&c, one_long, NULL, 10, &st);
	expect("10 s first, then 9 x 1 s, on 3 slots", st.makespan, 10);
	sr_sim_list(&c, last_long, NULL, 10, &st);
	expect("9 x 1 s, then 10 s, on 3 slots", st.makespan, 13);
	order = sr_sim_longest_first(last_long, 10);
	if (order[0] != 9 || order[1] != 0 || order[9] != 8)
		fail("longest first: %zu %zu ... %zu", order[0], order[1],
		    order[9]);
	sr_sim_list(&c, last_long, order, 10, &st);
	expect("9 x 1 s, then 10 s, longest first", st.makespan, 10);
	free(order);
	c.slots = 100;
	sr_sim_list(&c, ten, NULL, 10, &st);
	expect("10 x 1 s on 100 slots", st.makespan, 1);
	/* 4 x 1 s on 2 slots, 0.5 s start-up, 0.25 s between tasks: a slot
	 * runs 0-1.5, then 1.75-3.25 */
	c = (sr_simconf){ 2, 0.5, 0.25 };
	sr_sim_list(&c, ten, NULL, 4, &st);
	expect("overhead and delay", st.makespan, 3.25);
	expect("overhead and delay: busy", st.busy, 6);
	expect("overhead and delay: work", st.work, 4);
	steps_of(&c, ten, NULL, 4, &st);
	expect("overhead and delay (steps)", st.makespan, 3.25);
	sr_sim_list(&c, ten, NULL, 0, &st);
	expect("no tasks", st.makespan, 0);
}

static void
random_cases(void)
{
	size_t iter, n, i, *order;
	double cost[200], busy, want;
	long lcost[200];
	sr_simconf c;
	sr_simstats st, st2;

	for (iter = 0; iter < 2000; iter++) {
		n = rnd(200);
		c.slots = 1 + rnd(iter % 3 ? 12 : 300);
		c.overhead = rnd(3);
		c.delay = rnd(3);
		for (i = 0; i < n; i++) {
			lcost[i] = (long)rnd(iter % 2 ? 4 : 50);	/* ties */
			cost[i] = (double)lcost[i];
		}
		sr_sim_list(&c, cost, NULL, n, &st);
		want = (double)brute_clock(c.slots, (long)c.overhead,
		    (long)c.delay, lcost, n);
		if (st.makespan != want)
			fail("case %zu: heap %g, clock %g (n %zu, slots %zu)", iter,
			    st.makespan, want, n, c.slots);
		steps_of(&c, cost, NULL, n, &st2);
		if (st2.makespan != st.makespan || st2.busy != st.busy)
			fail("case %zu: steps %g, list %g", iter, st2.makespan,
			    st.makespan);
		/* real costs, in longest-first order */
		for (i = 0; i < n; i++)
			cost[i] = (double)rnd(1000000) / 1e4;
		c.overhead = (double)rnd(100) / 7;
		c.delay = (double)rnd(100) / 13;
		order = sr_sim_longest_first(cost, n);
		for (i = 1; i < n; i++)
			if (cost[order[i]] > cost[order[i - 1]] ||
			    (cost[order[i]] == cost[order[i - 1]] &&
			    order[i] < order[i - 1]))
				fail("case %zu: longest-first order broken at %zu",
				    iter, i);
		sr_sim_list(&c, cost, order, n, &st);
		want = brute_scan(&c, cost, order, n, &busy);
		expect("heap against scan", st.makespan, want);
		expect("heap against scan: busy", st.busy, busy);
		steps_of(&c, cost, order, n, &st2);
		expect("steps against list", st2.makespan, st.makespan);
		free(order);
	}
}

/* ---- option values, orders, plans -------------------------------------------- */

static void
parse_sweep(void *s)
{
	sr_sweep sw = { NULL, 0 };

	sr_sweep_parse(&sw, "--sweep", s);
	sr_sweep_free(&sw);
}

/* Whether f(arg) is a usage error whose message holds want. */
static void
expect_usage(void (*f)(void *), const char *arg, const char *want)
{
	char msg[512];
	int rc = child_error(f, (void *)arg, msg, sizeof msg);

	if (rc != SR_EXIT_USAGE || strstr(msg, want) == NULL)
		fail("'%s': exit %d, message '%s', expected 2 and '%s'", arg, rc,
		    msg, want);
}

/* Whether list s parses to the counts want[0..n). */
static void
expect_sweep(const char *s, const size_t *want, size_t n)
{
	sr_sweep sw = { NULL, 0 };
	size_t i;

	sr_sweep_parse(&sw, "--sweep", s);
	if (sw.n != n)
		fail("--sweep %s: %zu counts, expected %zu", s, sw.n, n);
	for (i = 0; i < n && i < sw.n; i++)
		if (sw.slots[i] != want[i])
			fail("--sweep %s: count %zu is %zu, expected %zu", s, i,
			    sw.slots[i], want[i]);
	sr_sweep_free(&sw);
}

static void
sweep_cases(void)
{
	static const size_t pow2[] = { 1, 2, 4, 8, 16 }, step1[] = { 1, 2, 3,
	    4, 5, 6 }, step3[] = { 2, 5, 8, 11, 12 }, two[] = { 3, 7 },
	    ten[] = { 10, 100, 1000, 1500 };

	expect_sweep("1,2,...,16", pow2, 5);
	expect_sweep("1,2,...,10,16", (const size_t[]){ 1, 2, 4, 8, 10, 16 }, 6);
	expect_sweep("1,2,3,...,6", step1, 6);
	expect_sweep("2,5,...,12", step3, 5);
	expect_sweep("3,7", two, 2);
	expect_sweep("10,100,...,1500", ten, 4);
	expect_usage(parse_sweep, "0,1", "--sweep '0': a whole number from 1 to 1e9");
	expect_usage(parse_sweep, "4,2", "--sweep '4,2': slot counts must increase");
	expect_usage(parse_sweep, "1,...,4", "'...' follows two slot counts");
	expect_usage(parse_sweep, "1,2,...", "--sweep '1,2,...': a comma list");
	expect_usage(parse_sweep, "1,,2", "a comma list of slot counts");
	expect_usage(parse_sweep, "1,2,3,...,200000", "more than 100000 slot counts");
}

static void
order_cases(void)
{
	static const double cost[] = { 1, 3, 2, 3 };
	size_t *o;

	if (sr_word_index("file", sr_simorder_names, SR_NORDER) != SR_ORDER_FILE ||
	    sr_word_index("longest-first", sr_simorder_names, SR_NORDER) !=
	    SR_ORDER_LONGEST_FIRST || sr_word_index("lpt", sr_simorder_names,
	    SR_NORDER) != -1)
		fail("order names");
	if (sr_sim_order(SR_ORDER_FILE, cost, 4) != NULL)
		fail("file order: not the identity");
	o = sr_sim_order(SR_ORDER_LONGEST_FIRST, cost, 4);
	if (o[0] != 1 || o[1] != 3 || o[2] != 2 || o[3] != 0)
		fail("longest first: %zu %zu %zu %zu", o[0], o[1], o[2], o[3]);
	free(o);
}

static void
plan_cases(void)
{
	sr_task t[4] = { { 0 } };
	sr_stage st[3] = { { 0 } };
	sr_workflow w = { 0 };
	double cost[5] = { 1, 2, 3, 4, 5 }, *task;
	double v[6] = { 0.5, 0.7, 0.9, NAN, NAN, NAN };
	sr_simplan p = { 0 };
	size_t n;

	st[0].ntask = 1;
	st[1].ntask = 3;
	st[2].ntask = 3;
	st[0].task = st[1].task = st[2].task = t;
	w.stage = st;
	w.nstage = 3;
	if (sr_merge_stage(&w) != 1)
		fail("merged stage: %zu, expected 1 (most tasks, first)",
		    sr_merge_stage(&w));
	w.nstage = 1;
	if (sr_merge_stage(&w) != 0)
		fail("merged stage of one stage: %zu", sr_merge_stage(&w));
	p.n = 5;
	p.cost = cost;
	task = sr_simplan_tasks(&p, 2, &n);
	if (n != 3 || task[0] != 3 || task[1] != 7 || task[2] != 5)
		fail("array tasks of 2 buckets: %zu", n);
	free(task);
	expect("plan work", sr_simplan_work(&p), 15);
	/* 3 runs on 2 tiles: run 1 the best mean, run 2 without a value */
	if (sr_simresults_best(v, 3, 2) != 1)
		fail("best run: %zu", sr_simresults_best(v, 3, 2));
	v[2] = 0.6;
	if (sr_simresults_best(v, 3, 2) != 0)
		fail("best run on a tie: %zu", sr_simresults_best(v, 3, 2));
	v[0] = v[1] = v[2] = NAN;
	if (sr_simresults_best(v, 3, 2) != SR_NONE)
		fail("best run without values");
}

/* ---- a fitted cost model ------------------------------------------------- */

static char tmpdir[] = "/tmp/simulate_test.XXXXXX";

/* A file of tmpdir holding text; its path (valid until the next call of
 * the same name). */
static const char *
put_file(const char *name, const char *text)
{
	static char path[8][128];
	static int k;
	char *p = path[k++ % 8];
	FILE *fp;

	snprintf(p, 128, "%s/%s", tmpdir, name);
	if ((fp = fopen(p, "w")) == NULL || fputs(text, fp) < 0 || fclose(fp))
		fail("cannot write %s", p);
	return p;
}

/* Removes tmpdir and its files. */
static void
remove_tmpdir(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	char path[sizeof tmpdir + sizeof e->d_name + 1];

	while (d && (e = readdir(d)) != NULL)
		if (e->d_name[0] != '.') {
			snprintf(path, sizeof path, "%s/%s", tmpdir, e->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	rmdir(tmpdir);
}

#define TH "bucket\ttile\tdepth\ttask\tinstances\tseconds\tbytes\n"

/* The fit of fit_args (a workflow, timings, ref timings, skip flags). */
struct fit_args {
	const sr_workflow *w;
	const char *timings;
	char **ref;
	size_t nref;
	const char *skip;
};

static void
fit_child(void *arg)
{
	struct fit_args *a = arg;
	sr_simfit f;

	sr_simfit_timings(&f, a->w, a->timings, a->ref, a->nref, a->skip);
}

/* Dies unless the fit of a dies with exit status 1 and a message
 * containing want. */
static void
expect_fit_error(struct fit_args *a, const char *want)
{
	char msg[1024];
	int st = child_error(fit_child, a, msg, sizeof msg);

	if (st != 1 || strstr(msg, want) == NULL)
		fail("fit: exit %d, '%s'; expected 1 and '%s'", st, msg, want);
}

/* The row of task k of stage s on tile (a name, or NULL: every tile). */
static const sr_modelrow *
row_of(const sr_simmodel *m, size_t s, size_t k, const char *tile)
{
	size_t t = tile ? sr_interner_find_str(&m->tiles, tile) : SR_NONE;

	if (tile && t == SR_NONE)
		return NULL;
	return sr_simmodel_get(m, s == SIZE_MAX ? sr_simmodel_read_task(m) :
	    sr_simmodel_task(m, s, k), t);
}

/* Dies unless the row of (s, k) on tile is mean, spread, n, from_ref. */
static void
expect_row(const sr_simmodel *m, size_t s, size_t k, const char *tile,
    double mean, double spread, size_t n, int ref)
{
	const sr_modelrow *r = row_of(m, s, k, tile);
	char what[64];

	snprintf(what, sizeof what, "task %zu.%zu on %s", s, k, tile ? tile : "*");
	if (r == NULL) {
		fail("%s: no row", what);
		return;
	}
	expect(what, r->mean, mean);
	expect(what, r->spread, spread);
	if (r->n != n || r->from_ref != ref)
		fail("%s: n %zu from_ref %d, expected %zu %d", what, r->n,
		    r->from_ref, n, ref);
}

/* Means, spreads and counts by hand: t1 rows 1 (tile a), 2 and 3 (tile
 * b): over all, mean 2 and sample standard deviation 1 (spread 0.5), on
 * b 2.5 and sqrt(0.5) / 2.5; t2 one row (spread 0); the norm rows of the
 * #normalize=no file left out, the reference's 2 (a) and 4 (b) taken
 * instead (mean 3, spread sqrt(2) / 3), its tile c (not the timings')
 * only in the row for every tile; read (0.5 + 0.25 + 1) / 2 per #read
 * line, 0.75 on a and 1 on b; the rows of a stage without parameters
 * (norm) on a tile take spread 0. */
static void
fit_cases(void)
{
	const char *wf, *t, *ref, *plain;
	char *refs[1];
	sr_workflow *w;
	sr_simfit f;
	char skip[2] = { 1, 0 };

	if (mkdtemp(tmpdir) == NULL)
		fail("mkdtemp");
	wf = put_file("w.wf", "stage\ttask\tparams\tcost\nprep\tnorm\t-\t1\n"
	    "s\tt1\tp1\t1\ns\tt2\tp2\t1\n");
	t = put_file("t.tsv", "#bucket=0 tiles=2\n#normalize=no\n"
	    "#read tile=a seconds=0.5\n#prefault tile=a seconds=0.25\n"
	    "#read tile=b seconds=1\n" TH "0\ta\t1\tnorm\t0\t0.001\t0\n"
	    "0\ta\t1\tt1\t0\t1\t0\n0\ta\t2\tt2\t0\t4\t0\n"
	    "0\tb\t1\tnorm\t0\t0.001\t0\n0\tb\t1\tt1\t0\t2\t0\n"
	    "0\tb\t1\tt1\t1\t3\t0\n");
	ref = put_file("ref.tsv", TH "0\ta\t1\tnorm\t0\t2\t0\n"
	    "0\ta\t1\tt1\t0\t100\t0\n0\tb\t1\tnorm\t0\t4\t0\n"
	    "0\tc\t1\tnorm\t0\t3\t0\n");
	refs[0] = (char *)ref;
	w = sr_workflow_read(wf);
	sr_simfit_timings(&f, w, t, refs, 1, NULL);
	expect_row(&f.m, 1, 0, NULL, 2, 0.5, 3, 0);
	expect_row(&f.m, 1, 0, "a", 1, 0, 1, 0);
	expect_row(&f.m, 1, 0, "b", 2.5, sqrt(0.5) / 2.5, 2, 0);
	expect_row(&f.m, 1, 1, NULL, 4, 0, 1, 0);
	expect_row(&f.m, 1, 1, "a", 4, 0, 1, 0);
	if (row_of(&f.m, 1, 1, "b") != row_of(&f.m, 1, 1, NULL))
		fail("t2 on b: not the row for every tile");
	expect_row(&f.m, 0, 0, NULL, 3, 1.0 / 3, 3, 1);
	expect_row(&f.m, 0, 0, "a", 2, 0, 1, 1);
	expect_row(&f.m, 0, 0, "b", 4, 0, 1, 1);
	if (row_of(&f.m, 0, 0, "c") != NULL)
		fail("a tile of the reference only has a row");
	expect_row(&f.m, SIZE_MAX, 0, NULL, 0.875, 0, 2, 0);
	expect_row(&f.m, SIZE_MAX, 0, "a", 0.75, 0, 1, 0);
	expect_row(&f.m, SIZE_MAX, 0, "b", 1, 0, 1, 0);
	if (f.rows != 7 || f.ignored != 2 || f.m.tiles.n != 2)
		fail("fit counts: rows %zu ignored %zu tiles %zu", f.rows,
		    f.ignored, f.m.tiles.n);
	sr_simfit_free(&f);
	/* without #normalize=no, the norm rows are measurements */
	plain = put_file("plain.tsv", TH "0\ta\t1\tnorm\t0\t0.5\t0\n"
	    "0\ta\t1\tt1\t0\t1\t0\n0\ta\t2\tt2\t0\t1\t0\n");
	sr_simfit_timings(&f, w, plain, refs, 1, NULL);
	expect_row(&f.m, 0, 0, NULL, 0.5, 0, 1, 0);
	if (row_of(&f.m, SIZE_MAX, 0, NULL) != NULL || f.ignored != 0)
		fail("fit of plain timings");
	sr_simfit_free(&f);
	/* the rows of a stage of one instance (norm) on a tile differ by
	 * the machine's noise only: spread 0 on the tile */
	sr_simfit_timings(&f, w, put_file("noisy.tsv", TH
	    "0\ta\t1\tnorm\t0\t1\t0\n1\ta\t1\tnorm\t0\t3\t0\n"
	    "0\ta\t1\tt1\t0\t1\t0\n1\ta\t1\tt1\t1\t3\t0\n"
	    "0\ta\t2\tt2\t0\t1\t0\n"), NULL, 0, NULL);
	expect_row(&f.m, 0, 0, NULL, 2, sqrt(2) / 2, 2, 0);
	expect_row(&f.m, 0, 0, "a", 2, 0, 2, 0);
	expect_row(&f.m, 1, 0, "a", 2, sqrt(2) / 2, 2, 0);
	sr_simfit_free(&f);
	/* the stage skipped: no reference needed */
	sr_simfit_timings(&f, w, t, NULL, 0, skip);
	if (row_of(&f.m, 0, 0, NULL) != NULL || row_of(&f.m, 1, 0, NULL) == NULL)
		fail("fit with prep skipped");
	sr_simfit_free(&f);
	expect_fit_error(&(struct fit_args){ w, t, NULL, 0, NULL },
	    "t.tsv: no timings of task norm (stage prep): its rows are of "
	    "seg-run --no-normalize (#normalize=no)");
	expect_fit_error(&(struct fit_args){ w, put_file("t2.tsv", TH
	    "0\ta\t1\tt1\t0\t1\t0\n"), refs, 1, NULL },
	    "t2.tsv: no timings of task t2 (stage s) nor in --ref-timings; "
	    "give --skip-stage s");
	refs[0] = (char *)put_file("other.tsv", TH "0\ta\t1\tSeg0\t0\t1\t0\n");
	expect_fit_error(&(struct fit_args){ w, t, refs, 1, NULL },
	    "other.tsv:2: column task: 'Seg0' is not a task of");
	expect_fit_error(&(struct fit_args){ w, put_file("e.tsv", TH), NULL, 0,
	    skip }, "e.tsv: no timings: the file has no rows");
	sr_workflow_free(w);
}

/* A model written by sr_simmodel_write reads back to the same rows. */
static void
model_cases(void)
{
	sr_workflow *w = sr_workflow_read(put_file("w.wf", "stage\ttask\t"
	    "params\tcost\ns\tt1\tp1\t1\ns\tt2\tp2\t1\n"));
	sr_simmodel a, b;
	const char *path = put_file("m.tsv", "");
	size_t x = 0;
	FILE *fp;
	sr_modelrow r[] = {
		{ 0, SR_NONE, 0.1 + 0.2, 1.0 / 3, 5, 0 },  /* no short form */
		{ 1, SR_NONE, 2e-7, 0, 1, 0 },
		{ 0, 0, 12345.678, 0.5, 2, 0 },
		{ 2, SR_NONE, 0.875, 0, 2, 0 },		/* read */
		{ 2, 1, 0.5, 0, 1, 0 },
	};
	size_t i;

	sr_simmodel_init(&a, w, path);
	sr_intern_str(&a.tiles, "x y", NULL);
	sr_intern_str(&a.tiles, "z", NULL);
	for (i = 0; i < sizeof r / sizeof *r; i++)
		x += sr_simmodel_add(&a, &r[i]);
	if (x != 0 || sr_simmodel_add(&a, &r[2]) != 2)
		fail("model rows added: %zu", x);
	a.overhead = 7;
	if ((fp = fopen(path, "w")) == NULL)
		fail("cannot write %s", path);
	sr_simmodel_write(fp, &a);
	fclose(fp);
	if (strcmp(slurp(path), "task\ttile\tseconds\tspread\n"
	    "t1\t*\t0.30000000000000004\t0.3333333333333333\n"
	    "t1\tx y\t12345.678\t0.5\nt2\t*\t2e-07\t0\nread\t*\t0.875\t0\n"
	    "read\tz\t0.5\t0\noverhead\t*\t7\t0\n") != 0)
		fail("model written as %s", slurp(path));
	sr_simmodel_init(&b, w, path);
	sr_simmodel_read(&b, NULL);
	if (b.nrow != a.nrow || b.overhead != 7 || b.tiles.n != 2)
		fail("model read back: %zu rows, overhead %g", b.nrow, b.overhead);
	for (i = 0; i < sizeof r / sizeof *r; i++) {
		const sr_modelrow *p = sr_simmodel_get(&b, r[i].task, r[i].tile ==
		    SR_NONE ? SR_NONE : sr_interner_find_str(&b.tiles,
		    sr_interner_key(&a.tiles, r[i].tile, NULL)));
		if (p == NULL || p->mean != r[i].mean || p->spread != r[i].spread)
			fail("model row %zu read back", i);
	}
	sr_simmodel_free(&a);
	sr_simmodel_free(&b);
	sr_workflow_free(w);
}

/* The report's numbers: 4 significant digits, no exponent from 1 up;
 * h:mm:ss. */
static void
format_cases(void)
{
	static const struct { double v; const char *sig, *hms; } c[] = {
		{ 12345.678, "12346", "3:25:46" },
		{ 66.41096, "66.41", "0:01:06" },
		{ 0.0368949, "0.03689", "0:00:00" },
		{ 0.8333333333333334, "0.8333", "0:00:01" },
		{ 4, "4", "0:00:04" },
		{ 28.5, "28.5", "0:00:29" },
		{ 0, "0", "0:00:00" },
		{ 999.96, "1000", "0:16:40" },
		{ 9.99996, "10", "0:00:10" },
		{ 1000, "1000", "0:16:40" },
		{ 90000, "90000", "25:00:00" },
		{ 123456789012.3, "123456789012", "34293552:30:12" },
		{ 0.00001234, "1.234e-05", "0:00:00" },
		{ -2.5, "-2.5", "-" },
		{ NAN, "NaN", "-" },
	};
	char buf[SR_NUMLEN];
	size_t i;

	for (i = 0; i < sizeof c / sizeof *c; i++) {
		if (strcmp(sr_fmt_sig(buf, c[i].v, 4), c[i].sig) != 0)
			fail("%.17g with 4 digits: %s, expected %s", c[i].v, buf,
			    c[i].sig);
		if (strcmp(sr_fmt_hms(buf, c[i].v), c[i].hms) != 0)
			fail("%.17g as h:mm:ss: %s, expected %s", c[i].v, buf,
			    c[i].hms);
	}
}

int
main(void)
{
	sr_init("simulate_test");
	exact_cases();
	event_order();
	random_cases();
	sweep_cases();
	order_cases();
	plan_cases();
	fit_cases();
	model_cases();
	format_cases();
	remove_tmpdir();
	if (failures) {
		printf("%d failures\n", failures);
		return 1;
	}
	printf("ok\n");
	return 0;
}
