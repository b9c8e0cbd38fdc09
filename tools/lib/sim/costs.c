/* costs.c - node seconds per stage and tile, indexed from measurements.
 * See costs.h and sim-runtime(1). */
#include "sim/costs.h"
#include "plan/instances.h"
#include "core/num.h"
#include "core/tsv.h"
#include "plan/timings.h"
#include "core/err.h"
#include "core/text.h"
#include "plan/stage_keys.h"
#include "plan/stage_rule.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What the timings give, gathered before it is indexed. */
typedef struct {		/* one row of a task node on a tile */
	size_t node;
	uint32_t stage, tile;
	double sec;
} meas;

typedef struct {		/* a bucket's seconds, or a #read line */
	long id;
	size_t tile;
	double sec;
} bsec;

typedef struct {		/* an instance of the merged stage in a bucket */
	long id;
	size_t inst;
} binst;

typedef struct {
	meas *m;		/* rows of stages run (with a workflow) */
	size_t nm, capm;
	bsec *b, *rd;		/* seconds per bucket; #read lines */
	size_t nb, capb, nrd, caprd;
	binst *bi;		/* instances of each bucket's merged stage */
	size_t nbi, capbi;
} gather;

/* Makes room for one more element of a growing array. */
static void *
grow(void *p, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 64;
	return sr_reallocarray(p, *cap, size);
}

/* ---- the stages ------------------------------------------------------------- */

/* The instance of stage s serving each run. */
static void
stage_runs(sr_simstage *st, const sr_instances *in, size_t s, size_t n)
{
	size_t i, r;

	st->runinst = sr_calloc(in->nruns ? in->nruns : 1, sizeof *st->runinst);
	for (r = 0; r < in->nruns; r++)
		st->runinst[r] = SR_NONE;
	for (i = 0; i < n; i++)
		for (r = 0; r < in->inst[in->first[s] + i].nruns; r++)
			st->runinst[in->inst[in->first[s] + i].runs[r]] = i;
}

/* The next stage's instances consuming each of the n instances of stage
 * s (s not the last). */
static void
stage_downstream(sr_simstage *st, const sr_instances *in, size_t s, size_t n)
{
	size_t i, u;

	st->dfirst = sr_calloc(n + 1, sizeof *st->dfirst);
	st->dinst = sr_calloc(in->first[s + 2] - in->first[s + 1] + 1,
	    sizeof *st->dinst);
	for (i = in->first[s + 1]; i < in->first[s + 2]; i++)
		st->dfirst[in->inst[i].upstream + 1]++;
	for (i = 0; i < n; i++)
		st->dfirst[i + 1] += st->dfirst[i];
	for (i = in->first[s + 1]; i < in->first[s + 2]; i++) {
		u = in->inst[i].upstream;
		st->dinst[st->dfirst[u]++] = in->inst[i].id;
	}
	for (i = n; i > 0; i--)	/* dfirst[u] was moved to u + 1's start */
		st->dfirst[i] = st->dfirst[i - 1];
	st->dfirst[0] = 0;
}

sr_simcost *
sr_simcost_new(const sr_instances *in, const char *skip)
{
	sr_simcost *c = sr_calloc(1, sizeof *c);
	const sr_workflow *w;
	size_t s, n;

	if (in == NULL)
		return c;
	w = in->w;
	c->in = in;
	c->nstage = w->nstage;
	c->mstage = sr_merge_stage(w);
	c->st = sr_calloc(c->nstage, sizeof *c->st);
	for (s = 0; s < c->nstage; s++) {
		sr_simstage *st = &c->st[s];
		uint64_t *key = sr_stage_keys(in, s);
		n = in->first[s + 1] - in->first[s];
		st->tree = sr_rtree_build(n, w->stage[s].ntask, key, NULL);
		free(key);
		st->skip = skip ? skip[s] : 0;
		stage_runs(st, in, s, n);
		if (s + 1 < c->nstage)
			stage_downstream(st, in, s, n);
	}
	return c;
}

void
sr_simcost_free(sr_simcost *c)
{
	size_t s;

	if (c == NULL)
		return;
	for (s = 0; s < c->nstage; s++) {
		sr_simstage *st = &c->st[s];
		sr_rtree_free(st->tree);
		free(st->measured);
		free(st->cfirst);
		free(st->ctile);
		free(st->csec);
		free(st->taskmean);
		free(st->runinst);
		free(st->dfirst);
		free(st->dinst);
	}
	free(c->st);
	sr_interner_free(&c->tiles);
	free(c->read);
	free(c->base_id);
	free(c->base_cost);
	sr_plan_free(&c->base);
	free(c);
}

/* ---- node seconds ------------------------------------------------------------- */

double
sr_simcost_node(const sr_simcost *c, size_t s, size_t v, size_t k)
{
	const sr_simstage *st = &c->st[s];
	size_t lo, hi, mid;

	if (!st->measured[v])
		return st->taskmean[(st->tree->node[v].depth - 1) * c->tiles.n + k];
	lo = st->cfirst[v];
	hi = st->cfirst[v + 1];
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (st->ctile[mid] < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < st->cfirst[v + 1] && st->ctile[lo] == k ? st->csec[lo] : 0;
}

void
sr_simcost_totals(sr_simcost *c)
{
	size_t s, v, k, T = c->tiles.n;

	for (s = 0; s < c->nstage; s++) {
		sr_simstage *st = &c->st[s];
		double *cost;
		if (st->skip)
			continue;
		cost = sr_rtree_node_costs(st->tree);
		for (v = 1; v < st->tree->nnodes; v++) {
			double sum = 0;
			if (st->measured[v])
				for (k = st->cfirst[v]; k < st->cfirst[v + 1]; k++)
					sum += st->csec[k];
			else
				for (k = 0; k < T; k++)
					sum += sr_simcost_node(c, s, v, k);
			cost[v] = sum;
		}
	}
}

/* ---- indexing the measurements --------------------------------------------------- */

static int
cmp_bsec(const void *a, const void *b)
{
	const bsec *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static int
cmp_binst(const void *a, const void *b)
{
	const binst *x = a, *y = b;

	if (x->id != y->id)
		return (x->id > y->id) - (x->id < y->id);
	return (x->inst > y->inst) - (x->inst < y->inst);
}

static int
cmp_meas(const void *a, const void *b)
{
	const meas *x = a, *y = b;

	if (x->stage != y->stage)
		return x->stage < y->stage ? -1 : 1;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return (x->tile > y->tile) - (x->tile < y->tile);
}

/* The index of bucket id among the n sorted ones of c, or n. */
static size_t
base_index(const sr_simcost *c, size_t n, long id)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (c->base_id[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && c->base_id[lo] == id ? lo : n;
}

/* The timings' own buckets: each one's rows summed, plus its #read lines;
 * the read seconds of each tile, averaged over the buckets. */
static void
index_buckets(sr_simcost *c, gather *g)
{
	size_t i, n = 0, b, *cnt = sr_calloc(c->tiles.n + 1, sizeof *cnt);

	qsort(g->b, g->nb, sizeof *g->b, cmp_bsec);
	c->base_id = sr_calloc(g->nb + 1, sizeof *c->base_id);
	c->base_cost = sr_calloc(g->nb + 1, sizeof *c->base_cost);
	for (i = 0; i < g->nb; i++) {
		if (n == 0 || c->base_id[n - 1] != g->b[i].id)
			c->base_id[n++] = g->b[i].id;
		c->base_cost[n - 1] += g->b[i].sec;
	}
	c->nbase = n;
	c->read = sr_calloc(c->tiles.n + 1, sizeof *c->read);
	c->nread = g->nrd;
	for (i = 0; i < g->nrd; i++) {
		c->read[g->rd[i].tile] += g->rd[i].sec;
		cnt[g->rd[i].tile]++;
		if ((b = base_index(c, n, g->rd[i].id)) < n)	/* has rows */
			c->base_cost[b] += g->rd[i].sec;
	}
	for (i = 0; i < c->tiles.n; i++)
		c->read[i] = cnt[i] ? c->read[i] / (double)cnt[i] : 0;
	free(cnt);
}

/* The instances of the merged stage in each of the timings' buckets. */
static void
index_base_plan(sr_simcost *c, gather *g)
{
	size_t i = 0, b, k, *inst = sr_calloc(g->nbi + 1, sizeof *inst);

	qsort(g->bi, g->nbi, sizeof *g->bi, cmp_binst);
	for (b = 0; b < c->nbase; b++) {
		while (i < g->nbi && g->bi[i].id < c->base_id[b])
			i++;
		for (k = 0; i < g->nbi && g->bi[i].id == c->base_id[b]; i++)
			if (k == 0 || inst[k - 1] != g->bi[i].inst)
				inst[k++] = g->bi[i].inst;
		sr_plan_add(&c->base, inst, k);
	}
	free(inst);
}

/* The end of the run of rows from i on of the same stage, node and tile. */
static size_t
same_node_tile(const gather *g, size_t i)
{
	size_t j = i;

	while (j < g->nm && g->m[j].stage == g->m[i].stage &&
	    g->m[j].node == g->m[i].node && g->m[j].tile == g->m[i].tile)
		j++;
	return j;
}

/* Stage s's task means per tile from its rows [i, end); dies when a task
 * of a stage not skipped has none. */
static void
index_task_means(sr_simcost *c, size_t s, const gather *g, size_t i,
    size_t end, const char *path)
{
	const sr_stage *ws = &c->in->w->stage[s];
	sr_simstage *st = &c->st[s];
	size_t T = c->tiles.n, d, k, any, *cnt;

	st->taskmean = sr_calloc(ws->ntask * T + 1, sizeof *st->taskmean);
	cnt = sr_calloc(ws->ntask * T + 1, sizeof *cnt);
	for (; i < end; i++) {
		k = (st->tree->node[g->m[i].node].depth - 1) * T + g->m[i].tile;
		st->taskmean[k] += g->m[i].sec;
		cnt[k]++;
	}
	for (d = 0; d < ws->ntask; d++) {
		for (any = 0, k = d * T; k < (d + 1) * T; k++) {
			any += cnt[k];
			st->taskmean[k] = cnt[k] ? st->taskmean[k] / (double)cnt[k] : 0;
		}
		if (any == 0 && !st->skip)
			sr_die(SR_EXIT_DATA, "%s: no timings of task %s (stage %s); "
			    "give --skip-stage %s if the buckets do not run it", path,
			    ws->task[d].name, ws->name, ws->name);
	}
	free(cnt);
}

/* Stage s's measured nodes and their mean seconds per tile, from its rows
 * [start, end). */
static void
index_stage_nodes(sr_simcost *c, size_t s, const gather *g,
    size_t start, size_t end)
{
	sr_simstage *st = &c->st[s];
	size_t nn = st->tree->nnodes, i, j, n, v;
	double sum;

	st->measured = sr_calloc(nn, 1);
	st->cfirst = sr_calloc(nn + 1, sizeof *st->cfirst);
	for (i = start, n = 0; i < end; i = same_node_tile(g, i), n++) {
		st->measured[g->m[i].node] = 1;
		st->cfirst[g->m[i].node + 1]++;
	}
	for (v = 0; v < nn; v++)
		st->cfirst[v + 1] += st->cfirst[v];
	st->ctile = sr_calloc(n + 1, sizeof *st->ctile);
	st->csec = sr_calloc(n + 1, sizeof *st->csec);
	for (i = start, n = 0; i < end; i = j, n++) {
		j = same_node_tile(g, i);
		for (sum = 0, v = i; v < j; v++)
			sum += g->m[v].sec;
		st->ctile[n] = g->m[i].tile;
		st->csec[n] = sum / (double)(j - i);
	}
}

/* Per stage: the per-tile seconds of each measured node (the mean of its
 * rows on the tile) and each task's mean per tile. */
static void
index_nodes(sr_simcost *c, gather *g, const char *path)
{
	size_t s, i = 0, end;

	qsort(g->m, g->nm, sizeof *g->m, cmp_meas);
	for (s = 0; s < c->nstage; s++) {
		for (end = i; end < g->nm && g->m[end].stage == s; end++)
			;
		index_stage_nodes(c, s, g, i, end);
		index_task_means(c, s, g, i, end, path);
		i = end;
	}
	sr_simcost_totals(c);
}

/* ---- gathering the timings ------------------------------------------------------ */

/* A #read line of the bucket on the tile, or the #prefault line after
 * it, which adds to it (both are paid per bucket and tile, whatever the
 * plan). */
static void
add_read(gather *g, int prefault, long bucket, size_t tile, double sec)
{
	if (prefault && g->nrd > 0 && g->rd[g->nrd - 1].id == bucket &&
	    g->rd[g->nrd - 1].tile == tile) {
		g->rd[g->nrd - 1].sec += sec;
		return;
	}
	g->rd = grow(g->rd, g->nrd, &g->caprd, sizeof *g->rd);
	g->rd[g->nrd++] = (bsec){ bucket, tile, sec };
}

/* Adds seconds to bucket id, merging with the last entry when it is the
 * same bucket (rows come bucket by bucket). */
static void
add_bucket_sec(gather *g, long id, double sec)
{
	if (g->nb > 0 && g->b[g->nb - 1].id == id) {
		g->b[g->nb - 1].sec += sec;
		return;
	}
	g->b = grow(g->b, g->nb, &g->capb, sizeof *g->b);
	g->b[g->nb++] = (bsec){ id, 0, sec };
}

/* Records the instances of a row of the merged stage's first task: the
 * union of these rows' instances is the bucket's instances. */
static void
add_base_insts(const sr_tsv *t, int col, gather *g, long id)
{
	const char *f = sr_tsv_str(t, col);
	char item[32];
	long i;

	while (sr_list_next(&f, item, sizeof item) > 0 &&
	    !sr_parse_long(item, &i)) {
		g->bi = grow(g->bi, g->nbi, &g->capbi, sizeof *g->bi);
		g->bi[g->nbi++] = (binst){ id, (size_t)i };
	}
}

/* Gathers a task row of r (a stage the buckets run). */
static void
add_row(sr_simcost *c, gather *g, const sr_timings_in *r, size_t tile)
{
	const sr_workflow *w = c->in ? c->in->w : NULL;
	size_t s = 0, k = 0, v, first;

	if (tile > UINT32_MAX - 1)
		sr_tsv_die(r->t, r->ct, "too many tiles");
	c->nrows++;
	if (w && !sr_workflow_task(w, r->task, &s, &k))
		sr_tsv_die(r->t, r->ck, "'%s' is not a task of %s",
		    SR_SHOW(r->task),
		    w->path);
	if (w && c->st[s].skip)
		return;
	add_bucket_sec(g, r->bucket, r->seconds);
	if (w == NULL)
		return;
	v = sr_timings_node(r->t, r->ci, c->st[s].tree, k, s == c->mstage,
	    " (--fit predicts another design's plans from them)", &first);
	g->m = grow(g->m, g->nm, &g->capm, sizeof *g->m);
	g->m[g->nm++] = (meas){ v, (uint32_t)s, (uint32_t)tile, r->seconds };
	if (s == c->mstage && k == 0)
		add_base_insts(r->t, r->ci, g, r->bucket);
}

/* Gathers one timings file. */
static void
gather_file(const char *path, sr_simcost *c, gather *g)
{
	sr_timings_in *r = sr_timings_open(path);
	enum sr_timings_kind kind;
	size_t tile;

	while ((kind = sr_timings_next(r)) != SR_TIMINGS_END) {
		tile = sr_intern_str(&c->tiles, r->tile, NULL);
		if (kind == SR_TIMINGS_ROW)
			add_row(c, g, r, tile);
		else
			add_read(g, kind == SR_TIMINGS_PREFAULT, r->bucket, tile,
			    r->seconds);
	}
	sr_timings_close(r);
}

/* Names of the *.tsv files of directory dir, in name order. */
static char **
list_dir(const char *dir, size_t *n)
{
	struct dirent **ent;
	char **path = NULL;
	int i, k;
	size_t len;

	if ((k = scandir(dir, &ent, NULL, alphasort)) < 0)
		sr_die_errno("%s", dir);
	*n = 0;
	for (i = 0; i < k; i++) {
		const char *name = ent[i]->d_name;
		len = strlen(name);
		if (name[0] != '.' && len > 4 && strcmp(name + len - 4, ".tsv") == 0) {
			path = sr_reallocarray(path, *n + 1, sizeof *path);
			path[*n] = sr_malloc(strlen(dir) + len + 2);
			sprintf(path[(*n)++], "%s/%s", dir, name);
		}
		free(ent[i]);
	}
	free(ent);
	if (*n == 0)
		sr_die(SR_EXIT_DATA, "%s: no *.tsv timings files in the directory",
		    dir);
	return path;
}

char **
sr_simcost_files(const char *path, size_t *n)
{
	struct stat sb;
	char **one;

	if (strcmp(path, "-") == 0 || stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		one = sr_calloc(1, sizeof *one);
		one[0] = sr_strdup(path);
		*n = 1;
		return one;
	}
	return list_dir(path, n);
}

/* Gathers path: a file, or a directory's *.tsv files in name order. */
static void
gather_path(const char *path, sr_simcost *c, gather *g)
{
	char **files;
	size_t i, n;

	files = sr_simcost_files(path, &n);
	for (i = 0; i < n; i++) {
		gather_file(files[i], c, g);
		free(files[i]);
	}
	free(files);
}

sr_simcost *
sr_simcost_timings(const char *path, const sr_instances *in, const char *skip)
{
	sr_simcost *c = sr_simcost_new(in, skip);
	gather g = { 0 };

	gather_path(path, c, &g);
	if (c->nrows == 0)
		sr_die(SR_EXIT_DATA, "%s: no timings: the file has no rows", path);
	if (g.nb == 0)
		sr_die(SR_EXIT_DATA, "%s: no timings of a stage the buckets run",
		    path);
	index_buckets(c, &g);
	if (in) {
		index_nodes(c, &g, path);
		index_base_plan(c, &g);
	}
	free(g.m);
	free(g.b);
	free(g.rd);
	free(g.bi);
	return c;
}
