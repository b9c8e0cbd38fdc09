/* check.h - what the unit tests share: failure reports and a seeded
 * random generator. Included once, by the test program's one .c file.
 * Define CHECK_SEED before including it for another stream. */
#ifndef SR_CHECK_H
#define SR_CHECK_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifndef CHECK_SEED
#define CHECK_SEED 0x2545f4914f6cdd1dULL
#endif

static int failures;

/* Reports a failed check. */
static void
fail(const char *fmt, ...)
{
	va_list ap;

	printf("FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	failures++;
}

static uint64_t rng_state = CHECK_SEED;

/* xorshift64*: uniform in [0, k). */
static size_t
rnd(size_t k)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (size_t)((rng_state * 0x2545f4914f6cdd1dULL) >> 33) % k;
}

#endif
