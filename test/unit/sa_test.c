/* sa_test.c - tests of what sa-sample and sa-indices moved to the
 * library: sa/method (names, tables, run counts), sa/sample (checks, run
 * counts), sr_space_fix, sa/indices (design fit, missing runs, a corr
 * analysis of a linear model), sa/indices_tsv (the table), the row
 * writer of sa/design against sr_design_write_row, and sa/draws (the
 * bootstraps' draws) against GSL's.
 *
 * Exit 0 when every check passes; otherwise print "FAIL: ..." lines and
 * exit 1.
 */
#include "sa/boot.h"
#include "sa/draws.h"
#include "core/err.h"
#include "core/rng.h"
#include "core/opt.h"
#include "sa/design.h"
#include "sa/indices.h"
#include "sa/indices_tsv.h"
#include "sa/method.h"
#include "sa/sample.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

/* Records a failure unless cond holds. */
static void
check(const char *what, int cond)
{
	if (!cond) {
		printf("FAIL: %s\n", what);
		failures++;
	}
}

/* Names, parsing and the per-tool tables of sa/method. */
static void
test_method(void)
{
	const char *names[SR_NMETHOD];
	char buf[256];
	int m;

	for (m = 0; m < SR_NMETHOD; m++) {
		check("parse(name(m)) == m",
		    sr_method_parse(sr_method_name((enum sr_method)m)) == m);
		check("unit methods are the first five",
		    sr_method_is_unit((enum sr_method)m) == (m < SR_METHOD_RANDOM));
	}
	check("unknown method", sr_method_parse("sobolx") == -1);
	check("unit names follow sr_unit_method",
	    strcmp(sr_unit_method_names[SR_SOBOL],
	    sr_method_name(SR_METHOD_SOBOL)) == 0);
	sr_method_table(SR_METHODS_INDICES, names);
	check("indices table", strcmp(sr_word_list(buf, sizeof buf, names,
	    SR_NMETHOD), "moat, vbd, corr, efast, rbd_fast, pawn or delta") == 0);
	check("indices table refuses lhs",
	    sr_word_index("lhs", names, SR_NMETHOD) < 0);
	check("indices table finds corr",
	    sr_word_index("corr", names, SR_NMETHOD) == SR_METHOD_CORR);
	sr_method_table(SR_METHODS_SAMPLE, names);
	check("sample table", strcmp(sr_word_list(buf, sizeof buf, names,
	    SR_NMETHOD), "mc, lhs, halton, hammersley, sobol, random, grid, "
	    "moat, vbd, pso, anneal, tpe, efast or rbd_fast") == 0);
	check("vbd runs", sr_method_runs(SR_METHOD_VBD, 10, 3, 0, 0) == 50);
	check("efast runs: n a parameter",
	    sr_method_runs(SR_METHOD_EFAST, 65, 3, 0, 0) == 195);
	check("rbd_fast runs: n", sr_method_runs(SR_METHOD_RBD_FAST, 65, 3, 0,
	    0) == 65);
	check("given-data analyses", sr_method_is_given(SR_METHOD_PAWN) &&
	    sr_method_is_given(SR_METHOD_CORR) && !sr_method_is_given(SR_METHOD_VBD));
	check("vbd second-order runs",
	    sr_method_runs(SR_METHOD_VBD, 10, 3, 0, 1) == 80);
	check("moat runs", sr_method_runs(SR_METHOD_MOAT, 99, 4, 20, 0) == 100);
	check("lhs runs", sr_method_runs(SR_METHOD_LHS, 7, 4, 20, 1) == 7);
	check("reference runs", sr_method_runs(SR_METHOD_REFERENCE, 7, 4, 2,
	    0) == 0);
	check("past size_t", sr_method_runs(SR_METHOD_VBD, SIZE_MAX, 3, 0, 0) >
	    (double)SIZE_MAX);
}

/* A space of three parameters for sr_generator. */
static sr_space *
space3(void)
{
	sr_space *s = sr_calloc(1, sizeof *s);
	char err[SR_ERRLEN];
	int field;

	s->n = 3;
	s->p = sr_calloc(3, sizeof *s->p);
	if (sr_param_parse(&s->p[0], "a", "int", "1:1:10", "5", &field, err,
	    sizeof err) || sr_param_parse(&s->p[1], "b", "real", "0..1", "0.5",
	    &field, err, sizeof err) || sr_param_parse(&s->p[2], "c", "enum",
	    "4,8", "4", &field, err, sizeof err))
		check(err, 0);
	return s;
}

/* sa/sample's checks and run counts, and sr_space_fix. */
static void
test_sample(void)
{
	sr_sample_spec s = { .method = SR_METHOD_MOAT, .base = SR_SOBOL, .n = 10,
	    .r = 20, .p = 4, .seed = 1 };
	sr_space *sp = space3();
	sr_generator g;
	char err[1024];
	double rows;

	check("moat is fine", sr_sample_check(&s, err, sizeof err) == NULL);
	s.second_order = 1;
	check("--second-order goes with vbd", sr_sample_check(&s, err,
	    sizeof err) && strstr(err, "--second-order goes with -m vbd"));
	s.second_order = 0;
	s.optimize = 21;
	check("--optimize > r", sr_sample_check(&s, err, sizeof err) &&
	    strstr(err, "keeps more trajectories"));
	s.optimize = 5;
	check("fix a", sr_space_fix(sp, "a=3", "s.tsv", err, sizeof err) ==
	    NULL && sp->p[0].fixed && sp->p[0].fixed_value == 3);
	check("fix: no such parameter", sr_space_fix(sp, "z=3", "s.tsv", err,
	    sizeof err) && strcmp(err, "--fix z=3: no parameter z in s.tsv") == 0);
	check("fix: off the values", sr_space_fix(sp, "c=5", "s.tsv", err,
	    sizeof err) && strstr(err, "'5' is not a value of c"));
	check("fix: no =", sr_space_fix(sp, "a", "s.tsv", err, sizeof err) &&
	    strstr(err, "expected NAME=VALUE"));
	sr_generator_init(&g, sp, NULL, 1);
	check("two varied after the fix", g.k == 2);
	check("moat rows: optimize x (k + 1)", sr_sample_rows(&s, &g, &rows, err,
	    sizeof err) == NULL && rows == 15);
	s.method = SR_METHOD_VBD;
	s.optimize = 0;
	s.n = 1000000000;
	check("vbd rows beyond 1e9", sr_sample_rows(&s, &g, &rows, err,
	    sizeof err) && strstr(err, "vbd: 4e+09 runs is too many"));
	s.method = SR_METHOD_GRID;
	s.p = 5;
	check("grid rows", sr_sample_rows(&s, &g, &rows, err, sizeof err) ==
	    NULL && rows == 10);
	sr_generator_free(&g);
	sr_space_free(sp);
}

/* A corr design of n runs of 2 parameters (x0 = i, x1 = i*i mod 7). */
static sr_design *
design2(size_t n, const char *method)
{
	sr_design *d = sr_calloc(1, sizeof *d);
	size_t i;

	d->path = sr_strdup("d.tsv");
	d->ncol = d->k = 2;
	d->name = sr_calloc(2, sizeof *d->name);
	d->name[0] = sr_strdup("x0");
	d->name[1] = sr_strdup("x1");
	d->param = sr_calloc(2, sizeof *d->param);
	d->param[1] = 1;
	d->nrun = d->n = n;
	d->reference = -1;
	d->method = method ? sr_strdup(method) : NULL;
	d->x = sr_calloc(n, 2 * sizeof *d->x);
	for (i = 0; i < n; i++) {
		d->x[2 * i] = (double)i;
		d->x[2 * i + 1] = (double)(i * i % 7);
	}
	return d;
}

/* sa/indices: the design's fit, missing runs, a linear model's corr. */
static void
test_indices(void)
{
	sr_design *d = design2(30, "lhs");
	sr_metrics m = { .metric = "y", .nrun = 30, .nrows = 30 };
	sr_indices_opts o = { .method = SR_METHOD_CORR, .aggregate =
	    SR_AGG_MEAN, .conf = 0.95, .seed = 1, .metrics_path = "y.tsv",
	    .max_missing = 1 };
	char err[SR_INDICES_ERRLEN], *text = NULL;
	size_t nused, i, len = 0;
	sr_indices x;
	FILE *fp;

	check("corr takes an lhs design", sr_indices_check_design(d,
	    SR_METHOD_CORR, &nused, err, sizeof err) == 0 && nused == 30);
	check("vbd refuses an lhs design", sr_indices_check_design(d,
	    SR_METHOD_VBD, &nused, err, sizeof err) < 0 &&
	    strstr(err, "a lhs design cannot be analyzed with -m vbd"));
	free(d->method);
	d->method = sr_strdup("vbd");
	check("vbd: runs against the metadata", sr_indices_check_design(d,
	    SR_METHOD_VBD, &nused, err, sizeof err) < 0 &&
	    strcmp(err, "d.tsv: 30 runs, but its metadata describe 120") == 0);
	m.value = sr_calloc(30, sizeof *m.value);
	for (i = 0; i < 30; i++)
		m.value[i] = 2 * d->x[2 * i] - d->x[2 * i + 1];
	m.value[3] = NAN;
	check("a missing run fails without --allow-missing", sr_indices_compute(d,
	    &m, &o, &x, err, sizeof err) < 0 && strcmp(err, "y.tsv: 1 of 30 "
	    "runs have no y result: 3 (see --allow-missing)") == 0);
	sr_indices_free(&x);
	o.allow_missing = 1;
	if (sr_indices_compute(d, &m, &o, &x, err, sizeof err) < 0) {
		check(err, 0);
		return;
	}
	check("29 runs used", strstr(x.extra, " used=29 dropped=1") != NULL);
	check("pcc of an exact linear model is 1 and -1",
	    fabs(x.corr.value[SR_PCC][0] - 1) < 1e-9 &&
	    fabs(x.corr.value[SR_PCC][1] + 1) < 1e-9);
	fp = open_memstream(&text, &len);
	sr_indices_write_meta(fp, &x, "");
	sr_indices_write(fp, &x);
	fclose(fp);
	check("metadata line", strncmp(text, "#method=corr metric=y "
	    "aggregate=mean runs=30 used=29 dropped=1 r2=1.0000", 66) == 0);
	check("header", strstr(text, "\nparam\tpearson\tpearson_p\tspearman\t")
	    != NULL);
	check("two rows", strstr(text, "\nx0\t") && strstr(text, "\nx1\t"));
	free(text);
	sr_indices_free(&x);
	free(m.value);
	sr_design_free(d);
}

/* The text of rows written by f (0: sr_design_write_row, else the row
 * writer on f threads) into buf; rows of n values repeat values as VBD
 * blocks do, and hold values of the same text and different bits (0,
 * -0). */
static void
rows_text(int f, char *buf, size_t size, size_t n, size_t nrow)
{
	FILE *fp = fmemopen(buf, size, "w");
	struct sr_row_writer w;
	double *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b),
	    *v = calloc(n, sizeof *v);
	size_t r, i;

	sr_row_writer_init(&w, n, NULL);
	if (f)
		w.threads = (size_t)f;
	for (r = 0; r < nrow; r++) {
		for (i = 0; i < n; i++) {	/* a new block every n + 2 rows */
			if (r % (n + 2) == 0) {
				a[i] = (double)((r * 7 + i * 13) % 5) / 3 - 0.5;
				b[i] = -a[i] * 1e-7 + (i == 0 ? 0 : 1e300);
				if ((r + i) % 3 == 0)
					a[i] = (r + i) % 2 ? -0.0 : 0.0;
			}
			v[i] = r % (n + 2) == n + 1 || r % (n + 2) == i + 1 ? b[i] : a[i];
		}
		if (f)
			sr_row_writer_put(&w, fp, r * 1000003, v);
		else
			sr_design_write_row(fp, r * 1000003, v, n);
	}
	sr_row_writer_flush(&w);
	fclose(fp);
	sr_row_writer_free(&w);
	free(a);
	free(b);
	free(v);
}

/* The row writer's bytes are sr_design_write_row's, on any number of
 * threads, across its blocks (of 8192 rows) too. */
static void
test_row_writer(void)
{
	static char want[1 << 21], got[1 << 21];
	static const size_t rows[] = { 40, 20000 };
	size_t n, r;
	int f;

	for (r = 0; r < 2; r++)
		for (n = 0; n <= 9; n += 3) {
			rows_text(0, want, sizeof want, n, rows[r]);
			for (f = 1; f <= 7; f += 3) {
				memset(got, 0, sizeof got);
				rows_text(f, got, sizeof got, n, rows[r]);
				check("row writer: the bytes of sr_design_write_row",
				    strcmp(want, got) == 0 &&
				    strlen(want) > rows[r]);
			}
		}
}

/* Frees n parameters through a space of their own. */
static void
free_params(const sr_param *p, size_t n)
{
	sr_space *s = calloc(1, sizeof *s);

	s->p = malloc(n * sizeof *p);
	memcpy(s->p, p, n * sizeof *p);
	s->n = n;
	sr_space_free(s);
}

/* Enums of words (space(5)): codes are positions; text, read, recode
 * between two orders of the words, a copy; the row writer writes the
 * words, the longest too; refusals. */
static void
test_words(void)
{
	static const char *const bad[] = { "a,b c", "a,b=c", "a,#", "a,\x01",
	    "a,\xc2\x85", "a,\xc2\xa0", "a,a", "a,,b", "a," };
	char err[256], num[SR_NUMLEN], buf[4096], longw[SR_WORD_MAX + 1];
	sr_space s = { 0 }, *c;
	sr_param p[3], q[1];
	struct sr_row_writer w;
	double v, row[3];
	size_t i;
	int field;
	FILE *fp;

	check("words: parse", sr_param_parse(&p[0], "m", "enum",
	    "otsu,li,$(>x),4", "li", &field, err, sizeof err) == NULL);
	check("words: codes are positions", p[0].word && p[0].nlist == 4 &&
	    p[0].def == 1 && p[0].list[2] == 2);
	check("words: text", strcmp(sr_param_text(&p[0], 2, num), "$(>x)") == 0);
	check("words: read", sr_param_read(&p[0], "4", &v) == NULL && v == 3);
	check("words: read refuses another word",
	    sr_param_read(&p[0], "Otsu", &v) != NULL);
	check("words: an enum of numbers stays one", sr_param_parse(&p[1], "k",
	    "enum", "4,8", "8", &field, err, sizeof err) == NULL &&
	    p[1].word == NULL && p[1].def == 8);
	check("words: numbers read as numbers", sr_param_read(&p[1], "8.0",
	    &v) == NULL && v == 8);
	memset(longw, 'w', SR_WORD_MAX);
	longw[SR_WORD_MAX] = '\0';
	snprintf(buf, sizeof buf, "a,%s", longw);
	check("words: 255 bytes", sr_param_parse(&p[2], "l", "enum", buf, "a",
	    &field, err, sizeof err) == NULL);
	check("words: recode onto another order", sr_param_parse(&q[0], "m",
	    "enum", "4,li,otsu", "otsu", &field, err, sizeof err) == NULL &&
	    sr_param_recode(&p[0], &q[0], 0) == 2 &&
	    sr_param_recode(&p[0], &q[0], 3) == 0 &&
	    isnan(sr_param_recode(&p[0], &q[0], 2)));
	s.p = p;
	s.n = 3;
	sr_row_writer_init(&w, 3, &s);
	fp = fmemopen(buf, sizeof buf, "w");
	row[0] = 2, row[1] = 4, row[2] = 1;
	sr_row_writer_put(&w, fp, 7, row);
	sr_row_writer_flush(&w);
	fclose(fp);
	snprintf(num, sizeof num, "7\t$(>x)\t4\t");
	check("words: the row writer writes words", strncmp(buf, num,
	    strlen(num)) == 0 && strlen(buf) == strlen(num) + SR_WORD_MAX + 1);
	sr_row_writer_free(&w);
	c = sr_space_copy(&s);
	check("words: a copy", c->n == 3 && c->p[0].word &&
	    strcmp(c->p[0].word[3], "4") == 0 && c->p[2].nlist == 2);
	sr_space_free(c);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		sr_param b;
		check(bad[i], sr_param_parse(&b, "m", "enum", bad[i], "a",
		    &field, err, sizeof err) != NULL && field == SR_FIELD_VALUES &&
		    b.list == NULL && b.word == NULL);
	}
	free_params(q, 1);
	snprintf(buf, sizeof buf, "a,w%s", longw);
	check("words: 256 bytes refused", sr_param_parse(&q[0], "l", "enum",
	    buf, "a", &field, err, sizeof err) != NULL);
	free_params(p, 3);
}

/* sa/draws gives the integers gsl_rng_uniform_int gives on
 * sr_rng_new's generator, for every kind of bound (scale 1 included). */
static void
test_draws(void)
{
	static const unsigned long seeds[] = { 0, 1, 7, 4357, SR_SEED_MAX };
	static const size_t bounds[] = { 1, 2, 3, 10, 1000, 16384, 65537,
	    858993459, 1431655765, 2147483647, 2147483648UL, 3000000000UL,
	    4294967295UL };	/* scales 5, 3, 2 and 1 too */
	size_t out[3000], i, j, t, same = 0, total = 0;

	for (i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
		gsl_rng *r = sr_rng_new(seeds[i]);
		sr_draws *d = sr_draws_new(seeds[i]);
		for (j = 0; j < sizeof bounds / sizeof bounds[0]; j++) {
			check("draws: a bound in range", sr_draws_fill(d, bounds[j],
			    out, 3000) == 0);
			for (t = 0; t < 3000; t++, total++)
				same += out[t] == gsl_rng_uniform_int(r, bounds[j]);
		}
		gsl_rng_free(r);
		sr_draws_free(d);
	}
	check("draws: GSL's integers, one for one", same == total);
	{
		sr_draws *d = sr_draws_new(1);
		check("draws: bounds 0 and 2^32 refused",
		    sr_draws_fill(d, 0, out, 1) && sr_draws_fill(d, 4294967296UL, out, 1));
		sr_draws_free(d);
	}
}

/* sa/boot: every replicate gets the draws a loop of one thread draws
 * (block after block, replicate after replicate), whatever the threads
 * and the chunks, blocks left out drawing nothing; each block set up
 * once, in order, before its replicates. */
enum { BOOT_K = 4, BOOT_R = 23, BOOT_H = 37, BOOT_N = 1000 };
typedef struct {
	size_t sum[BOOT_K][BOOT_R], blocks[BOOT_K], nblocks;
	int early;		/* a replicate before its block's setup */
} boot_seen;

static void
boot_block(void *ctx, size_t blk)
{
	boot_seen *s = ctx;

	s->blocks[s->nblocks++] = blk;
}

static void
boot_replicate(void *ctx, size_t blk, size_t rep, const size_t *draw,
    size_t worker)
{
	boot_seen *s = ctx;
	size_t j, sum = 0;

	(void)worker;
	for (j = 0; j < BOOT_H; j++)
		sum = sum * 1000003 + draw[j];
	s->sum[blk][rep] = sum;
	if (s->nblocks == 0 || s->blocks[s->nblocks - 1] != blk)
		s->early = 1;
}

static void
test_boot(void)
{
	static const size_t blocks[] = { 0, 2, 3 }, threads[] = { 1, 2, 5 },
	    chunks[] = { 0, 1, 4, 23 };
	static size_t want[BOOT_K][BOOT_R], draw[BOOT_H];
	static boot_seen seen;
	sr_draws *d = sr_draws_new(9);
	size_t i, r, j, t, c, same;

	for (i = 0; i < 3; i++)
		for (r = 0; r < BOOT_R; r++) {
			sr_draws_fill(d, BOOT_N, draw, BOOT_H);
			for (j = 0, want[blocks[i]][r] = 0; j < BOOT_H; j++)
				want[blocks[i]][r] = want[blocks[i]][r] * 1000003 +
				    draw[j];
		}
	sr_draws_free(d);
	for (t = 0; t < 3; t++)
		for (c = 0; c < 4; c++) {
			sr_boot b = { .n = BOOT_N, .h = BOOT_H, .resamples = BOOT_R,
			    .threads = threads[t], .chunk = chunks[c], .seed = 9,
			    .block = boot_block, .replicate = boot_replicate,
			    .ctx = &seen };
			memset(&seen, 0, sizeof seen);
			sr_boot_run(&b, blocks, 3);
			for (i = 0, same = 1; i < 3; i++)
				for (r = 0; r < BOOT_R; r++)
					same &= seen.sum[blocks[i]][r] == want[blocks[i]][r];
			for (r = 0; r < BOOT_R; r++)
				same &= seen.sum[1][r] == 0;
			check("boot: the draws of one thread's loop, whatever the "
			    "threads and chunks", same && !seen.early &&
			    seen.nblocks == 3 && seen.blocks[0] == 0 &&
			    seen.blocks[1] == 2 && seen.blocks[2] == 3);
		}
}

int
main(void)
{
	sr_init("sa_test");
	test_method();
	test_sample();
	test_indices();
	test_row_writer();
	test_words();
	test_draws();
	test_boot();
	if (failures)
		printf("%d failures\n", failures);
	return failures != 0;
}
