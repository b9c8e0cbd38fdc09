/* prune_report.h - sa-prune's report (--report, see sa-prune(1)): one row
 * per finding, "item name value detail", and the comment lines of the
 * pruned space. */
#ifndef SR_PRUNE_REPORT_H
#define SR_PRUNE_REPORT_H

#include <stdio.h>

#include "sa/prune.h"

/* The columns. */
#define SR_PRUNE_REPORT_ITEM	"item"
#define SR_PRUNE_REPORT_NAME	"name"
#define SR_PRUNE_REPORT_VALUE	"value"
#define SR_PRUNE_REPORT_DETAIL	"detail"

/* What sa-prune was given, for the report. */
typedef struct {
	const sr_space *space;
	const sr_experiment *current;	/* NULL: none */
	sr_experiment *const *past;
	size_t npast;
	const sr_prune_opts *opts;
	const char *metric;
	int argc;
	char **argv;
} sr_prune_inputs;

/* Writes the report of r: provenance, a metadata line of the options,
 * the header, the rows (see sa-prune(1)). */
void sr_prune_report_write(FILE *fp, const sr_prune_result *r,
    const sr_prune_inputs *in);

/* Writes the pruned space (or the space unchanged): provenance, a comment
 * saying what was done, the space. */
void sr_prune_space_write(FILE *fp, const sr_prune_result *r,
    const sr_prune_inputs *in);

#endif
