#!/usr/bin/env bash
# Similar decisions' citations as a candidate source of the case ranker (issue 46, item 3): the learned
# engine of `legalkg search`, 5-fold CV grouped by case (every fold's predictor and ranker trained on the
# other folds, so a case's similar decisions are those of the other folds), `--level auto` and § level,
# k 5, the shipped case weights, with `fulltext` in the same run; once per variant of the § candidate
# stage (benchmarks/decisions_candidates.py: shipped, noknn, wide); then the engine without fold rankers
# (the predictor's RRF) with the kNN component at its weight 1 and off (`--predictor-weights knn=0`).
# Usage: [PYTHON=.venv/bin/python] eval/decisions-candidates/run.sh OUTDIR [DATASET...]   (default ler_bgh ler_courts)
# (NEO4J_URI / NEO4J_PASSWORD: a graph of `legalkg ingest --codes default`), then:
# .venv/bin/python eval/decisions-candidates/summarise.py OUTDIR eval/decisions-candidates
set -euo pipefail
out=${1:?usage: run.sh OUTDIR [DATASET...]}
shift
datasets=("$@")
[ ${#datasets[@]} -gt 0 ] || datasets=(ler_bgh ler_courts)
py=${PYTHON:-.venv/bin/python}
mkdir -p "$out"
for ds in "${datasets[@]}"; do
  for variant in shipped noknn wide; do
    nice -n 5 "$py" benchmarks/decisions_candidates.py "$variant" -- eval --dataset "$ds" \
      --level auto,Paragraph --expand none --mode learned,fulltext -k 5 --cv 5 --seed 0 \
      --bootstrap 1000 --permutations 10000 --gold-count fixed \
      --weights predictor=1,cited=1,fulltext=0,vector=0 --quiet --out "$out/$ds-$variant" > "$out/$ds-$variant.log"
  done
  for knn in 1 0; do
    name=$ds-rrf; [ "$knn" = 1 ] || name=$ds-rrf-noknn
    nice -n 5 "$py" -m legalkg.cli eval --dataset "$ds" \
      --level auto,Paragraph --expand none --mode learned,fulltext -k 5 --cv 5 --seed 0 \
      --bootstrap 1000 --permutations 10000 --gold-count fixed \
      --weights predictor=1,cited=1,fulltext=0,vector=0 --fold-ranker none --predictor-weights "knn=$knn" \
      --quiet --out "$out/$name" > "$out/$name.log"
  done
done
