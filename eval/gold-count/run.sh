#!/usr/bin/env bash
# Reproduces this folder: the unexpanded grid (6 levels x 3 modes, k 5) on LER BGH and ler_courts under each
# way of counting gold per depth (--gold-count fixed|dedup|named). The six runs go to eval/out/gold-count/
# (git-ignored); combine.py writes results.csv, results.md and satz_row.png here.
set -euo pipefail
cd "$(dirname "$0")/../.."
LEGALKG=${LEGALKG:-.venv/bin/legalkg}
PYTHON=${PYTHON:-.venv/bin/python}
for dataset in ler_bgh ler_courts; do
  for way in fixed dedup named; do
    "$LEGALKG" eval --dataset "$dataset" --level all --expand none --mode all -k 5 --gold-count "$way" --quiet \
      --out "eval/out/gold-count/$dataset-$way"
  done
done
"$PYTHON" eval/gold-count/combine.py eval/out/gold-count
