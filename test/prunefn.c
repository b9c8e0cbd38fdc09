/* sa-prunefn - sa-prune's synthetic benchmark families (test/bench/prune),
 * evaluated on a design of the space
 *
 *   a real 0:0.1:1, b real 0:0.1:1, c int 1:1:10, d enum 4,8
 *
 * (2,420 grid points). Each family has subjects 0, 1, ...: the same
 * landscape shifted, as tiles or cohorts differ.
 *
 *   smooth  a Gaussian bump (width 0.18 in unit coordinates) whose centre
 *           moves by up to 0.1 in a, b and c from subject to subject, a
 *           second, lower bump, d = 8 better by 0.04, a little noise
 *   rugged  a broad bump times ripples of about 2.5 periods across a and
 *           b, whose phases move from subject to subject, more noise
 *
 * Values lie in about (0, 1), higher better, like a Dice score; the noise
 * is a fixed function of subject and point, so a subject's optimum is
 * the maximum over the grid. Writes metrics.tsv (run, y) to stdout. A
 * test helper: not installed. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "core/num.h"
#include "core/out.h"
#include "core/tsv.h"
#include "sa/design.h"

#define PI 3.14159265358979323846

/* splitmix64: a well-mixed 64-bit value of x. */
static uint64_t
mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* A uniform number in [0,1) drawn from the words a, b. */
static double
unif(uint64_t a, uint64_t b)
{
	return (double)(mix(mix(a) ^ b) >> 11) / 9007199254740992.0;
}

/* Uniform noise of standard deviation sd, fixed by subject and point. */
static double
noise(int fam, long subject, const double *u, double sd)
{
	uint64_t key = (uint64_t)fam << 56 | (uint64_t)subject << 40;
	int j;

	for (j = 0; j < 4; j++)
		key = mix(key ^ (uint64_t)llround(u[j] * 1000));
	return sd * sqrt(12) * (unif(key, 7) - 0.5);
}

/* The smooth family at unit coordinates u (d: 0 for 4, 1 for 8). */
static double
smooth(long s, const double *u)
{
	double c[3], d2 = 0, d2b = 0, w = 0.18;
	int j;

	for (j = 0; j < 3; j++)
		c[j] = (j == 1 ? 0.6 : 0.35) + 0.2 * (unif((uint64_t)s, (uint64_t)j)
		    - 0.5);
	for (j = 0; j < 3; j++) {
		d2 += (u[j] - c[j]) * (u[j] - c[j]);
		d2b += (u[j] - 0.8) * (u[j] - 0.8);
	}
	return 0.12 + 0.7 * exp(-d2 / (2 * w * w)) + 0.35 * exp(-d2b / (2 *
	    0.15 * 0.15)) + 0.04 * u[3] + noise(0, s, u, 0.01);
}

/* The rugged family. */
static double
rugged(long s, const double *u)
{
	double pa = 2 * PI * unif((uint64_t)s, 11), pb = 2 * PI *
	    unif((uint64_t)s, 12), d2 = 0, c[3] = { 0.5, 0.5, 0.5 };
	int j;

	for (j = 0; j < 3; j++)
		d2 += (u[j] - c[j]) * (u[j] - c[j]);
	return 0.1 + 0.55 * exp(-d2 / (2 * 0.3 * 0.3)) * (0.6 + 0.4 *
	    sin(2 * PI * 2.5 * u[0] + pa) * sin(2 * PI * 2.5 * u[1] + pb)) +
	    0.05 * u[3] * cos(2 * PI * u[2] + pa) + noise(1, s, u, 0.02);
}

/* The unit coordinates of run r of d (columns a, b, c, d by name). */
static void
unit_point(const sr_design *d, const int *col, size_t r, double *u)
{
	const double *x = d->x + r * d->ncol;

	u[0] = x[col[0]];
	u[1] = x[col[1]];
	u[2] = (x[col[2]] - 1) / 9;
	u[3] = x[col[3]] == 8;
}

int
main(int argc, char **argv)
{
	const char *names[4] = { "a", "b", "c", "d" };
	int col[4], fam, j;
	size_t r, c;
	sr_design *d;
	double u[4];
	long s;

	sr_init(argv[0]);
	if (argc != 4 || sr_parse_long(argv[2], &s) || s < 0 || s > 65535)
		sr_usage_error("usage: sa-prunefn smooth|rugged SUBJECT DESIGN.tsv");
	if ((fam = strcmp(argv[1], "smooth") == 0 ? 0 : strcmp(argv[1],
	    "rugged") == 0 ? 1 : -1) < 0)
		sr_usage_error("unknown family %s", argv[1]);
	d = sr_design_read(argv[3]);
	for (j = 0; j < 4; j++) {
		for (col[j] = -1, c = 0; c < d->ncol; c++)
			if (strcmp(d->name[c], names[j]) == 0)
				col[j] = (int)c;
		if (col[j] < 0)
			sr_die(SR_EXIT_DATA, "%s: no column %s", argv[3], names[j]);
	}
	printf("#sa-prunefn %s %ld\nrun\ty\n", argv[1], s);
	for (r = 0; r < d->nrun; r++) {
		unit_point(d, col, r, u);
		printf("%zu\t", r);
		sr_put_double(stdout, fam ? rugged(s, u) : smooth(s, u));
		putchar('\n');
	}
	sr_design_free(d);
	sr_out_commit_all();
	return 0;
}
