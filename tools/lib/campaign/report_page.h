/* report_page.h - what the parts of sa-report's page share (report.c,
 * report_run.c, report_work.c): the campaign read once, and the
 * sections. */
#ifndef SR_CAMPAIGN_REPORT_PAGE_H
#define SR_CAMPAIGN_REPORT_PAGE_H

#include <stddef.h>
#include <stdio.h>

#include "campaign/campaign.h"
#include "campaign/makespan.h"
#include "campaign/report.h"

/* The campaign the page reports on. */
typedef struct {
	const sr_report_opts *o;
	const char *out;
	int tune;		/* goal = tune */
	char *merge;		/* the plan's merge algorithm (inputs) */
	sr_campaign *c;		/* the campaign file, or NULL */
	sr_measured m;		/* the buckets' attempts (logs/finished) */
	size_t nbuckets;
	size_t nbatches;	/* a tune campaign in batches: those merged */
	char **dir;		/* the directories of the buckets: out, or
				 * out/batch-1 to out/batch-nbatches */
	size_t ndir;
	size_t nslides;		/* a campaign on slides: its slides */
} sr_report_page;

/* The value of key in OUT/inputs ("key = value" lines), newly allocated,
 * or NULL. */
char *sr_report_inputs(const char *outdir, const char *key);
/* The first max bytes of path, newly allocated (*len of them); dies when
 * it cannot be read. */
unsigned char *sr_report_slurp(const char *path, size_t max, size_t *len);
/* The buckets of outdir's buckets.tsv (plan/buckets). */
size_t sr_report_nbuckets(const char *outdir);

/* A PNG inlined as <img>: checked to be a whole PNG (decoded), its bytes
 * as a data: URI, its size as the image's (report.c). */
void sr_report_png(FILE *fp, const char *path, const char *alt);

/* The slides of a campaign on slides (report_slides.c): their count
 * (the "#slide" lines of OUT/tiles.list; 0 for a tiles list), and the
 * section: each slide's tissue, the share of it in the tiles, its
 * thumbnail, its joined GeoJSON files. */
size_t sr_report_nslides(const char *outdir);
void sr_report_section_slides(FILE *fp, const sr_report_page *r);

/* The sections (report_run.c): what was run; the indices or best sets. */
void sr_report_section_run(FILE *fp, const sr_report_page *r);
void sr_report_section_results(FILE *fp, const sr_report_page *r);
/* The sections (report_work.c): the reuse, the timings per task, the
 * makespan. */
void sr_report_section_reuse(FILE *fp, const sr_report_page *r);
void sr_report_section_timings(FILE *fp, const sr_report_page *r);
void sr_report_section_makespan(FILE *fp, const sr_report_page *r);

#endif
