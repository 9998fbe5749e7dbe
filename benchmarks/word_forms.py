"""German word forms beside the Snowball stems, each alone, on the same folds (legalkg.predict.text.FORMS).

    nice -n 10 .venv/bin/python benchmarks/word_forms.py [--out eval/word-forms] [--task lay|case|both]

For each variant of ``Config.forms`` (stems only, + lemmas, + compound parts, + both) the predictor
is cross-validated on the same 5 folds grouped by case (seed 0) as benchmarks/predictor_cv.py does;
each fold's model sees only the other folds. Rows: the plain classifier (Complement NB alone) and the
predictor without its bridge (the word forms change the query words that NB and the neighbours read;
the bridge's statute side keeps the stems, and leaving it out kept the run within the shared machine's
time). lay: GerLayQA dev + train, Recall@10 and nDCG@10; case: LER BGH +
ler_courts, raw § recall@5 (micro). 95 % bootstrap CIs, and a paired permutation test of each variant
against stems only.
"""

from __future__ import annotations

import datetime as dt
import sys
import time
from pathlib import Path

import click
import numpy as np

from legalkg import paths
from legalkg.eval.metric import score_case
from legalkg.eval.stats import bootstrap_ci, paired_test
from legalkg.model import DEPTHS
from legalkg.predict import Config, load_examples, out_of_fold, resolve_labels, train
from legalkg.predict.units import unit_texts

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # research/ is not installed
from research.results import write_results  # noqa: E402

FILES = {"lay": ("gerlayqa/dev.jsonl", "gerlayqa/train.jsonl"),
         "case": ("ler_bgh/bgh_documents.jsonl", "ler_courts/dev.jsonl.gz")}
VARIANTS = {"stems": (), "stems + lemmas": ("lemma",), "stems + compound parts": ("split",),
            "stems + lemmas + compound parts": ("lemma", "split")}
ROWS = {"plain classifier (Complement NB)": {"nb": 1.0},
        "predictor without bridge (RRF of nb, knn, pop)": {k: v for k, v in Config().weights.items() if k != "bridge"}}
I_PARA = DEPTHS.index("§")


def ndcg(ranked, gold, k=10) -> float:
    disc = 1.0 / np.log2(np.arange(2, k + 2))
    gains = np.array([1.0 if u in gold else 0.0 for u in ranked[:k]])
    return float(gains @ disc[:len(gains)] / disc[:min(len(gold), k)].sum())


def per_case(task, data, runs, name) -> np.ndarray:
    """(n, 2): lay Recall@10 and nDCG@10; case § hits@5 and the number of gold citations."""
    if task == "lay":
        golds = [{f"{c.law}/{c.para}" for c in e.gold} for e in data.examples]
        return np.array([(len(g & set(r[name][:10])) / len(g), ndcg(r[name], g)) for r, g in zip(runs, golds)])
    scores = [score_case(e.id, list(e.gold), r[name][:5]) for e, r in zip(data.examples, runs)]
    return np.array([(s.hits[I_PARA], s.n_gold) for s in scores], float)


@click.command()
@click.option("--out", default="eval/word-forms", show_default=True, type=click.Path(file_okay=False))
@click.option("--task", type=click.Choice(["lay", "case", "both"]), default="both", show_default=True)
def main(out, task) -> None:
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    units = unit_texts()
    rows, md = [], ["# German word forms, cross-validated (benchmarks/word_forms.py)\n",
                    f"- date: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC",
                    f"- command: `nice -n 10 .venv/bin/python benchmarks/word_forms.py --out {out} --task {task}`\n"]
    for t in ("lay", "case"):
        if task not in (t, "both"):
            continue
        data = resolve_labels(load_examples([paths.eval_dir() / f for f in FILES[t]], t), units)
        metrics = ("Recall@10", "nDCG@10") if t == "lay" else ("§ recall@5 (micro)",)
        md += [f"## {t}: {len(data.examples):,} cases, 5 folds (seed 0)\n",
               "| word forms | configuration | " + " | ".join(metrics) + " | difference to stems [95 % CI], p |",
               "|---|---|" + "---|" * len(metrics) + "---|"]
        base: dict[str, np.ndarray] = {}
        for variant, forms in VARIANTS.items():
            t0 = time.perf_counter()
            cfg = Config(forms=forms)

            def score(model, test):
                parts = model.component_scores([e.text for e in test], "Paragraph")
                fused = {name: model.fuse(parts, len(test), 10, w) for name, w in ROWS.items()}
                return [{name: [u for u, _, _ in f[i]] for name, f in fused.items()} for i in range(len(test))]

            runs = out_of_fold(data, lambda ts, cfg=cfg: train(ts, config=cfg), score)
            for name in ROWS:
                m = per_case(t, data, runs, name)
                base.setdefault(name, m)
                if t == "lay":
                    cis = [bootstrap_ci(m[:, 0]), bootstrap_ci(m[:, 1])]
                    test = paired_test(m[:, 0], base[name][:, 0])
                else:
                    cis = [bootstrap_ci(m[:, 0], m[:, 1])]
                    test = paired_test(m[:, 0], base[name][:, 0], m[:, 1])
                diff = "—" if forms == () else f"{test.diff:+.3f} [{test.ci_low:+.3f}, {test.ci_high:+.3f}], p {test.p_value:.3f}"
                md.append(f"| {variant} | {name} | " + " | ".join(f"{c.point:.3f} [{c.low:.3f}, {c.high:.3f}]" for c in cis)
                          + f" | {diff} |")
                for metric, ci in zip(metrics, cis):
                    rows.append({"task": t, "forms": variant, "configuration": name, "metric": metric,
                                 "value": ci.point, "low": ci.low, "high": ci.high, "diff": test.diff,
                                 "p": test.p_value, "n": len(m)})
            print(f"{t} {variant}: {time.perf_counter() - t0:.0f} s", flush=True)
        md.append("")
    write_results(out_dir, rows, md)
    print("\n".join(md))


if __name__ == "__main__":
    main()
