/* results.h - the values a cancellation replay decides on: one metric of
 * seg-run's results (a metrics file, read through sa/metrics.h) per run
 * and tile. */
#ifndef SR_SIMRESULTS_H
#define SR_SIMRESULTS_H

#include <stddef.h>

#include "core/hash.h"

/* Reads RESULTS.tsv (run, tile, optional status, the metric column), or
 * a ledger (ledger(5): its result lines, metric unused): the
 * value of run r on tile k at v[r * ntiles + k], NaN where there is none
 * (no row, status error, empty field). Tiles not in t are added when add
 * is set, else an error. Dies naming file, line and column on a bad row,
 * a repeated run and tile, or no value at all. */
double *sr_simresults_read(const char *path, const char *metric,
    sr_interner *tiles, int add, size_t nruns);

/* The run of the highest mean value (lowest run on a tie), SR_NONE if no
 * run has a value. */
size_t sr_simresults_best(const double *v, size_t nruns, size_t ntiles);

#endif
