/* order.c - runs by a value, ties by run (order.h). */
#include "sa/order.h"

#include <stdlib.h>

static const double *order_key;	/* qsort has no argument for them */
static size_t order_stride;

static int
by_key(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	double x = order_key[i * order_stride], y = order_key[j * order_stride];

	if (x != y)
		return x < y ? -1 : 1;
	return (i > j) - (i < j);
}

void
sr_order_runs(const double *key, size_t stride, size_t n, size_t *ord)
{
	size_t j;

	for (j = 0; j < n; j++)
		ord[j] = j;
	order_key = key;
	order_stride = stride;
	qsort(ord, n, sizeof *ord, by_key);
}
