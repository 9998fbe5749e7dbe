#!/usr/bin/env bash
# The paper's Table 1 per level for the learned mode (issue 24): LER BGH and ler_courts, 5-fold CV
# grouped by case, levels § / Absatz / Satz / Nummer / auto, beside the popularity baseline of the same folds
# (the predictor's popularity component alone, every other run off, and no ranker: a ranker would reorder
# it). The learned folds rank with rankers of their own (--fold-ranker shipped, the default, issue 34);
# NO_RANKER=1 adds the learned folds without one (<ds>-learned-noranker). Development graph (58 codes).
# Usage: [LEVELS=auto SUFFIX=-auto DATASETS="ler_bgh ler_courts ler_all" NO_RANKER=1] eval/learned-table1/run.sh OUTDIR;
# then summarise.py OUTDIR.
set -euo pipefail
out=${1:?usage: run.sh OUTDIR}
levels=${LEVELS:-§,Absatz,Satz,Nummer,auto}
sfx=${SUFFIX:-}
read -r -a lk <<< "${LEGALKG:-.venv/bin/legalkg}"  # e.g. LEGALKG="env PYTHONPATH=CHECKOUT .venv/bin/python -m legalkg.cli"
common=(--mode learned --level "$levels" -k 5 --cv 5 --seed 0 --bootstrap 1000 --permutations 100 --quiet)
for ds in ${DATASETS:-ler_bgh ler_courts}; do
  "${lk[@]}" eval --dataset "$ds" "${common[@]}" --out "$out/$ds-learned$sfx" > "$out/$ds-learned$sfx.log"
  if [ -n "${NO_RANKER:-}" ]; then
    "${lk[@]}" eval --dataset "$ds" "${common[@]}" --fold-ranker none --out "$out/$ds-learned-noranker$sfx" \
      > "$out/$ds-learned-noranker$sfx.log"
  fi
  "${lk[@]}" eval --dataset "$ds" "${common[@]}" --weights fulltext=0,vector=0,cited=0 \
    --predictor-weights nb=0,knn=0,bridge=0 --fold-ranker none --out "$out/$ds-popularity$sfx" \
    > "$out/$ds-popularity$sfx.log"
done
