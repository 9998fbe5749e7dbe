#!/usr/bin/env bash
# The learned mode and the vector mode alone, with the graph's § vectors made by one model (the graph
# records it; run once per model, re-embedding in between), 5-fold CV grouped by case.
# Usage: eval/encoder/run.sh OUTDIR MODEL   (MODEL names the folder; the graph must hold its vectors)
set -euo pipefail
out=${1:?usage: run.sh OUTDIR MODEL}; model=${2:?usage: run.sh OUTDIR MODEL}
data=${LEGALKG_EVAL_DATA:-/work/shared/data/eval}
read -r -a lk <<< "${LEGALKG:-.venv/bin/legalkg}"  # e.g. LEGALKG="env PYTHONPATH=CHECKOUT .venv/bin/python -m legalkg.cli"
common=(--mode vector,learned --cv 5 --seed 0 --bootstrap 200 --permutations 100 --quiet --level §)
mkdir -p "$out"
for ds in ${DATASETS:-gerlayqa ler_bgh ler_courts}; do
  if [ "$ds" = gerlayqa ]; then
    "${lk[@]}" eval --dataset gerlayqa --train-extra "$data/gerlayqa/train.jsonl" -k 10 "${common[@]}" \
      --out "$out/gerlayqa-$model" > "$out/gerlayqa-$model.log"
  else
    "${lk[@]}" eval --dataset "$ds" -k 5 "${common[@]}" --out "$out/$ds-$model" > "$out/$ds-$model.log"
  fi
done
