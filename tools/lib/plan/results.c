/* results.c - seg-run's results.tsv: names, writer, header check
 * (results.h). */
#include "plan/results.h"
#include "core/tsv.h"

#include <string.h>

/* The header, with the metric columns (ref) or without. */
static const char *const header_ref[] = {
	SR_RESULTS_RUN, SR_RESULTS_TILE, SR_RESULTS_STATUS, SR_RESULTS_DICE,
	SR_RESULTS_JACCARD, SR_RESULTS_OBJECT_DICE, SR_RESULTS_AJI,
	SR_RESULTS_OBJECTS, SR_RESULTS_SECONDS
};
static const char *const header_noref[] = {
	SR_RESULTS_RUN, SR_RESULTS_TILE, SR_RESULTS_STATUS, SR_RESULTS_OBJECTS,
	SR_RESULTS_SECONDS
};
#define NREF (sizeof header_ref / sizeof *header_ref)
#define NNOREF (sizeof header_noref / sizeof *header_noref)

void
sr_results_write_header(FILE *fp, int ref, char *const *metric,
    size_t nmetric)
{
	const char *const *h = ref ? header_ref : header_noref;
	size_t i, n = ref ? NREF : NNOREF;

	for (i = 0; i < n; i++)
		fprintf(fp, "%s%s", h[i], i + 1 < n ? "\t" : "");
	for (i = 0; i < nmetric; i++)
		fprintf(fp, "\t%s", metric[i]);
	fputc('\n', fp);
}

/* A metric: a tab, then the value. */
static void
put_metric(FILE *fp, double v)
{
	fputc('\t', fp);
	sr_put_double(fp, v);
}

void
sr_results_write_row(FILE *fp, const sr_result_row *r, int ref,
    size_t nmetric)
{
	int none = r->status == SR_RUN_CANCELLED || r->status == SR_RUN_ERROR;
	size_t i;

	fprintf(fp, "%zu\t%s\t%s", r->run, r->tile,
	    sr_run_status_name[r->status]);
	if (r->status == SR_RUN_CANCELLED)	/* no values, no time */
		fputs(ref ? "\t\t\t\t\t0\t0" : "\t0\t0", fp);
	else {
		if (ref && none)
			fputs("\t\t\t\t", fp);
		else if (ref) {
			put_metric(fp, r->dice);
			put_metric(fp, r->jaccard);
			put_metric(fp, r->object_dice);
			put_metric(fp, r->aji);
		}
		fprintf(fp, "\t%zu", none ? 0 : r->objects);
		put_metric(fp, r->seconds);
	}
	for (i = 0; i < nmetric; i++)
		if (none)
			fputc('\t', fp);
		else
			put_metric(fp, r->metric[i]);
	fputc('\n', fp);
}

/* Whether t's header starts with names[0..n). */
static int
header_starts(const sr_tsv *t, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n && i < t->ncol; i++)
		if (strcmp(t->header[i], names[i]) != 0)
			return 0;
	return i == n;
}

int
sr_results_header(const sr_tsv *t, int *ref)
{
	*ref = header_starts(t, header_ref, NREF);
	return *ref || header_starts(t, header_noref, NNOREF);
}
