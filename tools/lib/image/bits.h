/* bits.h - a plane that is only a flag (0 or not) as one bit a pixel:
 * bit i & 63 of word i >> 6, 2 MiB for a 4096 x 4096 tile instead of 16.
 * The nuclei tasks keep the outputs that wait in the tree for the tasks
 * below this way (nuclei.h), and Seg5 its seg_big.
 *
 * Hand-written: a few lines, where a library's bit array would add a
 * dependency and a copy; test/unit/bits_test.c checks them against the
 * straightforward loops.
 */
#ifndef SR_BITS_H
#define SR_BITS_H

#include <stddef.h>
#include <stdint.h>

/* The words of a bit plane of n pixels (one more than n / 64 needs). */
size_t sr_bits_words(size_t n);

/* a[0..n) != 0 as a new bit plane (free it with free). */
uint64_t *sr_bits_pack(const uint8_t *a, size_t n);

/* Pixel i of bit plane b: 0 or 1. */
static inline int
sr_bit_at(const uint64_t *b, size_t i)
{
	return (int)(b[i >> 6] >> (i & 63) & 1);
}

/* Clears pixel i of bit plane b. */
static inline void
sr_bit_clear(uint64_t *b, size_t i)
{
	b[i >> 6] &= ~((uint64_t)1 << (i & 63));
}

/* Bit plane b of n pixels as a[0..n): 255 where set, 0 elsewhere. */
void sr_bits_unpack(const uint64_t *b, uint8_t *a, size_t n);

#endif
