// dconv.cpp - C wrappers of double-conversion (dconv.h). C++ only because
// the library has no C interface; it throws nothing.
#include "core/dconv.h"

#include <double-conversion/double-to-string.h>
#include <double-conversion/string-to-double.h>

#include <climits>
#include <cmath>

using double_conversion::DoubleToStringConverter;
using double_conversion::StringToDoubleConverter;

extern "C" void
sr_dconv_shortest(double v, char *digits, int *len, int *point)
{
	bool sign;

	DoubleToStringConverter::DoubleToAscii(v, DoubleToStringConverter::SHORTEST,
	    0, digits, 18, &sign, len, point);
}

extern "C" int
sr_dconv_parse(const char *s, size_t len, double *out)
{
	// no flags: the whole string, no spaces, no hex, no octal; junk
	// gives NaN, which no decimal number reads as
	static const StringToDoubleConverter conv(StringToDoubleConverter::NO_FLAGS,
	    NAN, NAN, "inf", "nan");
	int used = 0;
	double v;

	if (len > INT_MAX)
		return -1;
	v = conv.StringToDouble(s, static_cast<int>(len), &used);
	if (std::isnan(v) || used != static_cast<int>(len))
		return -1;
	*out = v;
	return 0;
}
