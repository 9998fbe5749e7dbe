"""Cross-validated quality of the learned ranker (legalkg.predict.ranker) against the predictor's RRF.

    nice -n 10 .venv/bin/python benchmarks/ranker_cv.py [--out DIR] [--task lay|case|both] [--folds 5]
        [--no-ablate] [--forms]

Cross-fitting over 5 folds grouped by case (``legalkg.predict.grouped_folds``, seed 0):

1. For each fold, a predictor and a co-citation table fitted on the other four folds give the fold's
   cases their candidates and features (``ranker.candidates``), and the rankings of the predictor's
   own fusion, the popularity list and the plain classifier (Complement NB alone).
2. For each fold, LambdaRank is fitted on the other four folds' feature rows and ranks the fold,
   once per feature set: the issue-34 features (``OLD``, ``rankfeatures.DEFAULT_FEATURES``), all
   features (``NEW``: with BM25, vector and CITES degrees) and, with ``--ablate``, all but one group
   (``GROUPS``); each is a refit of the booster on a subset of the same rows' columns.
3. With ``--forms``, step 1 again with a predictor using the word forms ``FORMS`` (``Config.forms``)
   and rankers with the issue-34 and with all features on its candidates: the same folds, so the
   differences are paired.

So no case is ranked with a predictor, a co-citation table or a ranker that saw it. Not held out (and
said so in the results): the predictors that made the ranker's *training rows* had seen the test
fold's cases; a fully nested run (a predictor per pair of folds) costs twice the training and did not
fit the shared machine's time. The shipped ranker is made the same way over all the data
(``legalkg train --ranker-out``: 5-fold out-of-fold rows, ``ranker.fit_stacked``).

* lay: ``gerlayqa/dev.jsonl`` + ``train.jsonl``: Recall@10, nDCG@10 (binary gain, ``legalkg.eval.ir``'s
  formula), hit@10, Recall@100, mean per question, 95 % bootstrap CIs; a paired permutation test.
* case: ``ler_bgh/bgh_documents.jsonl`` + ``ler_courts/dev.jsonl.gz``: raw § recall@5 (micro over all
  gold citations, ``legalkg.eval.metric.score_case``), per court, and ToER@5 at § level (recall x 1000
  / mean words of a §); ``+ expand cocited`` adds to each of the 5 hits its strongest co-cited § of the
  fold's training cases (words delivered beside it).

Writes results.csv / results.md into ``--out`` (eval/ranker/README.md names the committed run).
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
from legalkg.eval.stats import bootstrap_ci, paired_test
from legalkg.model import DEPTHS
from legalkg.predict import (
    Config,
    StatuteIndex,
    TrainingSet,
    cocite as cocitemod,
    grouped_folds,
    load_examples,
    resolve_labels,
    train,
)
from legalkg.predict.ranker import candidates, feature_columns, fit_booster, para_labels
from legalkg.predict.rankfeatures import DEFAULT_FEATURES, FEATURES, UnitFacts
from legalkg.predict.units import cites_degrees, unit_texts

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # research/ is not installed
from research.results import fmt_ci, subset_cells, write_results  # noqa: E402

LAY_FILES = ("gerlayqa/dev.jsonl", "gerlayqa/train.jsonl")
CASE_FILES = ("ler_bgh/bgh_documents.jsonl", "ler_courts/dev.jsonl.gz")
RRF_ROWS = {"popularity list": {"pop": 1.0}, "plain classifier (Complement NB)": {"nb": 1.0},
            "predictor (RRF of its components)": dict(Config().weights)}
#: Feature groups an ablation leaves out (prefixes of their names).
GROUPS = {"co-citation": ("cocite_",), "BM25": ("bm25_",), "vector": ("vec_",), "CITES degrees": ("cites_",)}
OLD = "ranker (issue-34 features, the shipped set)"
NEW = "ranker + BM25, vector, CITES degrees"
#: Word forms of the second predictor pass (``--forms``) and the suffix of its rows.
FORMS = ("lemma", "split")
WITH_FORMS = ", forms lemma+split"
#: (a, b) pairs whose difference is tested where both rows exist.
PAIRS = ((OLD, "predictor (RRF of its components)"), (NEW, OLD), (NEW, "predictor (RRF of its components)"),
         ("predictor (RRF of its components)" + WITH_FORMS, "predictor (RRF of its components)"),
         ("plain classifier (Complement NB)" + WITH_FORMS, "plain classifier (Complement NB)"),
         (OLD + WITH_FORMS, OLD), (NEW + WITH_FORMS, NEW), (NEW + WITH_FORMS, OLD))
K_MAX = 100
I_PARA = DEPTHS.index("§")


def booster_order(booster, cand, cols) -> list[str]:
    score = booster.predict(cand.x[:, cols], num_threads=1)
    return [cand.ids[j] for j in np.lexsort((np.array(cand.ids), -score))[:K_MAX]]


def out_of_fold_features(data, labels, fit, facts, folds, suffix=""):
    """Per case (data order): its candidates from the predictor and co-citation table of the other
    folds, the RRF rows of that predictor (named with ``suffix``) and that co-citation table."""
    ex = data.examples
    cands, runs, tables = [None] * len(ex), [None] * len(ex), [None] * len(ex)
    for train_idx, test_idx in folds:
        t0 = time.perf_counter()
        model = fit(TrainingSet(data.task, [ex[i] for i in train_idx], data.sources))
        table = cocitemod.fit([labels[i] for i in train_idx])
        texts = [ex[i].text for i in test_idx]
        parts = model.component_scores(texts, "Paragraph")
        fused = {name: model.fuse(parts, len(texts), K_MAX, w) for name, w in RRF_ROWS.items()
                 if not suffix or name != "popularity list"}  # word forms do not change popularity
        for j, (i, c) in enumerate(zip(test_idx, candidates(model, texts, table, facts))):
            cands[i] = c
            runs[i] = {name + suffix: [u for u, _, _ in rows[j]] for name, rows in fused.items()}
            tables[i] = table
        print(f"fold features{suffix}: {len(test_idx)} cases, {time.perf_counter() - t0:.0f} s", flush=True)
    return cands, runs, tables


def without(prefixes, features=FEATURES) -> tuple[str, ...]:
    """``features`` less those starting with one of ``prefixes``."""
    return tuple(f for f in features if not f.startswith(tuple(prefixes)))


def ranker_rows(golds, folds, runs, variants, seed, task):
    """For each fold and each variant (name -> (candidates, features)) a LambdaRank on those feature
    columns, fitted on the other folds' rows, ranks the fold's cases into ``runs``."""
    for train_idx, test_idx in folds:
        t0 = time.perf_counter()
        for name, (rows, features) in variants.items():
            booster = fit_booster([rows[i] for i in train_idx], [golds[i] for i in train_idx], task, seed, features)
            cols = feature_columns(features)
            for i in test_idx:
                runs[i][name] = booster_order(booster, rows[i], cols)
        print(f"ranker fold ({len(variants)} variants): {time.perf_counter() - t0:.0f} s", flush=True)


def cross_fitted(data, statutes, facts, n_folds, seed, ablate, forms):
    """Cross-fitting: out-of-fold features once (twice with ``forms``), then per fold rankers fitted
    on the other folds' rows rank the fold's cases (module docstring says what this does and does
    not hold out)."""
    labels = para_labels(data)
    golds = [set(g) for g in labels]
    folds = grouped_folds([e.group for e in data.examples], n_folds, seed)
    cands, runs, tables = out_of_fold_features(
        data, labels, lambda ts: train(ts, statutes=statutes, seed=seed), facts, folds)
    variants = {OLD: (cands, DEFAULT_FEATURES), NEW: (cands, FEATURES)}
    if ablate:
        variants.update({f"{NEW}, without {g}": (cands, without(p)) for g, p in GROUPS.items()})
    if forms:
        config = Config(forms=FORMS)
        more, more_runs, _ = out_of_fold_features(
            data, labels, lambda ts: train(ts, config=config, statutes=statutes, seed=seed), facts, folds, WITH_FORMS)
        for r, m in zip(runs, more_runs):
            r.update(m)
        variants[OLD + WITH_FORMS] = (more, DEFAULT_FEATURES)
        variants[NEW + WITH_FORMS] = (more, FEATURES)
    ranker_rows(golds, folds, runs, variants, seed, data.task)
    expansions = [{u: [v for v, _, _ in tables[i].neighbours(u, 1)] for name in r for u in r[name][:5]}
                  for i, r in enumerate(runs)]
    return runs, expansions, labels


def paired_lines(per, denominators=None) -> list[str]:
    """One line per pair of ``PAIRS`` whose rows both ran: difference [95 % CI], permutation p."""
    out = []
    for a, b in PAIRS:
        if a in per and b in per:
            t = paired_test(per[a], per[b], denominators)
            out.append(f"- {a} minus {b}: {t.diff:+.3f} [{t.ci_low:+.3f}, {t.ci_high:+.3f}], "
                       f"paired permutation p = {t.p_value:.4f}")
    return out


def ndcg(ranked, gold, k=10) -> float:
    disc = 1.0 / np.log2(np.arange(2, k + 2))
    gains = np.array([1.0 if u in gold else 0.0 for u in ranked[:k]])
    return float(gains @ disc[:len(gains)] / disc[:min(len(gold), k)].sum())


#: The lay subsets reported: all questions, and those the shipped static encoder was not tuned on
#: (it was tuned on gerlayqa/train.jsonl's question-§ pairs, docs/embeddings.md, so the vector
#: feature has seen the gold of train.jsonl's questions and only dev.jsonl measures it fairly).
LAY_SUBSETS = {"all": "", "dev only (unseen by the static encoder)": "gerlayqa-dev-"}


def lay_report(data, runs, labels, rows_out, md) -> None:
    golds = [{f"{c.law}/{c.para}" for c in e.gold} for e in data.examples]
    names = list(runs[0])
    per = {}
    for name in names:
        per[name] = np.array([(len(g & set(r[name][:10])) / len(g), ndcg(r[name], g),
                               float(bool(g & set(r[name][:10]))), len(g & set(r[name][:100])) / len(g))
                              for r, g in zip(runs, golds)])
    for subset, prefix in LAY_SUBSETS.items():
        keep = np.array([e.id.startswith(prefix) for e in data.examples])
        md.append(f"### {subset}: {int(keep.sum()):,} questions\n")
        md.append("| configuration | Recall@10 | nDCG@10 | hit@10 | Recall@100 |")
        md.append("|---|---|---|---|---|")
        for name in names:
            cis = [bootstrap_ci(per[name][keep, j]) for j in range(4)]
            md.append(f"| {name} | " + " | ".join(fmt_ci(c) for c in cis) + " |")
            for metric, ci in zip(("recall@10", "ndcg@10", "hit@10", "recall@100"), cis):
                rows_out.append({"dataset": "gerlayqa dev+train", "subset": subset, "configuration": name,
                                 "metric": metric, "value": ci.point, "low": ci.low, "high": ci.high,
                                 "n": int(keep.sum())})
        for j, metric in ((0, "Recall@10"), (1, "nDCG@10")):
            md.append(f"\nPaired differences, {metric} ({subset}):\n")
            md.extend(paired_lines({name: m[keep, j] for name, m in per.items()}))
        md.append("")


def case_report(data, runs, expansions, para_words, rows_out, md) -> None:
    courts = sorted({e.court or "?" for e in data.examples})
    md.append("| configuration | § recall@5 (micro) | ToER@5 (§ level) | " + " | ".join(courts)
              + " | § recall@10 | + expand cocited: § recall@5 | words delivered per case |")
    md.append("|---|---|---|" + "---|" * len(courts) + "---|---|---|")
    hits_by = {}
    for name in runs[0]:
        s5 = [score_case(e.id, list(e.gold), r[name][:5]) for e, r in zip(data.examples, runs)]
        s10 = [score_case(e.id, list(e.gold), r[name][:10]) for e, r in zip(data.examples, runs)]
        sx = [score_case(e.id, list(e.gold), r[name][:5], [v for u in r[name][:5] for v in x.get(u, [])],
                         para_words) for e, r, x in zip(data.examples, runs, expansions)]
        h5 = np.array([s.hits[I_PARA] for s in s5], float)
        hits_by[name] = h5
        ng = np.array([s.n_gold for s in s5], float)
        ci5 = bootstrap_ci(h5, ng)
        ci10 = bootstrap_ci(np.array([s.hits[I_PARA] for s in s10], float), ng)
        cix = bootstrap_ci(np.array([s.hits[I_PARA] for s in sx], float), ng)
        w_para = float(np.mean(list(para_words.values())))
        cells = subset_cells([e.court or "?" for e in data.examples], h5, ng,
                             {"dataset": "ler_bgh+ler_courts", "subset": None, "configuration": name,
                              "metric": "para_recall@5"}, rows_out)
        delivered = np.mean([s.delivered_words for s in sx])
        md.append(f"| {name} | {fmt_ci(ci5)} | {ci5.point * 1000 / w_para:.2f} | " + " | ".join(cells)
                  + f" | {fmt_ci(ci10)} | {fmt_ci(cix)} | {delivered:.0f} |")
        for metric, ci in (("para_recall@5", ci5), ("para_recall@10", ci10), ("para_recall@5+cocited", cix)):
            rows_out.append({"dataset": "ler_bgh+ler_courts", "subset": "all", "configuration": name,
                             "metric": metric, "value": ci.point, "low": ci.low, "high": ci.high,
                             "n": len(data.examples)})
        rows_out.append({"dataset": "ler_bgh+ler_courts", "subset": "all", "configuration": name,
                         "metric": "toer@5_para_level", "value": ci5.point * 1000 / w_para, "low": ci5.low * 1000 / w_para,
                         "high": ci5.high * 1000 / w_para, "n": len(data.examples)})
    ng = np.array([len(set(e.gold)) for e in data.examples], float)
    md.append("\nPaired differences, § recall@5:\n")
    md.extend(paired_lines(hits_by, ng))
    md.append(f"\nMean words of a § (W): {w_para:.1f}.\n")


def prepared(files, task, units, degrees, limit):
    data = resolve_labels(load_examples([paths.eval_dir() / f for f in files], task), units)
    if limit:
        data = TrainingSet(data.task, data.examples[:limit], data.sources)
    laws = sorted({lab.split("/", 1)[0] for e in data.examples for lab in e.labels})
    statutes = StatuteIndex.build(units, laws)
    return data, statutes, UnitFacts.build(units, statutes.ids, degrees)


@click.command()
@click.option("--out", default="eval/ranker", show_default=True, type=click.Path(file_okay=False))
@click.option("--seed", default=0, show_default=True)
@click.option("--folds", default=5, show_default=True)
@click.option("--task", type=click.Choice(["lay", "case", "both"]), default="both", show_default=True)
@click.option("--limit", default=0, help="Only the first N examples (a smoke run; 0 = all).")
@click.option("--ablate/--no-ablate", default=True, help="Also rankers without each feature group (GROUPS).")
@click.option("--forms/--no-forms", default=False, help="Also a predictor (and ranker) with word forms FORMS.")
def main(out, seed, folds, task, limit, ablate, forms) -> None:
    started = time.perf_counter()
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    units = unit_texts()
    degrees = cites_degrees()
    rows: list[dict] = []
    md = ["# Learned ranker, nested CV (benchmarks/ranker_cv.py)\n",
          f"- date: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC",
          f"- command: `nice -n 10 .venv/bin/python benchmarks/ranker_cv.py --out {out} --seed {seed} --folds {folds}"
          f"{'' if task == 'both' else ' --task ' + task}{f' --limit {limit}' if limit else ''}{'' if ablate else ' --no-ablate'}{' --forms' if forms else ''}`",
          f"- machine: {os.cpu_count()} CPU cores, Python {platform.python_version()}, shared with other jobs\n"]
    for name, files, t in (("GerLayQA dev + train", LAY_FILES, "lay"), ("LER BGH + ler_courts", CASE_FILES, "case")):
        if task not in (t, "both"):
            continue
        data, statutes, facts = prepared(files, t, units, degrees, limit)
        t0 = time.perf_counter()
        runs, expansions, _ = cross_fitted(data, statutes, facts, folds, seed, ablate, forms)
        md.append(f"## {name}: {len(data.examples):,} cases, {folds} folds, cross-fitted (seed {seed}), "
                  f"{time.perf_counter() - t0:.0f} s\n")
        if t == "lay":
            lay_report(data, runs, None, rows, md)
        else:
            words = {u: len(units[u].split()) for u in statutes.ids}
            case_report(data, runs, expansions, words, rows, md)
    md.append(f"Run time: {time.perf_counter() - started:.0f} s.")
    write_results(out_dir, rows, md)
    print("\n".join(md))


if __name__ == "__main__":
    main()
