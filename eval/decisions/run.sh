#!/usr/bin/env bash
# Issue 46: the shared LER decisions into a graph of the 58 codes, gold coverage and the edge sample.
# Reproduces eval/decisions/ (results.json, misses.jsonl, sample.md); sample_checked.tsv is the hand check.
set -euo pipefail
cd "$(dirname "$0")/../.."
HOME_DIR="${TMPDIR:-/tmp}/legalkg-decisions-neo4j"
BOLT=$(.venv/bin/python -c "from legalkg.server.process import free_port; print(free_port())")
HTTP=$(.venv/bin/python -c "from legalkg.server.process import free_port; print(free_port())")
.venv/bin/legalkg neo4j start --home "$HOME_DIR" --bolt-port "$BOLT" --http-port "$HTTP" --no-auth
trap '.venv/bin/legalkg neo4j stop --home "$HOME_DIR"' EXIT
.venv/bin/legalkg ingest --no-embed --quiet --uri "bolt://127.0.0.1:$BOLT" --workers 2
.venv/bin/python benchmarks/decisions_gold.py --uri "bolt://127.0.0.1:$BOLT" --out eval/decisions --workers 2 \
    --sample 50 --seed 46 --fresh
