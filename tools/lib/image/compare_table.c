/* compare_table.c - compare-dice's pairs and table (compare_table.h). */
#include "image/compare_table.h"
#include "core/path.h"
#include "core/err.h"
#include "core/text.h"
#include "core/num.h"
#include "core/tsv.h"
#include "image/image.h"
#include "core/mem.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The output columns, after the other columns of a pairs file. */
static const char *const out_col[] = { SR_PAIRS_MASK, SR_PAIRS_REF, "dice", "jaccard",
	"object_dice", "aji", "objects_mask", "objects_ref", "tp", "fp", "fn",
	NULL };

/* Checks the path of column col of the current row and returns it
 * resolved against dir. */
static char *
row_path(const sr_tsv *t, int col, const char *dir)
{
	const char *f = sr_tsv_str(t, col);
	char *p;

	if (*f == '\0')
		sr_tsv_die(t, col, "empty path");
	p = sr_path_resolve(dir, f);
	if (access(p, R_OK) != 0)
		sr_tsv_die(t, col, "%s: %s", p, strerror(errno));
	return p;
}

/* The fields of the current row, or the header's names, of every column
 * but mask and ref, each followed by a tab. */
static char *
other_fields(const sr_tsv *t, int cm, int cr, int header)
{
	size_t len = 1, k;
	char *s;

	for (k = 0; k < t->ncol; k++)
		len += strlen(header ? t->header[k] : t->field[k]) + 1;
	s = sr_malloc(len);
	*s = '\0';
	for (k = 0; k < t->ncol; k++)
		if ((int)k != cm && (int)k != cr) {
			strcat(s, header ? t->header[k] : t->field[k]);
			strcat(s, "\t");
		}
	return s;
}

/* Dies if a column of the pairs file is also an output column. */
static void
check_other_columns(const sr_tsv *t, int cm, int cr)
{
	size_t k, j;

	for (k = 0; k < t->ncol; k++)
		for (j = 0; (int)k != cm && (int)k != cr && out_col[j]; j++)
			if (strcmp(t->header[k], out_col[j]) == 0)
				sr_die(SR_EXIT_DATA, "%s: column '%s' would "
				    "repeat an output column", t->path,
				    SR_SHOW(t->header[k]));
}

sr_pairs *
sr_pairs_read(const char *list)
{
	sr_tsv *t = sr_tsv_open(list);
	int cm = sr_tsv_need(t, SR_PAIRS_MASK), cr = sr_tsv_need(t, SR_PAIRS_REF);
	char *dir = strcmp(list, "-") ? sr_path_dir(list) : sr_strdup("");
	sr_pairs *ps = sr_calloc(1, sizeof *ps);
	sr_pair *p;

	ps->list = list;
	check_other_columns(t, cm, cr);
	ps->other_head = other_fields(t, cm, cr, 1);
	while (sr_tsv_next(t)) {
		ps->pair = sr_reallocarray(ps->pair, ps->n + 1, sizeof *ps->pair);
		p = &ps->pair[ps->n++];
		p->mask = sr_strdup(sr_tsv_str(t, cm));
		p->ref = sr_strdup(sr_tsv_str(t, cr));
		p->mask_path = row_path(t, cm, dir);
		p->ref_path = row_path(t, cr, dir);
		p->other = other_fields(t, cm, cr, 0);
		p->line = t->lineno;
	}
	if (ps->n == 0)
		sr_die(SR_EXIT_DATA, "%s: no pairs", t->path);
	free(dir);
	sr_tsv_close(t);
	return ps;
}

sr_pairs *
sr_pairs_operands(const char *mask, const char *ref, char *errbuf,
    size_t errlen)
{
	const char *arg[2] = { mask, ref };
	sr_pairs *ps;
	int k;

	for (k = 0; k < 2; k++)
		if (strpbrk(arg[k], "\t\n\r")) {
			snprintf(errbuf, errlen, "'%s': a path with a tab or a line "
			    "break cannot be written to the output", arg[k]);
			return NULL;
		}
	ps = sr_calloc(1, sizeof *ps);
	ps->pair = sr_calloc(1, sizeof *ps->pair);
	ps->n = 1;
	ps->pair->mask = sr_strdup(mask);
	ps->pair->ref = sr_strdup(ref);
	ps->pair->mask_path = sr_strdup(mask);
	ps->pair->ref_path = sr_strdup(ref);
	ps->pair->other = sr_strdup("");
	return ps;
}

void
sr_pairs_free(sr_pairs *ps)
{
	size_t i;

	if (ps == NULL)
		return;
	for (i = 0; i < ps->n; i++) {
		free(ps->pair[i].mask);
		free(ps->pair[i].ref);
		free(ps->pair[i].mask_path);
		free(ps->pair[i].ref_path);
		free(ps->pair[i].other);
	}
	free(ps->pair);
	free(ps->other_head);
	free(ps);
}

/* Writes msg to errbuf, prefixed by the pairs file's line and column
 * (col NULL: none) when there is one; returns -1. */
static int
pair_error(const sr_pairs *ps, const sr_pair *p, const char *col,
    const char *msg, char *errbuf, size_t errlen)
{
	const char *list = ps->list && strcmp(ps->list, "-") ? ps->list :
	    "<stdin>";

	if (p->line && col)
		snprintf(errbuf, errlen, "%s:%zu: column %s: %s", list, p->line,
		    col, msg);
	else if (p->line)
		snprintf(errbuf, errlen, "%s:%zu: %s", list, p->line, msg);
	else
		snprintf(errbuf, errlen, "%s", msg);
	return -1;
}

size_t
sr_compare_memory_mib(size_t pixels)
{
	return 64 + (size_t)ceil((double)pixels * 12.0 / 1048576.0);
}

/* -1 with errbuf naming the larger of the pair's images when comparing
 * them would need more than the memory budget (sizes from the headers:
 * nothing decoded); 0 otherwise, also when a header cannot be read (the
 * read says why). */
static int
pair_check_memory(const sr_pairs *ps, const sr_pair *p, char *errbuf,
    size_t errlen)
{
	char err[SR_ERRLEN], msg[2 * SR_ERRLEN], have[32];
	size_t mw, mh, rw, rh, mib;
	int ref;

	if (sr_image_probe(p->mask_path, &mw, &mh, err) < 0 ||
	    sr_image_probe(p->ref_path, &rw, &rh, err) < 0)
		return 0;
	ref = rw * rh > mw * mh;
	mib = sr_compare_memory_mib(ref ? rw * rh : mw * mh);
	if (mib <= sr_image_budget() / 1048576)
		return 0;
	snprintf(msg, sizeof msg, "%s: %zux%zu needs about %zu MiB to compare, "
	    "over the memory budget of %s (%s)", ref ? p->ref_path :
	    p->mask_path, ref ? rw : mw, ref ? rh : mh, mib, sr_fmt_mib(have,
	    sizeof have, sr_image_budget()), sr_image_budget_source());
	errno = 0;
	return pair_error(ps, p, NULL, msg, errbuf, errlen);
}

int
sr_pair_compare(const sr_pairs *ps, size_t i, enum sr_objects_reading how,
    double iou, int verbose, sr_comparison *c, char *errbuf, size_t errlen)
{
	const sr_pair *p = &ps->pair[i];
	char err[SR_ERRLEN], msg[3 * SR_ERRLEN];
	sr_labels m, r;
	double t0 = sr_now(), t1;
	int rc = -1;

	if (pair_check_memory(ps, p, errbuf, errlen) < 0)
		return -1;
	if (sr_labels_read(p->mask_path, &m, err) < 0)
		return pair_error(ps, p, "mask", err, errbuf, errlen);
	if (sr_labels_read(p->ref_path, &r, err) < 0) {
		sr_labels_free(&m);
		return pair_error(ps, p, "ref", err, errbuf, errlen);
	}
	errno = 0;	/* what fails from here is bad data, or ENOMEM */
	if (m.w != r.w || m.h != r.h) {
		snprintf(msg, sizeof msg, "%s: %zux%zu, but the mask %s is "
		    "%zux%zu", p->ref_path, r.w, r.h, p->mask_path, m.w, m.h);
		pair_error(ps, p, NULL, msg, errbuf, errlen);
		goto out;
	}
	t1 = sr_now();
	if (sr_compare_images(m.px, r.px, m.w, m.h, p->mask_path, p->ref_path,
	    how, iou, c, err) < 0) {
		pair_error(ps, p, NULL, err, errbuf, errlen);
		goto out;
	}
	if (verbose)
		sr_warn("%s %s: %zux%zu, %zu and %zu objects (%s, %s); read "
		    "%.3f s, compared %.3f s", p->mask, p->ref, m.w, m.h,
		    c->obj.objects_mask, c->obj.objects_ref,
		    c->binary_mask ? "binary" : "labels",
		    c->binary_ref ? "binary" : "labels", t1 - t0, sr_now() - t1);
	rc = 0;
out:
	sr_labels_free(&m);
	sr_labels_free(&r);
	return rc;
}

void
sr_compare_table_head(FILE *fp, const sr_pairs *ps)
{
	size_t i;

	fputs(ps->other_head ? ps->other_head : "", fp);
	for (i = 0; out_col[i]; i++)
		fprintf(fp, "%s%s", out_col[i], out_col[i + 1] ? "\t" : "\n");
}

void
sr_compare_table_row(FILE *fp, const sr_pair *p, const sr_comparison *c)
{
	fprintf(fp, "%s%s\t%s\t", p->other, p->mask, p->ref);
	sr_put_double(fp, c->dice);
	fputc('\t', fp);
	sr_put_double(fp, c->jaccard);
	fputc('\t', fp);
	sr_put_double(fp, c->obj.object_dice);
	fputc('\t', fp);
	sr_put_double(fp, c->obj.aji);
	fprintf(fp, "\t%zu\t%zu\t%zu\t%zu\t%zu\n", c->obj.objects_mask,
	    c->obj.objects_ref, c->obj.tp, c->obj.fp, c->obj.fn);
}
