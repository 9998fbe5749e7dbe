"""Which share of each shared evaluation set's ground truth the 58 default codes cover.

Usage: .venv/bin/python benchmarks/cite_coverage.py

LER BGH: every gold GS span is decoded with legalkg.cite (bare law names included); a cited unit
is covered when its law key is one of the default codes. GerLayQA: gold strings "BGB § 816".
Laws outside the default set holding >= 1 % of a set's cited units are listed.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from legalkg import codes, paths  # noqa: E402
from legalkg.cite import LawRegistry, extract  # noqa: E402


def report(name: str, laws: Counter, default: set[str], undecoded: int) -> None:
    total = sum(laws.values())
    covered = sum(v for k, v in laws.items() if k in default)
    print(f"\n## {name}: {total} cited units decoded ({undecoded} gold items without a decodable unit/law)")
    print(f"covered by the 58 default codes: {covered} = {covered / total:.1%}")
    print("laws outside the default set with >= 1 %:")
    for law, n in laws.most_common():
        if law not in default and n / total >= 0.01:
            print(f"  {law}: {n} ({n / total:.1%})")


def main() -> None:
    reg = LawRegistry.default()
    default = {c.cited for c in codes.default_codes()}
    docs = [json.loads(x) for x in (paths.eval_dir() / "ler_bgh" / "bgh_documents.jsonl")
            .read_text("utf-8").splitlines() if x.strip()]
    laws: Counter = Counter()
    undecoded = 0
    for d in docs:
        for n in d["norms"]:
            ms = extract(n["text"], registry=reg, law_mentions=True)
            if not ms:
                undecoded += 1
            for m in ms:
                laws[m.law_key or f"(unknown: {m.law_cited})"] += 1
    report("LER BGH gold GS spans", laws, default, undecoded)
    rows = [json.loads(x) for x in (paths.eval_dir() / "gerlayqa" / "dev.jsonl")
            .read_text("utf-8").splitlines() if x.strip()]
    laws = Counter()
    undecoded = 0
    for r in rows:
        for g in r["gold"]:
            ms = extract(g, registry=reg)
            if not ms:
                undecoded += 1
            for m in ms:
                laws[m.law_key or f"(unknown: {m.law_cited})"] += 1
    report("GerLayQA dev gold", laws, default, undecoded)


if __name__ == "__main__":
    main()
