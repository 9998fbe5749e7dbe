#!/usr/bin/env bash
# Reproduces this folder: the KG paper's Table 1 grid and Fig. 3a / 3b on ler_courts (657 records of six
# federal courts), with per-court rows in results.csv. Same graph and settings as ../kg-table1-ler-bgh.
set -euo pipefail
cd "$(dirname "$0")/../.."
LEGALKG=${LEGALKG:-.venv/bin/legalkg}
"$LEGALKG" eval --dataset ler_courts --level all --expand all --mode all -k 5 --quiet --out eval/kg-table1-ler-courts
