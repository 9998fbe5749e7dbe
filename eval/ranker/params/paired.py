"""The README's paired difference: nested choice minus shipped PARAMS, R@10 over all questions (params-res.pkl of nested_params.py)."""
import pickle
import tempfile
from pathlib import Path

import numpy as np

from legalkg.eval.stats import paired_test

per, nested, chosen, ids = pickle.load(open(Path(tempfile.gettempdir()) / "exp" / "params-res.pkl", "rb"))
k = sorted(nested)
p = paired_test(np.array([nested[i] for i in k]), np.array([per["shipped"][i] for i in k]), n_resamples=5000)
print("nested - shipped", float(p.diff), float(p.ci_low), float(p.ci_high), float(p.p_value))
