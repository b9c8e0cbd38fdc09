/* opt.c - option values with one set of messages (opt.h). */
#include "core/opt.h"
#include "core/err.h"
#include "core/num.h"
#include "core/out.h"
#include "core/rng.h"

#include <stdlib.h>
#include <string.h>

/* n as text: 1e9 for SR_COUNT_MAX, else decimal. */
static const char *
count_text(char buf[32], size_t n)
{
	if (n == SR_COUNT_MAX)
		return "1e9";
	snprintf(buf, 32, "%zu", n);
	return buf;
}

size_t
sr_opt_count(const char *opt, const char *arg, size_t min, size_t max)
{
	char lo[32], hi[32];
	long v;

	if (sr_parse_long(arg, &v) || v < 0 || (size_t)v < min ||
	    (size_t)v > max)
		sr_usage_error("%s '%s': a whole number from %s to %s", opt, arg,
		    count_text(lo, min), count_text(hi, max));
	return (size_t)v;
}

unsigned long
sr_opt_seed(const char *opt, const char *arg)
{
	long v;

	if (sr_parse_long(arg, &v) || v < 0 || (unsigned long)v > SR_SEED_MAX)
		sr_usage_error("%s '%s': seeds go from 0 to %lu", opt, arg,
		    SR_SEED_MAX);
	return (unsigned long)v;
}

double
sr_opt_seconds(const char *opt, const char *arg)
{
	double v;

	if (sr_parse_double(arg, &v) || v < 0)
		sr_usage_error("%s '%s': seconds, a number >= 0", opt, arg);
	return v;
}

double
sr_opt_real(const char *opt, const char *arg, double lo, double hi,
    int ends, const char *what)
{
	char a[SR_NUMLEN], b[SR_NUMLEN];
	double v;

	if (sr_parse_double(arg, &v) || v > hi || v < lo ||
	    ((ends & SR_OPEN_LO) && v == lo) || ((ends & SR_OPEN_HI) && v == hi))
		sr_usage_error("%s '%s': %s in %s%s, %s%s", opt, arg, what,
		    ends & SR_OPEN_LO ? "(" : "[", sr_fmt_double(a, lo),
		    sr_fmt_double(b, hi), ends & SR_OPEN_HI ? ")" : "]");
	return v;
}

int
sr_word_index(const char *word, const char *const names[], size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && strcmp(word, names[i]) == 0)
			return (int)i;
	return -1;
}

char *
sr_word_list(char *buf, size_t len, const char *const names[], size_t n)
{
	size_t i, used = 0, last = n;

	buf[0] = '\0';
	while (last > 0 && names[last - 1] == NULL)
		last--;
	for (i = 0; i < last && used < len; i++) {
		if (names[i] == NULL)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
		    used == 0 ? "" : i + 1 == last ? " or " : ", ", names[i]);
	}
	return buf;
}

int
sr_opt_word(const char *opt, const char *arg, const char *const names[],
    size_t n)
{
	char list[512];
	int i = sr_word_index(arg, names, n);

	if (i < 0)
		sr_usage_error("%s '%s': not %s", opt, arg,
		    sr_word_list(list, sizeof list, names, n));
	return i;
}

void
sr_opt_help(void (*usage)(FILE *))
{
	usage(stdout);
	sr_out_commit_all();
	exit(SR_EXIT_OK);
}
