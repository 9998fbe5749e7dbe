"""legalkg.cite on LER BGH (span scores and field accuracy of benchmarks/cite_compare.py) for one tree.

Usage: PYTHONPATH=TREE .venv/bin/python benchmarks/cite_ler_fields.py TREE
(TREE: a checkout; run once for main and once for a branch to compare; prints one line).
The field check set's labels were first written from the grammar's output (a regression check).
"""
import importlib.util
import sys

spec = importlib.util.spec_from_file_location("cc", sys.argv[1] + "/benchmarks/cite_compare.py"); b = importlib.util.module_from_spec(spec); spec.loader.exec_module(b)
from legalkg.cite import LawRegistry

reg = LawRegistry.default(); docs = b.load_docs()
s = b.span_scores(docs, b.ours(reg, False))
acc = b.field_accuracy(b.check_set(docs), lambda t: b.fields_ours(t, reg))
print(sys.argv[1], {k: round(v, 4) for k, v in s.items() if isinstance(v, float)}, {k: round(v, 4) for k, v in acc.items()})
