"""salib.py - SALib's side of test/bench/salib: the same work as sa-sample
and sa-indices, timed inside one Python process (interpreter start and
imports not counted, in SALib's favour). Prints "LABEL SECONDS" lines.

  salib.py sample K N OUT.txt    Saltelli/Sobol design, k continuous on
                                 [0,1], no second order, written with
                                 np.savetxt as SALib's CLI writes it (%.8e)
  salib.py analyze K Y.txt R     sobol.analyze of the outputs Y (one value a
                                 line), R resamples; prints S1 and ST too
"""
import sys
import time

import numpy as np
from SALib.analyze import sobol as sobol_analyze
from SALib.sample import sobol as sobol_sample


def problem(k):
    return {"num_vars": k, "names": ["x%d" % (i + 1) for i in range(k)],
            "bounds": [[0.0, 1.0]] * k}


def sample(k, n, out):
    t0 = time.perf_counter()
    x = sobol_sample.sample(problem(k), n, calc_second_order=False, seed=1)
    t1 = time.perf_counter()
    np.savetxt(out, x, fmt="%.8e", delimiter="\t")
    t2 = time.perf_counter()
    print("sample %.4f" % (t1 - t0))
    print("write %.4f" % (t2 - t1))
    print("rows %d" % x.shape[0])


def analyze(k, ypath, resamples):
    t0 = time.perf_counter()
    y = np.loadtxt(ypath)
    t1 = time.perf_counter()
    si = sobol_analyze.analyze(problem(k), y, calc_second_order=False,
                               num_resamples=resamples, conf_level=0.95,
                               print_to_console=False, seed=1)
    t2 = time.perf_counter()
    print("read %.4f" % (t1 - t0))
    print("analyze %.4f" % (t2 - t1))
    for i in range(k):
        print("S x%d %.17g %.17g %.17g %.17g" % (i + 1, si["S1"][i], si["S1_conf"][i],
                                                 si["ST"][i], si["ST_conf"][i]))


if __name__ == "__main__":
    if sys.argv[1] == "sample":
        sample(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    else:
        analyze(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]))
