/* indices_tsv.h - writing indices.tsv (see indices(5)): the metadata line,
 * the first-order table and the second-order table of --s2. */
#ifndef SR_INDICES_TSV_H
#define SR_INDICES_TSV_H

#include <stdio.h>

#include "sa/indices.h"

/* The metadata line "#method=... metric=... aggregate=... runs=..." with
 * the bootstrap's settings (moat, vbd) and the method's own keys, then
 * extra (" order=2" for the S2 table, or ""). */
void sr_indices_write_meta(FILE *fp, const sr_indices *x, const char *extra);
/* The header and one row per parameter: vbd param S1 S1_conf ST ST_conf
 * [S1_lo S1_hi ST_lo ST_hi], moat param mu mu_star sigma mu_star_conf,
 * corr param and each measure with its p-value. */
void sr_indices_write(FILE *fp, const sr_indices *x);
/* The S2 table: param_i param_j S2 S2_conf [S2_lo S2_hi], i < j. */
void sr_indices_write_s2(FILE *fp, const sr_indices *x);

#endif
