#!/usr/bin/env bash
# Reproduces this folder's results.md / results.csv: legalkg.rank on GerLayQA dev, 5-fold CV.
# LIMIT=N keeps the first N questions (the committed run used LIMIT=500: the full 2,154 took 974 s on
# 2026-11-29); LIMIT=0 runs them all. No graph needed (the ranker builds its own BGB resources).
set -euo pipefail
cd "$(dirname "$0")/../.."
PYTHON=${PYTHON:-.venv/bin/python}
LIMIT=${LIMIT:-500}
"$PYTHON" benchmarks/retrieval_quality.py --limit "$LIMIT" --out eval/retrieval-quality
