/* gather.h - the buckets' results or timings files as one table (what
 * seg-merge writes): the header once, then the rows of every file in the
 * order given; each file's header checked through its format module
 * (results.h, timings.h). */
#ifndef SR_GATHER_H
#define SR_GATHER_H

#include <stddef.h>
#include <stdio.h>

/* The formats that can be gathered. */
enum sr_gather_format { SR_GATHER_RESULTS, SR_GATHER_TIMINGS, SR_GATHER_N };
extern const char *const sr_gather_format_name[SR_GATHER_N];

/* Checks every file, then writes the provenance (argc, argv),
 * "#buckets=N" (N files), for timings "#normalize=no" when all the files
 * have that line (a warning when only some have it), the distinct "#unnormalized ..."
 * comment lines of the files extra[0..nextra) and then of
 * files[0..n), in order of first appearance, the header, and the rows of
 * files[0..n) in that order. Every file must be of the format, and the
 * files[] of one header; each file is read twice (not stdin). Dies
 * naming file and line on a header of another format or another header
 * than the first file's, and on a bad row. */
void sr_gather(FILE *out, int format, char *const *files, size_t n,
    char *const *extra, size_t nextra, int argc, char **argv);

#endif
