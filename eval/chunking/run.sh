#!/usr/bin/env bash
# Reproduces this folder: the chunking study (29 strategies) on the first 500 GerLayQA dev questions, one
# latency run per question, the top-25 ablation and the latency tests (README.md says why it is reduced).
# FULL=1 runs the full study instead: all 2,154 questions, 5 latency runs, cold embeddings (about 2 h on
# 2 cores). The study writes :StudyUnit nodes into the server it talks to, so the script starts a server
# of its own (CHUNK_NEO4J_HOME, ports CHUNK_BOLT_PORT / CHUNK_HTTP_PORT) and stops it at the end. The run
# folder (with the per-question dumps and checkpoints; a rerun resumes from them) is eval/out/chunking,
# git-ignored; its small files are copied here. Extra arguments go to `python -m research.chunking` (e.g.
# `--strategies flat --limit 20` for a quick look); with any, nothing is copied here.
set -euo pipefail
cd "$(dirname "$0")/../.."
LEGALKG=${LEGALKG:-.venv/bin/legalkg}
PYTHON=${PYTHON:-.venv/bin/python}
SHARED=${LEGALKG_SHARED:-$(cd .. && pwd)/shared}
NEO4J_HOME_DIR=${CHUNK_NEO4J_HOME:-"$(dirname "$(mktemp -u)")/chunk-neo4j"}
BOLT=${CHUNK_BOLT_PORT:-7688}
HTTP=${CHUNK_HTTP_PORT:-7475}
OUT=eval/out/chunking
if [ "${FULL:-0}" = 1 ]; then
  args=(--no-cache --latency-runs 5)
  OUT=eval/out/chunking-full
else
  args=(--limit 500 --latency-runs 1)
fi
"$LEGALKG" neo4j start --home "$NEO4J_HOME_DIR" --bolt-port "$BOLT" --http-port "$HTTP" --no-auth
trap '"$LEGALKG" neo4j stop --home "$NEO4J_HOME_DIR"' EXIT
NEO4J_URI="bolt://127.0.0.1:$BOLT" PYTHONPATH="$PWD" "$PYTHON" -m research.chunking \
  --questions "$SHARED/data/eval/gerlayqa/dev.jsonl" --out "$OUT" "${args[@]}" "$@"
if [ "${FULL:-0}" != 1 ] && [ $# -eq 0 ]; then
  cp "$OUT"/{results.csv,results.md,run.json,recall.png,recall_at_25.png,latency.png,build_time.png,storage.png} \
    eval/chunking/
fi
