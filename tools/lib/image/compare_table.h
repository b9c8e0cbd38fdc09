/* compare_table.h - compare-dice's table: the pairs to compare (a pairs
 * file, or two operands), one comparison per pair, and the rows of the
 * output table. */
#ifndef SR_COMPARE_TABLE_H
#define SR_COMPARE_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "image/compare.h"

/* The columns of a pairs file (compare-dice -l), which begin the
 * comparison table too. */
#define SR_PAIRS_MASK	"mask"
#define SR_PAIRS_REF	"ref"

#define SR_PAIR_ERRLEN 4096	/* messages name a line and two paths */

/* A pair to compare: the paths as written (for the output) and as
 * opened; line is its line in the pairs file (0 for operands). */
typedef struct {
	char *mask, *ref, *mask_path, *ref_path;
	char *other;		/* the other columns' fields, each + a tab */
	size_t line;
} sr_pair;

typedef struct {
	const char *list;	/* the pairs file ("-": stdin), or NULL */
	sr_pair *pair;
	size_t n;
	char *other_head;	/* the other columns' names, each + a tab */
} sr_pairs;

/* Reads the pairs file list: a mask and a ref column, paths relative to
 * its directory, other columns copied to the output. Dies naming the
 * line and column on an empty file, an unreadable image, or a column
 * that would repeat an output column. */
sr_pairs *sr_pairs_read(const char *list);
/* The operands as the one pair; NULL (errbuf says why: a usage error)
 * for a path with a tab or a line break, which the output cannot hold. */
sr_pairs *sr_pairs_operands(const char *mask, const char *ref, char *errbuf,
    size_t errlen);
void sr_pairs_free(sr_pairs *ps);

/* The memory in MiB that comparing a pair of `pixels` pixels needs:
 * 64 + ceil(12 P / 2^20). Measured peak RSS of compare-dice on 4096^2
 * 32-bit labels (2026-11-28): 139 MiB with labels, 171 with --binary
 * (two images of 4 bytes a pixel, a byte a pixel and OpenCV's tables
 * while numbering components); 51 MiB on 2048^2: about 10 bytes a pixel
 * and 11 MiB besides. */
size_t sr_compare_memory_mib(size_t pixels);

/* Reads and compares pair i (see sr_compare_images); with verbose, its
 * sizes, objects and seconds on stderr. Returns 0, or -1 with the reason
 * in errbuf, prefixed by the pairs file's line (and column) if any, and
 * errno the system error (EIO, ENOMEM) or 0 for bad data. A pair whose
 * larger image needs more than the memory budget to compare
 * (sr_compare_memory_mib, from the headers) is refused before either is
 * decoded. */
int sr_pair_compare(const sr_pairs *ps, size_t i, enum sr_objects_reading how,
    double iou, int verbose, sr_comparison *c, char *errbuf, size_t errlen);

/* The header line: the other columns, then mask ref dice jaccard
 * object_dice aji objects_mask objects_ref tp fp fn. */
void sr_compare_table_head(FILE *fp, const sr_pairs *ps);
/* The row of pair p compared as c. */
void sr_compare_table_row(FILE *fp, const sr_pair *p, const sr_comparison *c);

#endif
