/* data.c - the batched campaign's exchanged files (data.h). */
#include "campaign/data.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "core/err.h"
#include "core/hash.h"
#include "core/num.h"
#include "core/out.h"
#include "core/path.h"
#include "core/rng.h"
#include "core/tsv.h"
#include "plan/experiment.h"
#include "sa/ledger.h"

void
sr_data_open(sr_datareader *r, const char *path)
{
	memset(r, 0, sizeof *r);
	r->path = path;
	if (!(r->fp = fopen(path, "r")))
		sr_die_errno("%s", path);
}

int
sr_data_next(sr_datareader *r)
{
	errno = 0;
	ssize_t n = getline(&r->line, &r->cap, r->fp);
	if (n < 0) {
		if (ferror(r->fp))
			sr_die_io("%s: read error", r->path);
		return 0;
	}
	if (n > 0 && r->line[n - 1] == '\n')
		r->line[n - 1] = '\0';
	r->lineno++;
	return 1;
}

void
sr_data_close(sr_datareader *r)
{
	fclose(r->fp);
	free(r->line);
}

/* Writes v as awk prints a number: an integral value whole, else %.6g. */
static void
put_awk_num(FILE *fp, double v)
{
	if (v == floor(v) && fabs(v) < 1e18)
		fprintf(fp, "%lld", (long long)v);
	else
		fprintf(fp, "%.6g", v);
}

/* Writes r's line with field col (0-based) plus off, as awk's
 * "$COL += off; print" does; dies when the field is not a number. */
static void
put_shifted(FILE *fp, const sr_datareader *r, int col, long off)
{
	const char *s = r->line, *end;
	for (int i = 0; i < col; i++) {
		if (!(s = strchr(s, '\t')))
			sr_die(SR_EXIT_DATA, "%s:%ld: no column %d", r->path,
			    r->lineno, col + 1);
		s++;
	}
	end = s + strcspn(s, "\t");
	char field[64];
	size_t len = (size_t)(end - s);
	if (len == 0 || len >= sizeof field)
		sr_die(SR_EXIT_DATA, "%s:%ld: column %d: not a run number",
		    r->path, r->lineno, col + 1);
	memcpy(field, s, len);
	field[len] = '\0';
	double v;
	const char *why = sr_parse_double(field, &v);
	if (why)
		sr_die(SR_EXIT_DATA, "%s:%ld: column %d: '%s': %s",
		    r->path, r->lineno, col + 1, field, why);
	fwrite(r->line, 1, (size_t)(s - r->line), fp);
	put_awk_num(fp, v + (double)off);
	fputs(end, fp);
}

long
sr_data_rows(const char *path)
{
	sr_tsv *t = sr_tsv_open(path);
	long n = 0;
	while (sr_tsv_next(t))
		n++;
	sr_tsv_close(t);
	return n;
}

void
sr_data_best(const char *path, FILE *fp)
{
	sr_datareader r;
	sr_data_open(&r, path);
	while (sr_data_next(&r))
		if (!strncmp(r.line, "#best ", 6))
			fprintf(fp, "%s\n", r.line + 6);
	sr_data_close(&r);
}

/* The path "OUT/batch-J/NAME", newly allocated. */
static char *
batch_file(const char *out, int j, const char *name)
{
	size_t n = strlen(out) + strlen(name) + 32;
	char *p = sr_malloc(n);
	snprintf(p, n, "%s/batch-%d/%s", out, j, name);
	return p;
}

/* The path "OUT/NAME", newly allocated. */
static char *
out_file(const char *out, const char *name)
{
	size_t n = strlen(out) + strlen(name) + 2;
	char *p = sr_malloc(n);
	snprintf(p, n, "%s/%s", out, name);
	return p;
}

/* Writes the #method line s with its first " n=DIGITS" set to total. */
static void
put_method(FILE *fp, const char *s, long total)
{
	const char *m = s;
	while ((m = strstr(m, " n=")))
		if (m[3] >= '0' && m[3] <= '9')
			break;
		else
			m++;
	if (!m) {
		fprintf(fp, "%s\n", s);
		return;
	}
	const char *rest = m + 3 + strspn(m + 3, "0123456789");
	fprintf(fp, "%.*s n=%ld%s\n", (int)(m - s), s, total, rest);
}

/* Appends batch file j (1-based) of a composition to fp: its comments
 * (batch 1's only; the design's #method line with n= total and the
 * #batches line after it when sizes is given), its header (batch 1's;
 * a later design's must equal it, hdr), its rows with runs shifted by
 * off. */
static void
compose_one(FILE *fp, const char *path, int j, long off, char **hdr,
    const char *sizes, long total, int k, int n)
{
	sr_datareader r;
	int head = 0;
	sr_data_open(&r, path);
	while (sr_data_next(&r)) {
		if (r.line[0] == '#') {
			if (j > 1)
				continue;
			int method = sizes && !strncmp(r.line, "#method=", 8);
			if (method)
				put_method(fp, r.line, total);
			else
				fprintf(fp, "%s\n", r.line);
			if (method)
				fprintf(fp, "#batches=%d of %d sizes=%s\n", k, n,
				    sizes);
		} else if (!head++) {
			if (j == 1) {
				*hdr = sr_strdup(r.line);
				fprintf(fp, "%s\n", r.line);
			} else if (sizes && strcmp(r.line, *hdr))
				sr_die(SR_EXIT_DATA, "%s:%ld: columns differ "
				    "from batch 1", path, r.lineno);
		} else {
			put_shifted(fp, &r, 0, off);
			fputc('\n', fp);
		}
	}
	sr_data_close(&r);
}

/* Composes OUT/NAME from the batches' NAME files, runs shifted by the
 * sizes before each; sizes (the #batches list) only for the design. */
static void
compose_file(const char *out, const char *name, int k, int n,
    const long *size, const char *sizes, long total)
{
	char *path = out_file(out, name), *hdr = NULL;
	FILE *fp = sr_out_open(path);
	long off = 0;
	for (int j = 1; j <= k; j++) {
		char *p = batch_file(out, j, name);
		compose_one(fp, p, j, off, &hdr, sizes, total, k, n);
		off += size[j - 1];
		free(p);
	}
	free(hdr);
	free(path);
}

void
sr_data_compose(const char *out, int k, int n)
{
	long *size = sr_calloc((size_t)k, sizeof *size), total = 0;
	size_t cap = (size_t)k * 24 + 1, len = 0;
	char *sizes = sr_malloc(cap);
	sizes[0] = '\0';
	for (int j = 1; j <= k; j++) {
		char *p = batch_file(out, j, "design.tsv");
		size[j - 1] = sr_data_rows(p);
		total += size[j - 1];
		len += (size_t)snprintf(sizes + len, cap - len, "%s%ld",
		    j > 1 ? "," : "", size[j - 1]);
		free(p);
	}
	compose_file(out, "design.tsv", k, n, size, sizes, total);
	compose_file(out, "results.tsv", k, n, size, NULL, 0);
	free(sizes);
	free(size);
}

/* The sizes of OUT/design.tsv's "#batches=... sizes=N1,N2,..." line
 * (after its last " sizes="), k of them, into size; returns their sum. */
static long
read_sizes(const char *out, int k, long *size)
{
	char *path = out_file(out, "design.tsv");
	sr_datareader r;
	const char *list = NULL;
	sr_data_open(&r, path);
	while (!list && sr_data_next(&r)) {
		const char *s;
		if (strncmp(r.line, "#batches=", 9))
			continue;
		for (s = r.line; (s = strstr(s, " sizes=")); s++)
			list = s + 7;
	}
	if (!list)
		sr_die(SR_EXIT_DATA, "%s: no #batches= sizes= line", path);
	long total = 0;
	for (int j = 0; j < k; j++) {
		char *e;
		errno = 0;
		size[j] = strtol(list, &e, 10);
		if (e == list || errno || size[j] < 0 || (*e != ',' &&
		    (*e != '\0' || j < k - 1)))
			sr_die(SR_EXIT_DATA, "%s:%ld: sizes: not %d counts",
			    path, r.lineno, k);
		total += size[j];
		list = e + (*e == ',');
	}
	sr_data_close(&r);
	free(path);
	return total;
}

/* Writes batch 1's first #metric= line with its first " runs=DIGITS"
 * set to total (nothing when it has none, or the ledger is missing). */
static void
put_metric(FILE *fp, const char *out, long total)
{
	char *path = batch_file(out, 1, "ledger.tsv");
	sr_datareader r;
	FILE *in = fopen(path, "r");
	if (in) {
		fclose(in);
		sr_data_open(&r, path);
		while (sr_data_next(&r)) {
			if (strncmp(r.line, "#metric=", 8))
				continue;
			char *m = strstr(r.line, " runs=");
			if (m) {
				const char *rest = m + 6 + strspn(m + 6,
				    "0123456789");
				fprintf(fp, "%.*s runs=%ld%s\n",
				    (int)(m - r.line), r.line, total, rest);
			}
			break;
		}
		sr_data_close(&r);
	}
	free(path);
}

/* Appends batch j's ledger rows to fp, runs shifted by off, the batch
 * column j added; nothing when the ledger is missing. */
static void
ledger_rows(FILE *fp, const char *out, int j, long off)
{
	char *path = batch_file(out, j, "ledger.tsv");
	FILE *in = fopen(path, "r");
	sr_datareader r;
	int head = 0;
	if (in) {
		fclose(in);
		sr_data_open(&r, path);
		while (sr_data_next(&r)) {
			if (r.line[0] == '#' || !head++)
				continue;
			put_shifted(fp, &r, 1, off);
			fprintf(fp, "\t%d\n", j);
		}
		sr_data_close(&r);
	}
	free(path);
}

void
sr_data_ledger(const char *out, int k, int n)
{
	long *size = sr_calloc((size_t)k, sizeof *size);
	long total = read_sizes(out, k, size), off = 0;
	char *path = out_file(out, "ledger.tsv");
	FILE *fp = sr_out_open(path);
	fprintf(fp, "#sa-campaign %s: ledger(5) of batches 1 to %d of %d, "
	    "runs renumbered, with their batch\n", SR_VERSION, k, n);
	put_metric(fp, out, total);
	sr_ledger_put_header(fp, 1);
	for (int j = 1; j <= k; j++) {
		ledger_rows(fp, out, j, off);
		off += size[j - 1];
	}
	free(path);
	free(size);
}

unsigned long
sr_data_batch_seed(const char *out, int k, unsigned long seed)
{
	char *path = sr_path_join(out, "batch-1/inputs", "");
	FILE *fp = fopen(path, "r");
	char line[256] = "";
	int old = 0;

	if (fp == NULL && errno != ENOENT)
		sr_die_errno("%s", path);
	if (fp) {
		old = fgets(line, sizeof line, fp) != NULL &&
		    strncmp(line, "batch 1 of ", 11) == 0 &&
		    strstr(line, " seed=") == NULL;
		fclose(fp);
	}
	free(path);
	if (old || k == 1)	/* batch 1: the unbatched campaign's sets */
		return seed + (unsigned long)k - 1;
	/* (seed, k) through MurmurHash3's finalizer, into the seeds' range */
	return (unsigned long)(sr_hash_u64((uint64_t)seed << 32 ^
	    (uint64_t)k) % ((uint64_t)SR_SEED_MAX + 1));
}

void
sr_data_knowledge(const char *dir, FILE *fp)
{
	size_t n, i;
	char **past = sr_experiment_knowledge(dir, &n);

	if (sr_experiment_is_output(dir))
		fprintf(fp, "%s: a campaign output, taken as one past "
		    "experiment\n", dir);
	else
		fprintf(fp, "%s: %zu campaign output%s, each a past "
		    "experiment\n", dir, n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++)
		free(past[i]);
	free(past);
}
