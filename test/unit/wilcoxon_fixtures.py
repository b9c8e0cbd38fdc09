#!/usr/bin/env python3
"""wilcoxon_fixtures.py - print the p-values that cancel_test checks
sr_wilcoxon_less against, computed with scipy: the one-sided paired
Wilcoxon signed-rank test for H1 "x tends to be smaller than y", zeros
split (zero_method="zsplit").

  exact        n <= 50, no ties, no zeros: scipy.stats.wilcoxon(method="exact")
  permutation  n <= 16 with ties or zeros: scipy.stats.permutation_test on
               every sign assignment of the differences, the statistic the
               positive ranks plus half the zeros' (what scipy >= 1.13's
               wilcoxon does by default for such n; its method="exact"
               assumes no ties)
  approx       n > 50: scipy.stats.wilcoxon(method="approx", correction=False)

The output is test/data/wilcoxon-fixtures.tsv (committed; the C test does
not need scipy):

  /usr/bin/python3 test/unit/wilcoxon_fixtures.py > test/data/wilcoxon-fixtures.tsv

Values are printed with repr(), so that C's strtod reads the same doubles.
Ties are made of small whole numbers or eighths, whose differences are
exact.
"""
import sys

import numpy as np
import scipy
import scipy.stats as ss


def rank_sum(d, axis=-1):
    """The positive ranks of |d| plus half the zeros' (zsplit)."""
    r = ss.rankdata(np.abs(d), axis=axis)
    return np.sum(r * (d > 0), axis=axis) + np.sum(r * (d == 0), axis=axis) / 2


def pvalue(x, y):
    """The p-value and its method, as the docstring says."""
    d = np.asarray(x) - np.asarray(y)
    n = len(d)
    plain = len(np.unique(np.abs(d))) == n and not np.any(d == 0)
    if n > 50:
        p = ss.wilcoxon(x, y, zero_method="zsplit", alternative="less",
                        method="approx", correction=False).pvalue
        return p, "approx"
    if plain:
        p = ss.wilcoxon(x, y, zero_method="zsplit", alternative="less",
                        method="exact").pvalue
        return p, "exact"
    assert n <= 16, "ties or zeros beyond 16 pairs: no enumeration"
    res = ss.permutation_test((d,), rank_sum, permutation_type="samples",
                              alternative="less", n_resamples=np.inf,
                              vectorized=True)
    return res.pvalue, "permutation"


def show(v):
    return ",".join(repr(float(a)) for a in v)


def emit(name, x, y):
    p, method = pvalue(x, y)
    print(f"{name}\t{len(x)}\t{method}\t{p!r}\t{show(x)}\t{show(y)}")


def random_case(rng, n, shift):
    """Distinct continuous differences, shifted down by shift."""
    y = rng.uniform(0.4, 0.9, n)
    x = y + rng.normal(-shift, 0.05, n)
    return x, y


def tied_case(rng, n, zeros):
    """Differences of eighths from -4/8 to 2/8: ties, and zeros if asked."""
    y = rng.integers(2, 7, n) / 8
    steps = rng.integers(-4, 3, n)
    if not zeros:
        steps[steps == 0] = -1
    return y + steps / 8, y


def straddle(n):
    """Two cases whose p lies either side of 0.1: the positive ranks sum
    to t and t + 1, where P(T <= t) < 0.1 <= P(T <= t + 1) (beyond 50
    pairs, by the normal approximation)."""
    if n > 50:
        mean = n * (n + 1) / 4
        sd = np.sqrt(n * (n + 1) * (2 * n + 1) / 24)
        t = int(np.floor(mean + ss.norm.ppf(0.1) * sd))
    else:
        count = np.zeros(n * (n + 1) // 2 + 1)
        count[0] = 1
        for r in range(1, n + 1):
            count[r:] = count[r:] + count[:-r].copy()
        cdf = np.cumsum(count) / 2.0 ** n
        t = int(np.nonzero(cdf < 0.1)[0][-1])
    for total in (t, t + 1):
        positive, left = set(), total
        for r in range(n, 0, -1):
            if r <= left:
                positive.add(r)
                left -= r
        mags = np.arange(1, n + 1) / 64
        d = np.array([m if r in positive else -m
                      for r, m in zip(range(1, n + 1), mags)])
        y = np.full(n, 0.5)
        emit(f"straddle-{n}-{total}", y + d, y)


def main():
    rng = np.random.default_rng(20240601)
    print("# wilcoxon-fixtures.tsv - p-values of the one-sided paired "
          "Wilcoxon signed-rank test, H1: x < y, zeros split")
    print(f"# from test/unit/wilcoxon_fixtures.py, scipy {scipy.__version__}, "
          f"numpy {np.__version__}")
    print("case\tn\tmethod\tp\tx\ty")
    for n in range(1, 61):
        shift = 0.05 if n < 10 else 0.02 if n < 30 else 0.01
        emit(f"random-{n}", *random_case(rng, n, shift))
    for n in (3, 8, 20, 45, 50):
        emit(f"better-{n}", *random_case(rng, n, -0.03))
    for n in range(1, 17):
        emit(f"ties-{n}", *tied_case(rng, n, False))
        emit(f"zeros-{n}", *tied_case(rng, n, True))
    for n in (51, 55, 60):
        emit(f"ties-{n}", *tied_case(rng, n, False))
        emit(f"zeros-{n}", *tied_case(rng, n, True))
    for n in (2, 4, 51):
        emit(f"allzero-{n}", np.full(n, 0.5), np.full(n, 0.5))
    for n in (2, 3, 4, 5, 6):
        emit(f"alltied-{n}", np.full(n, 0.25), np.full(n, 0.75))
    for n in (5, 8, 10, 13, 20, 30, 50, 52, 60):
        straddle(n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
