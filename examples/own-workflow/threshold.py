#!/usr/bin/env python3
"""threshold.py IN.npy OUT.npy METHOD OFFSET - the foreground (nuclei) of
a haematoxylin map: above scikit-image's threshold METHOD (otsu, li or
mean) plus OFFSET; written as a boolean .npy."""
import sys

import numpy as np
from skimage.filters import threshold_li, threshold_mean, threshold_otsu

METHODS = {"otsu": threshold_otsu, "li": threshold_li, "mean": threshold_mean}
src, dst = sys.argv[1], sys.argv[2]
method, offset = sys.argv[3], float(sys.argv[4])
if method not in METHODS:
    sys.exit(f"threshold.py: method {method!r} is not one of {', '.join(METHODS)}")
haem = np.load(src)
np.save(dst, haem > METHODS[method](haem) + offset)
