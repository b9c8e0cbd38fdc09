"""salib_methods.py - SALib's side of test/bench/salib-methods: the methods
of issue 31 on the same work as sa-sample and sa-indices, timed inside one
Python process (interpreter start and imports not counted, in SALib's
favour). Prints "LABEL VALUE" lines.

  salib_methods.py efast-sample K N OUT.txt   fast_sampler.sample, k
                                   continuous on [0,1], written with
                                   np.savetxt (%.8e) as SALib's CLI writes
                                   ("write"), and again with %.17g, which
                                   reads back as the values drawn, as
                                   sareuse's designs do ("write17")
  salib_methods.py efast-analyze K Y.txt R    fast.analyze of the outputs
                                   (one a line), R resamples; S1 and ST too
  salib_methods.py efast-check DESIGN.tsv Y.txt INDICES.tsv
                                   fast.analyze of the outputs (in run
                                   order) against sareuse's indices.tsv:
                                   the largest difference of S1 and ST
  salib_methods.py efast-design DESIGN.tsv    sareuse's design against
                                   fast_sampler.sample given the same
                                   phases (recovered from the design, fed
                                   to SALib through np.random.rand): the
                                   largest difference
  salib_methods.py given-check M DESIGN.tsv Y.txt INDICES.tsv [EXACT.tsv]
                                   M (rbd_fast, pawn, delta) of SALib on
                                   the design's varied columns and the
                                   outputs against sareuse's indices.tsv:
                                   "exact-diff" the largest difference of
                                   what is deterministic given the sample
                                   (rbd_fast's S1, pawn's five statistics;
                                   delta's delta-hat and S1 of SALib's
                                   calc_delta and sobol_first on the whole
                                   sample against EXACT.tsv, sareuse's
                                   -r 0), and for the bootstrapped ones
                                   "outside" the indices of SALib's
                                   analyze (delta: their mean over 10
                                   seeds) outside sareuse's intervals
                                   (TIES_BY_RUN=1: tied values of a
                                   parameter put in run order for SALib,
                                   as sareuse orders them)
  salib_methods.py given-analyze M DESIGN.tsv Y.txt R
                                   M's analyze timed, R resamples
  salib_methods.py groups-check DESIGN.tsv Y.txt INDICES.tsv
                                   sobol.analyze with the design's groups
                                   (its groups= metadata) of the outputs
                                   against sareuse's vbd indices of groups:
                                   the largest difference of S1 and ST
  salib_methods.py morris-groups-check DESIGN.tsv Y.txt INDICES.tsv
                                   the same of a moat design of groups:
                                   mu, mu* and sigma of morris.analyze
  salib_methods.py morris-optimize-check CANDIDATES.tsv CHOSEN.tsv K
                                   SALib's choice of K of a moat design's
                                   trajectories (of groups or not) against
                                   sareuse's --optimize of the same draws
  salib_methods.py latin-sample K N OUT.txt   latin.sample (the design
                                   SALib gives RBD-FAST), written as
                                   efast-sample's
"""
import math
import os
import sys
import time

import numpy as np

# SALib 1.5.1's delta calls np.trapezoid, numpy 2.0's name of np.trapz;
# Debian 12's numpy 1.24 has only the old name of the same function
if not hasattr(np, "trapezoid"):
    np.trapezoid = np.trapz
from SALib.analyze import delta, fast, pawn, rbd_fast
from SALib.sample import fast_sampler, latin


def problem(k):
    return {"num_vars": k, "names": ["x%d" % (i + 1) for i in range(k)],
            "bounds": [[0.0, 1.0]] * k}


def timed_sample(draw, out):
    """draw() timed, its design written as SALib's CLI writes it (%.8e)
    and to read back as drawn (%.17g), each timed."""
    t0 = time.perf_counter()
    x = draw()
    t1 = time.perf_counter()
    np.savetxt(out, x, fmt="%.8e", delimiter="\t")
    t2 = time.perf_counter()
    np.savetxt(out, x, fmt="%.17g", delimiter="\t")
    t3 = time.perf_counter()
    print("sample %.4f" % (t1 - t0))
    print("write %.4f" % (t2 - t1))
    print("write17 %.4f" % (t3 - t2))


def efast_sample(k, n, out):
    timed_sample(lambda: fast_sampler.sample(problem(k), n, M=4, seed=1), out)


def efast_analyze(k, ypath, resamples):
    t0 = time.perf_counter()
    y = np.loadtxt(ypath)
    t1 = time.perf_counter()
    si = fast.analyze(problem(k), y, M=4, num_resamples=resamples, seed=1)
    t2 = time.perf_counter()
    print("read %.4f" % (t1 - t0))
    print("analyze %.4f" % (t2 - t1))
    for i in range(k):
        print("S x%d %.17g %.17g %.17g %.17g" % (i + 1, si["S1"][i],
              si["S1_conf"][i], si["ST"][i], si["ST_conf"][i]))


def read_design(path):
    meta, rows = {}, []
    for line in open(path):
        if line.startswith("#method="):
            meta = dict(w.split("=", 1) for w in line[1:].split())
        elif not line.startswith("#") and not line.startswith("run"):
            rows.append([float(v) for v in line.split("\t")[1:]])
    return meta, np.array(rows)


def efast_design(path):
    meta, x = read_design(path)
    k, n, m = int(meta["k"]), int(meta["n"]), int(meta["M"])
    w0 = math.floor((n - 1) / (2 * m))
    phases = []
    for i in range(k):
        # row 0 of block i: its own parameter at 1/2 + asin(sin(phi))/pi;
        # phi or pi - phi, the one row 1 agrees with
        a = math.pi * (x[i * n, i] - 0.5)
        best = None
        for phi in (a % (2 * math.pi), (math.pi - a) % (2 * math.pi)):
            g = 0.5 + math.asin(math.sin(w0 * 2 * math.pi / n + phi)) / math.pi
            err = abs(g - x[i * n + 1, i])
            if best is None or err < best[0]:
                best = (err, phi)
        phases.append(best[1] / (2 * math.pi))
    draws = iter(phases)
    saved = np.random.rand
    np.random.rand = lambda: next(draws)
    try:
        y = fast_sampler.sample(problem(k), n, M=m)
    finally:
        np.random.rand = saved
    print("design-diff %.3g" % np.max(np.abs(y - x)))


def efast_check(design, ypath, indices):
    meta, _ = read_design(design)
    k, m = int(meta["k"]), int(meta["M"])
    names = meta["params"].split(",")
    prob = {"num_vars": k, "names": names, "bounds": [[0.0, 1.0]] * k}
    si = fast.analyze(prob, np.loadtxt(ypath), M=m, num_resamples=2, seed=1)
    ours = {}
    for line in open(indices):
        f = line.rstrip("\n").split("\t")
        if not line.startswith("#") and f[0] != "param":
            ours[f[0]] = (float(f[1]), float(f[3]))
    d = max(max(abs(si["S1"][i] - ours[n][0]), abs(si["ST"][i] - ours[n][1]))
            for i, n in enumerate(names))
    print("check-diff %.3g" % d)


def read_varied(path):
    """The design's varied columns (params= of its metadata), in order."""
    names, header, rows = None, None, []
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if line.startswith("#method="):
            meta = dict(w.split("=", 1) for w in line[1:].split())
            names = meta["params"].split(",")
        elif line.startswith("#"):
            continue
        elif header is None:
            header = f
        else:
            rows.append(f)
    cols = [header.index(n) for n in names]
    ref = [i for i, r in enumerate(rows) if r[header.index("run")] == "ref"]
    x = np.array([[float(r[c]) for c in cols] for i, r in enumerate(rows)
                  if i not in ref])
    return names, x


def read_indices(path):
    header, rows = None, {}
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if line.startswith("#"):
            continue
        if header is None:
            header = f
        else:
            rows[f[0]] = dict(zip(header[1:], (float(v) for v in f[1:])))
    return rows


SEEDS = 10


def salib_given(method, prob, x, y, resamples, seed=1):
    if method == "rbd_fast":
        return rbd_fast.analyze(prob, x, y, M=10, num_resamples=resamples,
                                seed=seed)
    if method == "pawn":
        return pawn.analyze(prob, x, y, S=10, seed=seed)
    return delta.analyze(prob, x, y, num_resamples=resamples, seed=seed)


def given_check(method, design, ypath, indices, exact=None):
    names, x = read_varied(design)
    y = np.loadtxt(ypath)
    if os.environ.get("TIES_BY_RUN"):
        # numpy's argsort (quicksort) orders tied values as it happens to;
        # sareuse orders them by run. A shift of 1e-9 a run, far below the
        # values' spacing, gives SALib sareuse's order of the ties.
        x = x + np.arange(x.shape[0])[:, None] * 1e-9
    prob = {"num_vars": len(names), "names": names,
            "bounds": [[0.0, 1.0]] * len(names)}
    ours = read_indices(indices)
    si = salib_given(method, prob, x, y, 100)
    if method == "rbd_fast":
        d = max(abs(si["S1"][i] - ours[n]["S1"]) for i, n in enumerate(names))
        print("exact-diff %.3g" % d)
        return
    if method == "pawn":
        keys = (("median", "pawn"), ("minimum", "minimum"), ("mean", "mean"),
                ("maximum", "maximum"), ("CV", "CV"))
        d = max(abs(si[a][i] - ours[n][b]) for i, n in enumerate(names)
                for a, b in keys)
        print("exact-diff %.3g" % d)
        return
    # delta: the deterministic core on the whole sample, then the
    # bootstrapped estimates within sareuse's intervals
    ex = read_indices(exact)
    nn = y.size
    e = 2.0 / (7.0 + np.tanh((1500.0 - nn) / 500.0))
    mm = int(np.round(min(int(np.ceil(nn ** e)), 48)))
    cut = np.linspace(0, nn, mm + 1)
    grid = np.linspace(np.min(y), np.max(y), 100)
    d = 0.0
    for i, n in enumerate(names):
        d = max(d, abs(delta.calc_delta(y, grid, x[:, i], cut) - ex[n]["delta"]),
                abs(delta.sobol_first(y, x[:, i], cut) - ex[n]["S1"]))
    print("exact-diff %.3g" % d)
    # SALib's delta-hat and S1 are of a bootstrap resample, not of the
    # sample: one call wanders by about its own interval, so its mean
    # over SEEDS calls is compared. That mean is not bias reduced: 2 E[a
    # resample's delta-hat] - E[a resample's] is E[a resample's], the
    # replicates' mean, which is 2 delta-hat - delta of sareuse's.
    runs = [salib_given(method, prob, x, y, 100, seed)
            for seed in range(1, SEEDS + 1)]
    out = []
    for i, n in enumerate(names):
        for k in ("delta", "S1"):
            mean = np.mean([r[k][i] for r in runs])
            want = 2 * ex[n][k] - ours[n][k] if k == "delta" else ours[n][k]
            if abs(mean - want) > ours[n][k + "_conf"]:
                out.append("%s:%s(%.4g vs %.4g +- %.2g)" % (
                    n, k, mean, want, ours[n][k + "_conf"]))
    print("outside %d of %d %s" % (len(out), 2 * len(names), " ".join(out)))


def given_analyze(method, design, ypath, resamples):
    names, x = read_varied(design)
    prob = {"num_vars": len(names), "names": names,
            "bounds": [[0.0, 1.0]] * len(names)}
    t0 = time.perf_counter()
    y = np.loadtxt(ypath)
    t1 = time.perf_counter()
    salib_given(method, prob, x, y, resamples)
    t2 = time.perf_counter()
    print("read %.4f" % (t1 - t0))
    print("analyze %.4f" % (t2 - t1))


def grouped_problem(meta):
    """The problem of a design's params= and groups= metadata, and each
    parameter's group."""
    names = meta["params"].split(",")
    group = {}
    for g in meta["groups"].split(","):
        gname, members = g.split(":")
        for m in members.split("+"):
            group[m] = gname
    return {"num_vars": len(names), "names": names,
            "bounds": [[0.0, 1.0]] * len(names),
            "groups": [group[n] for n in names]}, names, group


def groups_check(design, ypath, indices):
    from SALib.analyze import sobol
    meta, _ = read_design(design)
    prob, names, group = grouped_problem(meta)
    si = sobol.analyze(prob, np.loadtxt(ypath), calc_second_order=False,
                       num_resamples=2, seed=1)
    ours = read_indices(indices)
    order = list(dict.fromkeys(group[n] for n in names))  # SALib's order
    d = max(max(abs(si["S1"][i] - ours[g]["S1"]), abs(si["ST"][i] - ours[g]["ST"]))
            for i, g in enumerate(order))
    print("groups-diff %.3g" % d)


def morris_groups_check(design, ypath, indices):
    from SALib.analyze import morris
    meta, x = read_design(design)
    prob, _, _ = grouped_problem(meta)
    si = morris.analyze(prob, x, np.loadtxt(ypath), num_levels=int(meta["p"]),
                        num_resamples=2, seed=1)
    ours = read_indices(indices)
    d = 0.0
    for i, g in enumerate(si["names"]):
        d = max(d, abs(si["mu"][i] - ours[g]["mu"]),
                abs(si["mu_star"][i] - ours[g]["mu_star"]))
        if not np.isnan(si["sigma"][i]):
            d = max(d, abs(si["sigma"][i] - ours[g]["sigma"]))
    print("groups-diff %.3g" % d)


def morris_optimize_check(candidates, chosen, k_choices):
    """SALib's choice of k_choices of a moat design's trajectories (of
    groups or not; brute force, as sareuse's for so few) against
    sareuse's --optimize of the same draws: whether it is the same set."""
    from SALib.sample.morris.morris import _compute_optimised_trajectories
    meta, x = read_design(candidates)
    _, y = read_design(chosen)
    if "groups" in meta:
        prob, _, _ = grouped_problem(meta)
    else:
        prob = problem(x.shape[1])
        prob["groups"] = prob["names"]
    pts = len(set(prob["groups"])) + 1
    got = _compute_optimised_trajectories(prob, x, x.shape[0] // pts,
                                          int(k_choices), False)
    as_set = lambda a: sorted(tuple(a[i:i + pts].ravel())
                              for i in range(0, len(a), pts))
    print("optimize-same %s" % ("yes" if as_set(got) == as_set(y) else "no"))


def latin_sample(k, n, out):
    timed_sample(lambda: latin.sample(problem(k), n, seed=1), out)


if __name__ == "__main__":
    what = sys.argv[1]
    if what == "given-check":
        given_check(*sys.argv[2:])
    elif what == "given-analyze":
        given_analyze(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    elif what == "morris-groups-check":
        morris_groups_check(sys.argv[2], sys.argv[3], sys.argv[4])
    elif what == "groups-check":
        groups_check(sys.argv[2], sys.argv[3], sys.argv[4])
    elif what == "morris-optimize-check":
        morris_optimize_check(sys.argv[2], sys.argv[3], sys.argv[4])
    elif what == "latin-sample":
        latin_sample(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    elif what == "efast-sample":
        efast_sample(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    elif what == "efast-check":
        efast_check(sys.argv[2], sys.argv[3], sys.argv[4])
    elif what == "efast-analyze":
        efast_analyze(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]))
    else:
        efast_design(sys.argv[2])
