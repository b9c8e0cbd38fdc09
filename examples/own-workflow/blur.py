#!/usr/bin/env python3
"""blur.py IN OUT.npy SIGMA - the haematoxylin of an H&E tile (colour
deconvolution, scikit-image's rgb2hed: nuclei hold the most), smoothed by
a Gaussian of SIGMA pixels; written as float32 .npy for the next task."""
import sys

import numpy as np
from PIL import Image
from scipy import ndimage
from skimage.color import rgb2hed

src, dst, sigma = sys.argv[1], sys.argv[2], float(sys.argv[3])
rgb = np.asarray(Image.open(src).convert("RGB"))
haem = rgb2hed(rgb)[..., 0]
np.save(dst, ndimage.gaussian_filter(haem, sigma).astype(np.float32))
