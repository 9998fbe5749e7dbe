"""Cross-validated quality of the statute predictor (legalkg.predict) on GerLayQA and the LER decisions.

    .venv/bin/python benchmarks/predictor_cv.py [--out eval/predictor] [--seed 0] [--folds 5] [--task lay|case]

Every number is out-of-fold: 5 folds grouped by case (``legalkg.predict.grouped_folds``; chunked
courts in runs of 5 neighbouring chunks), fixed seed; each fold's model, its popularity prior and
its bridge come from the other folds only. One model per fold; the rows differ only in the fusion
weights applied to that model's component scores (the components are fitted independently, so a
weight of 0 equals training without the component).

* lay: ``gerlayqa/dev.jsonl`` + ``gerlayqa/train.jsonl``. Recall@10, hit@10, Recall@100 over the
  distinct gold §§ of a question, mean over questions, with 95 % bootstrap CIs
  (``legalkg.eval.stats.bootstrap_ci``, 1,000 resamples, seed 0).
* case: ``ler_bgh/bgh_documents.jsonl`` + ``ler_courts/dev.jsonl.gz``, queries built as
  ``legalkg eval`` builds them (gold and other norm spans masked, remaining citations masked,
  first 512 words). Raw § recall@5 = hits at § depth (``legalkg.eval.metric``) over all gold
  citations (micro, also those outside the 58 codes, which no unit of the graph can hit), with its
  CI, overall and per court; plus Absatz-depth recall@5 of the Absatz-level predictions.

Writes ``results.csv`` and ``results.md`` into ``--out``; ``eval/predictor/README.md`` names the
command of the committed run.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import sys
import time
from pathlib import Path

import click
import numpy as np

from legalkg import paths
from legalkg.eval.metric import score_case
from legalkg.eval.stats import bootstrap_ci
from legalkg.model import DEPTHS
from legalkg.predict import Config, StatuteIndex, load_examples, out_of_fold, resolve_labels, train, unit_texts

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # research/ is not installed
from research.results import fmt_ci, subset_cells, write_results  # noqa: E402

LAY_FILES = ("gerlayqa/dev.jsonl", "gerlayqa/train.jsonl")
CASE_FILES = ("ler_bgh/bgh_documents.jsonl", "ler_courts/dev.jsonl.gz")
DEFAULT = dict(Config().weights)
ROWS: dict[str, dict[str, float]] = {
    "popularity list (training folds)": {"pop": 1.0},
    "plain classifier (Complement NB)": {"nb": 1.0},
    "neighbours alone": {"knn": 1.0},
    "bridge alone (learned term associations)": {"bridge": 1.0},
    "predictor (all components)": DEFAULT,
    **{f"all without {c}": {k: v for k, v in DEFAULT.items() if k != c} for c in DEFAULT},
}
K_MAX = 100
I_PARA = DEPTHS.index("§")
I_ABS = DEPTHS.index("Absatz")


def fold_runs(data, units, statutes, level: str, n_folds: int, seed: int) -> list[dict[str, list[str]]]:
    """Per example (data order): row name -> its out-of-fold ranked ids (top K_MAX)."""

    def fit(train_set):
        return train(resolve_labels(train_set, units), statutes=statutes, seed=seed)

    def score(model, test):
        parts = model.component_scores([e.text for e in test], level)
        out: list[dict[str, list[str]]] = [{} for _ in test]
        for name, weights in ROWS.items():
            fused = model.fuse(parts, len(test), K_MAX, weights)
            for i, row in enumerate(fused):
                out[i][name] = [uid for uid, _, _ in row]
        return out

    return out_of_fold(data, fit, score, n_folds, seed)


def lay_metrics(ranked: list[str], gold: set[str]) -> tuple[float, float, float]:
    return (len(gold & set(ranked[:10])) / len(gold), float(bool(gold & set(ranked[:10]))),
            len(gold & set(ranked[:100])) / len(gold))


def prepared(files, task, units):
    """The task's training set, the laws its labels name, and the bridge's statute index over them."""
    data = load_examples([paths.eval_dir() / f for f in files], task)
    laws = sorted({lab.split("/", 1)[0] for e in resolve_labels(data, units).examples for lab in e.labels})
    return data, laws, StatuteIndex.build(units, laws)


def run_lay(units, n_folds, seed, rows_out, md) -> None:
    data, laws, statutes = prepared(LAY_FILES, "lay", units)
    t0 = time.perf_counter()
    runs = fold_runs(data, units, statutes, "Paragraph", n_folds, seed)
    secs = time.perf_counter() - t0
    golds = [{f"{c.law}/{c.para}" for c in e.gold} for e in data.examples]
    md.append(f"## GerLayQA dev + train, {len(data.examples):,} questions, {n_folds}-fold CV (seed {seed})\n")
    md.append(f"Bridge and unit universe: {len(statutes.ids):,} §§ of {', '.join(laws)}. CV time {secs:.0f} s.\n")
    md.append("| configuration | Recall@10 | hit@10 | Recall@100 |")
    md.append("|---|---|---|---|")
    for name in ROWS:
        m = np.array([lay_metrics(r[name], g) for r, g in zip(runs, golds)])
        cis = [bootstrap_ci(m[:, j]) for j in range(3)]
        md.append(f"| {name} | {fmt_ci(cis[0])} | {fmt_ci(cis[1])} | {fmt_ci(cis[2])} |")
        for metric, ci in zip(("recall@10", "hit@10", "recall@100"), cis):
            rows_out.append({"dataset": "gerlayqa dev+train", "subset": "all", "configuration": name,
                             "metric": metric, "value": ci.point, "low": ci.low, "high": ci.high,
                             "n": len(golds)})
    md.append("")


def run_case(units, n_folds, seed, rows_out, md) -> None:
    data, laws, statutes = prepared(CASE_FILES, "case", units)
    t0 = time.perf_counter()
    para_runs = fold_runs(data, units, statutes, "Paragraph", n_folds, seed)
    abs_runs = fold_runs(data, units, statutes, "Absatz", n_folds, seed)
    secs = time.perf_counter() - t0
    courts = sorted({e.court or "?" for e in data.examples})
    n_gold = sum(len(set(e.gold)) for e in data.examples)
    md.append(f"## LER BGH + ler_courts, {len(data.examples):,} records, {n_gold:,} distinct gold citations, "
              f"{n_folds}-fold CV (seed {seed})\n")
    md.append(f"Labels and bridge: units of the 58 default codes ({len(statutes.ids):,} §§ of {len(laws)} laws "
              f"cited in the data). Raw recall counts every gold citation, also those no unit can hit. "
              f"CV time {secs:.0f} s.\n")
    header = "| configuration | § recall@5 (micro) | " + " | ".join(f"{c}" for c in courts) + " | § recall@10 |"
    md.append(header)
    md.append("|---|---|" + "---|" * len(courts) + "---|")
    for name in ROWS:
        s5 = [score_case(e.id, list(e.gold), r[name][:5]) for e, r in zip(data.examples, para_runs)]
        s10 = [score_case(e.id, list(e.gold), r[name][:10]) for e, r in zip(data.examples, para_runs)]
        hits5 = np.array([s.hits[I_PARA] for s in s5], dtype=float)
        hits10 = np.array([s.hits[I_PARA] for s in s10], dtype=float)
        ng = np.array([s.n_gold for s in s5], dtype=float)
        ci5, ci10 = bootstrap_ci(hits5, ng), bootstrap_ci(hits10, ng)
        cells = subset_cells([e.court or "?" for e in data.examples], hits5, ng,
                             {"dataset": "ler_bgh+ler_courts", "subset": None, "configuration": name,
                              "metric": "para_recall@5"}, rows_out)
        md.append(f"| {name} | {fmt_ci(ci5)} | " + " | ".join(cells) + f" | {fmt_ci(ci10)} |")
        for metric, ci in (("para_recall@5", ci5), ("para_recall@10", ci10)):
            rows_out.append({"dataset": "ler_bgh+ler_courts", "subset": "all", "configuration": name,
                             "metric": metric, "value": ci.point, "low": ci.low, "high": ci.high,
                             "n": len(data.examples)})
    md.append("\nAbsatz-level predictions (the predictor's Absatz labels; the bridge works at § level only):\n")
    md.append("| configuration | Absatz recall@5 (micro) | § recall@5 of the same Absatz units |")
    md.append("|---|---|---|")
    for name in ("popularity list (training folds)", "plain classifier (Complement NB)", "neighbours alone",
                 "predictor (all components)"):
        s5 = [score_case(e.id, list(e.gold), r[name][:5]) for e, r in zip(data.examples, abs_runs)]
        ng = np.array([s.n_gold for s in s5], dtype=float)
        ci_abs = bootstrap_ci(np.array([s.hits[I_ABS] for s in s5], dtype=float), ng)
        ci_par = bootstrap_ci(np.array([s.hits[I_PARA] for s in s5], dtype=float), ng)
        md.append(f"| {name} | {fmt_ci(ci_abs)} | {fmt_ci(ci_par)} |")
        rows_out.append({"dataset": "ler_bgh+ler_courts", "subset": "all", "configuration": name,
                         "metric": "absatz_recall@5", "value": ci_abs.point, "low": ci_abs.low,
                         "high": ci_abs.high, "n": len(data.examples)})
    md.append("")


#: Debian package openthesaurus-de-text (LGPL); read from its installed path, never committed.
THESAURUS = Path("/usr/share/openthesaurus-de/openthesaurus.txt")


def thesaurus_synonyms(path: Path) -> dict[str, set[str]]:
    """Stem -> stems of its one-word synonyms (multi-word entries are skipped)."""
    from legalkg.predict.text import tokens

    out: dict[str, set[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        stems = [tokens(term.split("(")[0]) for term in line.split(";")]
        single = [s[0] for s in stems if len(s) == 1]
        for a in single:
            out.setdefault(a, set()).update(b for b in single if b != a)
    return out


def thesaurus_probe(units, md) -> None:
    """OpenThesaurus as a lay-to-statute bridge: the question's own stems plus their synonyms,
    scored by TF-IDF cosine against the BGB § texts. Nothing is learned, so no CV is needed."""
    import scipy.sparse as sp
    from sklearn.preprocessing import normalize

    from legalkg.predict.text import tokens

    if not THESAURUS.exists():
        md.append(f"OpenThesaurus probe skipped: {THESAURUS} not installed (apt-get install openthesaurus-de-text).\n")
        return
    syn = thesaurus_synonyms(THESAURUS)
    statutes = StatuteIndex.build(units, ["BGB"])
    vec = statutes.vectoriser
    data = load_examples([paths.eval_dir() / f for f in LAY_FILES], "lay")
    golds = [{f"{c.law}/{c.para}" for c in e.gold} for e in data.examples]

    def query_row(text: str, weight: float) -> sp.csr_matrix:
        counts: dict[int, float] = {}
        stems = tokens(text)
        for t in stems:
            if t in vec.index:
                counts[vec.index[t]] = counts.get(vec.index[t], 0.0) + 1.0
        if weight:
            for t in set(stems):
                found = [vec.index[x] for x in syn.get(t, ()) if x in vec.index]
                for j in found:
                    counts[j] = counts.get(j, 0.0) + weight / np.sqrt(len(found))
        row = sp.csr_matrix((np.log1p(list(counts.values())), ([0] * len(counts), list(counts))),
                            shape=(1, len(vec.vocabulary)))
        return normalize(row @ sp.diags(vec.idf))

    md.append("## OpenThesaurus as the bridge (unsupervised, all 3,708 questions)\n")
    md.append(f"{len(syn):,} stems with synonyms; BGB §§ scored by TF-IDF cosine with the question's stems "
              "plus each stem's synonyms at the given weight (weight 0 = plain lexical match).\n")
    md.append("| synonym weight | Recall@10 | Recall@100 |")
    md.append("|---|---|---|")
    for weight in (0.0, 0.3, 1.0):
        q = sp.vstack([query_row(e.text, weight) for e in data.examples])
        scores = (q @ statutes.rows.T).toarray()
        m = []
        for i, g in enumerate(golds):
            order = np.argsort(-scores[i], kind="stable")[:100]
            ranked = [statutes.ids[j] for j in order]
            m.append((len(g & set(ranked[:10])) / len(g), len(g & set(ranked)) / len(g)))
        arr = np.array(m)
        md.append(f"| {weight} | {fmt_ci(bootstrap_ci(arr[:, 0]))} | {fmt_ci(bootstrap_ci(arr[:, 1]))} |")
    md.append("")


def latency(units, md) -> None:
    """Single-query predict time of the shipped lay model (bridge attached), first 200 dev questions."""
    from legalkg.predict import load_model

    model = load_model(Path(__file__).resolve().parents[1] / "legalkg" / "data" / "predictor-lay.npz")
    model.attach_units(units)
    data = load_examples([paths.eval_dir() / LAY_FILES[0]], "lay")
    times = []
    for e in data.examples[:200]:
        t = time.perf_counter()
        model.predict([e.text], k=10)
        times.append((time.perf_counter() - t) * 1000)
    p50, p95 = np.percentile(times, [50, 95])
    md.append(f"## Latency\n\n`Predictor.predict([question], k=10)` of the shipped `legalkg/data/predictor-lay.npz`, "
              f"bridge attached, 200 dev questions one at a time: p50 {p50:.1f} ms, p95 {p95:.1f} ms "
              f"(1-min load average {os.getloadavg()[0]:.1f}).\n")


@click.command()
@click.option("--out", default="eval/predictor", show_default=True, type=click.Path(file_okay=False))
@click.option("--seed", default=0, show_default=True)
@click.option("--folds", default=5, show_default=True)
@click.option("--task", type=click.Choice(["lay", "case", "both"]), default="both", show_default=True)
def main(out, seed, folds, task) -> None:
    started = time.perf_counter()
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    units = unit_texts()
    rows: list[dict] = []
    md = ["# Statute predictor, cross-validated (benchmarks/predictor_cv.py)\n",
          f"- date: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC",
          f"- command: `.venv/bin/python benchmarks/predictor_cv.py --out {out} --seed {seed} --folds {folds}"
          f"{'' if task == 'both' else ' --task ' + task}`",
          f"- machine: {os.cpu_count()} CPU cores, Python {platform.python_version()}, shared with other jobs",
          f"- fusion weights of the default model: {DEFAULT} (RRF k {Config().rrf_k:.0f})\n"]
    if task in ("lay", "both"):
        run_lay(units, folds, seed, rows, md)
    if task in ("case", "both"):
        run_case(units, folds, seed, rows, md)
    if task in ("lay", "both"):
        thesaurus_probe(units, md)
        latency(units, md)
    md.append(f"Run time: {time.perf_counter() - started:.0f} s.")
    write_results(out_dir, rows, md)
    print("\n".join(md))


if __name__ == "__main__":
    main()
