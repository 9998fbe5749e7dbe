#!/usr/bin/env bash
# The `decisions` expansion beside none / citation / cocited (issue 46): the learned mode, 5-fold CV
# grouped by case, § level, k 5, over a 58-code graph that holds the 657 ler_courts decisions
# (`legalkg ingest-cases`). ler_courts is scored with each fold's own decisions left out of the hop
# (eval runner: `exclude`), LER BGH (115 BGH decisions, none in the graph) against the six other courts.
# Usage: [LEGALKG="env PYTHONPATH=CHECKOUT .venv/bin/python -m legalkg.cli"] eval/expand-decisions/run.sh OUTDIR
# (NEO4J_URI / NEO4J_PASSWORD: a graph of `legalkg ingest --codes default`), then:
# .venv/bin/python eval/expand/summarise.py OUTDIR eval/expand-decisions
set -euo pipefail
out=${1:?usage: run.sh OUTDIR}
read -r -a lk <<< "${LEGALKG:-.venv/bin/legalkg}"
"${lk[@]}" ingest-cases "${LEGALKG_SHARED:?set LEGALKG_SHARED}/data/eval/ler_courts/dev.jsonl.gz" > "$out/ingest-cases.log" 2>&1
for ds in ler_bgh ler_courts; do
  "${lk[@]}" eval --dataset "$ds" --mode learned --level § --expand none,citation,cocited,decisions \
    -k 5 --cv 5 --seed 0 --bootstrap 1000 --permutations 100 --quiet --out "$out/$ds" > "$out/$ds.log"
done
