"""Start (b): the distilled table fine-tuned contrastively on statute pairs (torch, CPU, bounded time).

Each step draws a batch of pairs, embeds both sides as the shipped encoder does (SIF-weighted sum
of token rows, L2-normalised) and lowers a symmetric InfoNCE loss with in-batch negatives: the
other pairs' texts in the batch. Pairs that share a text are masked out as negatives of each other
(a question citing two §§, two Sätze of one §). Only the token rows are learnt; the SIF weights and
the tokenizer stay fixed, so the file format is that of start (a).

Why time-bounded and not epoch-bounded: the build runs on shared 2-core machines; the number of
steps done is recorded in the model's metadata.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from tokenizers import Tokenizer

from .corpus import PAIR_KINDS, Pair

#: Share of each batch per pair kind (renormalised over the kinds present). Questions are few but
#: are the users' language, so they get a quarter of every batch.
KIND_SHARE = {"satz_para": 0.3, "title_text": 0.15, "cites": 0.3, "question": 0.25}


@dataclass(frozen=True)
class TrainConfig:
    minutes: float = 8.0
    #: stop after this many steps as well (None: the time bound only), so two starts can be
    #: compared at the same training, whatever the machine's load gives per minute
    steps: int | None = None
    batch: int = 256
    lr: float = 1e-2
    temperature: float = 0.05
    max_tokens: int = 128
    seed: int = 0
    threads: int = 2


@dataclass
class TrainLog:
    steps: int
    seconds: float
    first_loss: float
    last_loss: float
    pairs: dict[str, int]


def index_pairs(pairs: Sequence[Pair]) -> tuple[list[str], dict[str, np.ndarray]]:
    """Distinct texts, and per kind an (n, 2) array of text indices (pure)."""
    index: dict[str, int] = {}
    by_kind: dict[str, list[tuple[int, int]]] = {k: [] for k in PAIR_KINDS}
    for p in pairs:
        by_kind[p.kind].append((index.setdefault(p.a, len(index)), index.setdefault(p.b, len(index))))
    return list(index), {k: np.asarray(v, dtype=np.int64).reshape(-1, 2) for k, v in by_kind.items() if v}


def draw_batch(rng: np.random.Generator, by_kind: dict[str, np.ndarray], size: int) -> np.ndarray:
    """(size, 2) text indices drawn by ``KIND_SHARE`` (pure given the generator)."""
    kinds = list(by_kind)
    share = np.array([KIND_SHARE[k] for k in kinds], dtype=np.float64)
    counts = rng.multinomial(size, share / share.sum())
    parts = [by_kind[k][rng.integers(0, len(by_kind[k]), n)] for k, n in zip(kinds, counts, strict=True) if n]
    return np.concatenate(parts)


def negatives_mask(batch: np.ndarray) -> np.ndarray:
    """(n, n) bool: True where pair j may serve as a negative of pair i (different texts on both
    sides), the diagonal True (the positive)."""
    a, b = batch[:, 0], batch[:, 1]
    clash = (a[:, None] == a[None, :]) | (b[:, None] == b[None, :])
    np.fill_diagonal(clash, False)
    return ~clash


def finetune(tok: Tokenizer, table: np.ndarray, weights: np.ndarray, pairs: Sequence[Pair],
             config: TrainConfig | None = None) -> tuple[np.ndarray, TrainLog]:
    """The fine-tuned (vocab, dim) table (unweighted rows, like ``table``) and what was done."""
    import torch

    config = config or TrainConfig()
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    rng = np.random.default_rng(config.seed)
    texts, by_kind = index_pairs(pairs)
    ids = [e.ids[:config.max_tokens] or [0] for e in tok.encode_batch(texts, add_special_tokens=False)]
    lengths = np.array([len(x) for x in ids], dtype=np.int64)
    flat = np.concatenate([np.asarray(x, dtype=np.int64) for x in ids])
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    emb = torch.nn.Parameter(torch.tensor(np.asarray(table, dtype=np.float32)))
    w = torch.tensor(np.asarray(weights, dtype=np.float32))
    opt = torch.optim.Adam([emb], lr=config.lr)

    def encode(rows: np.ndarray):
        tokens = np.concatenate([flat[starts[r]:starts[r] + lengths[r]] for r in rows])
        offsets = np.concatenate(([0], np.cumsum(lengths[rows])[:-1]))
        t = torch.from_numpy(tokens)
        out = torch.nn.functional.embedding_bag(t, emb, torch.from_numpy(offsets), mode="sum",
                                                per_sample_weights=w[t])
        return torch.nn.functional.normalize(out, dim=1)

    started, steps, losses = time.perf_counter(), 0, []
    while (time.perf_counter() - started < config.minutes * 60
           and (config.steps is None or steps < config.steps)):
        batch = draw_batch(rng, by_kind, config.batch)
        logits = encode(batch[:, 0]) @ encode(batch[:, 1]).T / config.temperature
        logits = logits.masked_fill(~torch.from_numpy(negatives_mask(batch)), float("-inf"))
        target = torch.arange(len(batch))
        loss = (torch.nn.functional.cross_entropy(logits, target)
                + torch.nn.functional.cross_entropy(logits.T, target)) / 2
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(float(loss.detach()))
        steps += 1
    log = TrainLog(steps, round(time.perf_counter() - started, 1), losses[0] if losses else float("nan"),
                   float(np.mean(losses[-50:])) if losses else float("nan"),
                   {k: len(v) for k, v in by_kind.items()})
    return emb.detach().numpy().copy(), log
