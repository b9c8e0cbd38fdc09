/* timings.c - seg-run's timings.tsv: writer, reader, and node costs of a
 * reuse tree from the measured timings (timings.h). */
#include "plan/timings.h"
#include "core/err.h"
#include "core/num.h"
#include "core/text.h"
#include "core/tsv.h"

#include <stdlib.h>
#include <string.h>

/* ---- writing ------------------------------------------------------------- */

void
sr_timings_write_meta(FILE *fp, long bucket, size_t ntiles, size_t heap,
    size_t peak_rss)
{
	fprintf(fp, "#bucket=%ld tiles=%zu\n", bucket, ntiles);
	fprintf(fp, "#memory heap=%zu peak_rss=%zu\n", heap, peak_rss);
}

void
sr_timings_write_saved(FILE *fp, const char *tile, double seconds)
{
	fprintf(fp, "#saved tile=%s seconds=", tile);
	sr_put_double(fp, seconds);
	fputc('\n', fp);
}

void
sr_timings_write_no_normalize(FILE *fp)
{
	fprintf(fp, "#%s\n", SR_TIMINGS_NO_NORMALIZE);
}

void
sr_timings_write_tile(FILE *fp, int prefault, const char *tile,
    double seconds)
{
	fprintf(fp, "#%s tile=%s seconds=", prefault ? "prefault" : "read", tile);
	sr_put_double(fp, seconds);
	fputc('\n', fp);
}

void
sr_timings_write_header(FILE *fp)
{
	fprintf(fp, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", SR_TIMINGS_BUCKET,
	    SR_TIMINGS_TILE, SR_TIMINGS_DEPTH, SR_TIMINGS_TASK,
	    SR_TIMINGS_INSTANCES, SR_TIMINGS_SECONDS, SR_TIMINGS_BYTES);
}

void
sr_timings_write_row(FILE *fp, long bucket, const char *tile, size_t depth,
    const char *task, const size_t *inst, size_t n, double seconds,
    size_t bytes)
{
	size_t k;

	fprintf(fp, "%ld\t%s\t%zu\t%s\t", bucket, tile, depth, task);
	for (k = 0; k < n; k++)
		fprintf(fp, "%s%zu", k ? "," : "", inst[k]);
	fputc('\t', fp);
	sr_put_double(fp, seconds);
	fprintf(fp, "\t%zu\n", bytes);
}

/* ---- reading ------------------------------------------------------------- */

int
sr_timings_header(const sr_tsv *t)
{
	static const char *const h[] = { SR_TIMINGS_BUCKET, SR_TIMINGS_TILE,
	    SR_TIMINGS_DEPTH, SR_TIMINGS_TASK, SR_TIMINGS_INSTANCES,
	    SR_TIMINGS_SECONDS, SR_TIMINGS_BYTES };

	return sr_tsv_header_is(t, h, sizeof h / sizeof *h);
}

sr_timings_in *
sr_timings_open(const char *path)
{
	sr_timings_in *r = sr_calloc(1, sizeof *r);

	r->t = sr_tsv_open(path);
	r->path = r->t->path;
	r->cb = sr_tsv_need(r->t, SR_TIMINGS_BUCKET);
	r->ct = sr_tsv_need(r->t, SR_TIMINGS_TILE);
	r->ck = sr_tsv_need(r->t, SR_TIMINGS_TASK);
	r->ci = sr_tsv_need(r->t, SR_TIMINGS_INSTANCES);
	r->cs = sr_tsv_need(r->t, SR_TIMINGS_SECONDS);
	r->last_bucket = -1;
	sr_interner_init(&r->rows);
	return r;
}

/* Takes comment c if it is a #read or #prefault line (a record, 1), or a
 * #bucket= or #normalize=no line (0), else 0. */
static int
take_comment(sr_timings_in *r, const char *c)
{
	const char *sec;
	size_t skip;
	long b;
	int pre;

	if (strncmp(c, "bucket=", 7) == 0) {
		free(r->name);
		r->name = strndup(c + 7, strcspn(c + 7, " \t"));
		if (r->name == NULL || sr_parse_long(r->name, &b) || b < 0)
			sr_die(SR_EXIT_DATA, "%s: #%s: not a bucket number",
			    r->path, SR_SHOW(c));
		r->last_bucket = b;
		return 0;
	}
	if (strcmp(c, SR_TIMINGS_NO_NORMALIZE) == 0) {
		r->no_normalize = 1;
		return 0;
	}
	pre = strncmp(c, "prefault tile=", 14) == 0;
	if (!pre && strncmp(c, "read tile=", 10) != 0)
		return 0;
	skip = pre ? 14 : 10;
	if ((sec = strstr(c, " seconds=")) == NULL)
		sr_die(SR_EXIT_DATA, "%s: #%s: no seconds=", r->path, SR_SHOW(c));
	while (strstr(sec + 1, " seconds="))
		sec = strstr(sec + 1, " seconds=");
	if (sr_parse_double(sec + 9, &r->seconds) || r->seconds < 0)
		sr_die(SR_EXIT_DATA, "%s: #%s: '%s' is not a number of seconds",
		    r->path, SR_SHOW(c), SR_SHOW(sec + 9));
	if (r->last_bucket < 0)
		sr_die(SR_EXIT_DATA, "%s: #%s: before any #bucket= line", r->path,
		    SR_SHOW(c));
	free(r->name);
	r->name = strndup(c + skip, (size_t)(sec - c - skip));
	if (r->name == NULL)
		sr_die_errno("out of memory");
	r->bucket = r->last_bucket;
	r->tile = r->name;
	r->task = NULL;
	return pre ? SR_TIMINGS_PREFAULT : SR_TIMINGS_READ;
}

/* Appends the n bytes at p to r->key (*len bytes so far). */
static void
key_add(sr_timings_in *r, size_t *len, const void *p, size_t n)
{
	if (*len + n > r->keycap) {
		r->keycap = 2 * (*len + n);
		r->key = sr_reallocarray(r->key, r->keycap, 1);
	}
	memcpy(r->key + *len, p, n);
	*len += n;
}

/* Dies when the current row's bucket, tile, task and instances are those
 * of an earlier row (bucket as a number, the others as text), naming the
 * row and the line it repeats. */
static void
check_repeat(sr_timings_in *r)
{
	const char *inst = sr_tsv_str(r->t, r->ci);
	size_t len = 0, id;
	int added;

	key_add(r, &len, &r->bucket, sizeof r->bucket);
	key_add(r, &len, r->tile, strlen(r->tile) + 1);
	key_add(r, &len, r->task, strlen(r->task) + 1);
	key_add(r, &len, inst, strlen(inst));
	id = sr_intern(&r->rows, r->key, len, &added);
	if (!added) {
		sr_tsv_die(r->t, -1, "bucket %ld, tile %s, task %s, instances "
		    "%s repeat line %zu", r->bucket, SR_SHOW(r->tile),
		    SR_SHOW(r->task), SR_SHOW(inst), r->row_line[id]);
	}
	if ((id & (id - 1)) == 0)	/* doubling */
		r->row_line = sr_reallocarray(r->row_line, id ? 2 * id : 1,
		    sizeof *r->row_line);
	r->row_line[id] = r->t->lineno;
}

/* The current row as the record. */
static enum sr_timings_kind
take_row(sr_timings_in *r)
{
	r->row_pending = 0;
	if ((r->bucket = sr_tsv_long(r->t, r->cb)) < 0)
		sr_tsv_die(r->t, r->cb, "negative bucket number");
	if ((r->seconds = sr_tsv_double(r->t, r->cs)) < 0)
		sr_tsv_die(r->t, r->cs, "negative seconds");
	r->tile = sr_tsv_str(r->t, r->ct);
	r->task = sr_tsv_str(r->t, r->ck);
	check_repeat(r);
	return SR_TIMINGS_ROW;
}

enum sr_timings_kind
sr_timings_next(sr_timings_in *r)
{
	int kind;

	for (;;) {
		while (r->seen < r->t->ncomment)
			if ((kind = take_comment(r, r->t->comment[r->seen++])))
				return (enum sr_timings_kind)kind;
		if (r->row_pending)
			return take_row(r);
		if (r->eof)
			return SR_TIMINGS_END;
		if (sr_tsv_next(r->t))
			r->row_pending = 1;
		else
			r->eof = 1;
	}
}

void
sr_timings_close(sr_timings_in *r)
{
	if (r == NULL)
		return;
	sr_tsv_close(r->t);
	sr_interner_free(&r->rows);
	free(r->row_line);
	free(r->key);
	free(r->name);
	free(r);
}

/* ---- node costs ---------------------------------------------------------- */

/* The node of task k that the row's instances (column col) share: that
 * of the first; with shared set, all of them must share it. *first gets
 * the first instance. */
size_t
sr_timings_node(const sr_tsv *t, int col, const sr_rtree *tree, size_t k,
    int shared, const char *hint, size_t *first)
{
	const char *f = sr_tsv_str(t, col);
	size_t node = SR_NONE, v;
	char item[32];
	long i;
	int rc;

	while ((rc = sr_list_next(&f, item, sizeof item)) > 0) {
		if (sr_parse_long(item, &i) || i < 0 || (size_t)i >= tree->n)
			sr_tsv_die(t, col, "instance '%s' is not one of the stage's "
			    "%zu: timings of another instances.tsv?%s", SR_SHOW(item),
			    tree->n,
			    hint ? hint : "");
		v = tree->path[(size_t)i * (tree->m + 1) + k + 1];
		if (node == SR_NONE)
			*first = (size_t)i;
		else if (shared && v != node)
			sr_tsv_die(t, col, "instances %s do not share this task: "
			    "timings of another instances.tsv?%s",
			    SR_SHOW(sr_tsv_str(t, col)),
			    hint ? hint : "");
		node = v;
	}
	if (rc < 0 || node == SR_NONE)
		sr_tsv_die_value(t, col, "is not a list of instances");
	return node;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Number of distinct strings in v[0..n) (sorts v). */
static size_t
distinct(char **v, size_t n)
{
	size_t i, d = n > 0;

	qsort(v, n, sizeof *v, cmp_str);
	for (i = 1; i < n; i++)
		d += strcmp(v[i], v[i - 1]) != 0;
	return d;
}

/* Sets every node's cost: its mean measured seconds per tile times the
 * number of tiles, or its task's mean where the node was not measured. */
static size_t
set_costs(sr_rtree *tree, const sr_stage *st, const double *sum,
    const size_t *cnt, const double *tsum, const size_t *tcnt, size_t ntiles,
    const char *path)
{
	size_t v, t, missing = 0;
	double *cost = sr_rtree_node_costs(tree);

	for (t = 0; t < st->ntask; t++)
		if (tcnt[t] == 0)
			sr_die(SR_EXIT_DATA, "%s: no timings of task %s", path,
			    st->task[t].name);
	for (v = 1; v < tree->nnodes; v++) {
		t = tree->node[v].depth - 1;
		if (cnt[v])
			cost[v] = sum[v] / (double)cnt[v] * (double)ntiles;
		else {
			cost[v] = tsum[t] / (double)tcnt[t] * (double)ntiles;
			missing++;
		}
	}
	return missing;
}

size_t
sr_rtree_timings(sr_rtree *tree, const sr_stage *st, const char *path)
{
	sr_timings_in *r = sr_timings_open(path);
	double *sum = sr_calloc(tree->nnodes, sizeof *sum);
	size_t *cnt = sr_calloc(tree->nnodes, sizeof *cnt);
	double *tsum = sr_calloc(st->ntask, sizeof *tsum);
	size_t *tcnt = sr_calloc(st->ntask, sizeof *tcnt), ntile = 0, i, k;
	char **tile = NULL;
	size_t missing, first;
	enum sr_timings_kind kind;

	while ((kind = sr_timings_next(r)) != SR_TIMINGS_END) {
		if (kind != SR_TIMINGS_ROW)
			continue;
		for (k = 0; k < st->ntask; k++)
			if (strcmp(st->task[k].name, r->task) == 0)
				break;
		if (k == st->ntask)	/* a task of another stage */
			continue;
		i = sr_timings_node(r->t, r->ci, tree, k, 1, NULL, &first);
		sum[i] += r->seconds;
		cnt[i]++;
		tsum[k] += r->seconds;
		tcnt[k]++;
		if ((ntile & (ntile - 1)) == 0)	/* doubling */
			tile = sr_reallocarray(tile, ntile ? 2 * ntile : 1,
			    sizeof *tile);
		tile[ntile++] = sr_strdup(r->tile);
	}
	missing = set_costs(tree, st, sum, cnt, tsum, tcnt, distinct(tile, ntile),
	    r->path);
	for (i = 0; i < ntile; i++)
		free(tile[i]);
	free(tile);
	free(sum);
	free(cnt);
	free(tsum);
	free(tcnt);
	sr_timings_close(r);
	return missing;
}
