#!/usr/bin/env python3
"""clean.py IN.npy OUT.png METRICS MIN_SIZE FOOTPRINT - the nuclei of a
foreground mask: opened by a disc of radius FOOTPRINT (0: not opened),
holes filled, split into connected objects and those under MIN_SIZE
pixels dropped; written as a 16-bit label PNG. Writes its metrics, the
objects' mean area and the foreground fraction, to METRICS as
NAME<TAB>value lines (workflow(5))."""
import sys

import numpy as np
from PIL import Image
from scipy import ndimage

src, dst, metrics = sys.argv[1], sys.argv[2], sys.argv[3]
min_size, radius = int(sys.argv[4]), int(sys.argv[5])
fg = np.load(src)
if radius > 0:
    y, x = np.ogrid[-radius:radius + 1, -radius:radius + 1]
    fg = ndimage.binary_opening(fg, structure=x * x + y * y <= radius * radius)
fg = ndimage.binary_fill_holes(fg)
labels, n = ndimage.label(fg)
area = np.bincount(labels.ravel())
keep = area >= min_size
keep[0] = False
renumber = np.zeros(n + 1, dtype=np.uint16)
renumber[keep] = np.arange(1, int(keep.sum()) + 1, dtype=np.uint16)
labels = renumber[labels]
Image.fromarray(labels.astype(np.uint16)).save(dst)
with open(metrics, "w") as f:
    kept = area[keep]
    f.write("mean_area\t%.6g\n" % (kept.mean() if kept.size else 0.0))
    f.write("foreground\t%.6g\n" % (labels > 0).mean())
