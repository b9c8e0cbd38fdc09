/* given_test.c - the analyses of any sample: RBD-FAST (sa/rbd.c), PAWN
 * (sa/pawn.c) and delta (sa/delta.c). Each against SALib 1.5.1 on one
 * fixed sample (64 runs of y = sin(2 pi a) + 0.3 b^2, a and b Weyl
 * sequences), to 1e-12: what is deterministic given the sample; known
 * answers of a linear model and of y = a; worked examples of the
 * Kolmogorov-Smirnov distance and of numpy's quantile; refusals. */
#include "sa/delta.h"
#include "sa/pawn.h"
#include "sa/rbd.h"
#include "sa/sobol.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>

#define N 64

/* The fixed sample: x (N rows of a, b), y. */
static void
fixture(double *x, double *y)
{
	size_t j;

	for (j = 0; j < N; j++) {
		x[2 * j] = fmod((double)j * 0.6180339887, 1.0);
		x[2 * j + 1] = fmod((double)j * 0.4142135623, 1.0);
		y[j] = sin(2 * 3.14159265358979323846 * x[2 * j]) +
		    0.3 * x[2 * j + 1] * x[2 * j + 1];
	}
}

static void
near(const char *what, double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail("%s: %.17g, want %.17g", what, got, want);
}

/* SALib: rbd_fast.analyze(M=10)'s S1; pawn.analyze(S=5); delta's
 * calc_delta and sobol_first on the whole sample (3 classes). */
static void
test_salib(void)
{
	double x[2 * N], y[N], s1[2], c1[2];
	sr_pawn_result p;
	sr_delta_result d;
	char err[SR_ERRLEN];

	fixture(x, y);
	if (sr_rbd_analyze(x, y, N, 2, 10, 0, 0.95, 1, 2, s1, c1, err))
		fail("rbd: %s", err);
	near("rbd S1 a", s1[0], 0.97552837878168641, 1e-12);
	near("rbd S1 b", s1[1], -0.37887963250755935, 1e-12);
	if (!isnan(c1[0]))
		fail("rbd: an interval without resamples");
	if (sr_pawn_analyze(x, y, N, 2, 5, 2, &p, err))
		fail("pawn: %s", err);
	near("pawn min a", p.min[0], 0.29166666666666669, 1e-12);
	near("pawn min b", p.min[1], 0.140625, 1e-12);
	near("pawn mean a", p.mean[0], 0.53958333333333341, 1e-12);
	near("pawn mean b", p.mean[1], 0.19527243589743593, 1e-12);
	near("pawn median a", p.median[0], 0.5, 1e-12);
	near("pawn median b", p.median[1], 0.21995192307692307, 1e-12);
	near("pawn max a", p.max[0], 0.734375, 1e-12);
	near("pawn max b", p.max[1], 0.23557692307692307, 1e-12);
	near("pawn cv a", p.cv[0], 0.30196160560248603, 1e-12);
	near("pawn cv b", p.cv[1], 0.19920165214826033, 1e-12);
	sr_pawn_result_free(&p);
	if (sr_delta_classes(N) != 3)
		fail("classes of %d runs: %zu, want 3", N, sr_delta_classes(N));
	if (sr_delta_analyze(x, y, N, 2, 0, 0.95, 1, &d, err))
		fail("delta: %s", err);
	near("delta a", d.delta[0], 0.29178941961861415, 1e-12);
	near("delta b", d.delta[1], 0.033894215860523921, 1e-12);
	near("delta S1 a", d.S1[0], 0.64089041039002992, 1e-12);
	near("delta S1 b", d.S1[1], 0.034943368385897254, 1e-12);
	sr_delta_result_free(&d);
}

/* y = 2 a + b on the random balance design: S1 0.8 and 0.2; y = a:
 * PAWN's distances of a slice [s/S, (s+1)/S) from all are max(s/S,
 * 1 - (s+1)/S): median 0.7, maximum 0.9 for S = 10, b's near 0; delta's
 * S1 of a near 1, of b near 0, a's delta far above b's. */
static void
test_known(void)
{
	size_t n = 4000, j, i, *perm = malloc(n * 2 * sizeof *perm), t;
	double *x = malloc(n * 2 * sizeof *x), *y = malloc(n * sizeof *y),
	    *curve = malloc(n * sizeof *curve), s1[2], c1[2];
	sr_pawn_result p;
	sr_delta_result d;
	char err[SR_ERRLEN];

	sr_rbd_curve(n, 0.37, curve);
	for (i = 0; i < 2; i++) {
		for (j = 0; j < n; j++)
			perm[i * n + j] = j;
		for (j = n - 1; j > 0; j--) {	/* Fisher-Yates */
			t = rnd(j + 1);
			size_t s = perm[i * n + j];
			perm[i * n + j] = perm[i * n + t];
			perm[i * n + t] = s;
		}
	}
	for (j = 0; j < n; j++) {
		x[2 * j] = curve[perm[j]];
		x[2 * j + 1] = curve[perm[n + j]];
		y[j] = 2 * x[2 * j] + x[2 * j + 1];
	}
	if (sr_rbd_analyze(x, y, n, 2, 10, 50, 0.95, 1, 2, s1, c1, err))
		fail("rbd linear: %s", err);
	near("rbd linear S1 a", s1[0], 0.8, 0.02);
	near("rbd linear S1 b", s1[1], 0.2, 0.02);
	if (!(c1[0] > 0 && c1[0] < 0.1))
		fail("rbd linear: interval %g", c1[0]);
	for (j = 0; j < n; j++)
		y[j] = x[2 * j];
	if (sr_pawn_analyze(x, y, n, 2, 10, 2, &p, err))
		fail("pawn y = a: %s", err);
	near("pawn y = a: median of a", p.median[0], 0.7, 0.01);
	near("pawn y = a: max of a", p.max[0], 0.9, 0.01);
	if (!(p.max[1] < 0.1))
		fail("pawn y = a: b's max %g", p.max[1]);
	sr_pawn_result_free(&p);
	if (sr_delta_analyze(x, y, n, 2, 20, 0.95, 1, &d, err))
		fail("delta y = a: %s", err);
	if (!(d.S1[0] > 0.95 && fabs(d.S1[1]) < 0.05 && d.delta[0] > 0.5 &&
	    d.delta[1] < 0.1 && d.delta_conf[0] > 0 && d.S1_conf[1] > 0))
		fail("delta y = a: delta %g %g, S1 %g %g", d.delta[0], d.delta[1],
		    d.S1[0], d.S1[1]);
	sr_delta_result_free(&d);
	free(x);
	free(y);
	free(curve);
	free(perm);
}

/* PAWN, the quantile and the curve's points, by hand. */
static void
test_worked(void)
{
	double a[4] = { 0, 1, 2, 3 }, b[4] = { 0, 1, 3, 2 }, c[4] = { 1, 2, 3,
	    4 }, curve[4];

	sr_pawn_result p;
	char err[SR_ERRLEN];

	/* x 0..3, y 0, 1, 3, 2, two slices: the quantiles 0, 1.5, 3; runs 0
	 * and 1 (y 0, 1) in [0, 1.5), run 2 (y 3) in [1.5, 3), run 3 (x = 3,
	 * the maximum) in none. KS of {0, 1} against {0..3}: at 1, 1 - 2/4 =
	 * 0.5; of {3}: at 2, 0 - 3/4 = 0.75 */
	if (sr_pawn_analyze(a, b, 4, 1, 2, 2, &p, err))
		fail("pawn by hand: %s", err);
	near("pawn by hand: min", p.min[0], 0.5, 0);
	near("pawn by hand: max", p.max[0], 0.75, 0);
	near("pawn by hand: median", p.median[0], 0.625, 0);
	near("pawn by hand: mean", p.mean[0], 0.625, 0);
	near("pawn by hand: CV", p.cv[0], 0.2, 1e-15);
	sr_pawn_result_free(&p);
	near("quantile 0.3 of 1..4", sr_pawn_quantile(c, 4, 0.3), 1.9, 1e-15);
	near("quantile 1 of 1..4", sr_pawn_quantile(c, 4, 1), 4, 0);
	near("quantile 0 of 1..4", sr_pawn_quantile(c, 4, 0), 1, 0);
	sr_rbd_curve(4, 0.5, curve);	/* s = -3pi/4, -pi/4, pi/4, 3pi/4 */
	near("curve 0", curve[0], 0.25, 1e-15);
	near("curve 1", curve[1], 0.25, 1e-15);
	near("curve 2", curve[2], 0.75, 1e-15);
	near("curve 3", curve[3], 0.75, 1e-15);
}

static void
test_refusals(void)
{
	double x[2 * N], y[N], s1[2], c1[2];
	sr_pawn_result p;
	sr_delta_result d;
	char err[SR_ERRLEN];
	size_t j;

	fixture(x, y);
	if (sr_rbd_analyze(x, y, 39, 2, 10, 0, 0.95, 1, 2, s1, c1, err) == 0 ||
	    !strstr(err, "needs at least 42 runs, not 39"))
		fail("rbd: 39 runs not refused: %s", err);
	if (sr_pawn_analyze(x, y, N, 2, 1, 2, &p, err) == 0 ||
	    !strstr(err, "at least 2 slices"))
		fail("pawn: 1 slice not refused: %s", err);
	for (j = 0; j < N; j++)
		y[j] = 2;
	if (sr_delta_analyze(x, y, N, 2, 0, 0.95, 1, &d, err) == 0 ||
	    !strstr(err, "all 64 outputs are equal"))
		fail("delta: equal outputs not refused: %s", err);
	y[3] = NAN;
	if (sr_rbd_analyze(x, y, N, 2, 10, 0, 0.95, 1, 2, s1, c1, err) == 0 ||
	    !strstr(err, "run 3: no finite output"))
		fail("rbd: a NaN not refused: %s", err);
	if (sr_pawn_analyze(x, y, N, 2, 5, 2, &p, err) == 0 ||
	    !strstr(err, "run 3: no finite output"))
		fail("pawn: a NaN not refused: %s", err);
	if (sr_delta_analyze(x, y, N, 2, 0, 0.95, 1, &d, err) == 0 ||
	    !strstr(err, "run 3: no finite output"))
		fail("delta: a NaN not refused: %s", err);
}

int
main(void)
{
	test_salib();
	test_known();
	test_worked();
	test_refusals();
	if (failures)
		printf("%d failure(s)\n", failures);
	return failures != 0;
}
