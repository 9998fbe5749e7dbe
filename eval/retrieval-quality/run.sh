#!/usr/bin/env bash
# Reproduces this folder's results.md / results.csv: legalkg.rank on GerLayQA dev, 5-fold CV.
# LIMIT=N keeps the first N questions (the committed run used all 2,154: 9 min 11 s on 2026-12-01,
# shared 2-core machine); LIMIT=0 (default) runs them all. No graph needed (the ranker builds its own BGB resources).
set -euo pipefail
cd "$(dirname "$0")/../.."
PYTHON=${PYTHON:-.venv/bin/python}
LIMIT=${LIMIT:-0}
"$PYTHON" benchmarks/retrieval_quality.py --limit "$LIMIT" --out eval/retrieval-quality
