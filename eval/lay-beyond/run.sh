#!/usr/bin/env bash
# The baseline runs of the beyond-BGB lay dev set (README.md, "Baseline"): the default engine, full-text and
# vectors at § level, k 10, on the graph that NEO4J_URI / NEO4J_PASSWORD name (the 58 default codes), then
# the per-topic table. Rebuild dev.jsonl first where a part changed: .venv/bin/python eval/lay-beyond/build.py
set -euo pipefail
cd "$(dirname "$0")/../.."
for mode in learned fulltext vector; do
  .venv/bin/legalkg eval --dataset lay_beyond --level Paragraph -k 10 --mode "$mode" \
    --out "eval/lay-beyond/baseline-$mode/" --quiet
done
.venv/bin/python eval/lay-beyond/by_topic.py
