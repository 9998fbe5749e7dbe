"""Score ``legalkg.cite.extract`` on the hand-checked citation families of issue 35.

Usage: .venv/bin/python benchmarks/cite_families.py --label NAME
       (writes eval/cite-families/latest.md and adds or replaces the row NAME in history.csv)

The tables are tests/cite/data/families/*.tsv (format in that folder's README). Per family:
- law+§: share of expected references whose (law, §) is predicted (multiset match);
- deeper: share of expected references with a part below the § (Absatz, Satz, Nummer, Buchstabe,
  Doppelbuchstabe, Halbsatz, Alternative) whose whole canonical id is predicted;
- rows: share of rows whose predicted list equals the expected one (order included);
- law lost: share of citing rows in which a reference comes out without the law the row cites
  (reason ``no_law``): the failure issue 35 names first;
- false: predicted references that no row expects (on the 0_none family: false references on texts
  that cite nothing).
"""

from __future__ import annotations

import argparse
import csv
import inspect
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from legalkg.cite import LawRegistry, extract  # noqa: E402
from legalkg.model import Citation  # noqa: E402

FAMILIES = ROOT / "tests" / "cite" / "data" / "families"
OUT = ROOT / "eval" / "cite-families"
_ESCAPE = re.compile(r"\\(n|t|u[0-9a-fA-F]{4})")


def unescape(text: str) -> str:
    """The row's text with ``\\n``, ``\\t`` and ``\\uXXXX`` written out (see the folder's README)."""
    def one(m: re.Match) -> str:
        s = m.group(1)
        return "\n" if s == "n" else "\t" if s == "t" else chr(int(s[1:], 16))
    return _ESCAPE.sub(one, text)


def load(path: Path) -> list[dict]:
    """Rows of one family file: text (unescaped), expected (list of tokens), units (set of ids)."""
    rows = []
    with path.open(encoding="utf-8", newline="") as fh:
        for r in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
            exp = r["expected"].strip()
            rows.append({"text": unescape(r["text"]),
                         "expected": [] if exp == "-" else [e.strip() for e in exp.split(" | ")],
                         "units": {u.strip() for u in (r.get("units") or "").split(",") if u.strip()}})
    return rows


def families() -> dict[str, list[dict]]:
    return {p.stem: load(p) for p in sorted(FAMILIES.glob("*.tsv"))}


def token(m) -> str:
    """A match as a table token: its canonical id, or ``?reason:LAW/para...`` when unresolved."""
    if m.law_key is not None:
        out = m.node_id or m.law_key
    else:
        c = Citation(law=m.law_cited or "", para=m.para, absatz=m.absatz, satz=m.satz,
                     nummer=m.nummer, buchstabe=m.buchstabe, doppelbuchstabe=m.doppelbuchstabe)
        out = f"?{m.reason}:{c.to_id()}"
    if m.halbsatz:
        out += f"+Hs{m.halbsatz}"
    if m.alternative:
        out += f"+Alt{m.alternative}"
    return out


def predict(row: dict, registry: LawRegistry) -> list:
    """The statute matches of a row (the known units passed where ``extract`` takes them)."""
    kwargs = {}
    if row["units"] and "known" in inspect.signature(extract).parameters:
        kwargs["known"] = row["units"]
    return [m for m in extract(row["text"], registry=registry, **kwargs) if m.unit is not None]


def _law_para(tok: str) -> str:
    base = tok.split("+", 1)[0]
    parts = base.split("/")
    return "/".join(parts[:2])


def score(rows: list[dict], registry: LawRegistry) -> dict:
    n_exp = lp_ok = deep_n = deep_ok = rows_ok = citing = lost = false = 0
    for row in rows:
        matches = predict(row, registry)
        pred = [token(m) for m in matches]
        exp = row["expected"]
        rows_ok += pred == exp
        n_exp += len(exp)
        lp_ok += sum((Counter(map(_law_para, exp)) & Counter(map(_law_para, pred))).values())
        full = Counter(pred)
        for e in exp:
            if e.count("/") > 1 or "+" in e:
                deep_n += 1
                if full[e] > 0:
                    deep_ok += 1
                    full[e] -= 1
        false += sum((Counter(pred) - Counter(exp)).values())
        if exp:
            citing += 1
            lost += any(m.reason == "no_law" for m in matches)
    return {"rows": len(rows), "refs": n_exp,
            "law_para": lp_ok / n_exp if n_exp else None,
            "deeper": deep_ok / deep_n if deep_n else None,
            "rows_exact": rows_ok / len(rows) if rows else None,
            "law_lost": lost / citing if citing else None,
            "false": false}


def _pct(v: float | None) -> str:
    return "–" if v is None else f"{100 * v:.1f} %"


def run(label: str) -> list[dict]:
    reg = LawRegistry.default()
    out = []
    fams = families()
    totals = {"rows": 0, "refs": 0}
    lp = deep = 0.0
    for name, rows in fams.items():
        s = score(rows, reg)
        out.append({"label": label, "family": name, **s})
    cited = [r for r in out if r["refs"]]
    totals["refs"] = sum(r["refs"] for r in cited)
    lp = sum(r["law_para"] * r["refs"] for r in cited) / totals["refs"]
    deep_rows = [r for r in cited if r["deeper"] is not None]
    deep = sum(r["deeper"] for r in deep_rows) / len(deep_rows)
    lost_rows = sum(r["law_lost"] * r["rows"] for r in cited) / sum(r["rows"] for r in cited)
    out.append({"label": label, "family": "ALL", "rows": sum(r["rows"] for r in out),
                "refs": totals["refs"], "law_para": lp, "deeper": deep,
                "rows_exact": sum(r["rows_exact"] * r["rows"] for r in out) / sum(r["rows"] for r in out),
                "law_lost": lost_rows, "false": sum(r["false"] for r in out)})
    return out


def write(results: list[dict]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    hist = OUT / "history.csv"
    fields = ["label", "family", "rows", "refs", "law_para", "deeper", "rows_exact", "law_lost", "false"]
    old = []
    label = results[0]["label"]
    if hist.exists():
        with hist.open(encoding="utf-8", newline="") as fh:
            old = [r for r in csv.DictReader(fh) if r["label"] != label]
    with hist.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=fields)
        w.writeheader()
        for r in old:
            w.writerow(r)
        for r in results:
            w.writerow({k: (f"{r[k]:.4f}" if isinstance(r[k], float) else r[k]) for k in fields})
    lines = [f"# Citation families: {label}", "",
             "| family | rows | refs | law+§ | deeper | rows exact | law lost | false refs |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        lines.append(f"| {r['family']} | {r['rows']} | {r['refs']} | {_pct(r['law_para'])} | "
                     f"{_pct(r['deeper'])} | {_pct(r['rows_exact'])} | {_pct(r['law_lost'])} | {r['false']} |")
    (OUT / "latest.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


def heldout(path: Path) -> None:
    """Score one table on its own (eval/cite-families/heldout.tsv: rows written after the fixes)."""
    rows = load(path)
    reg = LawRegistry.default()
    s = score(rows, reg)
    misses = [(r["text"], [token(m) for m in predict(r, reg)], r["expected"]) for r in rows
              if [token(m) for m in predict(r, reg)] != r["expected"]]
    lines = [f"# Held-out citation rows: {path.name}", "",
             "Written after the fixes, scored once: "
             f"`PYTHONPATH=$PWD .venv/bin/python benchmarks/cite_families.py --heldout {path.resolve().relative_to(ROOT)}`", "",
             "| rows | refs | law+§ | deeper | rows exact | law lost | false refs |", "|---:|---:|---:|---:|---:|---:|---:|",
             f"| {s['rows']} | {s['refs']} | {_pct(s['law_para'])} | {_pct(s['deeper'])} | {_pct(s['rows_exact'])} | "
             f"{_pct(s['law_lost'])} | {s['false']} |", "", "Rows missed (text, predicted, expected):", ""]
    lines += [f"- `{t}`: {p} (expected {e})" for t, p, e in misses] or ["- none"]
    (OUT / "heldout.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--label", help="row name in history.csv (e.g. baseline)")
    ap.add_argument("--heldout", type=Path, help="score this table alone into heldout.md")
    a = ap.parse_args()
    if a.heldout:
        heldout(a.heldout)
    elif a.label:
        write(run(a.label))
    else:
        ap.error("pass --label NAME or --heldout TABLE")


if __name__ == "__main__":
    main()
