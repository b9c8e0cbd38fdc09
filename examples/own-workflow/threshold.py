#!/usr/bin/env python3
"""threshold.py IN.npy OUT.npy METHOD OFFSET - the foreground (nuclei) of
a haematoxylin map: above scikit-image's threshold METHOD (0 Otsu, 1 Li,
2 the mean) plus OFFSET; written as a boolean .npy."""
import sys

import numpy as np
from skimage.filters import threshold_li, threshold_mean, threshold_otsu

METHODS = [threshold_otsu, threshold_li, threshold_mean]
src, dst = sys.argv[1], sys.argv[2]
method, offset = int(sys.argv[3]), float(sys.argv[4])
haem = np.load(src)
np.save(dst, haem > METHODS[method](haem) + offset)
