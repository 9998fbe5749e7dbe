"""Similar decisions' citations as a candidate source of the case ranker, in CV (issue 46, item 3).

    nice -n 5 .venv/bin/python benchmarks/decisions_candidates.py VARIANT -- eval ARGS...

Runs ``legalkg eval ARGS`` (the CLI itself, so the folds, fold rankers, ``--level auto`` and the
statistics are the shipped engine's) with the statute predictor's § level changed as ``VARIANT`` says:

* ``shipped``: nothing changed. The predictor's ``knn`` component *is* the decisions source: each
  query's 30 most similar training decisions (TF-IDF cosine) vote for the units they cite, weighted
  by similarity squared (``predict/neighbours.py``); its top 30 §§ join the ranker's candidates
  and its score, rank and gap are ranker features (``predict/rankfeatures.py``).
* ``noknn``: the ``knn`` component left out at § level, everywhere the § level is read: no
  candidates from it, its features missing (NaN), the predictor's RRF without it, in the fold
  predictors, the inner predictors that make each fold ranker's training rows, and at scoring.
  ``legalkg eval --predictor-weights knn=0`` cannot measure this with the fold rankers on: it
  changes only the RRF and is refused with ``--fold-ranker shipped``.
* ``wide``: a richer source: the votes of the ``WIDE`` most similar training decisions (not 30)
  as the ``knn`` component at § level (RRF, features), and its §§ ranked 31 to 60 as extra
  candidates (source ``decisions``), so the ranker sees more of what similar decisions cite.

In CV every fold's predictor is trained on the other folds only, so the "decisions in the graph"
a case's neighbours come from are those of the other folds: a fold never sees its own decisions.
The variant is patched into ``Predictor.component_scores`` before the CLI runs (nothing in the
package changes) and written to ``variant.json`` beside the run's results in ``--out``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from legalkg.cli import main
from legalkg.model import Level
from legalkg.predict import predictor as predmod
from legalkg.predict.neighbours import Neighbours
from legalkg.predict.predictor import level_name
from legalkg.predict.rankfeatures import PER_COMPONENT

VARIANTS = ("shipped", "noknn", "wide")
#: Neighbours whose votes the ``wide`` variant counts (the shipped ``Config.neighbours`` is 30).
WIDE = 100
#: The extra candidates' part name in the ranker's runs (``rankfeatures.SOURCES`` passes it through).
EXTRA = "decisions"
PARA = Level.PARAGRAPH.value


def wide_parts(pred: predmod.Predictor, texts, parts: dict) -> dict:
    """``parts`` with ``knn`` from ``WIDE`` neighbours and ``EXTRA``: its ranks 31-60 (else -inf)."""
    if "knn" not in parts:
        return parts
    labels, _ = parts["knn"]
    knn = getattr(pred, "_wide_knn", None)
    if knn is None:
        knn = Neighbours(pred.x_train, WIDE, pred.config.power)
        pred._wide_knn = knn
    votes = knn.scores(pred.queries.transform(list(texts)), pred.levels[PARA].y)
    extra = np.full_like(votes, -np.inf)
    order = np.argsort(-votes, axis=1, kind="stable")[:, PER_COMPONENT:2 * PER_COMPONENT]
    rows = np.arange(votes.shape[0])[:, None]
    extra[rows, order] = np.where(votes[rows, order] > 0, votes[rows, order], -np.inf)
    return {**parts, "knn": (labels, votes), EXTRA: (labels, extra)}


def install(variant: str) -> None:
    """Patch ``Predictor.component_scores`` at § level for ``variant`` (``shipped``: no patch)."""
    if variant == "shipped":
        return
    original = predmod.Predictor.component_scores

    def component_scores(self, texts, level=Level.PARAGRAPH):
        parts = original(self, texts, level)
        if level_name(level) != PARA:
            return parts
        if variant == "noknn":
            parts.pop("knn", None)
            return parts
        return wide_parts(self, texts, parts)

    predmod.Predictor.component_scores = component_scores


def out_dir(args: list[str]) -> Path | None:
    for i, a in enumerate(args):
        if a == "--out" and i + 1 < len(args):
            return Path(args[i + 1])
        if a.startswith("--out="):
            return Path(a.split("=", 1)[1])
    return None


def run(argv: list[str]) -> int:
    if len(argv) < 3 or argv[0] not in VARIANTS or argv[1] != "--" or argv[2] != "eval":
        print(f"usage: decisions_candidates.py {{{','.join(VARIANTS)}}} -- eval ARGS...", file=sys.stderr)
        return 2
    variant, args = argv[0], argv[2:]
    install(variant)
    try:
        main(args=args, prog_name="legalkg")
        code = 0
    except SystemExit as e:
        code = e.code
    out = out_dir(args)
    if out is not None and out.is_dir():
        # (run.json beside it holds the command line)
        (out / "variant.json").write_text(json.dumps({"variant": variant, "wide_neighbours": WIDE,
                                                      "per_component": PER_COMPONENT}, indent=1) + "\n")
    return int(code or 0)


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
