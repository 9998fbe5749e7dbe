#!/usr/bin/env bash
# The issue's GerLayQA goal (issue 24): 5-fold CV over dev + train (gerlayqa_all, 3,708 questions),
# the learned mode (the engine of `legalkg search`) at k 10 and k 100, with nested-CV tuned weights,
# and the popularity list and the plain classifier (Complement NB alone) of the same folds as baselines.
# Usage: eval/learned-table1/goals-gerlayqa.sh OUTDIR; then eval/learned-table1/summarise.py OUTDIR, which
# writes results-gerlayqa.md and results-gerlayqa.csv from the five runs' results.csv files.
set -euo pipefail
out=${1:?usage: goals-gerlayqa.sh OUTDIR [CONFIG ...]}; shift
read -r -a lk <<< "${LEGALKG:-.venv/bin/legalkg}"  # e.g. LEGALKG="env PYTHONPATH=CHECKOUT .venv/bin/python -m legalkg.cli"
common=(--dataset gerlayqa_all --mode learned --level § --cv 5 --seed 0 --bootstrap 1000 --permutations 100 --quiet)
declare -A opts=([learned-k10]="-k 10" [learned-k100]="-k 100" [tuned-k10]="-k 10 --tune-weights"
                 [popularity-k10]="-k 10 --weights fulltext=0,vector=0,cited=0 --predictor-weights nb=0,knn=0,bridge=0 --fold-ranker none"
                 [classifier-k10]="-k 10 --weights fulltext=0,vector=0,cited=0 --predictor-weights knn=0,bridge=0,pop=0 --fold-ranker none")
configs=("$@"); [ ${#configs[@]} -eq 0 ] && configs=(learned-k10 popularity-k10 classifier-k10 learned-k100 tuned-k10)
for name in "${configs[@]}"; do
  read -r -a extra <<< "${opts[$name]}"
  "${lk[@]}" eval "${common[@]}" "${extra[@]}" --out "$out/gerlayqa_all-$name" > "$out/gerlayqa_all-$name.log"
done
