/* dconv.h - the shortest round-trip digits of a double and strict decimal
 * parsing behind C wrappers: C++17's std::to_chars and std::from_chars
 * (libstdc++), with Google's double-conversion library (Debian's
 * libdouble-conversion) for the strings from_chars leaves; both are C++
 * only, so this wrapper is C++, as sa/draws is. core/num builds its text
 * formats on these. */
#ifndef SR_DCONV_H
#define SR_DCONV_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The shortest digits of |v| (finite, not 0) that read back as v, the
 * closest to v among them: v = 0.DIGITS x 10^point. Writes the digits,
 * NUL-terminated, to digits (at least 18 bytes), their count to *len and
 * the point to *point. */
void sr_dconv_shortest(double v, char *digits, int *len, int *point);

/* Parses all len bytes of s by std::from_chars alone: 0 with the value
 * in *out when it reads them all, in range; -1 otherwise (s may then be
 * a number still: a '+', an exponent out of range; or "inf" or "nan",
 * which from_chars reads and the caller must not pass). */
int sr_dconv_plain(const char *s, size_t len, double *out);

/* Parses all len bytes of s as a decimal number, [+-] digits [. digits]
 * [e [+-] digits] (no spaces, hex, NaN or Inf: the caller has refused
 * them); infinities for magnitudes beyond a double's. Returns 0 with the
 * value in *out, or -1 when s is not such a number. */
int sr_dconv_parse(const char *s, size_t len, double *out);

#ifdef __cplusplus
}
#endif

#endif
