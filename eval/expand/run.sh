#!/usr/bin/env bash
# The four one-hop expansions side by side (issue 34): none / parent / citation / hybrid / cocited, the
# learned mode (the engine of `legalkg search`), 5-fold CV grouped by case, on LER BGH and ler_courts.
# Each dataset is one run, so every expansion is assembled from the same seeds of the same folds.
# Usage: [LEVELS=§] [LEGALKG="env PYTHONPATH=CHECKOUT .venv/bin/python -m legalkg.cli"] eval/expand/run.sh OUTDIR
# then: .venv/bin/python eval/expand/summarise.py OUTDIR eval/expand
set -euo pipefail
out=${1:?usage: run.sh OUTDIR}
levels=${LEVELS:-§}
read -r -a lk <<< "${LEGALKG:-.venv/bin/legalkg}"
for ds in ler_bgh ler_courts; do
  "${lk[@]}" eval --dataset "$ds" --mode learned --level "$levels" --expand none,parent,citation,hybrid,cocited \
    -k 5 --cv 5 --seed 0 --bootstrap 1000 --permutations 100 --quiet --out "$out/$ds" > "$out/$ds.log"
done
