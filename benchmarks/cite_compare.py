"""Compare citation extractors on LER BGH: legalkg.cite vs legal-reference-extraction (refex) vs
bundesrecht. Prints markdown tables; the numbers go to docs/citations.md.

Usage: .venv/bin/python benchmarks/cite_compare.py

Span metric (documented in docs/citations.md): predictions are citation *chains* (one span per
"§ 263 Abs. 1 , § 13 Abs. 1 StGB"); a gold GS span is found when some predicted span overlaps it;
a predicted span is correct when it overlaps some gold GS span. "label-aware" precision ignores
predictions that overlap a gold VO/EUN/VS span (ordinances, EU law: a different LER label).
Field accuracy: on the hand-checked check set (tests/cite/data/ler_bgh_check.jsonl, 150 gold spans),
each expected citation is compared with the predicted citation at the same position.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from legalkg import paths  # noqa: E402
from legalkg.cite import LawRegistry, extract, spans  # noqa: E402

FIELDS = ("law", "para", "absatz", "satz", "nummer", "buchstabe")
CHECK = ROOT / "tests" / "cite" / "data" / "ler_bgh_check.jsonl"


def load_docs() -> list[dict]:
    path = paths.eval_dir() / "ler_bgh" / "bgh_documents.jsonl"
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def span_scores(docs: list[dict], predict) -> dict:
    tp_g = fn = tp_p = fp = fp_other = exact = n_pred = 0
    t0 = time.perf_counter()
    for d in docs:
        pred = predict(d["text"])
        gold = [(n["start"], n["end"]) for n in d["norms"]]
        other = [(n["start"], n["end"]) for n in d.get("other_norms", [])]
        for g in gold:
            if any(overlap(g, p) for p in pred):
                tp_g += 1
            else:
                fn += 1
        for p in pred:
            n_pred += 1
            if any(overlap(p, g) for g in gold):
                tp_p += 1
                exact += p in gold
            elif any(overlap(p, o) for o in other):
                fp_other += 1
            else:
                fp += 1
    secs = time.perf_counter() - t0
    recall = tp_g / (tp_g + fn)
    prec = tp_p / (tp_p + fp + fp_other)
    prec_la = tp_p / (tp_p + fp)
    f1 = 2 * prec * recall / (prec + recall)
    f1_la = 2 * prec_la * recall / (prec_la + recall)
    gold_n = tp_g + fn
    ex_p, ex_r = exact / max(n_pred, 1), exact / gold_n
    ex_f1 = 2 * ex_p * ex_r / (ex_p + ex_r) if exact else 0.0
    return dict(P=prec, R=recall, F1=f1, P_la=prec_la, F1_la=f1_la, exact_F1=ex_f1,
                pred=n_pred, secs=secs)


def ours(registry, law_mentions: bool):
    def predict(text: str) -> list[tuple[int, int]]:
        return spans(extract(text, registry=registry, law_mentions=law_mentions))
    return predict


def refex_predict():
    from refex.orchestrator import CitationExtractor

    ex = CitationExtractor()

    def predict(text: str) -> list[tuple[int, int]]:
        res = ex.extract(text)
        return sorted({(c.span.start, c.span.end) for c in res.citations if c.type == "law"})
    return predict


# ---------------------------------------------------------------- field accuracy
def check_set(docs: list[dict]) -> list[tuple[str, list[list]]]:
    by_id = {d["id"]: d for d in docs}
    out = []
    for line in CHECK.read_text("utf-8").splitlines():
        row = json.loads(line)
        out.append((by_id[row["doc"]]["text"][row["start"]:row["end"]], row["expected"]))
    return out


def fields_ours(text: str, registry) -> list[tuple]:
    return [(m.law_key, m.para, m.absatz, m.satz, m.nummer, m.buchstabe)
            for m in extract(text, registry=registry)]


def fields_bundesrecht(text: str, registry) -> list[tuple]:
    from bundesrecht import normalise, parse_reference

    out = []
    try:
        canon = normalise(text)
    except Exception:  # noqa: BLE001 - a library failure is a miss, not a crash of the benchmark
        return out
    for c in canon:
        try:
            ref = parse_reference(c)
        except Exception:  # noqa: BLE001
            continue
        law = registry.key_for(ref.law) if ref.law else None
        unit = "Art" if c.lstrip().startswith("Art") else "§"
        for p in ref.paragraphs:
            subs = {s.level: s.number for s in p.sub_refs}
            out.append((law, f"{unit}{p.paragraph}", subs.get("Abs"), subs.get("Satz"),
                        subs.get("Nr"), subs.get("Buchst")))
    return out


def fields_refex(text: str, registry, ex) -> list[tuple]:
    res = ex.extract(text)
    out = []
    for c in res.citations:
        if c.type != "law":
            continue
        law = registry.key_for(c.book) if c.book else None
        unit = "Art" if c.unit == "article" else "§"
        out.append((law, f"{unit}{c.number}", None, None, None, None))
    return out


def field_accuracy(checks, predict) -> dict:
    hits = {f: 0 for f in FIELDS}
    all_ok = total = count_ok = 0
    for text, expected in checks:
        pred = predict(text)
        count_ok += len(pred) == len(expected)
        for i, exp in enumerate(expected):
            total += 1
            got = pred[i] if i < len(pred) else (None,) * 6
            ok = True
            for k, f in enumerate(FIELDS):
                if got[k] == exp[k]:
                    hits[f] += 1
                else:
                    ok = False
            all_ok += ok
    out = {f: hits[f] / total for f in FIELDS}
    out["all"] = all_ok / total
    out["count"] = count_ok / len(checks)
    out["n"] = total
    return out


def main() -> None:
    docs = load_docs()
    reg = LawRegistry.default()
    gold_n = sum(len(d["norms"]) for d in docs)
    print(f"LER BGH: {len(docs)} documents, {gold_n} gold GS spans\n")
    print("| system | P | R | F1 | P label-aware | F1 label-aware | exact-span F1 | predicted spans | seconds |")
    print("|---|---|---|---|---|---|---|---|---|")
    rows = [("legalkg.cite (citations)", ours(reg, False)),
            ("legalkg.cite (+ bare law names)", ours(reg, True)),
            ("refex 0.5.5 (law citations)", refex_predict())]
    for name, pred in rows:
        s = span_scores(docs, pred)
        print(f"| {name} | {s['P']:.3f} | {s['R']:.3f} | {s['F1']:.3f} | {s['P_la']:.3f} | "
              f"{s['F1_la']:.3f} | {s['exact_F1']:.3f} | {s['pred']} | {s['secs']:.1f} |")
    print("| bundesrecht 0.1.4 | - | - | - | - | - | - | (no extraction from running text) | - |")

    checks = check_set(docs)
    from refex.orchestrator import CitationExtractor
    ex = CitationExtractor()
    print(f"\nField accuracy on the check set ({len(checks)} gold spans):\n")
    print("| system | citations | law | § | Abs | Satz | Nr | Buchst | all fields | count right |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, fn in [("legalkg.cite", lambda t: fields_ours(t, reg)),
                     ("bundesrecht 0.1.4", lambda t: fields_bundesrecht(t, reg)),
                     ("refex 0.5.5 (§ only)", lambda t: fields_refex(t, reg, ex))]:
        a = field_accuracy(checks, fn)
        print(f"| {name} | {a['n']} | {a['law']:.3f} | {a['para']:.3f} | {a['absatz']:.3f} | "
              f"{a['satz']:.3f} | {a['nummer']:.3f} | {a['buchstabe']:.3f} | {a['all']:.3f} | "
              f"{a['count']:.3f} |")

    # citations per gold span (a gold span may hold several citations)
    n_units = sum(len(extract(d["text"][n["start"]:n["end"]], registry=reg)) for d in docs
                  for n in d["norms"])
    print(f"\nCitations (cited units) inside the {gold_n} gold spans, by legalkg.cite: {n_units}")


if __name__ == "__main__":
    main()
