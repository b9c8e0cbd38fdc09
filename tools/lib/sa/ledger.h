/* ledger.h - a tuning campaign's ledger, OUT/ledger.tsv (ledger(5)): the
 * one writer and the one reader. An append-only journal that the buckets
 * of a campaign (processes on many nodes, a shared filesystem, NFS too)
 * append to under one lock file, PATH.lock (core/lock.h):
 *   kind run tile value seconds detail
 * one complete line per (run, tile) result or per cancelled run. Numbers
 * are the shortest round-trip decimals; a missing value or seconds (NaN
 * in a row) is written "-". Comment lines ("#...") may stand anywhere. */
#ifndef SR_LEDGER_H
#define SR_LEDGER_H

#include <stddef.h>
#include <stdio.h>

/* The columns, in order. */
#define SR_LEDGER_KIND		"kind"
#define SR_LEDGER_RUN		"run"
#define SR_LEDGER_TILE		"tile"
#define SR_LEDGER_VALUE		"value"
#define SR_LEDGER_SECONDS	"seconds"
#define SR_LEDGER_DETAIL	"detail"
/* An optional seventh column: the batch of each row, in the ledger of all
 * batches that a batched tune campaign's merge composes (OUT/ledger.tsv).
 * Never appended to: seg-run appends to a batch's own ledger. */
#define SR_LEDGER_BATCH		"batch"

/* The longest line, its newline included: a longer one is refused when
 * written and when read (without reading it whole). */
#define SR_LEDGER_LINE_MAX 65536

typedef enum { SR_LEDGER_RESULT, SR_LEDGER_CANCEL } sr_ledgerkind;

/* One row. A field that is not a number is NaN, written "-". */
typedef struct {
	sr_ledgerkind kind;	/* "result" or "cancel" in the file */
	size_t run;		/* the design's run (parameter set) */
	char *tile;		/* result: the tile's name; cancel: the number
				 * of values seen (a whole number >= 0), as text */
	double value;		/* result: the metric on the tile (NaN: none,
				 * the run gave no value); cancel: the set's
				 * running mean (NaN: no value seen) */
	double seconds;		/* result: the run's chain seconds on the tile,
				 * >= 0 (NaN: not measured); cancel: NaN */
	char *detail;		/* free text, valid UTF-8 without tabs, newlines
				 * or other control characters; may be "" (or
				 * NULL when written) */
	size_t batch;		/* read only: the batch column's value (>= 1),
				 * 0 in a ledger without that column */
} sr_ledgerrow;

typedef struct sr_ledger sr_ledger;	/* an incremental reader */

/* Opens a reader of path; nothing is read yet, and a missing file reads
 * as empty (the ledger is created by the first append). */
sr_ledger *sr_ledger_open(const char *path);

/* Reads the complete lines appended since the last call, from the byte
 * after the last complete line read (a trailing line without its newline
 * is left for the next call: a reader during appends sees only complete
 * lines). Returns the number of rows added. A result for a (run, tile)
 * already read is dropped (a resumed bucket appends it again; the first
 * one counts); likewise a second cancel of one run. Dies naming file and
 * line (exit 1) on a malformed complete line or header, a line longer
 * than SR_LEDGER_LINE_MAX, a file that is not a regular one or that is
 * shorter than what was read; on a read error exits 3. */
size_t sr_ledger_update(sr_ledger *l);

size_t sr_ledger_nrows(const sr_ledger *l);
/* Whether the header read has the batch column (a composed ledger). */
int sr_ledger_has_batch(const sr_ledger *l);
/* Writes the header line to fp, with the batch column when batch is
 * non-zero (the ledger a batched campaign's merge composes). */
void sr_ledger_put_header(FILE *fp, int batch);
/* Row i (< nrows) in file order; good until the next update. */
const sr_ledgerrow *sr_ledger_row(const sr_ledger *l, size_t i);
void sr_ledger_close(sr_ledger *l);

/* Appends rows[0..n) as complete lines under the lock PATH.lock, taken
 * for this process (waiting, polling, while a live holder has it; a lock
 * left by a killed holder is broken once stale: its pid dead on this
 * host, or untouched for grace seconds). Creates the file with the
 * provenance comment lines prov[0..nprov) (each "#..." without newline;
 * prov may be NULL) and the header when it does not exist or is empty;
 * removes an incomplete last line that an append killed while writing
 * left (with a warning); then writes everything with one write() on an
 * O_APPEND descriptor, fsyncs, closes and releases the lock. Threads of
 * one process append one at a time. Dies with exit 1, before taking the
 * lock, on a row that could not be read back (a tab, newline or control
 * character in tile or detail, invalid UTF-8, an empty tile, a cancel's
 * tile not a whole number, an infinite value, negative seconds, a
 * cancel's seconds not NaN, a line over SR_LEDGER_LINE_MAX) or a
 * provenance line that is not one comment line; with exit 3 on an I/O
 * failure (a short write is undone first), and as open(2)'s errno says
 * when the file or the lock cannot be created (sr_exit_for_errno). */
void sr_ledger_append(const char *path, const char *const *prov,
    size_t nprov, const sr_ledgerrow *rows, size_t n, long grace);

/* The grace period of the ledger's lock: SA_LEDGER_LOCK_GRACE (whole
 * seconds > 0; unset or empty: SR_LOCK_GRACE). Dies with exit 2 on
 * another value. */
long sr_ledger_grace(void);

#endif
