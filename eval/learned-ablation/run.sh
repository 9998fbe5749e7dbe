#!/usr/bin/env bash
# The learned mode with each run switched off (legalkg eval --weights RUN=0) and with nested-CV
# tuned weights (--tune-weights), and with each component of the statute predictor off
# (--predictor-weights COMPONENT=0), 5-fold CV grouped by case, on the development graph.
# Usage: [DATASETS="ler_bgh ler_courts"] eval/learned-ablation/run.sh OUTDIR [CONFIG ...]; then summarise.py OUTDIR.
set -euo pipefail
out=${1:?usage: run.sh OUTDIR [CONFIG ...]}; shift
data=${LEGALKG_EVAL_DATA:-${LEGALKG_SHARED:-$(cd .. && pwd)/shared}/data/eval}
declare -A opts=([all]="" [predictor_off]="--weights predictor=0" [fulltext_off]="--weights fulltext=0"
                 [vector_off]="--weights vector=0" [cited_off]="--weights cited=0" [tuned]="--tune-weights"
                 [nb_off]="--predictor-weights nb=0 --fold-ranker none" [knn_off]="--predictor-weights knn=0 --fold-ranker none"
                 [bridge_off]="--predictor-weights bridge=0 --fold-ranker none" [pop_off]="--predictor-weights pop=0 --fold-ranker none")
configs=("$@"); [ ${#configs[@]} -eq 0 ] && configs=(all predictor_off fulltext_off vector_off cited_off tuned
                                                      nb_off knn_off bridge_off pop_off)
read -r -a lk <<< "${LEGALKG:-.venv/bin/legalkg}"  # e.g. LEGALKG="env PYTHONPATH=CHECKOUT .venv/bin/python -m legalkg.cli"
common=(--mode learned --cv 5 --seed 0 --bootstrap 200 --permutations 100 --quiet)
for name in "${configs[@]}"; do
  read -r -a extra <<< "${opts[$name]}"
  for ds in ${DATASETS:-ler_bgh ler_courts gerlayqa}; do
    if [ "$ds" = gerlayqa ]; then
      "${lk[@]}" eval --dataset gerlayqa --train-extra "$data/gerlayqa/train.jsonl" --level § -k 10 \
        "${common[@]}" "${extra[@]}" --out "$out/gerlayqa-$name" > "$out/gerlayqa-$name.log"
    else
      "${lk[@]}" eval --dataset "$ds" --level §,Absatz -k 5 "${common[@]}" "${extra[@]}" \
        --out "$out/$ds-$name" > "$out/$ds-$name.log"
    fi
  done
done
