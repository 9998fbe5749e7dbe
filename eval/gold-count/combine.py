"""The three ways of counting gold per depth side by side, from the runs of ``run.sh``.

    .venv/bin/python eval/gold-count/combine.py [RUNS_DIR]   (default eval/out/gold-count)

Reads ``RUNS_DIR/<dataset>-<way>/results.csv`` and ``run.json`` (one ``legalkg eval --gold-count <way>``
run each) and writes into this folder: ``results.csv`` (unexpanded cells, all courts, the columns
needed to redraw the tables), ``results.md`` (the Satz row under each way, with 95 % bootstrap CIs,
and whether it rises from Satz to Nummer depth as in the paper) and ``satz_row.png``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from legalkg.model import DEPTHS  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # research/ is not installed
from research import paper  # noqa: E402

HERE = Path(__file__).resolve().parent
WAYS = ("fixed", "dedup", "named")
COLUMNS = ["dataset", "court", "gold_count", "mode", "level", "depth", "depth_index", "n_cases", "n_gold", "hits",
           "recall_micro", "ci_low", "ci_high", "W", "toer", "toer_ci_low", "toer_ci_high"]
PAPER_SATZ = {d: paper.TABLE1_TOER[("Satz", d)] for d in ("Absatz", "Satz", "Nummer")}


def load(runs: Path) -> tuple[pd.DataFrame, list[dict]]:
    frames, metas = [], []
    for folder in sorted(p for p in runs.iterdir() if (p / "results.csv").exists()):
        df = pd.read_csv(folder / "results.csv")
        frames.append(df[df["expansion"] == "none"])
        meta = json.loads((folder / "run.json").read_text(encoding="utf-8"))
        metas.append({"folder": folder.name, "command": meta["command"], "started": meta["started"],
                      "finished": meta["finished"], "model": meta["model"], "n_cases": meta["n_cases"],
                      "gold_count": meta.get("gold_count", "fixed")})
    if not frames:
        raise SystemExit(f"no runs under {runs}: run eval/gold-count/run.sh first")
    df = pd.concat(frames, ignore_index=True)
    if "court" not in df.columns:
        df["court"] = "all"
    order = {"gold_count": list(WAYS), "mode": ["vector", "fulltext", "fusion"]}
    for col, values in order.items():
        df[col] = pd.Categorical(df[col], [v for v in values if v in set(df[col])]
                                 + sorted(set(df[col]) - set(values)), ordered=True)
    df = df.sort_values(["dataset", "court", "mode", "gold_count", "level", "depth_index"], kind="stable")
    return df[COLUMNS].astype({"gold_count": str, "mode": str}), metas


def satz_table(df: pd.DataFrame) -> list[str]:
    lines = ["| dataset | mode | gold count | " + " | ".join(DEPTHS[1:]) + " | Satz -> Nummer |",
             "|---|---|---|" + "---|" * (len(DEPTHS) - 1) + "---|"]
    sub = df[(df["level"] == "Satz") & (df["court"] == "all")]
    for (dataset, mode, way), s in sub.groupby(["dataset", "mode", "gold_count"], sort=False):
        s = s.set_index("depth")
        cells = []
        for d in DEPTHS[1:]:
            r = s.loc[d] if d in s.index else None
            cells.append("–" if r is None or pd.isna(r["toer"]) else
                         f"{r['toer']:.2f} [{r['toer_ci_low']:.2f}, {r['toer_ci_high']:.2f}] (n {int(r['n_gold'])})")
        rise = s.loc["Nummer", "toer"] - s.loc["Satz", "toer"]
        cells.append("rises" if rise > 1e-9 else "flat" if abs(rise) <= 1e-9 else "falls")
        lines.append(f"| {dataset} | {mode} | {way} | " + " | ".join(cells) + " |")
    lines.append("| paper (12,037 BGH cases, vector) | | ? | | "
                 + " | ".join(f"{PAPER_SATZ[d]:.2f}" for d in ("Absatz", "Satz", "Nummer")) + " | | rises |")
    return lines


def court_table(df: pd.DataFrame) -> list[str]:
    sub = df[(df["level"] == "Satz") & (df["court"] != "all") & df["depth"].isin(["Satz", "Nummer"])]
    if sub.empty:
        return []
    lines = ["| mode | court | gold count | ToER Satz | ToER Nummer | Satz -> Nummer |", "|---|---|---|---|---|---|"]
    for (mode, court, way), s in sub.groupby(["mode", "court", "gold_count"], sort=False):
        s = s.set_index("depth")
        a, b = s.loc["Satz", "toer"], s.loc["Nummer", "toer"]
        verdict = "–" if pd.isna(a) or pd.isna(b) else "rises" if b > a + 1e-9 else "flat" if abs(b - a) <= 1e-9 \
            else "falls"
        lines.append(f"| {mode} | {court} | {way} | {a:.2f} | {b:.2f} | {verdict} |")
    return lines


def plot(df: pd.DataFrame, path: Path) -> None:
    """One panel per dataset (rows) and mode (columns); depths § to Nummer (Buchstabe has almost no named gold)."""
    sub = df[(df["level"] == "Satz") & (df["court"] == "all")]
    datasets, modes = list(dict.fromkeys(sub["dataset"])), list(dict.fromkeys(sub["mode"]))
    fig, axes = plt.subplots(len(datasets), len(modes), figsize=(3.3 * len(modes), 2.6 * len(datasets)),
                             squeeze=False, sharex=True)
    depths = ["§", "Absatz", "Satz", "Nummer"]
    for r, dataset in enumerate(datasets):
        for c, mode in enumerate(modes):
            ax = axes[r][c]
            s = sub[(sub["dataset"] == dataset) & (sub["mode"] == mode)]
            for way in WAYS:
                w = s[s["gold_count"] == way].set_index("depth").reindex(depths)
                y = w["toer"].to_numpy(dtype=float)
                err = [y - w["toer_ci_low"].to_numpy(dtype=float), w["toer_ci_high"].to_numpy(dtype=float) - y]
                ax.errorbar(range(len(depths)), y, yerr=err, marker="o", capsize=2, label=way, alpha=0.85)
            ax.plot([1, 2, 3], list(PAPER_SATZ.values()), marker="x", linestyle=":", color="k", label="paper")
            ax.set_xticks(range(len(depths)), depths, fontsize=7)
            ax.set_title(f"{dataset} / {mode}", fontsize=9)
            ax.grid(alpha=0.3)
        axes[r][0].set_ylabel("ToER@5, Satz units", fontsize=8)
    axes[0][-1].legend(title="gold count", fontsize=7)
    fig.suptitle("The Satz row under each way of counting gold per depth (95 % CI; x = paper, other cases)",
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def main() -> None:
    runs = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parent / "out" / "gold-count"
    df, metas = load(runs)
    df.to_csv(HERE / "results.csv", index=False, float_format="%.6g")
    lines = ["# Counting gold per depth: the Satz row under fixed, dedup and named", "",
             "ToER@5 of Satz units (unexpanded) by evaluation depth, [95 % bootstrap CI over cases], n = gold "
             "counted at that depth. Written by `eval/gold-count/combine.py` from the runs below; "
             "docs/evaluation.md, 'Counting gold per depth', defines the three ways.", "",
             *satz_table(df), ""]
    courts = court_table(df)
    if courts:
        lines += ["## Per court (ler_courts), Satz units", "", *courts, ""]
    lines += ["## Runs", "", "| folder | command | started | finished | model | cases |", "|---|---|---|---|---|---|"]
    lines += [f"| {m['folder']} | `{m['command']}` | {m['started']} | {m['finished']} | {m['model']} | "
              f"{m['n_cases']} |" for m in metas]
    (HERE / "results.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    plot(df, HERE / "satz_row.png")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
