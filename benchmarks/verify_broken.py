"""Does ``verify`` find broken citations by status alone, and leave real ones alone?

Usage: NEO4J_URI=... NEO4J_PASSWORD=... .venv/bin/python benchmarks/verify_broken.py [--per-kind N]

Data: the gold GS spans of LER BGH (115 decisions) and ``ler_courts`` dev (657 records), read from
``paths.eval_dir()``; the graph at NEO4J_URI (read only; docs/verify.md used the dev graph of the 58
default codes).

Real citations: every record ``verify`` gives inside a gold span. A record whose law the graph does
not hold (``law_not_in_graph``) is counted apart: the graph cannot confirm it, so flagging it is right.

Broken citations, made beside the real ones (seeded): each real ``ok`` citation's chain is replaced in
its own sentence by one perturbed citation of each kind that applies, built from the graph's id set so
that it surely does not exist (or surely is repealed):
  para     a § (Art.) number the law does not have (within 1 .. its highest number + 30)
  absatz   one Absatz above the §'s highest
  satz     one Satz above the highest of the cited Absatz (or §)
  nummer   one Nummer above the highest list item under the cited Absatz (or §)
  repealed a repealed § of the same law
  wronglaw the same § under another of the graph's laws, chosen at random; counted among the
           broken only where that law has no such §, the rest is reported (a status cannot see it)
"""

from __future__ import annotations

import argparse
import random
import re
import time
from collections import Counter, defaultdict

from verify_data import DATASETS, connect, load_docs, paras_by_law, real_citations, unit_ids

from legalkg.model import decode_id, para_human
from legalkg.verify import BROKEN, Status, Verifier

KINDS = ("para", "absatz", "satz", "nummer", "repealed", "wronglaw")
_NUM = re.compile(r"(\d+)")


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    return max(0.0, c - h), min(1.0, c + h)


def number(seg: str, prefix: str) -> int | None:
    m = _NUM.match(seg[len(prefix):]) if seg.startswith(prefix) else None
    return int(m.group(1)) if m else None


class Children:
    """Child segments below an id prefix, from the graph's id set."""

    def __init__(self, ids) -> None:
        self.below: dict[str, set[str]] = defaultdict(set)
        for uid in ids:
            head, _, last = uid.rpartition("/")
            if head:
                self.below[head].add(last)

    def max_num(self, parent: str, prefix: str) -> int:
        return max((n for s in self.below.get(parent, ()) if (n := number(s, prefix)) is not None), default=0)

    def max_nr(self, parent: str) -> int:
        """Highest Nummer directly below ``parent`` or below one of its Sätze."""
        best = self.max_num(parent, "Nr")
        for s in self.below.get(parent, ()):
            if s.startswith("S"):
                best = max(best, self.max_num(f"{parent}/{s}", "Nr"))
        return best


_FREE: dict[tuple[str, str], list[int]] = {}


def free_numbers(law: str, unit: str, paras: dict[str, list[str]]) -> list[int]:
    """§ numbers the law has in no form (neither § n nor § na), up to its highest + 30."""
    if (law, unit) not in _FREE:
        have = {n for p in paras[law] if (n := number(p, unit)) is not None}
        _FREE[(law, unit)] = [n for n in range(1, max(have, default=0) + 31) if n not in have]
    return _FREE[(law, unit)]


def perturb(rid: str, kind: str, ids: dict[str, bool], kids: Children, paras: dict[str, list[str]],
            laws: list[str], repealed: dict[str, list[str]], rng: random.Random) -> tuple[str, bool] | None:
    """(citation text, surely broken) for one kind, or None where the kind does not apply."""
    c = decode_id(rid)
    law, para = c.law, c.para
    if para is None or not (para.startswith("§") or para.startswith("Art")) or "§" in para[1:]:
        return None
    unit = "§" if para.startswith("§") else "Art"
    head = f"{law}/{para}"
    container = f"{head}/Abs{c.absatz}" if c.absatz else head
    if kind == "para":
        free = free_numbers(law, unit, paras)
        if not free:
            return None
        return f"{para_human(unit + str(rng.choice(free)))} {law}", True
    if kind == "absatz":
        k = kids.max_num(head, "Abs") + 1
        return f"{para_human(para)} Abs. {max(k, 2)} {law}", True
    if kind == "satz":
        k = kids.max_num(container, "S") + 1
        abs_part = f" Abs. {c.absatz}" if c.absatz else ""
        return f"{para_human(para)}{abs_part} Satz {k} {law}", True
    if kind == "nummer":
        k = kids.max_nr(container) + 1
        abs_part = f" Abs. {c.absatz}" if c.absatz else ""
        return f"{para_human(para)}{abs_part} Nr. {k} {law}", True
    if kind == "repealed":
        pool = repealed.get(law)
        if not pool:
            return None
        return f"{para_human(rng.choice(pool))} {law}", True
    if kind == "wronglaw":
        other = rng.choice([x for x in laws if x != law])
        return f"{para_human(para)} {other}", f"{other}/{para}" not in ids
    raise ValueError(kind)


def line_bounds(text: str, s: int, e: int) -> tuple[int, int]:
    lo = text.rfind("\n", 0, s) + 1
    hi = text.find("\n", e)
    return lo, len(text) if hi < 0 else hi


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-kind", type=int, default=1500, help="perturbations per kind and dataset (sample)")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--show", type=int, default=0, help="print this many flagged real citations")
    args = ap.parse_args()
    driver, db = connect()
    verifier = Verifier(driver, db, vectors=False)
    t0 = time.perf_counter()
    ids = unit_ids(driver, db)
    kids = Children(ids)
    paras = paras_by_law(ids)
    laws = sorted(paras)
    repealed: dict[str, list[str]] = defaultdict(list)
    for uid, rep in ids.items():
        parts = uid.split("/")
        if rep and len(parts) == 2 and parts[1].startswith("§") and "§" not in parts[1][1:]:
            repealed[parts[0]].append(parts[1])
    print(f"graph: {len(ids):,} unit ids, {len(laws)} laws ({time.perf_counter() - t0:.1f} s)")
    rng = random.Random(args.seed)
    for name in DATASETS:
        docs = load_docs(name)
        t1 = time.perf_counter()
        real = real_citations(verifier, docs, support=False)
        t_real = time.perf_counter() - t1
        not_in = [r for _, _, r in real if r.status is Status.LAW_NOT_IN_GRAPH]
        no_law = [r for _, _, r in real if r.status is Status.UNPARSED or r.law is None]
        named = [r for _, _, r in real if r.law is not None and r.status is not Status.LAW_NOT_IN_GRAPH]
        current = [r for r in named if r.version != "aF"]
        print(f"\n## {name}: {len(docs)} records, {len(real)} real cited units in gold spans "
              f"(verified in {t_real:.1f} s)")
        print(f"counted apart: law_not_in_graph {len(not_in)}; no law named or not read {len(no_law)} "
              f"({dict(Counter(r.status.value for r in no_law))})")
        for label, group in (("law named, in the graph", named), ("... without 'a. F.'", current)):
            flagged = [r for r in group if r.status in BROKEN]
            lo, hi = wilson(len(flagged), len(group))
            print(f"real, {label}: {len(group)}; flagged {len(flagged)} = {len(flagged) / max(1, len(group)):.2%} "
                  f"(95% Wilson CI {lo:.2%}-{hi:.2%}); by status: {dict(Counter(r.status.value for r in flagged))}")
        for r in [r for r in named if r.status in BROKEN][:args.show]:
            print(f"  flagged: {r.status.value:<14} {r.span!r} -> {r.cited} nearest={r.nearest} readings={r.readings}")
        # perturbations
        base = [(di, text, r) for di, text, r in real if r.status is Status.OK and r.id]
        rng.shuffle(base)
        cases: list[tuple[str, str, bool]] = []  # (kind, line with the perturbed citation at a marker, broken)
        for kind in KINDS:
            made = 0
            for _, text, r in base:
                if made >= args.per_kind:
                    break
                got = perturb(r.id, kind, ids, kids, paras, laws, repealed, rng)
                if got is None:
                    continue
                cite, broken = got
                lo_, hi_ = line_bounds(text, r.chain_start, r.chain_end)
                line = text[lo_:r.chain_start] + "\x01" + cite + "\x02" + text[r.chain_end:hi_]
                cases.append((kind, line, broken))
                made += 1
        results: dict[str, Counter] = defaultdict(Counter)
        t2 = time.perf_counter()
        n_calls = 0
        for i in range(0, len(cases), 100):
            batch = cases[i:i + 100]
            parts, marks = [], []
            pos = 0
            for kind, line, broken in batch:
                s = line.index("\x01")
                clean = line.replace("\x01", "").replace("\x02", "")
                marks.append((pos + s, kind, broken))
                parts.append(clean)
                pos += len(clean) + 1
            report = verifier.verify("\n".join(parts), support=False)
            n_calls += 1
            at = defaultdict(list)
            for rec in report.records:
                at[rec.chain_start].append(rec)
            for start, kind, broken in marks:
                recs = at.get(start, [])
                status = recs[0].status.value if recs else "not_read"
                key = kind if broken else kind + "_exists"
                results[key][status] += 1
        t_pert = time.perf_counter() - t2
        print(f"\nperturbed ({len(cases)} citations, {n_calls} verify calls, {t_pert:.1f} s):")
        print("| kind | n | found by status | 95% CI | statuses |")
        print("|---|---|---|---|---|")
        total = found_all = 0
        for key in [*KINDS, "wronglaw_exists"]:
            cnt = results.get(key)
            if not cnt:
                continue
            n = sum(cnt.values())
            found = sum(v for s, v in cnt.items() if s in {b.value for b in BROKEN})
            lo, hi = wilson(found, n)
            if not key.endswith("_exists"):
                total += n
                found_all += found
            print(f"| {key} | {n} | {found / n:.2%} | {lo:.2%}-{hi:.2%} | {dict(cnt)} |")
        lo, hi = wilson(found_all, total)
        print(f"| all broken | {total} | {found_all / max(1, total):.2%} | {lo:.2%}-{hi:.2%} | |")
    driver.close()


if __name__ == "__main__":
    main()
