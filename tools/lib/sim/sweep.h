/* sweep.h - the slot counts a prediction is made for (sim-runtime
 * --sweep): a comma list of increasing counts, where "..." continues the
 * counts before it up to (not including) the count after it: by their
 * step when the last three are evenly spaced, else by the ratio of the
 * last two when it is whole, else by their difference. "1,2,...,16" is
 * 1 2 4 8 16, "1,2,3,...,6" is 1 2 3 4 5 6, "2,5,...,12" is 2 5 8 11 12. */
#ifndef SR_SWEEP_H
#define SR_SWEEP_H

#include <stddef.h>

#define SR_SWEEP_MAX 100000	/* slot counts in a sweep, about */

typedef struct {
	size_t *slots;
	size_t n;
} sr_sweep;

/* Parses list s into sw (replacing what it held); a usage error naming
 * opt on a count that is not from 1 to 1e9, counts that do not increase,
 * a misplaced "...", more than SR_SWEEP_MAX counts or a bad list. */
void sr_sweep_parse(sr_sweep *sw, const char *opt, const char *s);
/* Appends one count (no check). */
void sr_sweep_add(sr_sweep *sw, size_t slots);
void sr_sweep_free(sr_sweep *sw);

#endif
