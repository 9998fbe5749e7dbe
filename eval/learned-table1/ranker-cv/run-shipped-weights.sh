#!/usr/bin/env bash
# The learned rows of run.sh with the run weights `legalkg search` ships for decision text
# (legalkg/data/fusion-weights.json, entry case: predictor 1, cited 1, full-text 0, vector 0), the
# folds with their rankers (the default) and without (--fold-ranker none). Those weights were chosen
# by an inner CV over LER cases (the entry's command), so these rows are not nested: see README.md.
# Usage: [LEVELS=... DATASETS=...] eval/learned-table1/ranker-cv/run-shipped-weights.sh OUTDIR
set -euo pipefail
out=${1:?usage: run-shipped-weights.sh OUTDIR}
levels=${LEVELS:-§,Absatz,Satz,auto}
read -r -a lk <<< "${LEGALKG:-.venv/bin/legalkg}"
common=(--mode learned --level "$levels" -k 5 --cv 5 --seed 0 --bootstrap 1000 --permutations 100 --quiet
        --weights fulltext=0,vector=0)
for ds in ${DATASETS:-ler_bgh ler_courts ler_all}; do
  "${lk[@]}" eval --dataset "$ds" "${common[@]}" --out "$out/$ds-learned-shipw" > "$out/$ds-learned-shipw.log"
  "${lk[@]}" eval --dataset "$ds" "${common[@]}" --fold-ranker none --out "$out/$ds-learned-shipw-noranker" \
    > "$out/$ds-learned-shipw-noranker.log"
done
