"""What the code of this checkout makes of the judged samples: the sampled definitions it still reads,
and the enabling edges and unresolved records it now gives for the sampled ordinances (the samples
were written by an earlier build.py run). Writes judged/recheck.json (with the commit it ran at);
the verdicts of records that changed are added by hand to judged/enabling_head.jsonl.

    .venv/bin/python eval/facts/recheck.py [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

from legalkg import paths
from legalkg.cite import KnownUnits, LawRegistry
from legalkg.cite.definitions import definitions
from legalkg.cite.preamble import enabling_facts
from legalkg.model import TEXT_LEVELS
from legalkg.parse import ParseError, iter_laws

HERE = Path(__file__).resolve().parent


def read(name: str) -> list[dict]:
    return [json.loads(line) for line in (HERE / "samples" / f"{name}.jsonl").read_text("utf-8").splitlines()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    registry = LawRegistry.default()
    defs, ords = read("definitions"), read("enabling")
    want_defs = {d["slug"] for d in defs}
    want_ords = {o["slug"] for o in ords}
    ids: set[str] = set()
    repealed: set[str] = set()
    read_now: dict[str, set] = {}
    laws = {}
    for slug, law in iter_laws(paths.gii_all_archive(), None, workers=args.workers):
        if isinstance(law, ParseError):
            continue
        for u in law.units:
            if u.level in TEXT_LEVELS:
                ids.add(u.id)
                if u.repealed:
                    repealed.add(u.id)
        if slug in want_defs:
            read_now[slug] = {(d.unit, d.term, d.pattern) for d in definitions(law)}
        if slug in want_ords:
            laws[slug] = law.model_copy(update={"units": []})
    known = KnownUnits(ids)
    enabling = []
    for o in ords:
        f = enabling_facts(laws[o["slug"]], registry, known.ids, repealed, known.laws)
        enabling.append({"law": o["law"],
                         "edges": [{k: e[k] for k in ("citation", "target", "role", "exact", "text")} for e in f.edges],
                         "unresolved": [{k: u[k] for k in ("citation", "status", "role", "text")}
                                        for u in f.unresolved]})
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=HERE).stdout.strip()
    out = {"commit": commit,
           "definitions_still_read": [(d["unit"], d["term"], d["pattern"]) in read_now.get(d["slug"], set())
                                      for d in defs],
           "enabling": enabling}
    (HERE / "judged" / "recheck.json").write_text(json.dumps(out, ensure_ascii=False, indent=0) + "\n", "utf-8")
    print(commit, sum(out["definitions_still_read"]), "of", len(defs), "definitions still read")


if __name__ == "__main__":
    main()
