/* simulate.c - makespan prediction: the slot schedule (a binary heap of
 * events), early cancellation, and bucket costs from timings or a model.
 * See simulate.h and sim-runtime(1). */
#include "sim/simulate.h"
#include "plan/timings.h"
#include "core/err.h"
#include "core/num.h"
#include "core/rng.h"
#include "plan/stage_keys.h"
#include "core/tsv.h"

#include <dirent.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define ALL_TILES ((size_t)-1)

/* ---- the event heap --------------------------------------------------------- */

typedef struct {
	double t;
	size_t slot;
	int kind;		/* a step's end (0) before a start (1) */
} event;

typedef struct {
	event *e;
	size_t n;
} heap;

/* Whether a comes before b: earlier; at the same time, ends before
 * starts, then the lower slot. */
static int
before(const event *a, const event *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	if (a->kind != b->kind)
		return a->kind < b->kind;
	return a->slot < b->slot;
}

static void
heap_down(heap *h, size_t i)
{
	event x = h->e[i];
	size_t c;

	while ((c = 2 * i + 1) < h->n) {
		if (c + 1 < h->n && before(&h->e[c + 1], &h->e[c]))
			c++;
		if (!before(&h->e[c], &x))
			break;
		h->e[i] = h->e[c];
		i = c;
	}
	h->e[i] = x;
}

static void
heap_push(heap *h, event x)
{
	size_t i = h->n++, p;

	while (i > 0 && before(&x, &h->e[p = (i - 1) / 2])) {
		h->e[i] = h->e[p];
		i = p;
	}
	h->e[i] = x;
}

static event
heap_pop(heap *h)
{
	event top = h->e[0];

	h->e[0] = h->e[--h->n];
	if (h->n > 0)
		heap_down(h, 0);
	return top;
}

/* A heap of k slots all free at time 0 (slot order is heap order). */
static heap
heap_slots(size_t k)
{
	heap h = { sr_calloc(k ? k : 1, sizeof(event)), 0 };

	for (; h.n < k; h.n++)
		h.e[h.n] = (event){ 0.0, h.n, 1 };
	return h;
}

/* ---- the schedule --------------------------------------------------------- */

void
sr_sim_list(const sr_simconf *c, const double *cost, const size_t *order,
    size_t n, sr_simstats *st)
{
	heap h = heap_slots(c->slots < n ? c->slots : n);
	size_t k;
	double w, end;

	memset(st, 0, sizeof *st);
	for (k = 0; k < n; k++) {	/* the top is the slot that starts first */
		w = cost[order ? order[k] : k];
		end = h.e[0].t + c->overhead + w;
		st->busy += c->overhead + w;
		st->work += w;
		if (end > st->makespan)
			st->makespan = end;
		h.e[0].t = end + c->delay;
		heap_down(&h, 0);
	}
	st->tasks = n;
	free(h.e);
}

enum { ASSIGN, STARTING, STEPPING };	/* what a slot's next event is */

void
sr_sim_steps(const sr_simconf *c, const sr_simsteps *ops, const size_t *order,
    size_t n, sr_simstats *st)
{
	size_t k = c->slots < n ? c->slots : n, next = 0, j;
	heap h = heap_slots(k);
	size_t *task = sr_calloc(k ? k : 1, sizeof *task);
	unsigned char *phase = sr_calloc(k ? k : 1, 1);	/* ASSIGN */
	double cost;
	event e;

	memset(st, 0, sizeof *st);
	while (h.n > 0) {
		e = heap_pop(&h);
		j = task[e.slot];
		switch (phase[e.slot]) {
		case ASSIGN:
			if (next == n)
				break;
			task[e.slot] = order ? order[next] : next;
			next++;
			phase[e.slot] = STARTING;
			st->busy += c->overhead;
			heap_push(&h, (event){ e.t + c->overhead, e.slot, 1 });
			break;
		case STEPPING:	/* every end at a time before any start */
			ops->done(ops->ctx, j, e.t);
			phase[e.slot] = STARTING;
			heap_push(&h, (event){ e.t, e.slot, 1 });
			break;
		default:
			if (ops->step(ops->ctx, j, e.t, &cost)) {
				phase[e.slot] = STEPPING;
				st->busy += cost;
				st->work += cost;
				heap_push(&h, (event){ e.t + cost, e.slot, 0 });
				break;
			}
			st->tasks++;
			if (e.t > st->makespan)
				st->makespan = e.t;
			phase[e.slot] = ASSIGN;
			if (next < n)
				heap_push(&h, (event){ e.t + c->delay, e.slot, 1 });
		}
	}
	free(h.e);
	free(task);
	free(phase);
}

typedef struct {
	double cost;
	size_t i;
} ranked;

static int
cmp_ranked(const void *a, const void *b)
{
	const ranked *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

size_t *
sr_sim_longest_first(const double *cost, size_t n)
{
	ranked *r = sr_calloc(n ? n : 1, sizeof *r);
	size_t *order = sr_calloc(n ? n : 1, sizeof *order), i;

	for (i = 0; i < n; i++)
		r[i] = (ranked){ cost[i], i };
	qsort(r, n, sizeof *r, cmp_ranked);
	for (i = 0; i < n; i++)
		order[i] = r[i].i;
	free(r);
	return order;
}

/* ---- early cancellation ---------------------------------------------------- */

struct sr_canceller {
	sr_cancelrule r;
	size_t *count;		/* values per set */
	size_t *nvar;		/* window variances per set */
	double *mean, *tsum;	/* running mean and summed times per set */
	double *ring;		/* per set: w running means, then w variances */
	unsigned char *cancelled;
	size_t ncancelled;
	double gsum, gtsum;
	size_t gcount;
};

sr_canceller *
sr_cancel_new(const sr_cancelrule *r, size_t nsets)
{
	sr_canceller *c = sr_calloc(1, sizeof *c);
	size_t n = nsets ? nsets : 1;

	c->r = *r;
	c->count = sr_calloc(n, sizeof *c->count);
	c->nvar = sr_calloc(n, sizeof *c->nvar);
	c->mean = sr_calloc(n, sizeof *c->mean);
	c->tsum = sr_calloc(n, sizeof *c->tsum);
	c->ring = sr_calloc(n, 2 * r->window * sizeof *c->ring);
	c->cancelled = sr_calloc(n, 1);
	return c;
}

void
sr_cancel_free(sr_canceller *c)
{
	if (c == NULL)
		return;
	free(c->count);
	free(c->nvar);
	free(c->mean);
	free(c->tsum);
	free(c->ring);
	free(c->cancelled);
	free(c);
}

/* Population variance of x[0..w), shifted by x[0] so that equal values
 * give exactly 0. */
static double
window_variance(const double *x, size_t w)
{
	double s = 0, s2 = 0, d;
	size_t i;

	for (i = 0; i < w; i++) {
		d = x[i] - x[0];
		s += d;
		s2 += d * d;
	}
	d = (s2 - s * s / (double)w) / (double)w;
	return d > 0 ? d : 0;
}

/* Least-squares slope of the ring r[0..w) against time, oldest at r[at]. */
static double
ring_slope(const double *r, size_t w, size_t at)
{
	double mid = (double)(w - 1) / 2, num = 0, den = 0, d;
	size_t i;

	for (i = 0; i < w; i++) {
		d = (double)i - mid;
		num += d * r[(at + i) % w];
		den += d * d;
	}
	return den > 0 ? num / den : 0;
}

int
sr_cancel_add(sr_canceller *c, size_t s, double x, double y)
{
	size_t w = c->r.window, k = ++c->count[s];
	double *m = c->ring + s * 2 * w, *v = m + w, mean;
	int poor, slow;

	/* incremental, so that equal values keep the mean exactly */
	mean = c->mean[s] += (x - c->mean[s]) / (double)k;
	c->tsum[s] += y;
	c->gsum += x;
	c->gtsum += y;
	c->gcount++;
	m[(k - 1) % w] = mean;
	if (k < w)
		return 0;
	v[c->nvar[s]++ % w] = window_variance(m, w);
	if (c->nvar[s] < w || ring_slope(v, w, c->nvar[s] % w) > 0)
		return 0;
	poor = !isnan(c->r.acc) &&
	    mean < c->gsum / (double)c->gcount - c->r.acc;
	slow = !isnan(c->r.time) &&
	    c->tsum[s] / (double)k > c->r.time * (c->gtsum / (double)c->gcount);
	if (!poor && !slow)
		return 0;
	c->cancelled[s] = 1;
	c->ncancelled++;
	return 1;
}

int
sr_cancel_is(const sr_canceller *c, size_t s)
{
	return c->cancelled[s];
}

size_t
sr_cancel_count(const sr_canceller *c)
{
	return c->ncancelled;
}

/* ---- tiles ---------------------------------------------------------------- */

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h ^ (h >> 29);
}

/* Doubles the hash table and puts every name back. */
static void
tiles_grow(sr_simtiles *t)
{
	size_t i, j;

	free(t->slot);
	t->nslot = t->nslot ? 2 * t->nslot : 64;
	t->slot = sr_calloc(t->nslot, sizeof *t->slot);
	for (i = 0; i < t->n; i++) {
		for (j = hash_str(t->name[i]) & (t->nslot - 1); t->slot[j];
		    j = (j + 1) & (t->nslot - 1))
			;
		t->slot[j] = i + 1;
	}
}

size_t
sr_simtiles_id(sr_simtiles *t, const char *name, int add)
{
	size_t j;

	if (t->nslot == 0)
		tiles_grow(t);
	for (j = hash_str(name) & (t->nslot - 1); t->slot[j];
	    j = (j + 1) & (t->nslot - 1))
		if (strcmp(t->name[t->slot[j] - 1], name) == 0)
			return t->slot[j] - 1;
	if (!add)
		return SR_NONE;
	if ((t->n & (t->n - 1)) == 0)	/* doubling */
		t->name = sr_reallocarray(t->name, t->n ? 2 * t->n : 1,
		    sizeof *t->name);
	t->name[t->n++] = sr_strdup(name);
	if (2 * t->n > t->nslot)
		tiles_grow(t);
	else
		t->slot[j] = t->n;
	return t->n - 1;
}

void
sr_simtiles_free(sr_simtiles *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->name[i]);
	free(t->name);
	free(t->slot);
	memset(t, 0, sizeof *t);
}

/* ---- the stages ------------------------------------------------------------- */

/* The stage with the most tasks (the first of them on a tie): the one
 * reuse-merge merges by default. */
static size_t
widest_stage(const sr_workflow *w)
{
	size_t s, best = 0;

	for (s = 1; s < w->nstage; s++)
		if (w->stage[s].ntask > w->stage[best].ntask)
			best = s;
	return best;
}

/* Builds each stage's reuse tree, the run of each instance and the next
 * stage's instances of each instance. */
static void
stages_init(sr_simcost *c, const sr_instances *in, const char *skip)
{
	const sr_workflow *w = in->w;
	size_t s, i, r, n;

	c->in = in;
	c->nstage = w->nstage;
	c->mstage = widest_stage(w);
	c->st = sr_calloc(c->nstage, sizeof *c->st);
	for (s = 0; s < c->nstage; s++) {
		sr_simstage *st = &c->st[s];
		uint64_t *key = sr_stage_keys(in, s);
		n = in->first[s + 1] - in->first[s];
		st->tree = sr_rtree_build(n, w->stage[s].ntask, key, NULL);
		free(key);
		st->skip = skip ? skip[s] : 0;
		st->runinst = sr_calloc(in->nruns ? in->nruns : 1,
		    sizeof *st->runinst);
		for (r = 0; r < in->nruns; r++)
			st->runinst[r] = SR_NONE;
		for (i = 0; i < n; i++)
			for (r = 0; r < in->inst[in->first[s] + i].nruns; r++)
				st->runinst[in->inst[in->first[s] + i].runs[r]] = i;
		if (s + 1 == c->nstage)
			continue;
		st->dfirst = sr_calloc(n + 1, sizeof *st->dfirst);
		st->dinst = sr_calloc(in->first[s + 2] - in->first[s + 1] + 1,
		    sizeof *st->dinst);
		for (i = in->first[s + 1]; i < in->first[s + 2]; i++)
			st->dfirst[in->inst[i].upstream + 1]++;
		for (i = 0; i < n; i++)
			st->dfirst[i + 1] += st->dfirst[i];
		for (i = in->first[s + 1]; i < in->first[s + 2]; i++) {
			size_t u = in->inst[i].upstream;
			st->dinst[st->dfirst[u]++] = in->inst[i].id;
		}
		for (i = n; i > 0; i--)	/* dfirst[u] was moved to u + 1's start */
			st->dfirst[i] = st->dfirst[i - 1];
		st->dfirst[0] = 0;
	}
}

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

/* Sets every node's cost on all tiles from its per-tile seconds. */
static void
node_totals(sr_simcost *c)
{
	size_t s, v, k, T = c->tiles.n;

	for (s = 0; s < c->nstage; s++) {
		sr_simstage *st = &c->st[s];
		if (st->skip)
			continue;
		for (v = 1; v < st->tree->nnodes; v++) {
			double sum = 0;
			if (st->measured[v])
				for (k = st->cfirst[v]; k < st->cfirst[v + 1]; k++)
					sum += st->csec[k];
			else
				for (k = 0; k < T; k++)
					sum += sr_simcost_node(c, s, v, k);
			st->tree->node[v].cost = sum;
		}
	}
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
	sr_simtiles_free(&c->tiles);
	free(c->read);
	free(c->base_id);
	free(c->base_cost);
	sr_plan_free(&c->base);
	free(c);
}

/* ---- reading timings ---------------------------------------------------------- */

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

/* Everything gathered while reading, before it is indexed. */
typedef struct {
	meas *m;
	size_t nm, capm;
	bsec *b, *rd;
	size_t nb, capb, nrd, caprd;
	binst *bi;
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

/* The stage and task named, or 0. */
static int
find_task(const sr_workflow *w, const char *name, size_t *s, size_t *k)
{
	for (*s = 0; *s < w->nstage; ++*s)
		for (*k = 0; *k < w->stage[*s].ntask; ++*k)
			if (strcmp(w->stage[*s].task[*k].name, name) == 0)
				return 1;
	return 0;
}

/* Reads the comment lines of t not seen yet: "#bucket=I ..." names the
 * bucket that the "#read tile=NAME seconds=S" lines after it belong to,
 * and the "#prefault tile=NAME seconds=S" line after a #read line adds
 * to that tile's cost in the bucket (both are paid per bucket and tile,
 * whatever the plan). */
static void
take_comments(sr_tsv *t, size_t *seen, long *bucket, gather *g,
    sr_simtiles *tiles)
{
	const char *c, *sec;
	char *name;
	double s;
	long b;
	size_t n, id, skip;
	int pre;

	for (; *seen < t->ncomment; ++*seen) {
		c = t->comment[*seen];
		if (strncmp(c, "bucket=", 7) == 0) {
			n = strcspn(c + 7, " \t");
			name = strndup(c + 7, n);
			if (name == NULL || sr_parse_long(name, &b) || b < 0)
				sr_die(SR_EXIT_DATA, "%s: #%s: not a bucket number",
				    t->path, c);
			free(name);
			*bucket = b;
			continue;
		}
		pre = strncmp(c, "prefault tile=", 14) == 0;
		if (!pre && strncmp(c, "read tile=", 10) != 0)
			continue;
		skip = pre ? 14 : 10;
		if ((sec = strstr(c, " seconds=")) == NULL)
			sr_die(SR_EXIT_DATA, "%s: #%s: no seconds=", t->path, c);
		while (strstr(sec + 1, " seconds="))
			sec = strstr(sec + 1, " seconds=");
		if (sr_parse_double(sec + 9, &s) || s < 0)
			sr_die(SR_EXIT_DATA, "%s: #%s: '%s' is not a number of "
			    "seconds", t->path, c, sec + 9);
		if (*bucket < 0)
			sr_die(SR_EXIT_DATA, "%s: #%s: before any #bucket= line",
			    t->path, c);
		name = strndup(c + skip, (size_t)(sec - c - skip));
		id = sr_simtiles_id(tiles, name, 1);
		free(name);
		if (pre && g->nrd > 0 && g->rd[g->nrd - 1].id == *bucket &&
		    g->rd[g->nrd - 1].tile == id) {
			g->rd[g->nrd - 1].sec += s;
			continue;
		}
		g->rd = grow(g->rd, g->nrd, &g->caprd, sizeof *g->rd);
		g->rd[g->nrd++] = (bsec){ *bucket, id, s };
	}
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

/* Reads one timings file into g. */
static void
read_timings_file(const char *path, sr_simcost *c, gather *g)
{
	sr_tsv *t = sr_tsv_open(path);
	int cb = sr_tsv_need(t, "bucket"), ct = sr_tsv_need(t, "tile");
	int ck = sr_tsv_need(t, "task"), ci = sr_tsv_need(t, "instances");
	int cs = sr_tsv_need(t, "seconds");
	const sr_workflow *w = c->in ? c->in->w : NULL;
	size_t seen = 0, s = 0, k = 0, v, first, tile;
	long bucket = -1, id;
	double sec;

	take_comments(t, &seen, &bucket, g, &c->tiles);
	while (sr_tsv_next(t)) {
		if ((id = sr_tsv_long(t, cb)) < 0)
			sr_tsv_die(t, cb, "negative bucket number");
		if ((sec = sr_tsv_double(t, cs)) < 0)
			sr_tsv_die(t, cs, "negative seconds");
		tile = sr_simtiles_id(&c->tiles, sr_tsv_str(t, ct), 1);
		if (tile > UINT32_MAX - 1)
			sr_tsv_die(t, ct, "too many tiles");
		c->nrows++;
		if (w && !find_task(w, sr_tsv_str(t, ck), &s, &k))
			sr_tsv_die(t, ck, "'%s' is not a task of %s",
			    sr_tsv_str(t, ck), w->path);
		if (w && c->st[s].skip)
			continue;
		add_bucket_sec(g, id, sec);
		if (w) {
			v = sr_timings_node(t, ci, c->st[s].tree, k, s == c->mstage, &first);
			g->m = grow(g->m, g->nm, &g->capm, sizeof *g->m);
			g->m[g->nm++] = (meas){ v, (uint32_t)s, (uint32_t)tile, sec };
			if (s == c->mstage && k == 0)
				add_base_insts(t, ci, g, id);
		}
		take_comments(t, &seen, &bucket, g, &c->tiles);
	}
	take_comments(t, &seen, &bucket, g, &c->tiles);
	sr_tsv_close(t);
}

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

/* The timings' own buckets: each one's rows summed, plus its #read lines;
 * the read seconds of each tile, averaged over the buckets. */
static void
index_buckets(sr_simcost *c, gather *g)
{
	size_t i, n = 0, lo, hi, *cnt = sr_calloc(c->tiles.n + 1, sizeof *cnt);

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
		for (lo = 0, hi = n; lo < hi;) {	/* its bucket, if it has rows */
			size_t mid = lo + (hi - lo) / 2;
			if (c->base_id[mid] < g->rd[i].id)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < n && c->base_id[lo] == g->rd[i].id)
			c->base_cost[lo] += g->rd[i].sec;
	}
	for (i = 0; i < c->tiles.n; i++)
		c->read[i] = cnt[i] ? c->read[i] / (double)cnt[i] : 0;
	free(cnt);
}

/* The instances of the merged stage in each of the timings' buckets. */
static void
index_base_plan(sr_simcost *c, gather *g)
{
	size_t i = 0, b, k, cap = 0, *inst = NULL;

	qsort(g->bi, g->nbi, sizeof *g->bi, cmp_binst);
	for (b = 0; b < c->nbase; b++) {
		while (i < g->nbi && g->bi[i].id < c->base_id[b])
			i++;
		for (k = 0; i < g->nbi && g->bi[i].id == c->base_id[b]; i++) {
			if (k > 0 && inst[k - 1] == g->bi[i].inst)
				continue;
			inst = grow(inst, k, &cap, sizeof *inst);
			inst[k++] = g->bi[i].inst;
		}
		sr_plan_add(&c->base, inst, k);
	}
	free(inst);
}

/* Per stage: the per-tile seconds of each measured node (the mean of its
 * rows on the tile) and each task's mean per tile; dies when a task of a
 * stage not skipped has no row at all. */
static void
index_nodes(sr_simcost *c, gather *g, const char *path)
{
	size_t T = c->tiles.n, s, i = 0, j, n, v, k, d, *cnt;
	const sr_workflow *w = c->in->w;

	qsort(g->m, g->nm, sizeof *g->m, cmp_meas);
	for (s = 0; s < c->nstage; s++) {
		sr_simstage *st = &c->st[s];
		size_t nn = st->tree->nnodes, ntask = w->stage[s].ntask, start = i;
		st->measured = sr_calloc(nn, 1);
		st->cfirst = sr_calloc(nn + 1, sizeof *st->cfirst);
		st->taskmean = sr_calloc(ntask * T + 1, sizeof *st->taskmean);
		cnt = sr_calloc(ntask * T + 1, sizeof *cnt);
		for (n = 0; i < g->nm && g->m[i].stage == s; i = j, n++) {
			for (j = i; j < g->nm && g->m[j].stage == s &&
			    g->m[j].node == g->m[i].node &&
			    g->m[j].tile == g->m[i].tile; j++) {
				k = (st->tree->node[g->m[j].node].depth - 1) * T +
				    g->m[j].tile;
				st->taskmean[k] += g->m[j].sec;
				cnt[k]++;
			}
			st->measured[g->m[i].node] = 1;
			st->cfirst[g->m[i].node + 1]++;
		}
		for (v = 0; v < nn; v++)
			st->cfirst[v + 1] += st->cfirst[v];
		st->ctile = sr_calloc(n + 1, sizeof *st->ctile);
		st->csec = sr_calloc(n + 1, sizeof *st->csec);
		for (i = start, n = 0; i < g->nm && g->m[i].stage == s; i = j, n++) {
			double sum = 0;
			for (j = i; j < g->nm && g->m[j].stage == s &&
			    g->m[j].node == g->m[i].node &&
			    g->m[j].tile == g->m[i].tile; j++)
				sum += g->m[j].sec;
			st->ctile[n] = g->m[i].tile;
			st->csec[n] = sum / (double)(j - i);
		}
		for (d = 0; d < ntask; d++) {
			size_t any = 0;
			for (k = d * T; k < (d + 1) * T; k++) {
				any += cnt[k];
				st->taskmean[k] = cnt[k] ? st->taskmean[k] /
				    (double)cnt[k] : 0;
			}
			if (any == 0 && !st->skip)
				sr_die(SR_EXIT_DATA, "%s: no timings of task %s (stage "
				    "%s); give --skip-stage %s if the buckets do not "
				    "run it", path, w->stage[s].task[d].name,
				    w->stage[s].name, w->stage[s].name);
		}
		free(cnt);
	}
	node_totals(c);
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

sr_simcost *
sr_simcost_timings(const char *path, const sr_instances *in, const char *skip)
{
	sr_simcost *c = sr_calloc(1, sizeof *c);
	gather g = { 0 };
	struct stat sb;
	char **files;
	size_t i, n;

	if (in)
		stages_init(c, in, skip);
	if (strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		files = list_dir(path, &n);
		for (i = 0; i < n; i++) {
			read_timings_file(files[i], c, &g);
			free(files[i]);
		}
		free(files);
	} else
		read_timings_file(path, c, &g);
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

/* ---- a cost model ----------------------------------------------------------- */

/* Reads the model's rows: mean and spread per task (by stage), and the
 * read and overhead rows. */
static void
read_model(const char *path, sr_simcost *c, double **mean, double **cv,
    double *read, double *overhead)
{
	const sr_workflow *w = c->in->w;
	sr_tsv *t = sr_tsv_open(path);
	int ct = sr_tsv_need(t, "task"), cs = sr_tsv_need(t, "seconds");
	int cv_ = sr_tsv_need(t, "spread");
	size_t s, k, **line = sr_calloc(c->nstage, sizeof *line), rl = 0, ol = 0;
	const char *name;
	double sec, spread;

	for (s = 0; s < c->nstage; s++)
		line[s] = sr_calloc(w->stage[s].ntask, sizeof **line);
	while (sr_tsv_next(t)) {
		name = sr_tsv_str(t, ct);
		if ((sec = sr_tsv_double(t, cs)) < 0)
			sr_tsv_die(t, cs, "negative seconds");
		if ((spread = sr_tsv_double(t, cv_)) < 0)
			sr_tsv_die(t, cv_, "a negative spread");
		if (strcmp(name, "read") == 0 || strcmp(name, "overhead") == 0) {
			size_t *l = name[0] == 'r' ? &rl : &ol;
			if (*l)
				sr_tsv_die(t, ct, "%s repeats line %zu", name, *l);
			if (spread != 0)
				sr_tsv_die(t, cv_, "the %s row takes spread 0", name);
			*l = t->lineno;
			*(name[0] == 'r' ? read : overhead) = sec;
			continue;
		}
		if (!find_task(w, name, &s, &k))
			sr_tsv_die(t, ct, "'%s' is not a task of %s (nor read or "
			    "overhead)", name, w->path);
		if (line[s][k])
			sr_tsv_die(t, ct, "task %s repeats line %zu", name,
			    line[s][k]);
		line[s][k] = t->lineno;
		mean[s][k] = sec;
		cv[s][k] = spread;
	}
	for (s = 0; s < c->nstage; s++) {
		for (k = 0; k < w->stage[s].ntask; k++)
			if (!line[s][k] && !c->st[s].skip)
				sr_die(SR_EXIT_DATA, "%s: no row for task %s (stage %s)",
				    path, w->stage[s].task[k].name, w->stage[s].name);
		free(line[s]);
	}
	free(line);
	c->nread = rl != 0;
	sr_tsv_close(t);
}

/* Seconds drawn from a lognormal of the given mean and coefficient of
 * variation. */
static double
draw(gsl_rng *r, double mean, double cv)
{
	double sigma;

	if (mean <= 0 || cv <= 0)
		return mean;
	sigma = sqrt(log1p(cv * cv));
	return gsl_ran_lognormal(r, log(mean) - sigma * sigma / 2, sigma);
}

sr_simcost *
sr_simcost_model(const char *path, const sr_instances *in, const char *skip,
    sr_simtiles *tiles, unsigned long seed, double *overhead)
{
	sr_simcost *c = sr_calloc(1, sizeof *c);
	double **mean, **cv, read = 0;
	size_t s, v, k, T;
	gsl_rng *r;

	c->tiles = *tiles;
	memset(tiles, 0, sizeof *tiles);
	T = c->tiles.n;
	stages_init(c, in, skip);
	mean = sr_calloc(c->nstage, sizeof *mean);
	cv = sr_calloc(c->nstage, sizeof *cv);
	for (s = 0; s < c->nstage; s++) {
		mean[s] = sr_calloc(in->w->stage[s].ntask, sizeof **mean);
		cv[s] = sr_calloc(in->w->stage[s].ntask, sizeof **cv);
	}
	*overhead = -1;
	read_model(path, c, mean, cv, &read, overhead);
	if ((r = sr_rng_new(seed)) == NULL)
		sr_die(SR_EXIT_DATA, "out of memory");
	for (s = 0; s < c->nstage; s++) {
		sr_simstage *st = &c->st[s];
		size_t nn = st->tree->nnodes;
		st->measured = sr_calloc(nn, 1);
		st->cfirst = sr_calloc(nn + 1, sizeof *st->cfirst);
		st->taskmean = sr_calloc(in->w->stage[s].ntask * T + 1,
		    sizeof *st->taskmean);
		st->ctile = sr_calloc(nn * T + 1, sizeof *st->ctile);
		st->csec = sr_calloc(nn * T + 1, sizeof *st->csec);
		for (v = 1; v < nn; v++) {
			size_t d = st->tree->node[v].depth - 1;
			st->cfirst[v + 1] = v * T;
			st->measured[v] = 1;
			for (k = 0; k < T && !st->skip; k++) {
				st->ctile[(v - 1) * T + k] = (uint32_t)k;
				st->csec[(v - 1) * T + k] = draw(r, mean[s][d], cv[s][d]);
			}
		}
		free(mean[s]);
		free(cv[s]);
	}
	gsl_rng_free(r);
	free(mean);
	free(cv);
	c->read = sr_calloc(T + 1, sizeof *c->read);
	for (k = 0; k < T; k++)
		c->read[k] = read;
	node_totals(c);
	return c;
}

/* ---- what a bucket runs ----------------------------------------------------- */

/* Walks what a bucket runs: its instances, the instances of earlier
 * stages they consume and of later stages that consume them, each node
 * of each stage's tree once. */
typedef struct {
	const sr_simcost *c;
	unsigned **nstamp, **istamp;	/* per stage: nodes, instances seen */
	unsigned epoch;
	size_t **list, *nlist;		/* per stage: the instances walked */
	unsigned char **mark;		/* per stage: nodes ever run (or NULL) */
	size_t tasks;			/* nodes of the bucket's stage */
} walker;

static void
walker_init(walker *wk, const sr_simcost *c, int marks)
{
	size_t s, n = c->nstage;

	memset(wk, 0, sizeof *wk);
	wk->c = c;
	wk->nstamp = sr_calloc(n, sizeof *wk->nstamp);
	wk->istamp = sr_calloc(n, sizeof *wk->istamp);
	wk->list = sr_calloc(n, sizeof *wk->list);
	wk->nlist = sr_calloc(n, sizeof *wk->nlist);
	wk->mark = marks ? sr_calloc(n, sizeof *wk->mark) : NULL;
	for (s = 0; s < n; s++) {
		size_t ni = c->st[s].tree->n + 1, nn = c->st[s].tree->nnodes;
		wk->nstamp[s] = sr_calloc(nn, sizeof **wk->nstamp);
		wk->istamp[s] = sr_calloc(ni, sizeof **wk->istamp);
		wk->list[s] = sr_calloc(ni, sizeof **wk->list);
		if (marks)
			wk->mark[s] = sr_calloc(nn, 1);
	}
}

static void
walker_free(walker *wk)
{
	size_t s;

	for (s = 0; s < wk->c->nstage; s++) {
		free(wk->nstamp[s]);
		free(wk->istamp[s]);
		free(wk->list[s]);
		if (wk->mark)
			free(wk->mark[s]);
	}
	free(wk->nstamp);
	free(wk->istamp);
	free(wk->list);
	free(wk->nlist);
	free(wk->mark);
}

/* Whether an instance serves a run not cancelled (cancelled NULL: yes). */
static int
serves_live(const sr_instance *x, const unsigned char *cancelled)
{
	size_t r;

	if (cancelled == NULL)
		return 1;
	for (r = 0; r < x->nruns; r++)
		if (!cancelled[x->runs[r]])
			return 1;
	return 0;
}

/* Adds instance i of stage s to the walk unless it is in already. */
static void
walk_add(walker *wk, size_t s, size_t i)
{
	if (wk->istamp[s][i] != wk->epoch) {
		wk->istamp[s][i] = wk->epoch;
		wk->list[s][wk->nlist[s]++] = i;
	}
}

/* The instances of every stage that a bucket of instances inst[0..k) of
 * stage S runs (of live runs only, with cancelled). */
static void
walk_instances(walker *wk, size_t S, const size_t *inst, size_t k,
    const unsigned char *cancelled)
{
	const sr_instances *in = wk->c->in;
	size_t s, i, j, u;

	if (++wk->epoch == 0) {		/* wrapped: clear the stamps once */
		for (s = 0; s < wk->c->nstage; s++) {
			memset(wk->nstamp[s], 0, wk->c->st[s].tree->nnodes *
			    sizeof **wk->nstamp);
			memset(wk->istamp[s], 0, (wk->c->st[s].tree->n + 1) *
			    sizeof **wk->istamp);
		}
		wk->epoch = 1;
	}
	memset(wk->nlist, 0, wk->c->nstage * sizeof *wk->nlist);
	for (i = 0; i < k; i++)
		if (serves_live(&in->inst[in->first[S] + inst[i]], cancelled))
			walk_add(wk, S, inst[i]);
	for (s = S; s-- > 0;)
		for (i = 0; i < wk->nlist[s + 1]; i++)
			if ((u = in->inst[in->first[s + 1] +
			    wk->list[s + 1][i]].upstream) != SR_NO_UPSTREAM)
				walk_add(wk, s, u);
	for (s = S + 1; s < wk->c->nstage; s++) {
		const sr_simstage *up = &wk->c->st[s - 1];
		for (i = 0; i < wk->nlist[s - 1]; i++) {
			u = wk->list[s - 1][i];
			for (j = up->dfirst[u]; j < up->dfirst[u + 1]; j++)
				if (serves_live(&in->inst[in->first[s] +
				    up->dinst[j]], cancelled))
					walk_add(wk, s, up->dinst[j]);
		}
	}
}

/* Seconds a bucket of instances inst[0..k) of stage S runs on tile
 * (ALL_TILES: on all), each node once, with the tiles' decoding;
 * wk->tasks gets its nodes of stage S, wk->nlist[S] its live instances. */
static double
walk(walker *wk, size_t S, const size_t *inst, size_t k, size_t tile,
    const unsigned char *cancelled)
{
	const sr_simcost *c = wk->c;
	size_t s, i, d, v, t;
	double sum = 0;

	walk_instances(wk, S, inst, k, cancelled);
	wk->tasks = 0;
	for (s = 0; s < c->nstage; s++) {
		const sr_rtree *tree = c->st[s].tree;
		if (c->st[s].skip)
			continue;
		for (i = 0; i < wk->nlist[s]; i++)
			for (d = tree->m; d >= 1; d--) {	/* leaf up */
				v = tree->path[wk->list[s][i] * (tree->m + 1) + d];
				if (wk->nstamp[s][v] == wk->epoch)
					break;
				wk->nstamp[s][v] = wk->epoch;
				sum += tile == ALL_TILES ? tree->node[v].cost :
				    sr_simcost_node(c, s, v, tile);
				wk->tasks += s == S;
				if (wk->mark)
					wk->mark[s][v] = 1;
			}
	}
	if (wk->nlist[S] > 0) {
		if (tile != ALL_TILES)
			sum += c->read[tile];
		else
			for (t = 0; t < c->tiles.n; t++)
				sum += c->read[t];
	}
	return sum;
}

/* ---- plans --------------------------------------------------------------------- */

/* Costs every bucket of p; line[b] (NULL: none) is bucket b's line in
 * path, tasks[b] its tasks column (negative: not checked). */
static void
cost_plan(sr_simplan *p, const sr_simcost *c, const char *path,
    const size_t *line, const long *tasks)
{
	walker wk;
	size_t b, s, v;

	walker_init(&wk, c, 1);
	p->cost = sr_calloc(p->n + 1, sizeof *p->cost);
	for (b = 0; b < p->n; b++) {
		p->cost[b] = walk(&wk, p->stage, p->p.b[b].inst, p->p.b[b].n,
		    ALL_TILES, NULL);
		p->tasks += wk.tasks;
		if (tasks && tasks[b] >= 0 && (size_t)tasks[b] != wk.tasks)
			sr_die(SR_EXIT_DATA, "%s:%zu: column tasks: %ld, but the "
			    "bucket's instances share %zu tasks: a plan of another "
			    "instances file?", path, line[b], tasks[b], wk.tasks);
	}
	for (s = 0; s < c->nstage; s++)
		for (v = 1; v < c->st[s].tree->nnodes; v++)
			if (wk.mark[s][v]) {
				p->nodes++;
				p->unmeasured += !c->st[s].measured[v];
			}
	walker_free(&wk);
}

/* The plan's stage: the buckets' #stage= metadata, else the merged one. */
static size_t
plan_stage(const sr_tsv *t, const sr_simcost *c)
{
	char *name = sr_tsv_meta(t, "stage");
	int s;

	if (name == NULL)
		return c->mstage;
	if ((s = sr_workflow_stage(c->in->w, name)) < 0)
		sr_die(SR_EXIT_DATA, "%s: a plan of stage %s, which %s does not "
		    "have", t->path, name, c->in->w->path);
	if (c->st[s].skip)
		sr_die(SR_EXIT_DATA, "%s: a plan of stage %s, which --skip-stage "
		    "leaves out", t->path, name);
	free(name);
	return (size_t)s;
}

/* Reads the instances of the row's list into b (ids of stage S); owner
 * marks which bucket holds each instance. */
static void
read_bucket_row(const sr_tsv *t, int col, size_t row, size_t n,
    size_t *owner, sr_simplan *p)
{
	const char *f = sr_tsv_str(t, col);
	char item[32];
	size_t cap = 0, k = 0, *inst = NULL;
	long i;
	int rc;

	while ((rc = sr_list_next(&f, item, sizeof item)) > 0) {
		if (sr_parse_long(item, &i) || i < 0 || (size_t)i >= n)
			sr_tsv_die(t, col, "'%s' is not an instance of the stage "
			    "(0 to %zu)", item, n - 1);
		if (owner[i])
			sr_tsv_die(t, col, "instance %ld is in bucket %zu too", i,
			    owner[i] - 1);
		owner[i] = row + 1;
		inst = grow(inst, k, &cap, sizeof *inst);
		inst[k++] = (size_t)i;
	}
	if (rc < 0 || k == 0)
		sr_tsv_die(t, col, "'%.40s' is not a list of instances",
		    sr_tsv_str(t, col));
	sr_plan_add(&p->p, inst, k);
	free(inst);
}

sr_simplan *
sr_simplan_read(const char *path, const sr_simcost *c)
{
	sr_simplan *p = sr_calloc(1, sizeof *p);
	sr_tsv *t = sr_tsv_open(path);
	int cb = sr_tsv_need(t, "bucket"), ci = sr_tsv_need(t, "instances");
	int ct = sr_tsv_col(t, "tasks");
	size_t n, *owner, *line = NULL, cap = 0, cap2 = 0;
	long *tasks = NULL;

	p->name = sr_strdup(path);
	p->stage = plan_stage(t, c);
	n = c->st[p->stage].tree->n;
	owner = sr_calloc(n + 1, sizeof *owner);
	while (sr_tsv_next(t)) {
		if (sr_tsv_long(t, cb) != (long)p->n)
			sr_tsv_die(t, cb, "row %zu is bucket %ld", p->n,
			    sr_tsv_long(t, cb));
		read_bucket_row(t, ci, p->n, n, owner, p);
		line = grow(line, p->n, &cap, sizeof *line);
		tasks = grow(tasks, p->n, &cap2, sizeof *tasks);
		line[p->n] = t->lineno;
		tasks[p->n] = ct >= 0 ? sr_tsv_long(t, ct) : -1;
		p->n++;
	}
	if (p->n == 0)
		sr_die(SR_EXIT_DATA, "%s: no buckets", path);
	cost_plan(p, c, t->path, line, tasks);
	sr_tsv_close(t);
	free(owner);
	free(line);
	free(tasks);
	return p;
}

sr_simplan *
sr_simplan_baseline(const sr_simcost *c)
{
	sr_simplan *p = sr_calloc(1, sizeof *p);
	size_t b;

	p->name = sr_strdup("baseline");
	p->n = c->nbase;
	p->stage = c->mstage;
	if (c->in) {
		for (b = 0; b < c->base.n; b++)
			sr_plan_add(&p->p, c->base.b[b].inst, c->base.b[b].n);
		cost_plan(p, c, NULL, NULL, NULL);
	} else
		p->cost = sr_calloc(p->n + 1, sizeof *p->cost);
	memcpy(p->cost, c->base_cost, p->n * sizeof *p->cost);
	return p;
}

void
sr_simplan_free(sr_simplan *p)
{
	if (p == NULL)
		return;
	free(p->name);
	sr_plan_free(&p->p);
	free(p->cost);
	free(p);
}

double *
sr_simplan_tasks(const sr_simplan *p, size_t lines, size_t *n)
{
	double *w;
	size_t b;

	*n = (p->n + lines - 1) / lines;
	w = sr_calloc(*n + 1, sizeof *w);
	for (b = 0; b < p->n; b++)
		w[b / lines] += p->cost[b];
	return w;
}

/* ---- results ------------------------------------------------------------------ */

typedef struct {
	size_t run, tile, line;
	double x;
} resrow;

static int
cmp_resrow(const void *a, const void *b)
{
	const resrow *x = a, *y = b;

	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	if (x->tile != y->tile)
		return x->tile < y->tile ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

/* The metric of the current row: NaN when it failed (status error, an
 * empty field). */
static double
row_value(const sr_tsv *t, int cs, int cm)
{
	const char *s;

	if (cs >= 0) {
		s = sr_tsv_str(t, cs);
		if (strcmp(s, "error") == 0)
			return NAN;
		if (strcmp(s, "ok") && strcmp(s, "background") &&
		    strcmp(s, "background_likely") && strcmp(s, "no_candidates"))
			sr_tsv_die(t, cs, "'%.40s' is not ok, background, "
			    "background_likely, no_candidates or error", s);
	}
	if (*sr_tsv_str(t, cm) == '\0')
		return NAN;
	return sr_tsv_double(t, cm);
}

double *
sr_simresults_read(const char *path, const char *metric, sr_simtiles *tiles,
    int add, size_t nruns)
{
	sr_tsv *t = sr_tsv_open(path);
	int cr = sr_tsv_need(t, "run"), ct = sr_tsv_need(t, "tile");
	int cm = sr_tsv_need(t, metric), cs = sr_tsv_col(t, "status");
	resrow *row = NULL;
	size_t n = 0, cap = 0, i, values = 0, tile;
	double *v;
	long r;

	while (sr_tsv_next(t)) {
		r = sr_tsv_long(t, cr);
		if (r < 0 || (size_t)r >= nruns)
			sr_tsv_die(t, cr, "%ld is not a run of the instances (0 to "
			    "%zu)", r, nruns - 1);
		if ((tile = sr_simtiles_id(tiles, sr_tsv_str(t, ct), add)) ==
		    SR_NONE)
			sr_tsv_die(t, ct, "'%.40s' is not a tile of the timings",
			    sr_tsv_str(t, ct));
		row = grow(row, n, &cap, sizeof *row);
		row[n++] = (resrow){ (size_t)r, tile, t->lineno,
		    row_value(t, cs, cm) };
	}
	qsort(row, n, sizeof *row, cmp_resrow);
	v = sr_calloc(nruns * tiles->n + 1, sizeof *v);
	for (i = 0; i < nruns * tiles->n; i++)
		v[i] = NAN;
	for (i = 0; i < n; i++) {
		if (i > 0 && row[i].run == row[i - 1].run &&
		    row[i].tile == row[i - 1].tile)
			sr_die(SR_EXIT_DATA, "%s:%zu: run %zu on tile %s repeats "
			    "line %zu", t->path, row[i].line, row[i].run,
			    tiles->name[row[i].tile], row[i - 1].line);
		v[row[i].run * tiles->n + row[i].tile] = row[i].x;
		values += !isnan(row[i].x);
	}
	if (values == 0)
		sr_die(SR_EXIT_DATA, "%s: no values of %s", t->path, metric);
	free(row);
	sr_tsv_close(t);
	return v;
}

size_t
sr_simresults_best(const double *v, size_t nruns, size_t ntiles)
{
	size_t r, k, n, best = SR_NONE;
	double sum, top = 0;

	for (r = 0; r < nruns; r++) {
		for (k = n = 0, sum = 0; k < ntiles; k++)
			if (!isnan(v[r * ntiles + k])) {
				sum += v[r * ntiles + k];
				n++;
			}
		if (n > 0 && (best == SR_NONE || sum / (double)n > top)) {
			best = r;
			top = sum / (double)n;
		}
	}
	return best;
}

/* ---- the replay with cancellation ----------------------------------------------- */

struct cancelsim {
	const sr_simcost *c;
	const sr_simplan *p;
	size_t lines;
	const double *v;
	sr_canceller *cx;
	walker wk;
	size_t *bucket, *tile;	/* per array task: where it is */
};

/* Seconds of run r's own chain on tile k: every node on its path in
 * every stage the buckets run, a shared one in full. */
static double
run_seconds(const sr_simcost *c, size_t r, size_t k)
{
	size_t s, d, i;
	double sum = 0;

	for (s = 0; s < c->nstage; s++) {
		const sr_rtree *t = c->st[s].tree;
		if (c->st[s].skip || (i = c->st[s].runinst[r]) == SR_NONE)
			continue;
		for (d = 1; d <= t->m; d++)
			sum += sr_simcost_node(c, s, t->path[i * (t->m + 1) + d], k);
	}
	return sum;
}

/* The next step of array task j: its current bucket on its current tile,
 * for the runs not cancelled; a bucket without any is over. */
static int
cancel_step(void *ctx, size_t j, double now, double *cost)
{
	struct cancelsim *cs = ctx;
	size_t end = (j + 1) * cs->lines;
	const sr_bucket *b;

	(void)now;
	if (end > cs->p->n)
		end = cs->p->n;
	for (; cs->bucket[j] < end; cs->bucket[j]++, cs->tile[j] = 0) {
		b = &cs->p->p.b[cs->bucket[j]];
		*cost = walk(&cs->wk, cs->p->stage, b->inst, b->n, cs->tile[j],
		    cs->cx->cancelled);
		if (cs->wk.nlist[cs->p->stage] > 0)
			return 1;
	}
	return 0;
}

/* The step of array task j is over: the values of its runs on the tile
 * go to the rule, by instance then run as listed. */
static void
cancel_done(void *ctx, size_t j, double now)
{
	struct cancelsim *cs = ctx;
	const sr_instances *in = cs->c->in;
	const sr_bucket *b = &cs->p->p.b[cs->bucket[j]];
	size_t T = cs->c->tiles.n, k = cs->tile[j], i, q, r;
	const sr_instance *x;
	double val;

	(void)now;
	for (i = 0; i < b->n; i++) {
		x = &in->inst[in->first[cs->p->stage] + b->inst[i]];
		for (q = 0; q < x->nruns; q++) {
			r = x->runs[q];
			if (cs->cx->cancelled[r] || isnan(val = cs->v[r * T + k]))
				continue;
			sr_cancel_add(cs->cx, r, val, run_seconds(cs->c, r, k));
		}
	}
	if (++cs->tile[j] == T) {
		cs->bucket[j]++;
		cs->tile[j] = 0;
	}
}

void
sr_sim_cancel(const sr_simconf *conf, const sr_simcost *c, const sr_simplan *p,
    size_t lines, const size_t *order, const double *v,
    const sr_cancelrule *rule, sr_simstats *st, unsigned char *cancelled)
{
	struct cancelsim cs = { c, p, lines, v, NULL, { 0 }, NULL, NULL };
	sr_simsteps ops = { cancel_step, cancel_done, &cs };
	size_t n = (p->n + lines - 1) / lines, j;

	cs.cx = sr_cancel_new(rule, c->in->nruns);
	walker_init(&cs.wk, c, 0);
	cs.bucket = sr_calloc(n + 1, sizeof *cs.bucket);
	cs.tile = sr_calloc(n + 1, sizeof *cs.tile);
	for (j = 0; j < n; j++)
		cs.bucket[j] = j * lines;
	sr_sim_steps(conf, &ops, order, n, st);
	memcpy(cancelled, cs.cx->cancelled, c->in->nruns);
	free(cs.bucket);
	free(cs.tile);
	walker_free(&cs.wk);
	sr_cancel_free(cs.cx);
}
