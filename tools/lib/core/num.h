/* num.h - strict number parsing, shortest round-trip formatting, and the
 * clock that timings read. */
#ifndef SR_NUM_H
#define SR_NUM_H

#include <stddef.h>

#define SR_NUMLEN 32	/* enough for any double sr_fmt_double writes */

/* Parses all of s as a finite decimal number. Returns NULL on success or
 * the reason ("empty", "not a number", "not finite", "out of range"). */
const char *sr_parse_double(const char *s, double *out);

/* Parses all of s as a decimal integer that fits a long (5.0 counts as 5,
 * numbers are numbers). Returns NULL or the reason. */
const char *sr_parse_long(const char *s, long *out);

/* Writes the shortest decimal form of v that reads back as v; integral
 * values without exponent up to 1e15. Returns buf. */
char *sr_fmt_double(char buf[SR_NUMLEN], double v);
/* The same, returning the length written (the NUL not counted). */
size_t sr_fmt_double_n(char buf[SR_NUMLEN], double v);

/* Writes v rounded to `digits` significant digits (1 to 15), trailing
 * zeros dropped, as a reader of durations wants it: a value of more
 * integral digits than that rounded to a whole number (12345.678 with 4
 * digits is 12346), never in exponent notation from 1 up to 1e15; below
 * 1, as %g writes it (0.0368949 gives 0.03689); NaN as "NaN". Returns
 * buf. */
char *sr_fmt_sig(char buf[SR_NUMLEN], double v, int digits);

/* Writes seconds as h:mm:ss, rounded to the second, the hours unbounded
 * (90000 s is 25:00:00); "-" for a negative, non-finite or absurd
 * (10^15 s and more) value. Returns buf. */
char *sr_fmt_hms(char buf[SR_NUMLEN], double seconds);

/* Seconds on the monotonic clock (for differences). */
double sr_now(void);

#endif
