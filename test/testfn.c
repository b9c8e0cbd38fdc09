/* sa-testfn - test models with known sensitivity indices, evaluated on a
 * design: ishigami (a=7, b=0.1), sobolg (Sobol' G with coefficients
 * -a LIST), linear (y = sum c_i x_i with -c LIST). Writes metrics.tsv
 * (run, y) to stdout. A test helper: not installed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sa/design.h"
#include "core/err.h"
#include "core/num.h"
#include "core/out.h"
#include "core/tsv.h"

/* Parses a comma list of numbers into v (at most max); returns count. */
static size_t
parse_list(const char *s, double *v, size_t max)
{
	char *copy = sr_strdup(s), *tok, *save = NULL;
	size_t n = 0;

	for (tok = strtok_r(copy, ",", &save); tok && n < max;
	    tok = strtok_r(NULL, ",", &save))
		if (sr_parse_double(tok, &v[n++]))
			sr_usage_error("'%s' is not a number", tok);
	free(copy);
	return n;
}

static double
model(const char *fn, const double *x, size_t k, const double *c, size_t nc)
{
	double y = 0;
	size_t i;

	if (strcmp(fn, "ishigami") == 0)
		return sin(x[0]) + 7 * pow(sin(x[1]), 2) +
		    0.1 * pow(x[2], 4) * sin(x[0]);
	if (strcmp(fn, "sobolg") == 0) {
		for (i = 0, y = 1; i < k && i < nc; i++)
			y *= (fabs(4 * x[i] - 2) + c[i]) / (1 + c[i]);
		return y;
	}
	for (i = 0; i < k && i < nc; i++)
		y += c[i] * x[i];
	return y;
}

int
main(int argc, char **argv)
{
	double c[256];
	size_t nc = 0, r;
	sr_design *d;

	sr_init(argv[0]);
	if (argc != 3 && argc != 4)
		sr_usage_error("usage: sa-testfn ishigami|sobolg|linear [LIST] "
		    "DESIGN.tsv");
	if (strcmp(argv[1], "ishigami") && strcmp(argv[1], "sobolg") &&
	    strcmp(argv[1], "linear"))
		sr_usage_error("unknown model %s", argv[1]);
	if (argc == 4)
		nc = parse_list(argv[2], c, 256);
	d = sr_design_read(argv[argc - 1]);
	if (strcmp(argv[1], "ishigami") == 0 && d->ncol < 3)
		sr_die(SR_EXIT_DATA, "ishigami needs 3 parameters");
	printf("#sa-testfn %s\nrun\ty\n", argv[1]);
	for (r = 0; r < d->nrun; r++) {
		printf("%zu\t", r);
		sr_put_double(stdout, model(argv[1], d->x + r * d->ncol, d->ncol, c,
		    nc));
		putchar('\n');
	}
	sr_design_free(d);
	sr_out_commit_all();
	return 0;
}
