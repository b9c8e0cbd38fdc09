/* bits_test.c - unit tests of tools/lib/image/bits.c: packing and
 * unpacking against the straightforward loops (bit i & 63 of word
 * i >> 6; 255 where set) on random planes of 0 to 700 pixels (every
 * length modulo 64, whole words and tails) at densities from empty to
 * full, with any nonzero value a set pixel; the words beyond the last
 * pixel 0. Exits 0 on success; prints "FAIL: ..." and exits 1 otherwise.
 */
#include "image/bits.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CHECK_SEED 0x6b1f3e9a2c5d7081ULL
#include "check.h"

#define MAXN 700

static void
one(size_t n, int per)
{
	uint8_t a[MAXN], got[MAXN + 1];
	uint64_t want[MAXN / 64 + 1], *b;
	size_t i, nw = sr_bits_words(n);

	memset(want, 0, sizeof want);
	for (i = 0; i < n; i++) {
		a[i] = (int)rnd(100) < per ? (uint8_t)(1 + rnd(255)) : 0;
		if (a[i])
			want[i / 64] |= (uint64_t)1 << (i % 64);
	}
	if (nw != n / 64 + 1)
		fail("words(%zu) = %zu", n, nw);
	b = sr_bits_pack(a, n);
	if (memcmp(b, want, nw * sizeof *b) != 0)
		fail("pack: n = %zu, density %d %%", n, per);
	for (i = 0; i < n; i++)
		if (sr_bit_at(b, i) != (a[i] != 0))
			fail("bit_at: n = %zu, pixel %zu", n, i);
	got[n] = 0x5a;		/* past the end: untouched */
	sr_bits_unpack(b, got, n);
	for (i = 0; i < n; i++)
		if (got[i] != (a[i] ? 255 : 0)) {
			fail("unpack: n = %zu, pixel %zu: %d for %d", n, i,
			    got[i], a[i]);
			break;
		}
	if (got[n] != 0x5a)
		fail("unpack: n = %zu wrote past the end", n);
	free(b);
}

int
main(void)
{
	static const int per[] = { 0, 1, 10, 50, 90, 100 };
	size_t n, k;

	for (n = 0; n <= MAXN; n++)
		for (k = 0; k < sizeof per / sizeof *per; k++)
			one(n, per[k]);
	if (failures)
		return 1;
	printf("bits: ok\n");
	return 0;
}
