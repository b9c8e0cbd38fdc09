/* results.c - seg-run's results.tsv: names, writer, header check
 * (results.h). */
#include "plan/results.h"
#include "core/tsv.h"

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
sr_results_write_header(FILE *fp, int ref)
{
	const char *const *h = ref ? header_ref : header_noref;
	size_t i, n = ref ? NREF : NNOREF;

	for (i = 0; i < n; i++)
		fprintf(fp, "%s%s", h[i], i + 1 < n ? "\t" : "\n");
}

/* A metric: a tab, then the value. */
static void
put_metric(FILE *fp, double v)
{
	fputc('\t', fp);
	sr_put_double(fp, v);
}

void
sr_results_write_row(FILE *fp, const sr_result_row *r, int ref)
{
	fprintf(fp, "%zu\t%s\t%s", r->run, r->tile,
	    sr_run_status_name[r->status]);
	if (r->status == SR_RUN_CANCELLED) {	/* no values, no time */
		fputs(ref ? "\t\t\t\t\t0\t0\n" : "\t0\t0\n", fp);
		return;
	}
	if (ref) {
		put_metric(fp, r->dice);
		put_metric(fp, r->jaccard);
		put_metric(fp, r->object_dice);
		put_metric(fp, r->aji);
	}
	fprintf(fp, "\t%zu", r->objects);
	put_metric(fp, r->seconds);
	fputc('\n', fp);
}

int
sr_results_header(const sr_tsv *t, int *ref)
{
	*ref = sr_tsv_header_is(t, header_ref, NREF);
	return *ref || sr_tsv_header_is(t, header_noref, NNOREF);
}
