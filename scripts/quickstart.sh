#!/usr/bin/env bash
# One command for a fresh machine: venv + packages, a local Neo4j (Docker if it runs, else Maven jars),
# then ingest the 58 default codes with embeddings. Re-running it is safe (ingest is idempotent).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f .env ] || { cp .env.example .env; sed -i "s/change-me-please/lkg-$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')/" .env; }
set -a; . ./.env; set +a
python3 -m venv .venv
.venv/bin/pip install -q -e .
if docker info >/dev/null 2>&1; then
  docker compose up -d --wait
else
  .venv/bin/legalkg neo4j start
fi
.venv/bin/legalkg ingest --codes default "$@"
.venv/bin/legalkg stats
