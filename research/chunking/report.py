"""Write the study's CSV, markdown and the four figures (the paper's Figs. 2-5) (I/O)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from matplotlib.figure import Figure

from .study import StrategyResult, StudyResult

COLUMNS = ("strategy", "family", "base", "n_units", "n_vectors", "recall_at_10", "ci_low", "ci_high",
           "latency_ms", "build_s", "n_embedded", "vector_bytes", "routing_bytes", "size_mb",
           "diff_vs_section", "p_vs_section", "p_holm", "latency_diff_ms", "latency_ci_low",
           "latency_ci_high", "latency_p", "latency_p_holm")
SIGNIFICANT = 0.05


def ablation_columns(k: int) -> tuple[str, ...]:
    """CSV columns of the top-``k`` ablation (empty when it is off)."""
    return (f"recall_at_{k}", f"ci_low_{k}", f"ci_high_{k}", f"diff_{k}_vs_section", f"p_holm_{k}") if k else ()


def _num(x: float | None, digits: int) -> float | str:
    return "" if x is None else round(x, digits)


def _p(x: float | None) -> str:
    return "" if x is None else f"{x:.4g}"


def _row(r: StrategyResult, k_ablation: int) -> dict:
    row = {"strategy": r.name, "family": r.family, "base": r.base or "", "n_units": r.n_units,
           "n_vectors": r.n_vectors, "recall_at_10": round(r.recall, 4), "ci_low": round(r.ci_low, 4),
           "ci_high": round(r.ci_high, 4), "latency_ms": round(r.latency_ms, 3),
           "build_s": round(r.build_s, 2), "n_embedded": r.n_embedded, "vector_bytes": r.vector_bytes,
           "routing_bytes": r.routing_bytes, "size_mb": round(r.size_mb, 2),
           "diff_vs_section": _num(r.diff_vs_section, 4), "p_vs_section": _p(r.p_vs_section),
           "p_holm": _p(r.p_holm), "latency_diff_ms": _num(r.latency_diff_ms, 3),
           "latency_ci_low": _num(r.latency_ci_low, 3), "latency_ci_high": _num(r.latency_ci_high, 3),
           "latency_p": _p(r.latency_p), "latency_p_holm": _p(r.latency_p_holm)}
    if k_ablation:
        values = (_num(r.recall_ablation, 4), _num(r.ci_low_ablation, 4), _num(r.ci_high_ablation, 4),
                  _num(r.diff_ablation_vs_section, 4), _p(r.p_holm_ablation))
        row.update(zip(ablation_columns(k_ablation), values))
    return row


def _fmt_s(sec: float) -> str:
    if sec < 60:
        return f"{sec:.1f} s"
    m, s = divmod(int(round(sec)), 60)
    return f"{m // 60} h {m % 60} m" if m >= 60 else f"{m} m {s} s"


def _diff(x: float | None, lo: float | None = None, hi: float | None = None, digits: int = 3) -> str:
    if x is None:
        return ""
    ci = f" [{lo:+.{digits}f}, {hi:+.{digits}f}]" if lo is not None and hi is not None else ""
    return f"{x:+.{digits}f}{ci}"


def markdown(result: StudyResult) -> str:
    cfg = result.config
    k, kab = cfg.k_sections, cfg.k_ablation
    lines = [
        "# Chunking study results", "",
        f"- questions: `{cfg.questions}` ({result.n_questions} used, {result.n_dropped} without BGB gold dropped"
        + (f", --limit {cfg.limit}" if cfg.limit else "") + ")",
        f"- model: {cfg.model} ({result.model_version}, {result.dim}-d); aggregation {cfg.aggregation}; "
        f"top-{cfg.k_units} units -> top-{k} §§; latency = mean of {cfg.latency_runs} run(s) per question, "
        "timed after all builds with the strategies interleaved per question"
        + ("; LLM backend on (--llm)" if cfg.llm else ""),
        f"- size = n_vectors x {result.dim} x 4 B + routing (sum over units of 4 + 4 x covered §§); raw text excluded",
        f"- total wall time {_fmt_s(result.total_s)} (query embedding {result.query_embed_s:.1f} s)"
        + (f"; reused from an earlier run: {', '.join(result.resumed)}" if result.resumed else ""),
    ]
    late = [r.name for r in result.strategies if not r.latency_interleaved]
    if late:
        lines.append(f"- latency of {', '.join(late)}: timed right after its build, not interleaved "
                     "(its units were gone from the server)")
    if result.friedman_p is not None:
        lines.append(f"- Friedman over {len(result.strategies)} strategies (Recall@{k}): "
                     f"chi2 = {result.friedman_stat:.1f}, p = {result.friedman_p:.3g}")
    lines.append(f"- Δ = strategy minus `section` on the same questions (mean, paired bootstrap 95% CI for "
                 f"latency); p (Holm) = paired sign-flip permutation test for Recall@{k}, paired "
                 f"{cfg.latency_test} test for latency, each Holm-corrected over the "
                 f"{max(0, len(result.strategies) - 1)} comparisons")
    lines += ["", f"| strategy | units | Recall@{k} [95% CI] | Δ vs section | p (Holm) | latency ms "
                  "| Δ latency ms [95% CI] | p latency (Holm) | build | size MB |",
              "|---|---:|---|---:|---:|---:|---|---:|---:|---:|"]
    for r in result.strategies:
        lines.append(f"| {r.name} | {r.n_units:,} | {r.recall:.3f} [{r.ci_low:.3f}, {r.ci_high:.3f}] "
                     f"| {_diff(r.diff_vs_section)} | {_p3(r.p_holm)} | {r.latency_ms:.2f} "
                     f"| {_diff(r.latency_diff_ms, r.latency_ci_low, r.latency_ci_high, 2)} "
                     f"| {_p3(r.latency_p_holm)} | {_fmt_s(r.build_s)} | {r.size_mb:.1f} |")
    if kab and all(r.recall_ablation is not None for r in result.strategies):
        lines += ["", f"## Top-{kab} ablation", "",
                  f"The same ranking cut at {kab} instead of {k} distinct §§ (the paper's top-{kab} "
                  "section evaluation); paired permutation test against `section`, Holm-corrected."]
        if result.friedman_ablation_p is not None:
            lines.append(f"Friedman (Recall@{kab}): chi2 = {result.friedman_ablation_stat:.1f}, "
                         f"p = {result.friedman_ablation_p:.3g}.")
        lines += ["", f"| strategy | Recall@{k} | Recall@{kab} [95% CI] | Δ vs section | p (Holm) |",
                  "|---|---:|---|---:|---:|"]
        for r in result.strategies:
            lines.append(f"| {r.name} | {r.recall:.3f} | {r.recall_ablation:.3f} "
                         f"[{r.ci_low_ablation:.3f}, {r.ci_high_ablation:.3f}] "
                         f"| {_diff(r.diff_ablation_vs_section)} | {_p3(r.p_holm_ablation)} |")
    return "\n".join(lines) + "\n"


def _p3(x: float | None) -> str:
    return "" if x is None else f"{x:.3g}"


def _latency_colour(r: StrategyResult) -> str:
    """Blue: not significantly different from section (or section itself); green faster; red slower."""
    if r.latency_p_holm is None or r.latency_p_holm >= SIGNIFICANT or r.latency_diff_ms is None:
        return "#4477aa"
    return "#228833" if r.latency_diff_ms < 0 else "#cc3311"


def plots(result: StudyResult, out: Path) -> list[Path]:
    """The paper's Figs. 2-5 (Recall@10 with CI, latency, build time, size), plus Recall@k of the
    ablation. ``Figure`` without pyplot: no global backend state, safe in a library call."""
    rows = result.strategies
    names = [r.name for r in rows]
    kab = result.config.k_ablation
    blue = ["#4477aa"] * len(rows)
    specs = [
        ("recall.png", f"Recall@{result.config.k_sections} (95% CI)", [r.recall for r in rows],
         [[r.recall - r.ci_low for r in rows], [r.ci_high - r.recall for r in rows]], blue),
        ("latency.png", "retrieval latency, ms (mean over questions); green/red: significantly "
         "faster/slower than section (Holm)", [r.latency_ms for r in rows], None,
         [_latency_colour(r) for r in rows]),
        ("build_time.png", "offline build time, s", [r.build_s for r in rows], None, blue),
        ("storage.png", "persisted index size, MB", [r.size_mb for r in rows], None, blue),
    ]
    if kab and all(r.recall_ablation is not None for r in rows):
        specs.append((f"recall_at_{kab}.png", f"Recall@{kab} (95% CI), top-{kab} ablation",
                      [r.recall_ablation for r in rows],
                      [[r.recall_ablation - r.ci_low_ablation for r in rows],
                       [r.ci_high_ablation - r.recall_ablation for r in rows]], blue))
    files = []
    for fname, title, values, err, colours in specs:
        fig = Figure(figsize=(max(6, 0.38 * len(rows) + 2), 4.2))
        ax = fig.subplots()
        ax.bar(range(len(rows)), values, yerr=err, capsize=2, color=colours)
        ax.set_xticks(range(len(rows)), names, rotation=60, ha="right", fontsize=8)
        ax.set_title(title, fontsize=9)
        fig.tight_layout()
        path = out / fname
        fig.savefig(path, dpi=120)
        files.append(path)
    return files


def write_report(result: StudyResult, out: Path) -> list[Path]:
    """results.csv, results.md, run.json and the PNGs in ``out``, plus the per-question dumps
    per_question.csv (Recall@10, Recall@k of the ablation, latency ms) and retrieved.jsonl."""
    out.mkdir(parents=True, exist_ok=True)
    kab = result.config.k_ablation
    written = []
    path = out / "results.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS + ablation_columns(kab))
        w.writeheader()
        for r in result.strategies:
            w.writerow(_row(r, kab))
    written.append(path)
    path = out / "per_question.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "strategy", f"recall_at_{result.config.k_sections}"]
                   + ([f"recall_at_{kab}"] if kab else []) + ["latency_ms"])
        for r in result.strategies:
            for i, qid in enumerate(result.question_ids):
                row = [qid, r.name, f"{r.per_question[i]:.4f}"]
                if kab:
                    row.append(f"{r.per_question_ablation[i]:.4f}" if r.per_question_ablation else "")
                row.append(f"{r.latency_per_question[i]:.3f}" if r.latency_per_question else "")
                w.writerow(row)
    written.append(path)
    path = out / "retrieved.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        for r in result.strategies:
            for qid, top in zip(result.question_ids, r.retrieved):
                fh.write(json.dumps({"strategy": r.name, "id": qid, "top": top}, ensure_ascii=False) + "\n")
    written.append(path)
    (out / "results.md").write_text(markdown(result), "utf-8")
    written.append(out / "results.md")
    per_q = {"per_question", "per_question_ablation", "latency_per_question", "retrieved"}
    meta = result.model_dump(mode="json", exclude={"strategies": {"__all__": per_q}})
    (out / "run.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False), "utf-8")
    written.append(out / "run.json")
    written += plots(result, out)
    return written
