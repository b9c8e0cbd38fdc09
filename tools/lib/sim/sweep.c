/* sweep.c - slot counts (sweep.h). */
#include "sim/sweep.h"
#include "core/err.h"
#include "core/opt.h"
#include "core/tsv.h"

#include <stdlib.h>
#include <string.h>

void
sr_sweep_add(sr_sweep *sw, size_t slots)
{
	sw->slots = sr_reallocarray(sw->slots, sw->n + 1, sizeof *sw->slots);
	sw->slots[sw->n++] = slots;
}

void
sr_sweep_free(sr_sweep *sw)
{
	free(sw->slots);
	sw->slots = NULL;
	sw->n = 0;
}

/* Appends v, which must be above the last count. */
static void
add_checked(sr_sweep *sw, size_t v, const char *opt, const char *s)
{
	if (sw->n > 0 && v <= sw->slots[sw->n - 1])
		sr_usage_error("%s '%s': slot counts must increase", opt, s);
	if (sw->n > SR_SWEEP_MAX)
		sr_usage_error("%s '%s': more than %d slot counts", opt, s,
		    SR_SWEEP_MAX);
	sr_sweep_add(sw, v);
}

/* The counts from the last two (or three) up to x, not including it. */
static void
continue_to(sr_sweep *sw, size_t x, const char *opt, const char *s)
{
	size_t a = sw->slots[sw->n - 2], b = sw->slots[sw->n - 1];
	size_t step = b - a, ratio = 0;

	if (!(sw->n >= 3 && a - sw->slots[sw->n - 3] == step) && b % a == 0)
		ratio = b / a;
	for (b = ratio ? b * ratio : b + step; b < x;
	    b = ratio ? b * ratio : b + step)
		add_checked(sw, b, opt, s);
}

void
sr_sweep_parse(sr_sweep *sw, const char *opt, const char *s)
{
	const char *p = s;
	char item[32];
	size_t x;
	int rc, dots = 0;

	sr_sweep_free(sw);
	while ((rc = sr_list_next(&p, item, sizeof item)) > 0) {
		if (strcmp(item, "...") == 0) {
			if (sw->n < 2 || dots)
				sr_usage_error("%s '%s': '...' follows two slot counts",
				    opt, s);
			dots = 1;
			continue;
		}
		x = sr_opt_count(opt, item, 1, SR_COUNT_MAX);
		if (dots)
			continue_to(sw, x, opt, s);
		dots = 0;
		add_checked(sw, x, opt, s);
	}
	if (rc != 0 || dots || sw->n == 0)
		sr_usage_error("%s '%s': a comma list of slot counts", opt, s);
}
