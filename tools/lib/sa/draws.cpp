// draws.cpp - bulk uniform integers as GSL draws them (draws.h).
#include "sa/draws.h"

#include <cstdint>
#include <new>
#include <random>

struct sr_draws {
	std::mt19937 mt;
};

// GSL's mt19937 seeds with s & 0xffffffff, 0 read as 4357, by Knuth's
// recurrence: std::mt19937's seeding; sr_rng_new passes seed + 1
extern "C" sr_draws *
sr_draws_new(unsigned long seed)
{
	std::uint32_t s = static_cast<std::uint32_t>(seed + 1);
	sr_draws *d = new (std::nothrow) sr_draws;

	if (d)
		d->mt.seed(s ? s : 4357);
	return d;
}

extern "C" void
sr_draws_free(sr_draws *d)
{
	delete d;
}

// gsl_rng_uniform_int: scale = 0xffffffff / n, draws k = x / scale until
// k < n. x / scale is floor(x * m / 2^64) with m = ceil(2^64 / scale):
// with m * scale = 2^64 + e, 0 <= e < scale, the error x * e / (scale
// 2^64) stays below 1 / scale for every 32-bit x, too little to cross an
// integer
extern "C" int
sr_draws_fill(sr_draws *d, size_t n, size_t *out, size_t count)
{
	if (n == 0 || n > 0xffffffffUL)
		return -1;
	std::uint64_t scale = 0xffffffffUL / n;
	std::uint64_t m = ~std::uint64_t(0) / scale + 1;	// ceil(2^64 / scale), scale > 1
	if (scale == 1)
		m = 0;	// x / 1: see below
	for (size_t i = 0; i < count; i++) {
		std::uint64_t k;
		do {
			std::uint64_t x = d->mt();
			k = scale == 1 ? x : static_cast<std::uint64_t>(
			    (static_cast<unsigned __int128>(x) * m) >> 64);
		} while (k >= n);
		out[i] = static_cast<size_t>(k);
	}
	return 0;
}
