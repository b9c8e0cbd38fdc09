/* indices_tsv.c - the indices.tsv writer (indices_tsv.h). */
#include "sa/indices_tsv.h"
#include "core/tsv.h"

static void
put(FILE *fp, double v)
{
	fputc('\t', fp);
	sr_put_double(fp, v);
}

void
sr_indices_write_meta(FILE *fp, const sr_indices *x, const char *extra)
{
	fprintf(fp, "#method=%s metric=%s aggregate=%s runs=%zu",
	    sr_method_name(x->o.method), x->metric,
	    sr_aggregate_names[x->o.aggregate], x->nused);
	if (x->o.method != SR_METHOD_CORR)
		fprintf(fp, " resamples=%zu conf=%g seed=%lu", x->o.resamples,
		    x->o.conf, x->o.seed);
	fprintf(fp, "%s%s\n", x->extra, extra);
}

/* Rows of the Sobol indices. */
static void
write_vbd(FILE *fp, const sr_indices *x)
{
	const sr_sobol_result *r = &x->sobol;
	size_t i;

	fprintf(fp, "param\tS1\tS1_conf\tST\tST_conf%s\n", x->o.percentile ?
	    "\tS1_lo\tS1_hi\tST_lo\tST_hi" : "");
	for (i = 0; i < x->k; i++) {
		fputs(x->name[i], fp);
		put(fp, r->S1[i]);
		put(fp, r->S1_conf[i]);
		put(fp, r->ST[i]);
		put(fp, r->ST_conf[i]);
		if (x->o.percentile) {
			put(fp, r->S1_lo[i]);
			put(fp, r->S1_hi[i]);
			put(fp, r->ST_lo[i]);
			put(fp, r->ST_hi[i]);
		}
		fputc('\n', fp);
	}
}

/* Rows of the Morris measures. */
static void
write_moat(FILE *fp, const sr_indices *x)
{
	const sr_morris_result *r = &x->morris;
	size_t i;

	fputs("param\tmu\tmu_star\tsigma\tmu_star_conf\n", fp);
	for (i = 0; i < x->k; i++) {
		fputs(x->name[i], fp);
		put(fp, r->mu[i]);
		put(fp, r->mu_star[i]);
		put(fp, r->sigma[i]);
		put(fp, r->mu_star_conf[i]);
		fputc('\n', fp);
	}
}

/* Rows of the correlation measures, each with its p-value. */
static void
write_corr(FILE *fp, const sr_indices *x)
{
	size_t i, c;

	fputs("param", fp);
	for (c = 0; c < SR_NCORR; c++)
		fprintf(fp, "\t%s\t%s_p", sr_corr_names[c], sr_corr_names[c]);
	fputc('\n', fp);
	for (i = 0; i < x->k; i++) {
		fputs(x->name[i], fp);
		for (c = 0; c < SR_NCORR; c++) {
			put(fp, x->corr.value[c][i]);
			put(fp, x->corr.pvalue[c][i]);
		}
		fputc('\n', fp);
	}
}

void
sr_indices_write(FILE *fp, const sr_indices *x)
{
	if (x->o.method == SR_METHOD_VBD)
		write_vbd(fp, x);
	else if (x->o.method == SR_METHOD_MOAT)
		write_moat(fp, x);
	else
		write_corr(fp, x);
}

void
sr_indices_write_s2(FILE *fp, const sr_indices *x)
{
	const sr_sobol_result *r = &x->sobol;
	size_t a, b, k = x->k;

	fprintf(fp, "param_i\tparam_j\tS2\tS2_conf%s\n", x->o.percentile ?
	    "\tS2_lo\tS2_hi" : "");
	for (a = 0; a < k; a++)
		for (b = a + 1; b < k; b++) {
			fprintf(fp, "%s\t%s", x->name[a], x->name[b]);
			put(fp, r->S2[a * k + b]);
			put(fp, r->S2_conf[a * k + b]);
			if (x->o.percentile) {
				put(fp, r->S2_lo[a * k + b]);
				put(fp, r->S2_hi[a * k + b]);
			}
			fputc('\n', fp);
		}
}
