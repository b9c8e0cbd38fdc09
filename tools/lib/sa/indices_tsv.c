/* indices_tsv.c - indices.tsv written and read back (indices_tsv.h). */
#include "sa/indices_tsv.h"
#include "core/err.h"
#include "core/tsv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void
put(FILE *fp, double v)
{
	fputc('\t', fp);
	sr_put_double(fp, v);
}

void
sr_indices_write_meta(FILE *fp, const sr_indices *x, const char *extra)
{
	fprintf(fp, "#" SR_INDICES_METHOD "=%s " SR_INDICES_METRIC "=%s "
	    SR_INDICES_AGGREGATE "=%s runs=%zu",
	    sr_method_name(x->o.method), x->metric,
	    sr_aggregate_names[x->o.aggregate], x->nused);
	if (x->o.method != SR_METHOD_CORR && x->o.method != SR_METHOD_PAWN)
		fprintf(fp, " " SR_INDICES_RESAMPLES "=%zu " SR_INDICES_CONFLEVEL
		    "=%g seed=%lu", x->o.resamples,
		    x->o.conf, x->o.seed);
	if (x->before)
		fprintf(fp, " grown_from=%zu", x->grown_from);
	fprintf(fp, "%s%s\n", x->extra, extra);
}

void
sr_indices_write_warnings(FILE *fp, const sr_indices *x, int s2)
{
	size_t i;

	for (i = 0; i < x->trust.n; i++)
		if (!s2 || x->trust.w[i].kind == SR_TRUST_S2_NEGATIVE)
			fprintf(fp, "#" SR_INDICES_WARNING " %s\n",
			    x->trust.w[i].text);
}

/* The indices whose change a grown design's table gives (their values
 * in x and in x->before): each method's own, not their intervals. */
static size_t
change_of(const sr_indices *x, const char **name, const double **now,
    const double **before)
{
	const sr_indices *b = x->before;
	size_t n = 0, c;

#define ADD(nm, field) do { name[n] = (nm); now[n] = x->field; \
	before[n++] = b->field; } while (0)
	switch (x->o.method) {
	case SR_METHOD_VBD: case SR_METHOD_EFAST:
		ADD(SR_INDICES_S1, sobol.S1);
		ADD(SR_INDICES_ST, sobol.ST);
		break;
	case SR_METHOD_RBD_FAST: ADD(SR_INDICES_S1, sobol.S1); break;
	case SR_METHOD_PAWN: ADD(SR_INDICES_PAWN, pawn.median); break;
	case SR_METHOD_DELTA:
		ADD(SR_INDICES_DELTA, delta.delta);
		ADD(SR_INDICES_S1, delta.S1);
		break;
	case SR_METHOD_CORR:
		for (c = 0; c < SR_NCORR; c++)
			ADD(sr_corr_names[c], corr.value[c]);
		break;
	default:
		break;
	}
#undef ADD
	return n;
}

/* Ends the header (i = -1) or row i: a grown design's changes of each
 * index from the design it was grown from, then the newline. */
static void
end_row(FILE *fp, const sr_indices *x, long i)
{
	const char *name[SR_NCORR + 2];
	const double *now[SR_NCORR + 2], *before[SR_NCORR + 2];
	size_t n = x->before ? change_of(x, name, now, before) : 0, c;

	for (c = 0; c < n; c++)
		if (i < 0)
			fprintf(fp, "\t%s" SR_INDICES_CHANGE, name[c]);
		else
			put(fp, now[c][i] - before[c][i]);
	fputc('\n', fp);
}

/* Rows of the Sobol indices. */
static void
write_vbd(FILE *fp, const sr_indices *x)
{
	const sr_sobol_result *r = &x->sobol;
	size_t i;

	fprintf(fp, SR_INDICES_PARAM "\t" SR_INDICES_S1 "\t" SR_INDICES_S1
	    SR_INDICES_CONF "\t" SR_INDICES_ST "\t" SR_INDICES_ST SR_INDICES_CONF
	    "%s", x->o.percentile ? "\t" SR_INDICES_S1 SR_INDICES_LO "\t"
	    SR_INDICES_S1 SR_INDICES_HI "\t" SR_INDICES_ST SR_INDICES_LO "\t"
	    SR_INDICES_ST SR_INDICES_HI : "");
	end_row(fp, x, -1);
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
		end_row(fp, x, (long)i);
	}
}

/* Rows of the Morris measures. */
static void
write_moat(FILE *fp, const sr_indices *x)
{
	const sr_morris_result *r = &x->morris;
	size_t i;

	fputs(SR_INDICES_PARAM "\t" SR_INDICES_MU "\t" SR_INDICES_MU_STAR "\t"
	    SR_INDICES_SIGMA "\t" SR_INDICES_MU_STAR SR_INDICES_CONF "\t"
	    SR_INDICES_EFFECTS "\n", fp);
	for (i = 0; i < x->k; i++) {
		fputs(x->name[i], fp);
		put(fp, r->mu[i]);
		put(fp, r->mu_star[i]);
		put(fp, r->sigma[i]);
		put(fp, r->mu_star_conf[i]);
		fprintf(fp, "\t%zu\n", r->effects[i]);
	}
}

/* Rows of the correlation measures, each with its p-value. */
static void
write_corr(FILE *fp, const sr_indices *x)
{
	size_t i, c;

	fputs(SR_INDICES_PARAM, fp);
	for (c = 0; c < SR_NCORR; c++)
		fprintf(fp, "\t%s\t%s" SR_INDICES_P, sr_corr_names[c],
		    sr_corr_names[c]);
	end_row(fp, x, -1);
	for (i = 0; i < x->k; i++) {
		fputs(x->name[i], fp);
		for (c = 0; c < SR_NCORR; c++) {
			put(fp, x->corr.value[c][i]);
			put(fp, x->corr.pvalue[c][i]);
		}
		end_row(fp, x, (long)i);
	}
}

/* Rows of RBD-FAST's first-order indices. */
static void
write_rbd(FILE *fp, const sr_indices *x)
{
	size_t i;

	fputs(SR_INDICES_PARAM "\t" SR_INDICES_S1 "\t" SR_INDICES_S1
	    SR_INDICES_CONF, fp);
	end_row(fp, x, -1);
	for (i = 0; i < x->k; i++) {
		fputs(x->name[i], fp);
		put(fp, x->sobol.S1[i]);
		put(fp, x->sobol.S1_conf[i]);
		end_row(fp, x, (long)i);
	}
}

/* Rows of PAWN's statistics, the median first (the index). */
static void
write_pawn(FILE *fp, const sr_indices *x)
{
	const sr_pawn_result *r = &x->pawn;
	size_t i;

	fputs(SR_INDICES_PARAM "\t" SR_INDICES_PAWN "\t" SR_INDICES_PAWN_MIN
	    "\t" SR_INDICES_PAWN_MEAN "\t" SR_INDICES_PAWN_MAX "\t"
	    SR_INDICES_PAWN_CV, fp);
	end_row(fp, x, -1);
	for (i = 0; i < x->k; i++) {
		fputs(x->name[i], fp);
		put(fp, r->median[i]);
		put(fp, r->min[i]);
		put(fp, r->mean[i]);
		put(fp, r->max[i]);
		put(fp, r->cv[i]);
		end_row(fp, x, (long)i);
	}
}

/* Rows of the delta and first-order indices. */
static void
write_delta(FILE *fp, const sr_indices *x)
{
	const sr_delta_result *r = &x->delta;
	size_t i;

	fputs(SR_INDICES_PARAM "\t" SR_INDICES_DELTA "\t" SR_INDICES_DELTA
	    SR_INDICES_CONF "\t" SR_INDICES_S1 "\t" SR_INDICES_S1
	    SR_INDICES_CONF, fp);
	end_row(fp, x, -1);
	for (i = 0; i < x->k; i++) {
		fputs(x->name[i], fp);
		put(fp, r->delta[i]);
		put(fp, r->delta_conf[i]);
		put(fp, r->S1[i]);
		put(fp, r->S1_conf[i]);
		end_row(fp, x, (long)i);
	}
}

void
sr_indices_write(FILE *fp, const sr_indices *x)
{
	switch (x->o.method) {
	case SR_METHOD_VBD: case SR_METHOD_EFAST: write_vbd(fp, x); break;
	case SR_METHOD_RBD_FAST: write_rbd(fp, x); break;
	case SR_METHOD_MOAT: write_moat(fp, x); break;
	case SR_METHOD_PAWN: write_pawn(fp, x); break;
	case SR_METHOD_DELTA: write_delta(fp, x); break;
	default: write_corr(fp, x); break;
	}
}

void
sr_indices_write_s2(FILE *fp, const sr_indices *x)
{
	const sr_sobol_result *r = &x->sobol;
	size_t a, b, k = x->k;

	fprintf(fp, SR_INDICES_PARAM_I "\t" SR_INDICES_PARAM_J "\t" SR_INDICES_S2
	    "\t" SR_INDICES_S2 SR_INDICES_CONF "%s\n", x->o.percentile ? "\t"
	    SR_INDICES_S2 SR_INDICES_LO "\t" SR_INDICES_S2 SR_INDICES_HI : "");
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

/* ---- indices.tsv read back ----------------------------------------------- */

/* The indices that rank the parameters, the first a file has. */
static const char *const ranking[] = { SR_INDICES_ST, SR_INDICES_MU_STAR,
    SR_INDICES_S2, SR_INDICES_DELTA, SR_INDICES_PAWN, SR_INDICES_S1 };

/* The column called base + suffix, or -1. */
static int
col_named(const sr_tsv *t, const char *base, const char *suffix)
{
	char name[256];

	snprintf(name, sizeof name, "%s%s", base, suffix);
	return sr_tsv_col(t, name);
}

/* Whether column name is a companion of another column: NAME + one of
 * the companions' suffixes, NAME a column. */
static int
is_companion(const sr_tsv *t, const char *name)
{
	static const char *const suffix[] = { SR_INDICES_CONF, SR_INDICES_LO,
	    SR_INDICES_HI, SR_INDICES_P, SR_INDICES_CHANGE };
	size_t i, n = strlen(name), s;
	char base[256];

	for (i = 0; i < sizeof suffix / sizeof suffix[0]; i++) {
		s = strlen(suffix[i]);
		if (n > s && n - s < sizeof base &&
		    strcmp(name + n - s, suffix[i]) == 0) {
			memcpy(base, name, n - s);
			base[n - s] = '\0';
			if (sr_tsv_col(t, base) >= 0)
				return 1;
		}
	}
	return 0;
}

/* The columns of t into x: their names, kinds, companions, the ranking
 * index. Dies when there is no parameter column. */
static void
table_columns(sr_indices_table *x, const sr_tsv *t)
{
	size_t j, n = t->ncol;
	const char *name;

	x->ncol = n;
	x->name = sr_calloc(n + 1, sizeof *x->name);
	x->kind = sr_calloc(n + 1, sizeof *x->kind);
	x->conf_col = sr_calloc(n + 1, sizeof *x->conf_col);
	x->lo_col = sr_calloc(n + 1, sizeof *x->lo_col);
	x->hi_col = sr_calloc(n + 1, sizeof *x->hi_col);
	x->p_col = sr_calloc(n + 1, sizeof *x->p_col);
	for (j = 0; j < n; j++) {
		name = x->name[j] = sr_strdup(t->header[j]);
		x->kind[j] = strcmp(name, SR_INDICES_PARAM) == 0 ||
		    strcmp(name, SR_INDICES_PARAM_I) == 0 ||
		    strcmp(name, SR_INDICES_PARAM_J) == 0 ? SR_INDICES_KIND_PARAM :
		    is_companion(t, name) ? SR_INDICES_KIND_COMPANION :
		    SR_INDICES_KIND_INDEX;
		x->conf_col[j] = col_named(t, name, SR_INDICES_CONF);
		x->lo_col[j] = col_named(t, name, SR_INDICES_LO);
		x->hi_col[j] = col_named(t, name, SR_INDICES_HI);
		x->p_col[j] = col_named(t, name, SR_INDICES_P);
	}
	if (sr_tsv_col(t, SR_INDICES_PARAM) < 0)
		sr_tsv_need(t, sr_tsv_col(t, SR_INDICES_PARAM_I) < 0 ?
		    SR_INDICES_PARAM : SR_INDICES_PARAM_J);
	x->rank = -1;
	for (j = 0; j < sizeof ranking / sizeof ranking[0] && x->rank < 0; j++)
		if ((x->rank = sr_tsv_col(t, ranking[j])) >= 0 &&
		    x->kind[x->rank] != SR_INDICES_KIND_INDEX)
			x->rank = -1;
}

/* Reads the current row of t into row i of x. */
static void
table_row(sr_indices_table *x, const sr_tsv *t, size_t i)
{
	const char *f;
	size_t j;

	x->field[i] = sr_calloc(x->ncol + 1, sizeof **x->field);
	for (j = 0; j < x->ncol; j++) {
		f = x->field[i][j] = sr_strdup(t->field[j]);
		x->value[i * x->ncol + j] = x->kind[j] == SR_INDICES_KIND_PARAM ||
		    strcmp(f, "NaN") == 0 ? NAN : sr_tsv_double(t, (int)j);
	}
}

/* The messages of t's warning lines into x. */
static void
table_warnings(sr_indices_table *x, const sr_tsv *t)
{
	size_t i, n = strlen(SR_INDICES_WARNING);
	const char *c;

	x->warning = sr_calloc(t->ncomment + 1, sizeof *x->warning);
	for (i = 0; i < t->ncomment; i++) {
		c = t->comment[i];
		if (strncmp(c, SR_INDICES_WARNING, n) == 0)
			x->warning[x->nwarning++] = sr_strdup(c + n +
			    (c[n] == ' '));
	}
}

sr_indices_table *
sr_indices_table_read(const char *path)
{
	sr_tsv *t = sr_tsv_open(path);
	sr_indices_table *x = sr_calloc(1, sizeof *x);
	size_t cap = 0;

	x->path = sr_strdup(t->path);
	x->method = sr_tsv_meta(t, SR_INDICES_METHOD);
	x->metric = sr_tsv_meta(t, SR_INDICES_METRIC);
	x->aggregate = sr_tsv_meta(t, SR_INDICES_AGGREGATE);
	x->resamples = sr_tsv_meta(t, SR_INDICES_RESAMPLES);
	x->conf = sr_tsv_meta(t, SR_INDICES_CONFLEVEL);
	x->r2 = sr_tsv_meta(t, SR_INDICES_R2);
	x->r2_rank = sr_tsv_meta(t, SR_INDICES_R2_RANK);
	x->trajectories = sr_tsv_meta(t, SR_INDICES_TRAJECTORIES);
	table_columns(x, t);
	while (sr_tsv_next(t)) {
		if (x->nrow == cap) {
			cap = cap ? 2 * cap : 32;
			x->field = sr_reallocarray(x->field, cap, sizeof *x->field);
			x->value = sr_reallocarray(x->value, cap, (x->ncol + 1) *
			    sizeof *x->value);
		}
		table_row(x, t, x->nrow++);
	}
	table_warnings(x, t);
	sr_tsv_close(t);
	return x;
}

void
sr_indices_table_free(sr_indices_table *x)
{
	size_t i, j;

	if (x == NULL)
		return;
	for (i = 0; i < x->nrow; i++) {
		for (j = 0; j < x->ncol; j++)
			free(x->field[i][j]);
		free(x->field[i]);
	}
	for (j = 0; j < x->ncol; j++)
		free(x->name[j]);
	for (i = 0; i < x->nwarning; i++)
		free(x->warning[i]);
	free(x->warning);
	free(x->field);
	free(x->value);
	free(x->name);
	free(x->kind);
	free(x->conf_col);
	free(x->lo_col);
	free(x->hi_col);
	free(x->p_col);
	free(x->path);
	free(x->method);
	free(x->metric);
	free(x->aggregate);
	free(x->resamples);
	free(x->conf);
	free(x->r2);
	free(x->r2_rank);
	free(x->trajectories);
	free(x);
}
