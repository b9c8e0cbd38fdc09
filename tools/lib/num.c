/* num.c - strict number parsing and shortest round-trip formatting. */
#include "num.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *
sr_parse_double(const char *s, double *out)
{
	char *end;
	double v;
	const char *p;

	if (s == NULL || *s == '\0')
		return "empty";
	if (isspace((unsigned char)*s))
		return "not a number";
	p = (*s == '-' || *s == '+') ? s + 1 : s;
	if (strncasecmp(p, "nan", 3) == 0 || strncasecmp(p, "inf", 3) == 0)
		return "not finite (NaN or Inf)";
	if (strpbrk(s, "xXnNiIpP"))	/* strtod would take hex floats */
		return "not a number";
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0')
		return "not a number";
	if (errno == ERANGE && fabs(v) > 1)
		return "out of range";
	if (!isfinite(v))
		return "not finite";
	*out = v == 0 ? 0.0 : v;	/* no negative zero */
	return NULL;
}

const char *
sr_parse_long(const char *s, long *out)
{
	double v;
	const char *why = sr_parse_double(s, &v);

	if (why)
		return why;
	if (v != floor(v))
		return "not an integer";
	if (v < -9.0e15 || v > 9.0e15)
		return "out of range";
	*out = (long)v;
	return NULL;
}

char *
sr_fmt_double(char buf[SR_NUMLEN], double v)
{
	int prec;

	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, SR_NUMLEN, "%.0f", v == 0 ? 0.0 : v);
		return buf;
	}
	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, SR_NUMLEN, "%.*g", prec, v);
		if (prec == 17 || strtod(buf, NULL) == v)
			break;
	}
	return buf;
}
