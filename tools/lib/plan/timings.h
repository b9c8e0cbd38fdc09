/* timings.h - reuse-tree node costs from seg-run timings (timings(5)). */
#ifndef SR_TIMINGS_H
#define SR_TIMINGS_H

#include <stddef.h>

#include "plan/reuse_tree.h"
#include "plan/workflow.h"

/* Reads TIMINGS.tsv (bucket tile depth task instances seconds bytes) and
 * sets the cost of every node of tree (the reuse tree of stage st): the
 * node's mean seconds per measurement times the number of tiles, found
 * through the first instance of each row; a node never measured gets its
 * task's mean. Rows of other stages' tasks are skipped. Returns how many
 * nodes were not measured; dies naming file, line and column on bad rows
 * or a task with no timing at all. */
size_t sr_rtree_timings(sr_rtree *tree, const sr_stage *st, const char *path);

/* The node of tree at task k (from 0) that the current row's instances
 * (comma list in column col of t) share: that of the first, which goes to
 * *first; with shared set, all of them must share it. Dies naming the row
 * and column on an instance not of the tree, an empty list, or (shared)
 * instances that do not share the task. */
struct sr_tsv;
size_t sr_timings_node(const struct sr_tsv *t, int col, const sr_rtree *tree,
    size_t k, int shared, size_t *first);

#endif
