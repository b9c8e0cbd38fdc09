// dconv.cpp - C wrappers of the shortest round-trip conversions (dconv.h):
// C++17's std::to_chars and std::from_chars (libstdc++'s Ryu and
// fast_float), with Google's double-conversion deciding what from_chars
// does not take. C++ only because neither has a C interface; nothing here
// throws.
#include "core/dconv.h"

#include <double-conversion/string-to-double.h>

#include <charconv>
#include <climits>
#include <cmath>
#include <cstring>
#include <system_error>

using double_conversion::StringToDoubleConverter;

// std::to_chars in scientific form without a precision gives the shortest
// digits that read back as v, the closest among them: the digits
// double-conversion's SHORTEST mode gives (checked on 2e7 doubles of every
// kind), two to three times faster; they are taken apart here.
extern "C" void
sr_dconv_shortest(double v, char *digits, int *len, int *point)
{
	char buf[32], *p, *end, *e;
	int n = 1, x = 0, neg = 0;

	// "d[.ddd]e[+-]xx": the digits are d and ddd
	end = std::to_chars(buf, buf + sizeof buf, std::fabs(v),
	    std::chars_format::scientific).ptr;
	e = static_cast<char *>(std::memchr(buf, 'e', static_cast<size_t>(end - buf)));
	digits[0] = buf[0];
	if (e - buf > 2) {
		std::memcpy(digits + 1, buf + 2, static_cast<size_t>(e - buf - 2));
		n = static_cast<int>(e - buf - 1);
	}
	digits[n] = '\0';
	p = e + 1;
	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	for (; p < end; p++)
		x = x * 10 + (*p - '0');
	*len = n;
	*point = (neg ? -x : x) + 1;
}

extern "C" int
sr_dconv_plain(const char *s, size_t len, double *out)
{
	auto r = std::from_chars(s, s + len, *out);

	return r.ec == std::errc() && r.ptr == s + len ? 0 : -1;
}

extern "C" int
sr_dconv_parse(const char *s, size_t len, double *out)
{
	// no flags: the whole string, no spaces, no hex, no octal; junk
	// gives NaN, which no decimal number reads as
	static const StringToDoubleConverter conv(StringToDoubleConverter::NO_FLAGS,
	    NAN, NAN, "inf", "nan");
	const char *p = s, *end = s + len;
	int used = 0;
	double v;

	if (len > INT_MAX)
		return -1;
	// the fast path: from_chars takes no '+' and leaves overflow and
	// underflow to the caller; those and anything it does not read to
	// the end go to double-conversion
	if (len > 1 && *p == '+' && p[1] != '-' && p[1] != '+')
		p++;
	auto r = std::from_chars(p, end, v);
	if (r.ec == std::errc() && r.ptr == end) {
		*out = v;
		return 0;
	}
	v = conv.StringToDouble(s, static_cast<int>(len), &used);
	if (std::isnan(v) || used != static_cast<int>(len))
		return -1;
	*out = v;
	return 0;
}
