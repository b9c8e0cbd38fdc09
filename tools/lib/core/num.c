/* num.c - strict number parsing and shortest round-trip formatting. */
#include "core/num.h"

#include "core/dconv.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static const double pow10_exact[] = {	/* every power of ten a double holds exactly */
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

/* Clinger's fast path: a plain decimal [-]DIGITS[.DIGITS] with at most 15
 * significant digits is an exact integer divided by an exact power of ten,
 * so one correctly rounded division gives what strtod would. Returns 0
 * when s is not that simple. Written by hand because the numbers written
 * (sr_fmt_double_n) are checked by reading them back, and strtod was the
 * hot spot there. */
static int
parse_simple(const char *s, double *out)
{
	uint64_t m = 0;
	int digits = 0, frac = 0, neg = 0, dot = 0;

	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (*s == '\0')
		return 0;
	for (; *s; s++) {
		if (*s == '.' && !dot) {
			dot = 1;
			continue;
		}
		if (*s < '0' || *s > '9')
			return 0;
		if (m == 0 && *s == '0') {	/* leading zeros are free */
			frac += dot;
			continue;
		}
		if (++digits > 15)
			return 0;
		m = m * 10 + (uint64_t)(*s - '0');
		frac += dot;
	}
	if (frac > 22 || (dot && s[-1] == '.' && digits + frac == 0))
		return 0;
	*out = (double)m / pow10_exact[frac];
	if (neg)
		*out = -*out;
	return 1;
}

const char *
sr_parse_double(const char *s, double *out)
{
	double v;
	const char *p;

	if (s == NULL || *s == '\0')
		return "empty";
	/* the fast path, for the millions of numbers design files hold: a
	 * decimal from_chars (fast_float) reads whole and in range; a digit
	 * or point first keeps "inf" and "nan" from it. Correctly rounded,
	 * as double-conversion below, so the value is its */
	p = *s == '-' ? s + 1 : s;
	if (((*p >= '0' && *p <= '9') || *p == '.') &&
	    sr_dconv_plain(s, strlen(s), &v) == 0 && isfinite(v)) {
		*out = v == 0 ? 0.0 : v;	/* no negative zero */
		return NULL;
	}
	if (s[strspn(s, "0123456789.eE+-")] == '\0')
		goto convert;	/* plain decimal digits: double-conversion decides */
	if (isspace((unsigned char)*s))
		return "not a number";
	p = (*s == '-' || *s == '+') ? s + 1 : s;
	if (strncasecmp(p, "nan", 3) == 0 || strncasecmp(p, "inf", 3) == 0)
		return "not finite (NaN or Inf)";
	return "not a number";
convert:
	if (sr_dconv_parse(s, strlen(s), &v) < 0)
		return "not a number";
	if (!isfinite(v))
		return "out of range";
	*out = v == 0 ? 0.0 : v;	/* no negative zero */
	return NULL;
}

const char *
sr_parse_long(const char *s, long *out)
{
	double v;
	const char *why, *p = s;
	long m = 0;

	/* plain digits, the run numbers of every row: exact as they are */
	while (*p >= '0' && *p <= '9' && p - s < 15)
		m = m * 10 + (*p++ - '0');
	if (*p == '\0' && p > s) {
		*out = m;
		return NULL;
	}
	if ((why = sr_parse_double(s, &v)))
		return why;
	if (v != floor(v))
		return "not an integer";
	if (v < -9.0e15 || v > 9.0e15)
		return "out of range";
	*out = (long)v;
	return NULL;
}

/* Writes the integer m (< 1e16) with a decimal point before its last frac
 * digits; returns the length. */
static int
put_scaled(char *buf, int neg, uint64_t m, int frac)
{
	char tmp[SR_NUMLEN];
	int n = 0, len = 0;

	do {
		tmp[n++] = (char)('0' + m % 10);
		m /= 10;
	} while (m || n <= frac);
	if (neg)
		buf[len++] = '-';
	while (n > 0) {
		if (n == frac)
			buf[len++] = '.';
		buf[len++] = tmp[--n];
	}
	buf[len] = '\0';
	return len;
}

/* Writes v, finite and not subnormal, from its shortest round-trip
 * digits d[0..len) (v = 0.d x 10^point, core/dconv) as printf's %.Pg
 * writes them, P the first of 15, 16 and 17 digits that reads back as v:
 * the form every earlier sareuse wrote (the digits %.Pg gives are the
 * shortest and closest ones; the exponent form is taken for exponents
 * below -4 or from P on, with a sign and two digits at least). Returns
 * the length. */
static int
put_digits(char *buf, double v, const char *d, int len, int point)
{
	int x = point - 1, prec = len > 15 ? len : 15, i, n = 0;	/* v = d[0].d[1]... x 10^x */

	if (v < 0)
		buf[n++] = '-';
	if (x < -4 || x >= prec) {
		buf[n++] = d[0];
		if (len > 1) {
			buf[n++] = '.';
			for (i = 1; i < len; i++)
				buf[n++] = d[i];
		}
		buf[n++] = 'e';
		buf[n++] = x < 0 ? '-' : '+';
		x = x < 0 ? -x : x;	/* below 400 */
		if (x >= 100)
			buf[n++] = (char)('0' + x / 100);
		buf[n++] = (char)('0' + x / 10 % 10);
		buf[n++] = (char)('0' + x % 10);
		buf[n] = '\0';
		return n;
	}
	if (x < 0) {	/* 0.000ddd */
		buf[n++] = '0';
		buf[n++] = '.';
		memset(buf + n, '0', (size_t)(-x - 1));
		n += -x - 1;
		memcpy(buf + n, d, (size_t)len);
		n += len;
	} else if (len > x + 1) {	/* dd.ddd */
		memcpy(buf + n, d, (size_t)x + 1);
		n += x + 1;
		buf[n++] = '.';
		memcpy(buf + n, d + x + 1, (size_t)(len - x - 1));
		n += len - x - 1;
	} else {	/* ddd000 */
		memcpy(buf + n, d, (size_t)len);
		n += len;
		memset(buf + n, '0', (size_t)(x + 1 - len));
		n += x + 1 - len;
	}
	buf[n] = '\0';
	return n;
}

/* What printf writes for a value that is not finite or is subnormal:
 * nan, -nan, inf, -inf, and the first of %.15g, %.16g, %.17g that reads
 * back. Returns the length. */
static int
put_special(char *buf, double v)
{
	int prec, n = 0;

	if (!isfinite(v))
		return snprintf(buf, SR_NUMLEN, "%g", v);
	for (prec = 15; prec <= 17; prec++) {
		n = snprintf(buf, SR_NUMLEN, "%.*g", prec, v);
		if (prec == 17 || strtod(buf, NULL) == v)
			break;
	}
	return n;
}

size_t
sr_fmt_double_n(char buf[SR_NUMLEN], double v)
{
	double a = fabs(v), x, back;
	int frac, n, len = 0, point = 0, normal = isfinite(v) && a >= DBL_MIN;
	uint64_t m;
	char d[18];

	/* fast paths: integers, and values with up to 6 decimals that read
	 * back exactly (grid values, rounded data); x below 1e15 is whole
	 * when it survives a trip through an integer (what floor would say,
	 * without the emulation of floor that SSE2 code gets). Past 2
	 * decimals the shortest digits are taken first: what the fast paths
	 * write reads back as v in at most 15 significant digits and `frac`
	 * decimals, and no two decimals of 15 digits read as the same double
	 * (DBL_DIG), so it would be the shortest decimal of v: when that has
	 * more than 6 decimals neither path can write anything (continuous
	 * values, where the loop was a sixth of the time) */
	for (frac = 0; frac <= 6 && a < 1e9; frac++) {
		if (frac == 3 && normal) {
			sr_dconv_shortest(v, d, &len, &point);
			if (len - point > 6)
				return (size_t)put_digits(buf, v, d, len, point);
		}
		x = a * pow10_exact[frac];
		if (x != (double)(int64_t)x)
			continue;
		m = (uint64_t)x;
		/* 0.55 * 100 is not whole but 0.55 * 1000 is: its zeros go */
		for (; frac > 0 && m % 10 == 0; frac--)
			m /= 10;
		n = put_scaled(buf, v < 0, m, frac);
		if (frac == 0 || (parse_simple(buf, &back) && back == v))
			return (size_t)n;
		break;
	}
	if (a < 1e15 && a == (double)(int64_t)a)
		return (size_t)put_scaled(buf, v < 0, (uint64_t)a, 0);
	if (!normal)
		return (size_t)put_special(buf, v);
	if (len == 0)
		sr_dconv_shortest(v, d, &len, &point);
	return (size_t)put_digits(buf, v, d, len, point);
}

char *
sr_fmt_double(char buf[SR_NUMLEN], double v)
{
	sr_fmt_double_n(buf, v);
	return buf;
}

char *
sr_fmt_sig(char buf[SR_NUMLEN], double v, int digits)
{
	double a = fabs(v);

	if (!isfinite(v))
		snprintf(buf, SR_NUMLEN, "%s", isnan(v) ? "NaN" : v > 0 ? "Inf" :
		    "-Inf");
	else if (a >= pow10_exact[digits - 1] && a < 1e15)
		snprintf(buf, SR_NUMLEN, "%.0f", v);
	else
		snprintf(buf, SR_NUMLEN, "%.*g", digits, v == 0 ? 0.0 : v);
	return buf;
}

char *
sr_fmt_hms(char buf[SR_NUMLEN], double seconds)
{
	long long s;

	if (!(seconds >= 0 && seconds < 1e15)) {
		snprintf(buf, SR_NUMLEN, "-");
		return buf;
	}
	s = (long long)floor(seconds + 0.5);
	snprintf(buf, SR_NUMLEN, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60,
	    s % 60);
	return buf;
}

double
sr_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
