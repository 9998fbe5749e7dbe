"""The law router (``legalkg.retrieve.laws``) on lay questions: is the gold law among its top laws?

    NEO4J_URI=bolt://127.0.0.1:7687 .venv/bin/python benchmarks/law_router_lay.py \
        --cv eval/lay-beyond/dev.jsonl --data $LEGALKG_SHARED/data/eval/gerlayqa/dev.jsonl \
        --train eval/lay-beyond-train/train.jsonl --train eval/lay-beyond-more/train.jsonl \
        --train eval/lay-outside-train/train.jsonl \
        --train $LEGALKG_SHARED/data/eval/gerlayqa/train.jsonl --words $TMPDIR/law-words.json --predictor MODEL.npz [--sample 353] [--seed 0] \
        [--save-router legalkg/data/law-router.npz] --out eval/law-router-lay/learned

Data: lay JSONL files of the generic form (``{id, question, gold}``); a question's gold laws are
the laws of its gold citations (``legalkg.predict.load_examples``). A file over ``--sample``
questions is scored on a seeded sample of that many.

The learned law router (``legalkg.predict.lawrouter``) is trained here, never on a scored question:

* ``--cv`` files are scored by 5-fold CV grouped by question (``predict.cv.grouped_folds``, seed
  ``--seed``): each fold's router is trained on the ``--train`` questions, the statute words of
  every law (``--words``) and the other folds' questions; the weight of its signal in the router's
  fusion (``GRID``) is chosen by an inner 5-fold CV on the other folds only (best hit@3, then
  hit@1, then the smaller weight).
* ``--data`` files are scored with the router trained on the ``--train`` questions and every
  ``--cv`` question, and the weight chosen by 5-fold CV over all ``--cv`` questions; ``--save-router``
  writes that router (the shipped model is built so).

The other signals are read as ``legalkg search --law auto`` reads them (``laws.law_runs``, the
graph at ``NEO4J_URI``, ``--predictor`` or the shipped lay predictor). Rows: each signal alone, the
router without the learned signal (``router-before``: ``BEFORE``, the weights before it) and with it
at the chosen weight (``router``), all from the same run.

``--router`` scores ``--data`` with a saved router (no training), ``--compare-router`` a second
saved one on the same questions in the same run (rows ``laws-compare`` and ``router-compare``);
run.json records both files' digests.

``--words``: law -> the words the statute gives itself (``lawrouter.statute_words``), a JSON file;
where it is missing it is built from ``--source`` (default: the all-laws archive) and written.

Metrics per question, mean over questions, 95 % bootstrap CIs (``legalkg.eval.stats.bootstrap_ci``):
hit@k = 1 if any gold law is among the top k laws, for k = 1 and 3.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import random
import time
from pathlib import Path

import numpy as np

from legalkg import lawnames, paths
from legalkg.eval.stats import bootstrap_ci
from legalkg.graph.config import load_config
from legalkg.graph.connection import open_driver
from legalkg.parse.sources import iter_laws
from legalkg.predict import load_examples
from legalkg.predict.cv import grouped_folds
from legalkg.predict.lawrouter import LawRouter, analyse, statute_words
from legalkg.retrieve import Retriever, laws
from legalkg.vocab import Run, Task

KS = (1, 3)
#: The weights of the learned signal the inner CV chooses from (the other signals keep theirs).
GRID = (0.0, 0.5, 1.0, 2.0, 5.0, 10.0, 100.0)
FOLDS = 5
#: The router's weights before the learned signal (``router-before``), as eval/law-router-lay/prior/ ran it.
BEFORE = {Run.CITED: 1.0, Run.CORPUS: 1.0, Run.PREDICTOR: 1.0, Run.FULLTEXT: 0.5}


def portable(path: Path) -> str:
    """``path`` as a recorded command shows it: under the shared folder as ``$LEGALKG_SHARED/...``,
    else relative to the working directory where it lies below it."""
    path = path.resolve()
    for root, name in ((paths.shared_dir().resolve(), "$LEGALKG_SHARED"), (Path.cwd(), ".")):
        if path.is_relative_to(root):
            return f"{name}/{path.relative_to(root)}"
    return path.name


def digest(path: Path) -> str:
    """The first 16 hex digits of the sha256 of a file's bytes (which version of a data file a run read)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def hits(ranking: list[str], gold: set[str]) -> list[float]:
    return [float(bool(gold & set(ranking[:k]))) for k in KS]


def questions(path: Path, sample: int | None, seed: int) -> list[tuple[str, str, list[str]]]:
    """(id, text, gold laws) of a lay file, a seeded sample of ``sample`` where it holds more."""
    examples = load_examples([path], "lay").examples
    if sample is not None and len(examples) > sample:
        examples = random.Random(seed).sample(examples, sample)
    return [(e.id, e.text, sorted({lab.split("/", 1)[0] for lab in e.labels})) for e in examples]


def law_words(path: Path, source: Path | None) -> dict[str, str]:
    """law -> its statute words, read from ``path`` or built from ``source`` and written there."""
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    short = {j: n.kurzue for n in lawnames.table() for j in n.jurabks}
    words = {law.key: statute_words(law, short.get(law.jurabk))
             for _, law in iter_laws(source or paths.gii_all_archive(), None, workers=1)
             if not isinstance(law, Exception)}
    path.write_text(json.dumps(words, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    return words


class Trainer:
    """Fits routers on the analysed statute words and training questions (each text analysed once)."""

    def __init__(self, words: dict[str, str], train: list[tuple[str, str, list[str]]]) -> None:
        self.statutes = {law: analyse(text) for law, text in words.items()}
        self.train = [(analyse(text), gold) for _, text, gold in train]
        self.cache: dict[str, list[str]] = {}

    def tokens(self, text: str) -> list[str]:
        if text not in self.cache:
            self.cache[text] = analyse(text)
        return self.cache[text]

    def fit(self, extra: list[tuple[str, str, list[str]]]) -> LawRouter:
        return LawRouter.fit_tokens(self.statutes, self.train + [(self.tokens(t), g) for _, t, g in extra])


def ranked(router: LawRouter, texts: list[str], in_graph: list[str]) -> list[list[str]]:
    """Each text's top ``laws.CORPUS_LAWS`` laws of the graph by ``router`` (as ``law_runs`` reads them)."""
    return [[law for law, _ in router.top_laws(t, laws.CORPUS_LAWS, in_graph)] for t in texts]


def fused(runs: dict[str, list[str]], learned: list[str], weight: float) -> list[str]:
    return laws.routed_laws({**runs, Run.LAWS: learned}, max(KS), {**laws.WEIGHTS, Run.LAWS: weight})


def choose(trainer: Trainer, qs: list[tuple[str, str, list[str]]], runs: dict[str, dict], in_graph: list[str],
           seed: int) -> float:
    """The weight of ``GRID`` with the best hit@3 (then hit@1, then the smaller weight) by 5-fold CV on ``qs``."""
    total = {w: np.zeros(len(KS)) for w in GRID}
    for tr, te in grouped_folds([q[0] for q in qs], FOLDS, seed):
        router = trainer.fit([qs[i] for i in tr])
        test = [qs[i] for i in te]
        for (qid, _, gold), learned in zip(test, ranked(router, [q[1] for q in test], in_graph)):
            for w in GRID:
                total[w] += hits(fused(runs[qid], learned, w), set(gold))
    return max(GRID, key=lambda w: (total[w][-1], total[w][0], -w))


def rows_of(name: str, per: dict[str, list[list[float]]], ms: float) -> list[dict]:
    out = []
    for signal, vals in per.items():
        arr = np.asarray(vals)
        point, low, high = bootstrap_ci(arr)
        out.append({"data": name, "signal": signal, "n": len(arr), "ms_per_question": round(ms, 1),
                    **{f"hit@{k}": round(float(point[i]), 3) for i, k in enumerate(KS)},
                    **{f"hit@{k}_ci": f"[{low[i]:.3f}, {high[i]:.3f}]" for i, k in enumerate(KS)}})
    return out


def score(name: str, qs, runs, learned: list[list[str]], weight: float, ms: float,
          compare: list[list[str]] | None = None) -> list[dict]:
    """Rows of each signal, the router before the learned signal, the router, and where ``compare``
    (another saved router's rankings of the same questions) is given, that router alone
    (``laws-compare``) and fused at the same weight (``router-compare``)."""
    per: dict[str, list[list[float]]] = {}
    before = BEFORE
    for i, ((qid, _, gold), lr) in enumerate(zip(qs, learned)):
        g = set(gold)
        for signal, ranking in {**runs[qid], Run.LAWS: lr}.items():
            per.setdefault(str(signal), []).append(hits(ranking, g))
        if compare is not None:
            per.setdefault("laws-compare", []).append(hits(compare[i], g))
        per.setdefault("router-before", []).append(hits(laws.routed_laws(runs[qid], max(KS), before), g))
        if compare is not None:
            per.setdefault("router-compare", []).append(hits(fused(runs[qid], compare[i], weight), g))
        per.setdefault("router", []).append(hits(fused(runs[qid], lr, weight), g))
    return rows_of(name, per, ms)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cv", action="append", default=[], type=Path, help="scored by 5-fold CV")
    ap.add_argument("--data", action="append", default=[], type=Path, help="scored with the router of all --cv")
    ap.add_argument("--train", action="append", default=[], type=Path, help="the router's training questions")
    ap.add_argument("--words", type=Path, help="law -> statute words (JSON; built where missing)")
    ap.add_argument("--source", type=Path, default=None, help="gii source for --words (default: all laws)")
    ap.add_argument("--sample", type=int, default=353)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--save-router", type=Path, default=None)
    ap.add_argument("--router", type=Path, default=None,
                    help="score --data with this saved router and laws.WEIGHTS (no --cv, no training), e.g. "
                         "the shipped one on a graph of other laws")
    ap.add_argument("--predictor", type=Path, default=None,
                    help="the lay predictor to route with (default: the shipped one), e.g. one trained without "
                         "the scored questions, so that its figures are out of sample")
    ap.add_argument("--compare-router", type=Path, default=None,
                    help="with --router: a second saved router (e.g. the one shipped before) scored on the same "
                         "--data in the same run, rows laws-compare and router-compare")
    args = ap.parse_args()
    if args.router and (args.cv or args.save_router):
        ap.error("--router scores --data with a saved router: give no --cv and no --save-router with it")
    if not args.router and not args.words:
        ap.error("--words is needed to train the router (or --router to score with a saved one)")
    if args.compare_router and not args.router:
        ap.error("--compare-router compares two saved routers: give --router with it")
    saved = LawRouter.load(args.router) if args.router else None
    other = LawRouter.load(args.compare_router) if args.compare_router else None
    words = {} if args.router else law_words(args.words, args.source)
    per_file = {p: questions(p, None, args.seed) for p in args.train}
    train_info = {portable(p): [len(qs), digest(p)] for p, qs in per_file.items()}
    train = [q for qs in per_file.values() for q in qs]
    trainer = None if args.router else Trainer(words, train)
    cvq = {p: questions(p, args.sample, args.seed) for p in args.cv}
    dq = {p: questions(p, args.sample, args.seed) for p in args.data}
    cfg = load_config()
    driver = open_driver(cfg)
    rows, chosen = [], {}
    try:
        engine = Retriever(driver, cfg.database, predictors={Task.LAY: args.predictor} if args.predictor else None)
        in_graph = engine.models.corpus()[1].laws
        runs: dict[str, dict] = {}
        ms: dict[Path, float] = {}
        stub = LawRouter.fit({}, [])
        for p, qs in {**cvq, **dq}.items():
            t0 = time.perf_counter()
            for qid, text, _ in qs:
                r = laws.law_runs(engine, text, Task.LAY, router=stub)
                r.pop(Run.LAWS, None)
                runs[qid] = {str(k): v for k, v in r.items()}
            ms[p] = 1000 * (time.perf_counter() - t0) / max(len(qs), 1)
        everything = [q for qs in cvq.values() for q in qs]
        for p, qs in cvq.items():
            learned: list[list[str]] = [[] for _ in qs]
            weights = []
            outer = grouped_folds([q[0] for q in qs], FOLDS, args.seed)
            fold_w = np.zeros(len(qs))
            for tr, te in outer:
                inner = [qs[i] for i in tr]
                w = choose(trainer, inner, runs, in_graph, args.seed)
                weights.append(w)
                router = trainer.fit(inner)
                for i, lr in zip(te, ranked(router, [qs[i][1] for i in te], in_graph)):
                    learned[i] = lr
                    fold_w[i] = w
            per: dict[str, list[list[float]]] = {}
            before = BEFORE
            for (qid, _, gold), lr, w in zip(qs, learned, fold_w):
                g = set(gold)
                for signal, ranking in {**runs[qid], Run.LAWS: lr}.items():
                    per.setdefault(str(signal), []).append(hits(ranking, g))
                per.setdefault("router-before", []).append(hits(laws.routed_laws(runs[qid], max(KS), before), g))
                per.setdefault("router", []).append(hits(fused(runs[qid], lr, w), g))
            rows += rows_of(portable(p), per, ms[p])
            chosen[portable(p)] = weights
        if args.router:
            full, full_w = saved, laws.WEIGHTS[Run.LAWS]
        else:
            full_w = choose(trainer, everything, runs, in_graph, args.seed) if everything else laws.WEIGHTS[Run.LAWS]
            chosen["all --cv questions"] = full_w
            full = trainer.fit(everything)
        for p, qs in dq.items():
            texts = [q[1] for q in qs]
            rows += score(portable(p), qs, runs, ranked(full, texts, in_graph), full_w, ms[p],
                          ranked(other, texts, in_graph) if other else None)
        if args.save_router:
            full.save(args.save_router)
    finally:
        driver.close()
    args.out.mkdir(parents=True, exist_ok=True)
    with (args.out / "results.csv").open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    (args.out / "run.json").write_text(json.dumps({
        "command": "benchmarks/law_router_lay.py " + " ".join(
            [f"--cv {portable(p)}" for p in args.cv] + [f"--data {portable(p)}" for p in args.data]
            + [f"--train {portable(p)}" for p in args.train])
        + f" --sample {args.sample} --seed {args.seed}"
        + (f" --predictor {portable(args.predictor)}" if args.predictor else "")
        + (f" --router {portable(args.router)}" if args.router else "")
        + (f" --compare-router {portable(args.compare_router)}" if args.compare_router else ""),
        "laws_in_graph": len(in_graph), "statute_words": len(words),
        "training_questions": train_info,
        "router_digests": {portable(r): digest(r) for r in (args.router, args.compare_router) if r},
        "weights": {str(k): v for k, v in laws.WEIGHTS.items()}, "chosen_laws_weight": chosen}, indent=2) + "\n",
        encoding="utf-8")
    for r in rows:
        print(r)


if __name__ == "__main__":
    main()
