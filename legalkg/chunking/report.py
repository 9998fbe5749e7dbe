"""Write the study's CSV, markdown and the four figures (the paper's Figs. 2-5) (I/O)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from .study import StudyResult

COLUMNS = ("strategy", "family", "base", "n_units", "n_vectors", "recall_at_10", "ci_low", "ci_high",
           "latency_ms", "build_s", "n_embedded", "vector_bytes", "routing_bytes", "size_mb",
           "diff_vs_section", "p_vs_section", "p_holm")


def _row(r) -> dict:
    return {"strategy": r.name, "family": r.family, "base": r.base or "", "n_units": r.n_units,
            "n_vectors": r.n_vectors, "recall_at_10": round(r.recall, 4), "ci_low": round(r.ci_low, 4),
            "ci_high": round(r.ci_high, 4), "latency_ms": round(r.latency_ms, 3),
            "build_s": round(r.build_s, 2), "n_embedded": r.n_embedded, "vector_bytes": r.vector_bytes,
            "routing_bytes": r.routing_bytes, "size_mb": round(r.size_mb, 2),
            "diff_vs_section": "" if r.diff_vs_section is None else round(r.diff_vs_section, 4),
            "p_vs_section": "" if r.p_vs_section is None else f"{r.p_vs_section:.4g}",
            "p_holm": "" if r.p_holm is None else f"{r.p_holm:.4g}"}


def _fmt_s(sec: float) -> str:
    if sec < 60:
        return f"{sec:.1f} s"
    m, s = divmod(int(round(sec)), 60)
    return f"{m // 60} h {m % 60} m" if m >= 60 else f"{m} m {s} s"


def markdown(result: StudyResult) -> str:
    cfg = result.config
    lines = [
        "# Chunking study results", "",
        f"- questions: `{cfg.questions}` ({result.n_questions} used, {result.n_dropped} without BGB gold dropped"
        + (f", --limit {cfg.limit}" if cfg.limit else "") + ")",
        f"- model: {cfg.model} ({result.model_version}, {result.dim}-d); aggregation {cfg.aggregation}; "
        f"top-{cfg.k_units} units -> top-{cfg.k_sections} §§; latency = mean of {cfg.latency_runs} runs",
        f"- size = n_vectors x {result.dim} x 4 B + routing (sum over units of 4 + 4 x covered §§); raw text excluded",
        f"- total wall time {_fmt_s(result.total_s)} (query embedding {result.query_embed_s:.1f} s)"
        + (f"; reused from an earlier run: {', '.join(result.resumed)}" if result.resumed else ""),
    ]
    if result.friedman_p is not None:
        lines.append(f"- Friedman over {len(result.strategies)} strategies: chi2 = {result.friedman_stat:.1f}, "
                     f"p = {result.friedman_p:.3g}")
    lines += ["", "| strategy | units | Recall@10 [95% CI] | Δ vs section | p (Holm) | latency ms | build | size MB |",
              "|---|---:|---|---:|---:|---:|---:|---:|"]
    for r in result.strategies:
        diff = "" if r.diff_vs_section is None else f"{r.diff_vs_section:+.3f}"
        p = "" if r.p_holm is None else f"{r.p_holm:.3g}"
        lines.append(f"| {r.name} | {r.n_units:,} | {r.recall:.3f} [{r.ci_low:.3f}, {r.ci_high:.3f}] | {diff} | {p} "
                     f"| {r.latency_ms:.2f} | {_fmt_s(r.build_s)} | {r.size_mb:.1f} |")
    return "\n".join(lines) + "\n"


def plots(result: StudyResult, out: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = result.strategies
    names = [r.name for r in rows]
    files = []
    specs = [
        ("recall.png", "Recall@10 (95% CI)", [r.recall for r in rows],
         [[r.recall - r.ci_low for r in rows], [r.ci_high - r.recall for r in rows]]),
        ("latency.png", "retrieval latency, ms (mean of runs)", [r.latency_ms for r in rows], None),
        ("build_time.png", "offline build time, s", [r.build_s for r in rows], None),
        ("storage.png", "persisted index size, MB", [r.size_mb for r in rows], None),
    ]
    for fname, title, values, err in specs:
        fig, ax = plt.subplots(figsize=(max(6, 0.38 * len(rows) + 2), 4.2))
        ax.bar(range(len(rows)), values, yerr=err, capsize=2, color="#4477aa")
        ax.set_xticks(range(len(rows)), names, rotation=60, ha="right", fontsize=8)
        ax.set_title(title)
        fig.tight_layout()
        path = out / fname
        fig.savefig(path, dpi=120)
        plt.close(fig)
        files.append(path)
    return files


def write_report(result: StudyResult, out: Path) -> list[Path]:
    """results.csv, per_question.csv, retrieved.jsonl, summary.md, run.json and four PNGs in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    path = out / "results.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS)
        w.writeheader()
        for r in result.strategies:
            w.writerow(_row(r))
    written.append(path)
    path = out / "per_question.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["id"] + [r.name for r in result.strategies])
        for i, qid in enumerate(result.question_ids):
            w.writerow([qid] + [f"{r.per_question[i]:.4f}" for r in result.strategies])
    written.append(path)
    path = out / "retrieved.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        for r in result.strategies:
            for qid, top in zip(result.question_ids, r.retrieved):
                fh.write(json.dumps({"strategy": r.name, "id": qid, "top": top}, ensure_ascii=False) + "\n")
    written.append(path)
    (out / "summary.md").write_text(markdown(result), "utf-8")
    written.append(out / "summary.md")
    meta = result.model_dump(mode="json", exclude={"strategies": {"__all__": {"per_question", "retrieved"}}})
    (out / "run.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False), "utf-8")
    written.append(out / "run.json")
    written += plots(result, out)
    return written
