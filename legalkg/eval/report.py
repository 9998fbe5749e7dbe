"""Result tables -> CSV, a markdown table and the paper's two figures (pure functions + an out dir).

Input: the long table of ``results.results_frame`` (one row per dataset, level, expansion, mode,
depth; columns recall_micro, ci_low, ci_high, toer, toer_m, W, W_m, n_gold, ...). Figures follow
the paper: ToER by evaluation depth per chunking level (Table 1 / unexpanded runs) and ToER vs
ToER^m per expansion strategy at one depth (Fig. 3a / 3b). matplotlib runs on the Agg backend so
reports render on machines without a display.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from ..model import DEPTHS

#: Chunking levels in the paper's order (coarse to fine); unknown levels are appended.
LEVEL_ORDER = ("naive", "Chunk", "Paragraph", "Absatz", "Satz", "Nummer", "Buchstabe", "Doppelbuchstabe")
#: "citation" is the retrieval module's name, "cited" an older alias.
EXPANSION_ORDER = ("none", "parent", "cited", "citation", "hybrid")
_GROUP = ("dataset", "mode")


def _ordered(values, order) -> list:
    present = list(dict.fromkeys(values))
    return [v for v in order if v in present] + [v for v in present if v not in order]


def _slug(*parts: object) -> str:
    s = "_".join(str(p).replace("§", "para") for p in parts
                 if p not in (None, "") and not (isinstance(p, float) and np.isnan(p)))
    return re.sub(r"[^\w.-]+", "-", s).strip("-") or "all"


def _groups(df: pd.DataFrame):
    cols = [c for c in _GROUP if c in df.columns]
    if not cols:
        yield (), df
        return
    for key, sub in df.groupby(cols, sort=False, dropna=False):
        yield (key if isinstance(key, tuple) else (key,)), sub


def write_csv(df: pd.DataFrame, out_dir: Path, name: str = "results.csv") -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / name
    df.to_csv(path, index=False, float_format="%.6g")
    return path


def _fmt(v: float, digits: int) -> str:
    return "–" if v is None or (isinstance(v, float) and np.isnan(v)) else f"{v:.{digits}f}"


def markdown_table(df: pd.DataFrame, value: str = "toer", digits: int = 2, ci: bool = True) -> str:
    """Rows = dataset / mode / level / expansion, columns = evaluation depths; cell = value [CI]."""
    ci_cols = {"toer": ("toer_ci_low", "toer_ci_high"), "recall_micro": ("ci_low", "ci_high"),
               "recall_macro": ("macro_ci_low", "macro_ci_high")}.get(value)
    depths = [d for d in DEPTHS if d in set(df["depth"])]
    keys = [c for c in ("dataset", "court", "mode", "level", "expansion") if c in df.columns
            and (c != "court" or df[c].nunique() > 1)]
    lines = ["| " + " | ".join(keys + depths) + " |", "|" + "---|" * (len(keys) + len(depths))]
    rows = df.copy()
    if "level" in rows:
        rows["_lo"] = rows["level"].map({lv: i for i, lv in enumerate(_ordered(rows["level"], LEVEL_ORDER))})
    if "expansion" in rows:
        rows["_eo"] = rows["expansion"].map(
            {e: i for i, e in enumerate(_ordered(rows["expansion"], EXPANSION_ORDER))})
    sort = [c for c in ("dataset", "court", "mode", "_lo", "_eo") if c in rows.columns]
    for key, sub in rows.sort_values(sort, kind="stable").groupby(keys, sort=False, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        cells = []
        by_depth = sub.set_index("depth")
        for d in depths:
            if d not in by_depth.index:
                cells.append("")
                continue
            r = by_depth.loc[d]
            cell = _fmt(float(r[value]), digits)
            if ci and ci_cols and ci_cols[0] in by_depth.columns:
                cell += f" [{_fmt(float(r[ci_cols[0]]), digits)}, {_fmt(float(r[ci_cols[1]]), digits)}]"
            cells.append(cell)
        lines.append("| " + " | ".join([str(k) for k in key] + cells) + " |")
    return "\n".join(lines) + "\n"


#: Depths of the per-level tables (the paper's Table 1 stops at Nummer; Code is hit by any unit of the law).
TABLE1_DEPTHS = ("§", "Absatz", "Satz", "Nummer")
_CONFIG_KEYS = ("dataset", "configuration", "mode", "level", "expansion")


def _value(r, col: str) -> float:
    v = r.get(col, np.nan) if hasattr(r, "get") else np.nan
    return float("nan") if v is None else float(v)


def court_summary(df: pd.DataFrame, depths: tuple[str, ...] = ("§", "Absatz")) -> pd.DataFrame:
    """One row per configuration and court (``all`` first): cases, gold, and per depth raw micro
    recall, ToER and ToER^m, then the words delivered per hit (W_d).

    Why one row per court with all four side by side: a court's ToER can rise only because its
    hits are shorter, which W_d beside the recall shows (``legalkg eval`` prints these lines)."""
    if df.empty:
        return pd.DataFrame()
    table = df if "court" in df.columns else df.assign(court="all")
    keys = [c for c in ("dataset", "configuration", "mode", "level", "expansion") if c in table.columns]
    depths = tuple(d for d in depths if d in set(table["depth"]))
    rows = []
    for key, sub in table.groupby(keys, sort=False, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        courts = ["all"] + sorted(c for c in dict.fromkeys(sub["court"]) if c != "all")
        for court in courts:
            part = sub[sub["court"] == court].set_index("depth")
            if part.empty:
                continue
            first = part.iloc[0]
            row = dict(zip(keys, key))
            row.update(court=court, n_cases=int(first["n_cases"]),
                       n_gold=int(part.loc[depths[0], "n_gold"]) if depths else int(first["n_gold"]))
            for d in depths:
                r = part.loc[d] if d in part.index else {}
                row[f"recall {d}"] = _value(r, "recall_micro")
                row[f"ToER {d}"] = _value(r, "toer")
                row[f"ToER^m {d}"] = _value(r, "toer_m")
            row["W_d"] = _value(first, "W_d")
            rows.append(row)
    return pd.DataFrame(rows)


def summary_markdown(summary: pd.DataFrame) -> str:
    """``court_summary`` as a markdown table (recall 3 digits, ToER 2, W_d 1)."""
    if summary.empty:
        return ""
    cols = list(summary.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for _, r in summary.iterrows():
        cells = []
        for c in cols:
            v = r[c]
            if isinstance(v, float):
                cells.append(_fmt(v, 3 if c.startswith("recall") else 1 if c == "W_d" else 2))
            else:
                cells.append(str(v))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def table1_markdown(df: pd.DataFrame, depths: tuple[str, ...] = TABLE1_DEPTHS) -> str:
    """The paper's Table 1 per level: rows = chunking level, columns = citation depth, each depth
    with raw micro recall [CI], ToER [CI] and ToER^m side by side, W and W_d beside the level.

    Unexpanded rows over all cases only; one block per dataset / configuration / mode. Raw recall
    stands next to ToER so that a short unit's ToER never hides the recall it loses."""
    rows = overall(df)
    if "expansion" in rows.columns:
        rows = rows[rows["expansion"] == "none"]
    if rows.empty:
        return ""
    depths = tuple(d for d in depths if d in set(rows["depth"]))
    head = ["level", "cases", "W", "W_d"] + [f"{d} {m}" for d in depths for m in ("recall", "ToER", "ToER^m")]
    # a configuration column (set by a script that joins runs) names the run better than its mode
    keys = [c for c in ("dataset", "configuration" if "configuration" in rows.columns else "mode") if c in rows.columns]
    out: list[str] = []
    for key, sub in rows.groupby(keys, sort=False, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        out += [f"**{' / '.join(str(k) for k in key)}**", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for level in _ordered(sub["level"], LEVEL_ORDER):
            part = sub[sub["level"] == level].set_index("depth")
            first = part.iloc[0]
            cells = [str(level), str(int(first["n_cases"])), _fmt(float(first["W"]), 1), _fmt(_value(first, "W_d"), 1)]
            for d in depths:
                if d not in part.index:
                    cells += ["", "", ""]
                    continue
                r = part.loc[d]
                cells += [f"{_fmt(float(r['recall_micro']), 3)} "
                          f"[{_fmt(float(r['ci_low']), 3)}, {_fmt(float(r['ci_high']), 3)}]",
                          f"{_fmt(float(r['toer']), 2)} "
                          f"[{_fmt(float(r['toer_ci_low']), 2)}, {_fmt(float(r['toer_ci_high']), 2)}]",
                          _fmt(float(r["toer_m"]), 2)]
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


def _pyplot():
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def plot_toer_by_depth(df: pd.DataFrame, out_dir: Path, expansion: str = "none") -> list[Path]:
    """One figure per (dataset, mode): ToER over evaluation depth, one line per chunking level."""
    plt = _pyplot()
    out_dir.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    data = df[df["expansion"] == expansion] if "expansion" in df.columns else df
    for key, sub in _groups(data):
        depths = [d for d in DEPTHS if d in set(sub["depth"])]
        x = np.arange(len(depths))
        fig, ax = plt.subplots(figsize=(7, 4))
        for level in _ordered(sub["level"], LEVEL_ORDER):
            s = sub[sub["level"] == level].set_index("depth").reindex(depths)
            y = s["toer"].to_numpy(dtype=float)
            if "toer_ci_low" in s.columns:
                err = np.vstack([y - s["toer_ci_low"].to_numpy(dtype=float),
                                 s["toer_ci_high"].to_numpy(dtype=float) - y])
                ax.errorbar(x, y, yerr=np.clip(np.nan_to_num(err), 0, None), marker="o", capsize=3, label=level)
            else:
                ax.plot(x, y, marker="o", label=level)
        ax.set_xticks(x, depths)
        ax.set_xlabel("evaluation depth")
        ax.set_ylabel("ToER (recall per 1,000 words)")
        ax.set_title("ToER by depth " + " / ".join(str(k) for k in key if k not in (None, "")))
        ax.legend(title="chunking level")
        ax.grid(alpha=0.3)
        fig.tight_layout()
        path = out_dir / f"toer_by_depth_{_slug(*key)}.png"
        fig.savefig(path, dpi=120)
        plt.close(fig)
        paths.append(path)
    return paths


def plot_toer_vs_toer_m(df: pd.DataFrame, out_dir: Path, depth: str = "Absatz") -> list[Path]:
    """One figure per (dataset, mode): (a) ToER and (b) ToER^m per level, one bar per expansion."""
    plt = _pyplot()
    out_dir.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    for key, sub in _groups(df[df["depth"] == depth]):
        levels = _ordered(sub["level"], LEVEL_ORDER)
        expansions = _ordered(sub["expansion"], EXPANSION_ORDER)
        x = np.arange(len(levels))
        width = 0.8 / max(len(expansions), 1)
        fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
        for ax, col, title in ((axes[0], "toer", "(a) ToER (W)"), (axes[1], "toer_m", "(b) ToER$^m$ (W$^m$)")):
            for i, exp in enumerate(expansions):
                s = sub[sub["expansion"] == exp].set_index("level").reindex(levels)
                ax.bar(x + (i - (len(expansions) - 1) / 2) * width, s[col].to_numpy(dtype=float), width,
                       label=exp)
            ax.set_xticks(x, levels)
            ax.set_xlabel("chunking level")
            ax.set_title(f"{title} at {depth} depth")
            ax.grid(axis="y", alpha=0.3)
        axes[0].set_ylabel("recall per 1,000 words")
        axes[1].legend(title="expansion")
        fig.suptitle(" / ".join(str(k) for k in key if k not in (None, "")))
        fig.tight_layout()
        path = out_dir / f"toer_expansion_{_slug(*key, depth)}.png"
        fig.savefig(path, dpi=120)
        plt.close(fig)
        paths.append(path)
    return paths


def overall(df: pd.DataFrame) -> pd.DataFrame:
    """The rows over all cases of a run (``court`` = "all"; every row when there is no court column)."""
    return df[df["court"] == "all"] if "court" in df.columns else df


def per_court(df: pd.DataFrame) -> pd.DataFrame:
    """The rows of single courts (empty when the run has none)."""
    return df[df["court"] != "all"] if "court" in df.columns else df.iloc[:0]


def write_report(df: pd.DataFrame, out_dir: Path, *, expansion_depth: str = "Absatz") -> list[Path]:
    """results.csv, results.md (ToER and micro recall tables, per court too) and the two kinds of figures.

    The figures and the first tables read the rows over all cases; per-court rows (``court`` column)
    get their own unexpanded tables, since a court is a subset of the same run.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    written = [write_csv(df, out_dir)]
    main, courts = overall(df), per_court(df)
    md = out_dir / "results.md"
    text = ("## ToER (recall per 1,000 words) [95 % bootstrap CI]\n\n" + markdown_table(main, "toer")
            + "\n## ToER^m (words incl. expansion context)\n\n" + markdown_table(main, "toer_m", ci=False)
            + "\n## Micro recall [95 % bootstrap CI]\n\n" + markdown_table(main, "recall_micro", 3))
    table1 = table1_markdown(main)
    if table1:
        text += ("\n## Table 1 layout: per level, raw recall [CI], ToER [CI], ToER^m by depth (unexpanded)\n\n"
                 + table1)
    if not courts.empty:
        unexpanded = courts[courts["expansion"] == "none"] if "expansion" in courts.columns else courts
        both = df[df["expansion"] == "none"] if "expansion" in df.columns else df
        text += ("\n## Per court: raw recall, ToER, ToER^m and W_d, unexpanded\n\n"
                 + summary_markdown(court_summary(both, ("§", "Absatz")))
                 + "\n## Per court: ToER, unexpanded [95 % bootstrap CI]\n\n" + markdown_table(unexpanded, "toer")
                 + "\n## Per court: micro recall, unexpanded [95 % bootstrap CI]\n\n"
                 + markdown_table(unexpanded, "recall_micro", 3))
    md.write_text(text, encoding="utf-8")
    written.append(md)
    written += plot_toer_by_depth(main, out_dir)
    if "expansion" in main.columns and main["expansion"].nunique() > 1:
        written += plot_toer_vs_toer_m(main, out_dir, expansion_depth)
    return written
