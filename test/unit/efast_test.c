/* efast_test.c - eFAST (tools/lib/sa/efast.c): the frequencies against
 * SALib 1.5.1's fast_sampler for five (n, M, k), the search curve's
 * points, and the indices of a linear model, whose S1 and ST are known
 * (y = 2 x1 + x2 on uniform inputs: 0.8 and 0.2), within eFAST's
 * truncation of the spectrum at M harmonics; refusals. */
#include "sa/efast.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>

/* n, M, k and omega as SALib's fast_sampler computes them. */
static const struct {
	size_t n, m, k;
	const char *omega;
} fixture[] = {
	{ 65, 4, 3, "8,1,1" },
	{ 1000, 4, 15, "124,1,2,3,4,5,6,7,8,9,10,11,12,13,15" },
	{ 200, 2, 5, "49,1,4,8,12" },
	{ 101, 4, 2, "12,1" },
	{ 65, 4, 20, "8,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1" },
};

static void
test_frequencies(void)
{
	double omega[20];
	char got[256];
	size_t f, j, len;

	for (f = 0; f < sizeof fixture / sizeof fixture[0]; f++) {
		sr_efast_frequencies(fixture[f].n, fixture[f].m, fixture[f].k,
		    omega);
		for (j = 0, len = 0; j < fixture[f].k; j++)
			len += (size_t)snprintf(got + len, sizeof got - len, "%s%.0f",
			    j ? "," : "", omega[j]);
		if (strcmp(got, fixture[f].omega) != 0)
			fail("omega of n %zu M %zu k %zu: %s, SALib %s",
			    fixture[f].n, fixture[f].m, fixture[f].k, got,
			    fixture[f].omega);
	}
}

/* The curve: x = 1/2 + asin(sin(w s + phi)) / pi, the block's own
 * parameter at omega_0, the others at omega[1..] in order. */
static void
test_points(void)
{
	double omega[3] = { 8, 1, 3 }, u[3], s = 2 * SR_EFAST_PI / 65 * 7;

	sr_efast_point(omega, 65, 3, 1, 7, 0.5, u);
	if (fabs(u[0] - (0.5 + asin(sin(1 * s + 0.5)) / SR_EFAST_PI)) > 1e-15 ||
	    fabs(u[1] - (0.5 + asin(sin(8 * s + 0.5)) / SR_EFAST_PI)) > 1e-15 ||
	    fabs(u[2] - (0.5 + asin(sin(3 * s + 0.5)) / SR_EFAST_PI)) > 1e-15)
		fail("point: %g %g %g", u[0], u[1], u[2]);
}

static void
test_linear(void)
{
	size_t n = 1001, k = 2, i, t;
	double omega[2], u[2], *y = malloc(n * k * sizeof *y);
	sr_sobol_result r;
	char err[SR_ERRLEN];

	sr_efast_frequencies(n, SR_EFAST_M, k, omega);
	for (i = 0; i < k; i++)
		for (t = 0; t < n; t++) {
			sr_efast_point(omega, n, k, i, t, 0.3 + (double)i, u);
			y[i * n + t] = 2 * u[0] + u[1];
		}
	if (sr_efast_analyze(y, n, k, SR_EFAST_M, 50, 0.95, 1, 2, &r, err))
		fail("linear: %s", err);
	else if (fabs(r.S1[0] - 0.8) > 0.01 || fabs(r.S1[1] - 0.2) > 0.01 ||
	    fabs(r.ST[0] - 0.8) > 0.01 || fabs(r.ST[1] - 0.2) > 0.01 ||
	    !(r.S1_conf[0] >= 0) || !(r.ST_conf[1] >= 0))
		fail("linear: S1 %g %g, ST %g %g (want 0.8 0.2)", r.S1[0],
		    r.S1[1], r.ST[0], r.ST[1]);
	sr_sobol_result_free(&r);
	if (sr_efast_analyze(y, 64, 1, 4, 10, 0.95, 1, 2, &r, err) == 0 ||
	    !strstr(err, "more than 4 M^2 = 64 runs"))
		fail("n = 64, M = 4 not refused: %s", err);
	y[5] = NAN;	/* block 0's: its parameter's indices lost alone */
	if (sr_efast_analyze(y, n, k, SR_EFAST_M, 10, 0.95, 1, 2, &r, err))
		fail("a NaN output: %s", err);
	else if (!isnan(r.S1[0]) || !isnan(r.ST_conf[0]) ||
	    fabs(r.S1[1] - 0.2) > 0.01)
		fail("a NaN in block 0: S1 %g %g", r.S1[0], r.S1[1]);
	sr_sobol_result_free(&r);
	free(y);
}

int
main(void)
{
	test_frequencies();
	test_points();
	test_linear();
	if (failures)
		printf("%d failure(s)\n", failures);
	return failures != 0;
}
