/* order.h - runs in the order of a value of theirs, ties by run: the
 * order RBD-FAST, PAWN and delta walk the runs in (scipy's rankdata
 * "ordinal", numpy's stable argsort). GSL's gsl_sort_index is a
 * heapsort, not stable: ties would fall in no order a user could
 * reproduce; it and qsort are also slow where a radix sort is not. */
#ifndef SR_ORDER_H
#define SR_ORDER_H

#include <stddef.h>

/* The runs 0..n-1 by key[r * stride], ties by run, into ord[0..n);
 * keys finite. */
void sr_order_runs(const double *key, size_t stride, size_t n, size_t *ord);

#endif
