/* timings.c - node costs of a reuse tree from measured seg-run timings. */
#include "plan/timings.h"
#include "core/err.h"
#include "core/num.h"
#include "core/tsv.h"

#include <stdlib.h>
#include <string.h>

/* The node of task k that the row's instances (column col) share: that
 * of the first; with shared set, all of them must share it. *first gets
 * the first instance. */
size_t
sr_timings_node(const sr_tsv *t, int col, const sr_rtree *tree, size_t k, int shared,
    size_t *first)
{
	const char *f = sr_tsv_str(t, col);
	size_t node = SR_NONE, v;
	char item[32];
	long i;
	int rc;

	while ((rc = sr_list_next(&f, item, sizeof item)) > 0) {
		if (sr_parse_long(item, &i) || i < 0 || (size_t)i >= tree->n)
			sr_tsv_die(t, col, "instance '%s' is not one of the stage's "
			    "%zu: timings of another instances.tsv?", item, tree->n);
		v = tree->path[(size_t)i * (tree->m + 1) + k + 1];
		if (node == SR_NONE)
			*first = (size_t)i;
		else if (shared && v != node)
			sr_tsv_die(t, col, "instances %s do not share this task: "
			    "timings of another instances.tsv?", sr_tsv_str(t, col));
		node = v;
	}
	if (rc < 0 || node == SR_NONE)
		sr_tsv_die(t, col, "'%.40s' is not a list of instances",
		    sr_tsv_str(t, col));
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

	for (t = 0; t < st->ntask; t++)
		if (tcnt[t] == 0)
			sr_die(SR_EXIT_DATA, "%s: no timings of task %s", path,
			    st->task[t].name);
	for (v = 1; v < tree->nnodes; v++) {
		t = tree->node[v].depth - 1;
		if (cnt[v])
			tree->node[v].cost = sum[v] / (double)cnt[v] * (double)ntiles;
		else {
			tree->node[v].cost = tsum[t] / (double)tcnt[t] * (double)ntiles;
			missing++;
		}
	}
	return missing;
}

size_t
sr_rtree_timings(sr_rtree *tree, const sr_stage *st, const char *path)
{
	sr_tsv *t = sr_tsv_open(path);
	int ctile = sr_tsv_need(t, "tile"), ctask = sr_tsv_need(t, "task");
	int cinst = sr_tsv_need(t, "instances"), csec = sr_tsv_need(t, "seconds");
	double *sum = sr_calloc(tree->nnodes, sizeof *sum);
	size_t *cnt = sr_calloc(tree->nnodes, sizeof *cnt);
	double *tsum = sr_calloc(st->ntask, sizeof *tsum);
	size_t *tcnt = sr_calloc(st->ntask, sizeof *tcnt), ntile = 0, i, k;
	char **tile = NULL;
	size_t missing, first;

	while (sr_tsv_next(t)) {
		double sec = sr_tsv_double(t, csec);
		for (k = 0; k < st->ntask; k++)
			if (strcmp(st->task[k].name, sr_tsv_str(t, ctask)) == 0)
				break;
		if (k == st->ntask)	/* a task of another stage */
			continue;
		if (sec < 0)
			sr_tsv_die(t, csec, "negative seconds");
		i = sr_timings_node(t, cinst, tree, k, 1, &first);
		sum[i] += sec;
		cnt[i]++;
		tsum[k] += sec;
		tcnt[k]++;
		if ((ntile & (ntile - 1)) == 0)	/* doubling */
			tile = sr_reallocarray(tile, ntile ? 2 * ntile : 1,
			    sizeof *tile);
		tile[ntile++] = sr_strdup(sr_tsv_str(t, ctile));
	}
	missing = set_costs(tree, st, sum, cnt, tsum, tcnt, distinct(tile, ntile),
	    t->path);
	for (i = 0; i < ntile; i++)
		free(tile[i]);
	free(tile);
	free(sum);
	free(cnt);
	free(tsum);
	free(tcnt);
	sr_tsv_close(t);
	return missing;
}
