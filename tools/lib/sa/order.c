/* order.c - runs by a value, ties by run (order.h).
 *
 * A least-significant-digit radix sort of the values' bits, 11 at a
 * time: stable, so runs of equal values stay in run order, and about
 * ten times as fast as qsort with a comparator through a pointer, which
 * was a third of PAWN's time (no library sorts doubles by radix; GSL's
 * sorts are heapsorts). */
#include "sa/order.h"
#include "core/err.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BITS 11
#define BUCKETS (1u << BITS)
#define PASSES ((64 + BITS - 1) / BITS)

/* The bits of v as an unsigned integer in v's order: negative values
 * reversed below the positive ones; -0 is 0 (the two compare equal). */
static uint64_t
key_of(double v)
{
	uint64_t u;

	if (v == 0)
		v = 0;
	memcpy(&u, &v, sizeof u);
	return u >> 63 ? ~u : u | (uint64_t)1 << 63;
}

/* Sorts key[0..n) and idx with it, stably; tk and ti hold n each. A pass
 * whose digit all keys share moves nothing and is skipped. */
static void
radix(uint64_t *key, size_t *idx, size_t n, uint64_t *tk, size_t *ti)
{
	size_t *count = sr_calloc((size_t)PASSES * BUCKETS, sizeof *count);
	uint64_t *key0 = key;
	size_t *idx0 = idx, j, b, sum, c, pass;
	unsigned shift;

	for (j = 0; j < n; j++)
		for (pass = 0; pass < PASSES; pass++)
			count[pass * BUCKETS +
			    ((key[j] >> (pass * BITS)) & (BUCKETS - 1))]++;
	for (pass = 0; pass < PASSES; pass++) {
		size_t *cnt = count + pass * BUCKETS;
		uint64_t *sk;
		size_t *si;

		shift = (unsigned)(pass * BITS);
		if (cnt[(key[0] >> shift) & (BUCKETS - 1)] == n)
			continue;
		for (b = 0, sum = 0; b < BUCKETS; b++) {
			c = cnt[b];
			cnt[b] = sum;
			sum += c;
		}
		for (j = 0; j < n; j++) {
			b = cnt[(key[j] >> shift) & (BUCKETS - 1)]++;
			tk[b] = key[j];
			if (idx)
				ti[b] = idx[j];
		}
		sk = key, key = tk, tk = sk;
		si = idx, idx = ti, ti = si;
	}
	if (key != key0) {	/* an odd count of passes: in the spares */
		memcpy(key0, key, n * sizeof *key);
		if (idx)
			memcpy(idx0, idx, n * sizeof *idx);
	}
	free(count);
}

void
sr_order_runs(const double *key, size_t stride, size_t n, size_t *ord)
{
	uint64_t *k, *tk;
	size_t *ti, j;

	if (n == 0)
		return;
	k = sr_calloc(2 * n, sizeof *k);
	tk = k + n;
	ti = sr_calloc(n, sizeof *ti);
	for (j = 0; j < n; j++) {
		k[j] = key_of(key[j * stride]);
		ord[j] = j;
	}
	radix(k, ord, n, tk, ti);
	free(ti);
	free(k);
}
