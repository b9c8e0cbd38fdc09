/* tune.h - a bucket of a tuning campaign run against its ledger
 * (ledger(5)): seg-run --ledger, --cancel, --metric.
 *
 * The runner walks the tiles one at a time (sr_runjob's gate). Before
 * each tile the ledger's new lines are read: every set's values feed the
 * canceller (sa/cancel.h), and an instance of the bucket runs on the tile
 * only while one of its runs is neither cancelled nor already has a
 * result for that tile in the ledger (a resumed bucket recomputes no
 * pair the ledger holds; their results are taken from it). After each
 * tile the bucket's new results are appended, the ledger is read again,
 * and the rule decides for those of its own runs that got a value now
 * (but after the last tile, where a cancellation saves nothing); a
 * cancelled run is appended as a cancel line and runs no more. With
 * the rule none nothing is cancelled, and the ledger only records.
 */
#ifndef SR_TUNE_H
#define SR_TUNE_H

#include <stddef.h>

#include "exec/outputs.h"
#include "exec/runner.h"
#include "exec/segplan.h"
#include "image/tiles.h"
#include "sa/cancel.h"

/* The built-in scores a ledger value may be (higher is better): results
 * columns. */
#define SR_TUNE_NSCORE 4
extern const char *const sr_tune_score_name[SR_TUNE_NSCORE];

typedef struct {
	const char *ledger;		/* the ledger's path */
	sr_cancelrule rule;
	const char *metric;		/* a built-in score, or a metric the
					 * workflow's commands declare */
	long grace;			/* of the ledger's lock, seconds */
} sr_tuneopts;

typedef struct sr_tune sr_tune;

/* The defaults: no ledger, rule none, metric dice, the lock's grace from
 * SA_LEDGER_LOCK_GRACE or 30 s (sr_ledger_grace). */
void sr_tuneopts_init(sr_tuneopts *o);

/* Usage errors of seg-run's tuning options against its outputs u:
 * --cancel or --metric given (given) without --ledger, --ledger without
 * --ref for a built-in score, a ledger that is standard output or one of
 * the other outputs. (A metric of neither kind is refused by
 * sr_tune_start, which has the workflow.) */
void sr_tune_check(const sr_tuneopts *o, int given, const sr_segout *u);

/* Sets job's gate and tile_done so that the bucket of p runs on tiles
 * against the ledger (a new ledger starts with two provenance lines: the
 * program, the metric, rule, runs and tiles). A result's detail holds
 * its status, scores and the commands' metrics, so that a resumed bucket
 * takes them back; a failed run (a command's) has no value, and is
 * cancelled, by every bucket that reads it. */
sr_tune *sr_tune_start(sr_runjob *job, const sr_tuneopts *o,
    const sr_segplan *p, const sr_tiles *tiles);
void sr_tune_free(sr_tune *t);

#endif
