#!/usr/bin/env bash
# Reproduces eval/all-laws-toer/: the learned mode, 5-fold CV, on a 58-code graph and on an all-laws
# graph (README.md here). CODES58_URI: a graph of `legalkg ingest` (default codes); ALL_URI: a graph of
# `legalkg ingest --codes all` with at least the § and Absatz levels embedded.
set -euo pipefail
cd "$(dirname "$0")/../.."
CODES58_URI="${CODES58_URI:-bolt://127.0.0.1:7687}"
ALL_URI="${ALL_URI:-bolt://127.0.0.1:7691}"
for ds in ler_bgh ler_courts; do
  .venv/bin/legalkg eval --uri "$CODES58_URI" --dataset "$ds" --mode learned --level §,Absatz --cv 5 -k 5 --quiet --out "eval/all-laws-toer/$ds-codes58"
  .venv/bin/legalkg eval --uri "$ALL_URI" --dataset "$ds" --mode learned --level §,Absatz --cv 5 -k 5 --quiet --out "eval/all-laws-toer/$ds-all-laws"
  # the same gold as the 58-code graph's: what the other laws cost as distractors (README.md)
  .venv/bin/legalkg eval --uri "$ALL_URI" --dataset "$ds" --mode learned --level §,Absatz --cv 5 -k 5 --gold-laws default --quiet --out "eval/all-laws-toer/$ds-all-laws-gold58"
done
