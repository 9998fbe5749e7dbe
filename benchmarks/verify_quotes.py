"""Quote checking (legalkg.verify.quotes) on real quotations cut from statute text, and altered copies.

Usage: .venv/bin/python benchmarks/verify_quotes.py [--n 600] [--seed 35]
       (writes eval/quotes/results.md and results.csv)

Quotations: contiguous runs of 6 to 20 words cut, as written, from random Sätze (≥ 8 words) of
the default codes in the gii folder, checked against that Satz's text (the unit a citation names).
Altered copies of each quotation, where the quote allows it: one content word replaced by a word of
another Satz ("word"), "nicht"/"kein…" dropped ("negation"), a number changed by one ("number").
A check flags a quote when its status is not ``quote_ok``. The naive baseline in the same run flags a
quote when some quoted word is missing from the unit (a bag of words, no order).
"""

from __future__ import annotations

import argparse
import csv
import math
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from legalkg import paths  # noqa: E402
from legalkg.model import Level  # noqa: E402
from legalkg.parse import parse_file  # noqa: E402
from legalkg.verify.quotes import check_quote, words  # noqa: E402

LAWS = ("bgb", "stgb", "zpo", "gg", "sgb_5", "estg", "hgb", "vwgo", "stpo", "inso")
OUT = ROOT / "eval" / "quotes"
_TOKEN = re.compile(r"\S+")
_NEG = re.compile(r"^(nicht|kein|keine|keinen|keinem|keiner|keines)$", re.I)


def sentences(rng: random.Random) -> list[tuple[str, str]]:
    out = []
    for slug in LAWS:
        path = paths.gii_dir() / f"{slug}.xml"
        if path.exists():
            out += [(u.id, u.text) for u in parse_file(path).units
                    if u.level == Level.SATZ and len(u.text.split()) >= 8 and not u.repealed]
    rng.shuffle(out)
    return out


def cut(text: str, rng: random.Random) -> str:
    toks = _TOKEN.findall(text)
    k = rng.randint(6, min(20, len(toks)))
    i = rng.randint(0, len(toks) - k)
    return " ".join(toks[i:i + k]).strip(",;:.()")


def alter(quote: str, kind: str, donor: list[str], rng: random.Random) -> str | None:
    toks = quote.split(" ")
    if kind == "negation":
        idx = [i for i, t in enumerate(toks) if _NEG.match(t.strip(",.;:"))]
        return " ".join(t for i, t in enumerate(toks) if i != idx[0]) if idx else None
    if kind == "number":
        idx = [i for i, t in enumerate(toks) if re.fullmatch(r"\d+[a-z]?[,.;:)]?", t)]
        if not idx:
            return None
        i = rng.choice(idx)
        m = re.match(r"(\d+)(.*)", toks[i])
        toks[i] = f"{int(m.group(1)) + 1}{m.group(2)}"
        return " ".join(toks)
    idx = [i for i, t in enumerate(toks) if len(t) >= 4 and t.isalpha()]
    cand = [w for w in donor if len(w) >= 4 and w.isalpha() and w.lower() not in {t.lower() for t in toks}]
    if not idx or not cand:
        return None
    toks[rng.choice(idx)] = rng.choice(cand)
    return " ".join(toks)


def naive_flags(quote: str, unit: str) -> bool:
    return not set(words(quote)) <= set(words(unit))


def wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return (math.nan, math.nan)
    p, z = k / n, 1.96
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def run(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    sents = sentences(rng)[:n]
    tally: dict[str, list[int]] = {}  # kind -> [n, flagged, naive flagged]
    for i, (uid, text) in enumerate(sents):
        quote = cut(text, rng)
        donor = sents[(i + 1) % len(sents)][1].split()
        cases = [("true", quote)] + [(k, alter(quote, k, donor, rng)) for k in ("word", "negation", "number")]
        for kind, q in cases:
            if q is None or (kind != "true" and words(q) == words(quote)):
                continue
            flagged = check_quote(q, uid, text).status != "quote_ok"
            t = tally.setdefault(kind, [0, 0, 0])
            t[0] += 1
            t[1] += flagged
            t[2] += naive_flags(q, text)
    rows = []
    for kind in ("true", "word", "negation", "number"):
        total, flagged, naive = tally.get(kind, [0, 0, 0])
        lo, hi = wilson(flagged, total)
        rows.append({"kind": kind, "n": total, "flagged": flagged, "share": flagged / total if total else math.nan,
                     "ci_low": lo, "ci_high": hi, "naive_share": naive / total if total else math.nan})
    altered = [r for r in rows if r["kind"] != "true"]
    n_alt, f_alt = sum(r["n"] for r in altered), sum(r["flagged"] for r in altered)
    nv = sum(r["naive_share"] * r["n"] for r in altered)
    lo, hi = wilson(f_alt, n_alt)
    rows.append({"kind": "altered (all)", "n": n_alt, "flagged": f_alt, "share": f_alt / n_alt,
                 "ci_low": lo, "ci_high": hi, "naive_share": nv / n_alt})
    return rows


def write(rows: list[dict], n: int, seed: int) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with (OUT / "results.csv").open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{v:.4f}" if isinstance(v, float) else v) for k, v in r.items()})
    lines = [f"# Quote checks: {n} Sätze of {len(LAWS)} codes, seed {seed}", "",
             "Command: `PYTHONPATH=$PWD .venv/bin/python benchmarks/verify_quotes.py "
             f"--n {n} --seed {seed}`", "",
             "| quotes | n | flagged | share (95 % CI) | naive bag-of-words baseline |", "|---|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['kind']} | {r['n']} | {r['flagged']} | {100 * r['share']:.1f} % "
                     f"({100 * r['ci_low']:.1f}–{100 * r['ci_high']:.1f}) | {100 * r['naive_share']:.1f} % |")
    (OUT / "results.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=600)
    ap.add_argument("--seed", type=int, default=35)
    a = ap.parse_args()
    write(run(a.n, a.seed), a.n, a.seed)


if __name__ == "__main__":
    main()
