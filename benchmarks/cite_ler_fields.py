"""legalkg.cite on LER BGH (span scores and field accuracy of benchmarks/cite_compare.py) for one tree.

Usage: PYTHONPATH=TREE .venv/bin/python benchmarks/cite_ler_fields.py TREE
(TREE: a checkout; run once for main and once for a branch to compare; prints one line).
The field check set's labels were first written from the grammar's output (a regression check).
"""

from __future__ import annotations

import importlib.util
import sys


def main(tree: str) -> None:
    spec = importlib.util.spec_from_file_location("cite_compare", f"{tree}/benchmarks/cite_compare.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    from legalkg.cite import LawRegistry

    reg = LawRegistry.default()
    docs = bench.load_docs()
    spans = bench.span_scores(docs, bench.ours(reg, False))
    fields = bench.field_accuracy(bench.check_set(docs), lambda t: bench.fields_ours(t, reg))
    print(tree, {k: round(v, 4) for k, v in spans.items() if isinstance(v, float)},
          {k: round(v, 4) for k, v in fields.items()})


if __name__ == "__main__":
    main(sys.argv[1])
