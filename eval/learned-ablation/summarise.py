"""Collect the ablation runs of run.sh (one `legalkg eval --out` folder each) into results.csv and results.md.

Usage: .venv/bin/python eval/learned-ablation/summarise.py RUNS_DIR [OUT_DIR]
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

CONFIGS = {"all": "all runs (default weights)", "predictor_off": "predictor off", "fulltext_off": "full-text off",
           "vector_off": "vector off", "cited_off": "cited off", "tuned": "tuned (nested CV)",
           "nb_off": "predictor: classifier (NB) off", "knn_off": "predictor: kNN off",
           "bridge_off": "predictor: bridge off", "pop_off": "predictor: popularity off"}
#: per-court tables: (level, depth, column, label)
COURT_METRICS = (("Paragraph", "§", "recall_micro", "raw § recall@5 at § level"),
                 ("Absatz", "§", "toer", "ToER@5 at § depth, Absatz level"),
                 ("Absatz", "Absatz", "toer", "ToER@5 at Absatz depth, Absatz level"))
DATASETS = {"gerlayqa": "GerLayQA dev (+ train.jsonl in every fold), k 10", "ler_bgh": "LER BGH, k 5",
            "ler_courts": "ler_courts, k 5"}


def rows_of(folder: Path, court: str | None = "all") -> list[dict[str, str]]:
    """The rows over all cases (``court`` "all"), of one court, or with ``None`` every row."""
    with (folder / "results.csv").open(encoding="utf-8") as fh:
        return [r for r in csv.DictReader(fh) if court is None or r.get("court", "all") == court]


def court_table(runs: Path, ds: str) -> list[str]:
    """Per configuration and court (``all`` first): the COURT_METRICS, one markdown table each."""
    got: dict[tuple[str, str, str], float] = {}
    courts: dict[str, None] = {"all": None}
    for cfg in CONFIGS:
        folder = runs / f"{ds}-{cfg}"
        if not (folder / "results.csv").exists():
            continue
        for r in rows_of(folder, None):
            courts.setdefault(r.get("court", "all"), None)
            for level, depth, col, label in COURT_METRICS:
                if r["level"] == level and r["depth"] == depth:
                    got[(cfg, r.get("court", "all"), label)] = float(r[col])
    if len(courts) < 3:  # one court: its rows repeat the total
        return []
    lines = []
    for _level, _depth, _col, label in COURT_METRICS:
        lines += [f"#### {label}, per court", "", "| configuration | " + " | ".join(courts) + " |",
                  "|---|" + "---|" * len(courts)]
        for cfg, name in CONFIGS.items():
            if any((cfg, c, label) in got for c in courts):
                digits = 3 if "recall" in label else 2
                lines.append(f"| {name} | " + " | ".join(f"{got[(cfg, c, label)]:.{digits}f}" if (cfg, c, label) in got
                                                          else "—" for c in courts) + " |")
        lines.append("")
    return lines


RUNS = ("predictor", "cited", "fulltext", "vector")
DEFAULT = {"predictor": 1.0, "cited": 1.0, "fulltext": 0.5, "vector": 0.5}


def weights_of(folder: Path) -> str:
    """The folds' weights as predictor/cited/fulltext/vector, e.g. ``1/1/0.5/0`` (distinct ones, ``;``)."""
    options = json.loads((folder / "run.json").read_text(encoding="utf-8")).get("options", {})
    chosen = options.get("fold_weights") or []
    if not chosen:
        given = dict(DEFAULT)
        for item in (options.get("weights") or "").split(","):
            if "=" in item:
                name, value = item.split("=")
                given[name] = float(value)
        chosen = [given]
    return "; ".join("/".join(f"{w[r]:g}" for r in RUNS) for w in chosen)


def metrics(rows: list[dict[str, str]]) -> dict[str, float]:
    """The ablation's metrics per level: raw § recall and ToER at § and Absatz depth, W_d, IR recall."""
    out: dict[str, float] = {}
    for r in rows:
        tag = "§" if r["level"] == "Paragraph" else r["level"]
        if r["depth"] == "§":
            out[f"{tag} level: raw § recall"] = float(r["recall_micro"])
            out[f"{tag} level: ToER §"] = float(r["toer"])
            out[f"{tag} level: W_d"] = float(r["W_d"])
            if tag == "§" and r["n_ir_queries"] not in ("", "0", "0.0"):
                out[f"{tag} level: Recall@k (per query)"] = float(r["recall_at_k"])
        if r["depth"] == "Absatz" and tag != "§":
            out[f"{tag} level: ToER Absatz"] = float(r["toer"])
    return out


def main(runs: Path, out: Path) -> None:
    table = []
    for ds in DATASETS:
        for cfg in CONFIGS:
            folder = runs / f"{ds}-{cfg}"
            if (folder / "results.csv").exists():
                for name, value in metrics(rows_of(folder)).items():
                    table.append({"dataset": ds, "configuration": cfg, "weights": weights_of(folder),
                                  "metric": name, "value": round(value, 4)})
    with (out / "results.csv").open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, ["dataset", "configuration", "weights", "metric", "value"])
        writer.writeheader()
        writer.writerows(table)
    lines = []
    for ds, title in DATASETS.items():
        sub = [r for r in table if r["dataset"] == ds]
        if not sub:
            continue
        names = list(dict.fromkeys(r["metric"] for r in sub))
        lines += [f"### {title}", "", "| configuration | " + " | ".join(names) + " | weights p/c/ft/vec (per fold) |",
                  "|---|" + "---|" * (len(names) + 1)]
        for cfg, label in CONFIGS.items():
            got = {r["metric"]: r for r in sub if r["configuration"] == cfg}
            if got:
                cells = [f"{got[n]['value']:.3f}" if n in got and "W_d" not in n else
                         (f"{got[n]['value']:.1f}" if n in got else "—") for n in names]
                lines.append(f"| {label} | " + " | ".join(cells) + f" | {next(iter(got.values()))['weights']} |")
        lines.append("")
        lines += court_table(runs, ds)
    (out / "results.md").write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else Path(__file__).parent)
