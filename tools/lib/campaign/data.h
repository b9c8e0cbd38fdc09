/* data.h - the batched campaign's exchanged files, composed and read for
 * the driver (sa-campaign-data(1)): what workflows/batches.sh did with
 * awk, sed and grep | tail | wc. Every function dies (exit 1) naming
 * file and line on bad input, before its output is committed. */
#ifndef SR_CAMPAIGN_DATA_H
#define SR_CAMPAIGN_DATA_H

#include <stdio.h>

/* A text file read line by line, its line number kept for errors (the
 * driver's formats read whole lines, as they were written). */
typedef struct {
	const char *path;
	FILE *fp;
	char *line;		/* the line without its newline */
	size_t cap;
	long lineno;
} sr_datareader;

/* Opens path; dies naming it when it cannot be read. */
void sr_data_open(sr_datareader *r, const char *path);
/* Reads the next line: 1, or 0 at end of file; dies on a read error. */
int sr_data_next(sr_datareader *r);
void sr_data_close(sr_datareader *r);

/* The number of data rows of a TSV table (design, buckets): its lines
 * that are neither comments nor the header. */
long sr_data_rows(const char *path);

/* Writes to fp the text after "#best " of each such line of path. */
void sr_data_best(const char *path, FILE *fp);

/* OUT/design.tsv and OUT/results.tsv of batches 1 to k of n (OUT/batch-J/),
 * runs renumbered: batch J's after batch J-1's; the design's comments
 * batch 1's, n= the sets so far, and "#batches=K of N sizes=N1,...". */
void sr_data_compose(const char *out, int k, int n);

/* The seed of batch k of a campaign of seed seed planned in OUT: seed
 * for batch 1 (the sets of the campaign unbatched), then a hash of (seed,
 * k), so that campaigns of other seeds share no batch; seed + k - 1 (the
 * rule before it) when OUT's batch 1 was planned with that rule (its
 * inputs' first line, "batch 1 of N", names no seed=). */
unsigned long sr_data_batch_seed(const char *out, int k, unsigned long seed);

/* What the knowledge base dir holds, for the plan to say: "DIR: a
 * campaign output, taken as one past experiment", or "DIR: N campaign
 * outputs, each a past experiment" (sr_experiment_knowledge). */
void sr_data_knowledge(const char *dir, FILE *fp);

/* OUT/ledger.tsv: the ledgers of batches 1 to k of n as one, runs
 * renumbered by the sizes of OUT/design.tsv's #batches line, a batch
 * column added; a missing batch ledger adds no rows. */
void sr_data_ledger(const char *out, int k, int n);

#endif
