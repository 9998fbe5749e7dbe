"""Rebuild the shipped law router (``legalkg/data/law-router.npz``) from its documented inputs and compare.

    .venv/bin/python benchmarks/router_rebuild.py --words $TMPDIR/lawwords.json \
        [--out docs/benchmarks/router-rebuild.json]

The shipped router is the one ``benchmarks/law_router_lay.py --save-router`` writes (the command in
eval/law-router-lay/learned/README.md): ``LawRouter.fit`` on the statute words of every law of the
all-laws archive (``--words``, built from the archive and cached there when missing) and the
questions of its training files plus its ``--cv`` file, all read as that script reads them. The fit
has no randomness, so the rebuild must equal the shipped file: the same laws and vocabulary, and
every stored value within the file's float16 rounding. Exit 1 on a difference.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from legalkg import paths
from legalkg.predict.lawrouter import LawRouter, shipped

sys.path.insert(0, str(Path(__file__).resolve().parent))
from law_router_lay import law_words, questions  # noqa: E402

#: the shipped router's inputs: training files (each whole) and the --cv file, in the saved order
TRAIN = ("eval/lay-beyond-train/train.jsonl", "eval/lay-beyond-more/train.jsonl", "eval/lay-outside-train/train.jsonl",
         "gerlayqa/train.jsonl")
CV = "eval/lay-beyond/dev.jsonl"
#: float16 storage: relative tolerance of a stored value
RTOL = 2e-3


def inputs() -> list[Path]:
    return [paths.REPO_ROOT / f if f.startswith("eval/") else paths.eval_dir() / f for f in (*TRAIN, CV)]


def compare(new: LawRouter, old: LawRouter) -> dict[str, object]:
    """What differs between two routers (empty lists and True flags where they agree)."""
    out: dict[str, object] = {"laws_equal": new.laws == old.laws, "vocab_equal": new.vocab == old.vocab,
                              "lay_weight_equal": new.lay_weight == old.lay_weight}
    if out["laws_equal"] and out["vocab_equal"]:
        out["idf_close"] = bool(np.allclose(new.idf, old.idf, rtol=RTOL))
        for name in ("statute", "lay"):
            a, b = getattr(new, name).toarray(), getattr(old, name).toarray()
            out[f"{name}_max_abs_diff"] = float(np.abs(a.astype(np.float32) - b.astype(np.float32)).max())
            out[f"{name}_close"] = bool(np.allclose(a, b, rtol=RTOL, atol=1e-3))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", type=Path, required=True, help="law -> statute words JSON (built when missing)")
    ap.add_argument("--out", type=Path, default=None, help="write the comparison here as JSON")
    args = ap.parse_args()
    words = law_words(args.words, None)
    qs = [(text, gold) for p in inputs() for _, text, gold in questions(p, None, 0)]
    result = compare(LawRouter.fit(words, qs), shipped())
    result.update({"inputs": [str(p.relative_to(paths.REPO_ROOT)) if p.is_relative_to(paths.REPO_ROOT)
                              else f"$LEGALKG_SHARED/data/eval/{p.relative_to(paths.eval_dir())}" for p in inputs()],
                   "questions": len(qs), "laws": len(words)})
    ok = all(v for k, v in result.items() if k.endswith(("_equal", "_close")))
    result["same_as_shipped"] = ok
    text = json.dumps(result, indent=1, ensure_ascii=False)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
