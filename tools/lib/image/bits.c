/* bits.c - planes of one bit a pixel (see bits.h). */
#include "image/bits.h"
#include "core/err.h"

#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

size_t
sr_bits_words(size_t n)
{
	return n / 64 + 1;
}

/* With SSE2, 16 pixels a compare and a movemask. */
uint64_t *
sr_bits_pack(const uint8_t *a, size_t n)
{
	uint64_t *b = sr_reallocarray(NULL, sr_bits_words(n), sizeof *b), word;
	size_t i, j, k;

	for (i = j = 0; i + 64 <= n; i += 64, j++) {
#ifdef __SSE2__
		__m128i zero = _mm_setzero_si128();
		word = 0;
		for (k = 0; k < 64; k += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(a + i + k));
			unsigned z = (unsigned)_mm_movemask_epi8(
			    _mm_cmpeq_epi8(v, zero));
			word |= (uint64_t)(~z & 0xffffu) << k;
		}
#else
		for (word = 0, k = 0; k < 64; k++)
			word |= (uint64_t)(a[i + k] != 0) << k;
#endif
		b[j] = word;
	}
	for (word = 0, k = 0; i + k < n; k++)
		word |= (uint64_t)(a[i + k] != 0) << k;
	b[j] = word;
	return b;
}

/* On a little-endian machine 8 pixels at a time: the byte x times
 * 0x0101010101010101 puts x in each of 8 lanes, the mask keeps bit k in
 * lane k, adding 0x7f sets a lane's high bit where it is not 0 (without
 * a carry), and lanes of 0x01 times 0xff are 0xff. */
void
sr_bits_unpack(const uint64_t *b, uint8_t *a, size_t n)
{
	size_t i, k;
	uint64_t word;

	for (i = 0; i + 64 <= n; i += 64)
		for (word = b[i >> 6], k = 0; k < 64; k += 8) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			uint64_t x = (word >> k & 0xff) * 0x0101010101010101u &
			    0x8040201008040201u;
			x = ((x + 0x7f7f7f7f7f7f7f7fu) & 0x8080808080808080u) >>
			    7;
			x *= 0xff;
			memcpy(a + i + k, &x, 8);
#else
			size_t j;
			for (j = 0; j < 8; j++)
				a[i + k + j] = (uint8_t)(0u -
				    (unsigned)(word >> (k + j) & 1));
#endif
		}
	for (word = b[i >> 6], k = 0; i + k < n; k++)
		a[i + k] = (uint8_t)(0u - (unsigned)(word >> k & 1));
}
