"""salib_methods.py - SALib's side of test/bench/salib-methods: the methods
of issue 31 on the same work as sa-sample and sa-indices, timed inside one
Python process (interpreter start and imports not counted, in SALib's
favour). Prints "LABEL VALUE" lines.

  salib_methods.py efast-sample K N OUT.txt   fast_sampler.sample, k
                                   continuous on [0,1], written with
                                   np.savetxt (%.8e) as SALib's CLI writes
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
"""
import math
import sys
import time

import numpy as np
from SALib.analyze import fast
from SALib.sample import fast_sampler


def problem(k):
    return {"num_vars": k, "names": ["x%d" % (i + 1) for i in range(k)],
            "bounds": [[0.0, 1.0]] * k}


def efast_sample(k, n, out):
    t0 = time.perf_counter()
    x = fast_sampler.sample(problem(k), n, M=4, seed=1)
    t1 = time.perf_counter()
    np.savetxt(out, x, fmt="%.8e", delimiter="\t")
    t2 = time.perf_counter()
    print("sample %.4f" % (t1 - t0))
    print("write %.4f" % (t2 - t1))


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


if __name__ == "__main__":
    what = sys.argv[1]
    if what == "efast-sample":
        efast_sample(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    elif what == "efast-check":
        efast_check(sys.argv[2], sys.argv[3], sys.argv[4])
    elif what == "efast-analyze":
        efast_analyze(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]))
    else:
        efast_design(sys.argv[2])
