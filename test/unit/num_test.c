/* num_test - core/num's parsing and formatting (core/dconv inside)
 * against the straightforward versions they replaced: snprintf at 15, 16
 * then 17 digits until strtod reads the value back, and strtod itself.
 * Byte for byte on millions of doubles of every kind, and accept/reject
 * and the value's bits on every short string of number characters. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/num.h"

/* The formatting before double-conversion (sareuse 0.1.0, num.c). */
static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6 };

static void
ref_fmt(char *buf, double v)
{
	double a = fabs(v), x;
	char *end;
	int prec, frac;

	for (frac = 0; frac <= 6 && a < 1e9; frac++) {
		x = a * p10[frac];
		if (x != floor(x))
			continue;
		/* the fast path is num.c's own (put_scaled), not replaced:
		 * compare the numbers that take it with printf */
		snprintf(buf, SR_NUMLEN, "%.*f", frac, v == 0 ? 0.0 : v);
		if (frac == 0 || (strtod(buf, &end) == v && *end == '\0')) {
			/* no trailing zeros: 0.55 * 1000 is whole, and 0.550
			 * is not the shortest (0.1.0 wrote it) */
			size_t n = strlen(buf);
			while (frac > 0 && buf[n - 1] == '0')
				buf[--n] = '\0';
			if (buf[n - 1] == '.')
				buf[n - 1] = '\0';
			return;
		}
		break;
	}
	if (v == floor(v) && a < 1e15) {
		snprintf(buf, SR_NUMLEN, "%.0f", v == 0 ? 0.0 : v);
		return;
	}
	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, SR_NUMLEN, "%.*g", prec, v);
		if (prec == 17 || strtod(buf, NULL) == v)
			break;
	}
}

/* The parsing before double-conversion, on strings of the characters
 * 0-9 . e E + - (the ones num.c hands over to the library). */
static const char *
ref_parse(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0')
		return "not a number";
	if (errno == ERANGE && fabs(v) > 1)
		return "out of range";
	*out = v == 0 ? 0.0 : v;
	return NULL;
}

static long compared;

static void
check_fmt(double v)
{
	char got[SR_NUMLEN], want[SR_NUMLEN];

	ref_fmt(want, v);
	sr_fmt_double(got, v);
	compared++;
	if (strcmp(got, want) != 0)
		fail("fmt %a: %s, want %s", v, got, want);
}

static double
bits_double(uint64_t b)
{
	double v;

	memcpy(&v, &b, sizeof v);
	return v;
}

static uint64_t
rnd64(void)
{
	return ((uint64_t)rnd(1u << 31) << 33) ^ ((uint64_t)rnd(1u << 31) << 2) ^
	    rnd(4);
}

static void
test_fmt(void)
{
	static const double special[] = { 0.0, -0.0, 1, -1, 0.1, 0.2, 0.3,
	    1e15, 1e15 + 0.5, 999999999999999.0, 1e16, 1e17, 1e21, 1e22, 1e23,
	    1e-4, 1e-5, 0.00001, 0.000015, 1.5e-5, 123456789012345.6,
	    DBL_MAX, -DBL_MAX, DBL_MIN, DBL_TRUE_MIN, 5e-324, 2.2250738585072009e-308,
	    3.141592653589793, 2.718281828459045, 1.0 / 3, 2.0 / 3, 9007199254740993.0,
	    4.35, 0.1 + 0.2, 1e-7, 3e-7, 1e5, 1e6, 1e16 + 2, 123.456, 0.001,
	    0.55, 0.56, 0.57, 5.55, INFINITY, NAN };
	size_t i, j;
	int e;

	for (i = 0; i < sizeof special / sizeof special[0]; i++) {
		check_fmt(special[i]);
		check_fmt(-special[i]);
		check_fmt(nextafter(special[i], 0));
		check_fmt(nextafter(special[i], INFINITY));
	}
	for (i = 0; i < 300000; i++)	/* every bit pattern */
		check_fmt(bits_double(rnd64()));
	for (i = 0; i < 300000; i++) {	/* uniform values, as designs are */
		double u = (double)rnd64() / 18446744073709551616.0;
		check_fmt(u);
		check_fmt(-3.141592653589793 + 6.283185307179586 * u);
		check_fmt(u * pow(10, (double)rnd(40) - 20));
	}
	for (e = 1; e <= 6; e++)	/* every decimal of e digits below 1:
					 * 0.55 * 1000 is whole, 0.55 * 100 not */
		for (j = 0; j < 20000; j++)
			check_fmt((double)rnd(1000000) / pow(10, e));
	for (e = -30; e <= 30; e++)	/* short decimals at every exponent */
		for (j = 0; j < 3000; j++) {
			double m = (double)rnd(100000) / (double)(1 + rnd(10000));
			check_fmt(m * pow(10, e));
			check_fmt(round(m * 1000) / 1000 * pow(10, e));
		}
	for (e = 1; e <= 53; e++)	/* dyadic fractions, as Sobol points are */
		for (j = 0; j < 2000; j++)
			check_fmt(ldexp((double)(rnd64() >> (64 - (e < 32 ? e : 32))), -e) *
			    (e % 2 ? 1 : 7.5));
	for (e = 3; e <= 7; e++)	/* 3 to 7 decimals, beside the fast path's end */
		for (j = 0; j < 20000; j++) {
			double m = (double)rnd(1000000000) / pow(10, e);
			check_fmt(m);
			check_fmt(nextafter(m, 0));
			check_fmt(m / 1000);
		}
	for (i = 0; i < 200000; i++)	/* integers around 1e15 and above */
		check_fmt((double)(999999999000000LL + (long long)rnd(2000000)) +
		    (double)rnd(4) * 0.25);
}

/* Every string of up to n characters of the alphabet, after prefix. */
static long parsed;

static void
check_parse(const char *s)
{
	double got = 0, want = 0;
	const char *gw = sr_parse_double(s, &got), *ww = ref_parse(s, &want);

	parsed++;
	if ((gw == NULL) != (ww == NULL) || (gw && strcmp(gw, ww) != 0))
		fail("parse '%s': %s, want %s", s, gw ? gw : "ok", ww ? ww : "ok");
	else if (gw == NULL && memcmp(&got, &want, sizeof got) != 0)
		fail("parse '%s': %a, want %a", s, got, want);
}

static void
all_strings(char *s, size_t len, size_t max)
{
	static const char alpha[] = "019.eE+-";
	size_t i;

	if (len)
		check_parse(s);
	if (len == max)
		return;
	for (i = 0; alpha[i]; i++) {
		s[len] = alpha[i];
		s[len + 1] = '\0';
		all_strings(s, len + 1, max);
	}
	s[len] = '\0';
}

static void
test_parse(void)
{
	static const char *const cases[] = { "1e400", "-1e400", "1e-400",
	    "2.4703282292062328e-324", "2.4703282292062327e-324",
	    "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792",
	    "0.1e1", "00000000000000000000000000000000001.5", ".5", "5.", "+.5e+1",
	    "9007199254740993", "4.35", "1.00000000000000011102230246251565404236316680908203125" };
	char s[16] = "";
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		check_parse(cases[i]);
	all_strings(s, 0, 6);	/* 8^1 + ... + 8^6 = 299,592 strings */
	for (i = 0; i < 300000; i++) {	/* what the formatting writes */
		char buf[SR_NUMLEN];

		sr_fmt_double(buf, bits_double(rnd64()));
		if (!strstr(buf, "nan") && !strstr(buf, "inf"))
			check_parse(buf);
	}
}

int
main(void)
{
	test_fmt();
	test_parse();
	printf("%ld doubles formatted, %ld strings parsed\n", compared, parsed);
	if (failures)
		printf("%d failures\n", failures);
	return failures != 0;
}
