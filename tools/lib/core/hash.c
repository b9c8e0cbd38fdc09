/* hash.c - hashing of number tuples (FNV-1a with a shift mix). */
#include "core/hash.h"

#include <string.h>

uint64_t
sr_hash_doubles(const double *v, size_t n)
{
	uint64_t h = 1469598103934665603u, bits;
	size_t i;

	for (i = 0; i < n; i++) {
		double x = v[i] == 0 ? 0.0 : v[i];
		memcpy(&bits, &x, sizeof bits);
		h = (h ^ bits) * 1099511628211u;
		h ^= h >> 29;
	}
	return h;
}
