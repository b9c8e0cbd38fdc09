/* compare-dice - pixel and object-level agreement of segmentation masks
 * with reference masks. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "image/compare.h"
#include "image/opencv.h"
#include "core/err.h"
#include "image/image.h"
#include "core/num.h"
#include "core/out.h"
#include "core/tsv.h"

enum { OPT_IOU = CHAR_MAX + 1, OPT_BINARY, OPT_LABELS, OPT_VERSION };

static const struct option longopts[] = {
	{ "list", required_argument, NULL, 'l' },
	{ "iou", required_argument, NULL, OPT_IOU },
	{ "binary", no_argument, NULL, OPT_BINARY },
	{ "labels", no_argument, NULL, OPT_LABELS },
	{ "output", required_argument, NULL, 'o' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

#define DEFAULT_IOU 0.5

static const char *const reading_name[] = { "auto", "binary", "labels" };
static int progress;		/* a progress line is on the terminal */

struct opts {
	const char *list, *output;
	double iou;
	enum sr_objects_reading how;
	int verbose, quiet;
};

/* A pair to compare: the paths as written (for the output) and as
 * opened; line is its line in the pairs file (0 for operands). */
struct pair {
	char *mask, *ref, *mask_path, *ref_path;
	char *other;		/* the other columns' fields, each + a tab */
	size_t line;
};

/* The output columns, after the other columns of a pairs file. */
static const char *const out_col[] = { "mask", "ref", "dice", "jaccard",
	"object_dice", "aji", "objects_mask", "objects_ref", "tp", "fp", "fn",
	NULL };

static void
usage(FILE *fp)
{
	fprintf(fp,
"Usage: compare-dice [options] [-o OUT.tsv] MASK REF\n"
"       compare-dice [options] [-o OUT.tsv] -l PAIRS.tsv\n"
"Pixel Dice and Jaccard, object-level Dice, the Aggregated Jaccard Index\n"
"and object matches at an IoU threshold of a mask against a reference:\n"
"binary masks (8-connected objects) or label images, PNG or TIFF.\n"
"\n"
"  -l, --list FILE          compare every row of FILE (columns mask, ref)\n"
"      --iou T              match objects with IoU >= T, in (0, 1] [%g]\n"
"      --binary             read both images as binary masks [auto]\n"
"      --labels             read both images as label images [auto]\n"
"  -o, --output FILE        write here (atomically) instead of stdout\n"
"  -v, --verbose            seconds and objects of each pair on stderr\n"
"  -q, --quiet              no progress on a terminal\n"
"  -h, --help               this help\n"
"      --version            version\n", DEFAULT_IOU);
}

static void
parse(int argc, char **argv, struct opts *o)
{
	int c;

	memset(o, 0, sizeof *o);
	o->iou = DEFAULT_IOU;
	o->how = SR_OBJECTS_AUTO;
	while ((c = getopt_long(argc, argv, ":l:o:vqh", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'l': o->list = optarg; break;
		case 'o': o->output = optarg; break;
		case 'v': o->verbose = 1; break;
		case 'q': o->quiet = 1; break;
		case OPT_IOU:
			if (sr_parse_double(optarg, &o->iou) != NULL ||
			    !(o->iou > 0 && o->iou <= 1))
				sr_usage_error("--iou '%s': a number in (0, 1]",
				    optarg);
			break;
		case OPT_BINARY:
		case OPT_LABELS:
			if (o->how != SR_OBJECTS_AUTO &&
			    o->how != (c == OPT_BINARY ? SR_OBJECTS_BINARY :
			    SR_OBJECTS_LABELS))
				sr_usage_error("--binary and --labels exclude "
				    "each other");
			o->how = c == OPT_BINARY ? SR_OBJECTS_BINARY :
			    SR_OBJECTS_LABELS;
			break;
		case 'h': usage(stdout); sr_out_commit_all(); exit(SR_EXIT_OK);
		case OPT_VERSION: sr_print_version();
		default: sr_getopt_fail(c, argv);
		}
	}
	if (o->list && optind < argc)
		sr_usage_error("-l and MASK REF exclude each other");
	if (!o->list && argc - optind != 2)
		sr_usage_error("expected MASK and REF, or -l PAIRS.tsv; got %d "
		    "arguments", argc - optind);
}

/* The directory part of path with its slash ("" for none or stdin). */
static char *
dir_of(const char *path)
{
	const char *s = strcmp(path, "-") ? strrchr(path, '/') : NULL;
	size_t n = s ? (size_t)(s - path) + 1 : 0;
	char *d = sr_malloc(n + 1);

	memcpy(d, path, n);
	d[n] = '\0';
	return d;
}

/* dir + path, or path when absolute. */
static char *
resolve(const char *dir, const char *path)
{
	size_t n = strlen(dir) + strlen(path) + 1;
	char *s = sr_malloc(n);

	snprintf(s, n, "%s%s", *path == '/' ? "" : dir, path);
	return s;
}

/* Checks the path of column col of the current row and returns it
 * resolved against dir. */
static char *
row_path(const sr_tsv *t, int col, const char *dir)
{
	const char *f = sr_tsv_str(t, col);
	char *p;

	if (*f == '\0')
		sr_tsv_die(t, col, "empty path");
	p = resolve(dir, f);
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
				    t->header[k]);
}

/* Reads the pairs file: a mask and a ref column, paths relative to its
 * directory, and other columns copied to the output (*other_head gets
 * their names); dies on an empty file or an unreadable image, naming the
 * line and column. */
static struct pair *
read_pairs(const char *list, size_t *n, char **other_head)
{
	sr_tsv *t = sr_tsv_open(list);
	int cm = sr_tsv_need(t, "mask"), cr = sr_tsv_need(t, "ref");
	char *dir = dir_of(list);
	struct pair *p = NULL;

	check_other_columns(t, cm, cr);
	*other_head = other_fields(t, cm, cr, 1);
	*n = 0;
	while (sr_tsv_next(t)) {
		p = sr_reallocarray(p, *n + 1, sizeof *p);
		p[*n].mask = sr_strdup(sr_tsv_str(t, cm));
		p[*n].ref = sr_strdup(sr_tsv_str(t, cr));
		p[*n].mask_path = row_path(t, cm, dir);
		p[*n].ref_path = row_path(t, cr, dir);
		p[*n].other = other_fields(t, cm, cr, 0);
		p[*n].line = t->lineno;
		(*n)++;
	}
	if (*n == 0)
		sr_die(SR_EXIT_DATA, "%s: no pairs", t->path);
	free(dir);
	sr_tsv_close(t);
	return p;
}

/* The operands as the one pair; a path that cannot be a TSV field is a
 * usage error. */
static struct pair *
operand_pair(char **argv)
{
	struct pair *p = sr_calloc(1, sizeof *p);
	int k;

	for (k = 0; k < 2; k++)
		if (strpbrk(argv[k], "\t\n\r"))
			sr_usage_error("'%s': a path with a tab or a line "
			    "break cannot be written to the output", argv[k]);
	p->mask = sr_strdup(argv[0]);
	p->ref = sr_strdup(argv[1]);
	p->mask_path = sr_strdup(argv[0]);
	p->ref_path = sr_strdup(argv[1]);
	p->other = sr_strdup("");
	return p;
}

static void
free_pairs(struct pair *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(p[i].mask);
		free(p[i].ref);
		free(p[i].mask_path);
		free(p[i].ref_path);
		free(p[i].other);
	}
	free(p);
}

/* Dies with message, prefixed by the pairs file's line and column (col
 * NULL: none) when there is one. */
static _Noreturn void
pair_die(const struct opts *o, const struct pair *p, const char *col,
    const char *msg)
{
	if (progress)
		fputc('\n', stderr);
	if (p->line && col)
		sr_die(SR_EXIT_DATA, "%s:%zu: column %s: %s", strcmp(o->list,
		    "-") ? o->list : "<stdin>", p->line, col, msg);
	if (p->line)
		sr_die(SR_EXIT_DATA, "%s:%zu: %s", strcmp(o->list, "-") ?
		    o->list : "<stdin>", p->line, msg);
	sr_die(SR_EXIT_DATA, "%s", msg);
}

/* Reads and compares one pair. */
static void
compare_pair(const struct opts *o, const struct pair *p, sr_comparison *c)
{
	char err[SR_ERRLEN], msg[3 * SR_ERRLEN];
	sr_labels m, r;
	double t0 = sr_now(), t1;

	if (sr_labels_read(p->mask_path, &m, err) < 0)
		pair_die(o, p, "mask", err);
	if (sr_labels_read(p->ref_path, &r, err) < 0)
		pair_die(o, p, "ref", err);
	if (m.w != r.w || m.h != r.h) {
		snprintf(msg, sizeof msg, "%s: %zux%zu, but the mask %s is "
		    "%zux%zu", p->ref_path, r.w, r.h, p->mask_path, m.w, m.h);
		pair_die(o, p, NULL, msg);
	}
	t1 = sr_now();
	if (sr_compare_images(m.px, r.px, m.w, m.h, p->mask_path, p->ref_path,
	    o->how, o->iou, c, err) < 0)
		pair_die(o, p, NULL, err);
	if (o->verbose)
		sr_warn("%s %s: %zux%zu, %zu and %zu objects (%s, %s); read "
		    "%.3f s, compared %.3f s", p->mask, p->ref, m.w, m.h,
		    c->obj.objects_mask, c->obj.objects_ref,
		    c->binary_mask ? "binary" : "labels",
		    c->binary_ref ? "binary" : "labels", t1 - t0, sr_now() - t1);
	sr_labels_free(&m);
	sr_labels_free(&r);
}

static void
put_row(FILE *fp, const struct pair *p, const sr_comparison *c)
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

int
main(int argc, char **argv)
{
	struct opts o;
	struct pair *pairs;
	sr_comparison *c;
	size_t n = 1, i;
	char *other_head = NULL;
	FILE *fp;

	sr_init(argv[0]);
	parse(argc, argv, &o);
	sr_opencv_init();
	pairs = o.list ? read_pairs(o.list, &n, &other_head) :
	    operand_pair(argv + optind);
	progress = o.list && !o.quiet && !o.verbose && isatty(STDERR_FILENO);
	fp = sr_out_open(o.output);
	c = sr_calloc(n, sizeof *c);
	for (i = 0; i < n; i++) {	/* all first: no output on error */
		if (progress)
			fprintf(stderr, "\r%s: pair %zu of %zu", sr_progname,
			    i + 1, n);
		compare_pair(&o, &pairs[i], &c[i]);
	}
	if (progress)
		fputc('\n', stderr);
	progress = 0;
	sr_out_provenance(fp, argc, argv);
	fprintf(fp, "#iou=");
	sr_put_double(fp, o.iou);
	fprintf(fp, " reading=%s pairs=%zu\n", reading_name[o.how], n);
	fputs(other_head ? other_head : "", fp);
	for (i = 0; out_col[i]; i++)
		fprintf(fp, "%s%s", out_col[i], out_col[i + 1] ? "\t" : "\n");
	for (i = 0; i < n; i++)
		put_row(fp, &pairs[i], &c[i]);
	sr_out_commit_all();
	free(c);
	free(other_head);
	free_pairs(pairs, n);
	return SR_EXIT_OK;
}
