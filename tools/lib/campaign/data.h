/* data.h - the batched campaign's exchanged files, composed and read for
 * the driver (sa-campaign-data(1)): what workflows/batches.sh did with
 * awk, sed and grep | tail | wc. Every function dies (exit 1) naming
 * file and line on bad input, before its output is committed. */
#ifndef SR_CAMPAIGN_DATA_H
#define SR_CAMPAIGN_DATA_H

#include <stdio.h>

/* The number of data rows of a TSV table (design, buckets): its lines
 * that are neither comments nor the header. */
long sr_data_rows(const char *path);

/* Writes to fp the text after "#best " of each such line of path. */
void sr_data_best(const char *path, FILE *fp);

/* OUT/design.tsv and OUT/results.tsv of batches 1 to k of n (OUT/batch-J/),
 * runs renumbered: batch J's after batch J-1's; the design's comments
 * batch 1's, n= the sets so far, and "#batches=K of N sizes=N1,...". */
void sr_data_compose(const char *out, int k, int n);

/* OUT/ledger.tsv: the ledgers of batches 1 to k of n as one, runs
 * renumbered by the sizes of OUT/design.tsv's #batches line, a batch
 * column added; a missing batch ledger adds no rows. */
void sr_data_ledger(const char *out, int k, int n);

#endif
