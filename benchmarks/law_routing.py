"""The law router (``legalkg.retrieve.laws``) measured alone: does it name the laws a case cites?

    NEO4J_URI=bolt://127.0.0.1:7691 .venv/bin/python benchmarks/law_routing.py \
        [--courts 200] [--lay 300] [--folds 5] [--seed 0] [--out eval/law-routing]

Data: LER BGH (all 115 decisions), ler_courts (a seeded sample of ``--courts`` records) and GerLayQA
dev (a seeded sample of ``--lay`` questions), queries built as ``legalkg eval`` builds them
(``legalkg.predict.load_examples``: gold and other norm spans masked, remaining citations masked,
first 512 words). A case's gold laws are the laws of its gold citations.

Out of fold: the shipped predictors were trained on these very cases, so each fold's predictor is
trained here on the other folds (5 folds grouped by case, ``legalkg.predict.grouped_folds``; the
LER BGH and ler_courts records form one case set, GerLayQA dev + train another), without its
bridge (the bridge needs every unit's text; the other components, popularity, classifier and
neighbours, learn from the training cases alone). The popularity baseline ranks laws by the number
of training-fold cases that cite them. The router's weights are fixed (``laws.WEIGHTS``), nothing
is tuned on the scored cases. The full-text signal reads the graph ``NEO4J_URI`` points at (all
laws, for the figures in docs/scale.md).

Metrics per case, mean over cases, 95 % bootstrap CIs (``legalkg.eval.stats.bootstrap_ci``):
law recall@k = share of the case's gold laws among the top k routed laws; hit@k = 1 if any is.
Rows: the popularity baseline, each signal alone, and the router (all signals fused), from the
same signals of the same run.

Then what the routing does to a search: § recall@5 (hits at § depth over the gold citations,
micro, ``legalkg.eval.metric.score_case``) of a full-text § search (``mode="fulltext"``: the
shipped predictor of the learned mode was trained on these cases) over all laws, inside the top
routed law (what ``legalkg search --law auto`` does), and inside the top 3 routed laws (the top 50
hits over all laws kept where their law is one of the 3), with the paired difference to all laws
(``legalkg.eval.stats.paired_test``).
"""

from __future__ import annotations

import argparse
import csv
import random
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from legalkg import paths
from legalkg.errors import UserError
from legalkg.eval.metric import score_case
from legalkg.eval.stats import bootstrap_ci, paired_test
from legalkg.graph.config import load_config
from legalkg.graph.connection import open_driver
from legalkg.model import DEPTHS, law_of_id as law_of
from legalkg.predict import grouped_folds, load_examples, train
from legalkg.retrieve import Retriever, laws
from legalkg.retrieve.laws import SIGNALS, WEIGHTS, routed_laws

CASE_FILES = ("ler_bgh/bgh_documents.jsonl", "ler_courts/dev.jsonl.gz")
LAY_FILES = ("gerlayqa/dev.jsonl", "gerlayqa/train.jsonl")
KS = (1, 3, 5)
DEPTH = 10  # laws kept per ranking
K_SEARCH = 5
POOL = 50  # hits over all laws filtered for the top-3 row
I_PARA = DEPTHS.index("§")
SEARCHES = ("all laws", "--law auto (top routed law)", "top 3 routed laws")


def rows_of(runs: dict[str, list[str]], popular: list[str]) -> dict[str, list[str]]:
    """Row name -> the ranked laws it routes (the popularity baseline, each signal, the router)."""
    out = {"popularity (training folds)": popular[:DEPTH]}
    for name in SIGNALS:
        out[f"{name} alone"] = runs.get(name, [])[:DEPTH]
    out["router (all signals, fixed weights)"] = routed_laws(runs, DEPTH, WEIGHTS)
    return out


def scored(retriever: Retriever, data, wanted: set[str], task: str, n_folds: int, seed: int) -> list[dict]:
    """Per scored example: its dataset, gold laws and the rows' rankings (out of fold)."""
    out = []
    for train_idx, test_idx in grouped_folds([e.group for e in data.examples], n_folds, seed):
        test = [data.examples[i] for i in test_idx if data.examples[i].id in wanted]
        if not test:
            continue
        train_set = type(data)(data.task, [data.examples[i] for i in train_idx], data.sources)
        model = train(train_set, seed=seed)
        counts = Counter(law for e in train_set.examples for law in {c.law for c in e.gold})
        popular = [law for law, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
        for e in test:
            runs = laws.law_runs(retriever, e.text, task, predictor=model)
            rows = rows_of(runs, popular)
            out.append({"id": e.id, "dataset": dataset_of(e), "gold": {c.law for c in e.gold}, "rows": rows,
                        "search": searched(retriever, e, rows["router (all signals, fixed weights)"])})
    return out


def searched(retriever: Retriever, example, routed: list[str]) -> dict[str, tuple[float, int]]:
    """Search row -> (§-depth hits, gold count) of a full-text § search of the example's query."""
    pool = [h.id for h in retriever.search(example.text, level="Paragraph", k=POOL, mode="fulltext").seeds]
    top3 = set(routed[:3])
    hits = {"all laws": pool[:K_SEARCH],
            "top 3 routed laws": [u for u in pool if law_of(u) in top3][:K_SEARCH],
            "--law auto (top routed law)": inside(retriever, example.text, routed[0]) if routed else pool[:K_SEARCH]}
    out = {}
    for name in SEARCHES:
        s = score_case(example.id, list(example.gold), hits[name])
        out[name] = (float(s.hits[I_PARA]), int(s.n_gold))
    return out


def dataset_of(example) -> str:
    if example.id.startswith("gerlayqa"):
        return "GerLayQA dev"
    return "LER BGH" if example.id.startswith("ler-bgh") else "ler_courts"


def sample_ids(ids: list[str], n: int | None, seed: int) -> set[str]:
    return set(ids if n is None or n >= len(ids) else random.Random(seed).sample(ids, n))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--courts", type=int, default=200, help="ler_courts records scored (a seeded sample)")
    ap.add_argument("--lay", type=int, default=300, help="GerLayQA dev questions scored (a seeded sample)")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=None, help="folder for results.csv and results.md")
    args = ap.parse_args()

    cfg = load_config()
    driver = open_driver(cfg)
    retriever = Retriever(driver, cfg.database)
    t0 = time.perf_counter()
    case_data = load_examples([paths.eval_dir() / f for f in CASE_FILES], "case")
    lay_data = load_examples([paths.eval_dir() / f for f in LAY_FILES], "lay")
    bgh = [e.id for e in case_data.examples if dataset_of(e) == "LER BGH"]
    courts = [e.id for e in case_data.examples if dataset_of(e) == "ler_courts"]
    dev = [e.id for e in lay_data.examples if e.id.startswith("gerlayqa-dev")]
    results = scored(retriever, case_data, set(bgh) | sample_ids(courts, args.courts, args.seed), "case",
                     args.folds, args.seed)
    results += scored(retriever, lay_data, sample_ids(dev, args.lay, args.seed), "lay", args.folds, args.seed)
    secs = time.perf_counter() - t0

    date = datetime.now(UTC).strftime("%Y-%m-%d")
    md = [f"Law routing, {date}, graph {cfg.uri}, {args.folds}-fold CV grouped by case (seed {args.seed}), "
          f"{secs:.0f} s. Mean over cases, 95 % bootstrap CI.\n"]
    rows_csv = []
    for ds in ("LER BGH", "ler_courts", "GerLayQA dev"):
        part = [r for r in results if r["dataset"] == ds]
        if not part:
            continue
        md.append(f"### {ds}: {len(part)} cases, {np.mean([len(r['gold']) for r in part]):.2f} gold laws per case\n")
        md.append("| ranking | " + " | ".join(f"law recall@{k}" for k in KS) + " | "
                  + " | ".join(f"hit@{k}" for k in KS) + " |")
        md.append("|---|" + "---|" * (2 * len(KS)))
        for name in part[0]["rows"]:
            cells = []
            for metric in ("recall", "hit"):
                for k in KS:
                    vals = np.array([metric_of(r["rows"][name][:k], r["gold"], metric) for r in part])
                    ci = bootstrap_ci(vals)
                    cells.append(f"{ci.point:.3f} [{ci.low:.3f}, {ci.high:.3f}]")
                    rows_csv.append({"dataset": ds, "ranking": name, "metric": f"{metric}@{k}", "value": ci.point,
                                     "low": ci.low, "high": ci.high, "n": len(part)})
            md.append(f"| {name} | " + " | ".join(cells) + " |")
        md.append("")
        md.append(f"Full-text § search, § recall@{K_SEARCH} (micro), paired difference to all laws:\n")
        md.append("| searched in | § recall@5 | difference | p |")
        md.append("|---|---|---|---|")
        ng = np.array([r["search"]["all laws"][1] for r in part], dtype=float)
        base = np.array([r["search"]["all laws"][0] for r in part])
        for name in SEARCHES:
            h = np.array([r["search"][name][0] for r in part])
            ci = bootstrap_ci(h, ng)
            diff = "– | –" if name == "all laws" else _diff(paired_test(h, base, ng))
            md.append(f"| {name} | {ci.point:.3f} [{ci.low:.3f}, {ci.high:.3f}] | {diff} |")
            rows_csv.append({"dataset": ds, "ranking": f"search: {name}", "metric": f"para_recall@{K_SEARCH}",
                             "value": ci.point, "low": ci.low, "high": ci.high, "n": len(part)})
        md.append("")
    text = "\n".join(md)
    print(text)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "results.md").write_text(text + "\n", encoding="utf-8")
        with (args.out / "results.csv").open("w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(rows_csv[0]))
            writer.writeheader()
            writer.writerows(rows_csv)
    driver.close()


def inside(retriever: Retriever, text: str, law: str) -> list[str]:
    """The top § ids of a full-text search inside ``law``; none for a law the graph lacks (the
    predictor learns the laws of its training gold, and a few of them are not in gii)."""
    try:
        return [h.id for h in retriever.search(text, level="Paragraph", k=K_SEARCH, mode="fulltext", law=law).seeds]
    except UserError:
        return []


def _diff(res) -> str:
    return f"{res.diff:+.3f} [{res.ci_low:+.3f}, {res.ci_high:+.3f}] | {res.p_value:.3f}"


def metric_of(top: list[str], gold: set[str], metric: str) -> float:
    if not gold:
        return 0.0
    found = len(gold.intersection(top))
    return found / len(gold) if metric == "recall" else float(found > 0)


if __name__ == "__main__":
    main()
