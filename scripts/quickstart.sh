#!/usr/bin/env bash
# One command for a fresh machine: venv + packages, a local Neo4j (Docker if it runs, else Maven jars),
# then ingest the 58 default codes with embeddings. Arguments go to `legalkg ingest` (--codes BGB,ZPO).
# Rerunnable: .env and the venv are kept, a running server is reused, ingest is idempotent.
# Variables already in the environment beat .env, as for every legalkg command; LEGALKG_BOLT_PORT and
# LEGALKG_HTTP_PORT move the local server (and, unless NEO4J_URI is set, the URI) off 7687 / 7474.
set -euo pipefail
cd "$(dirname "$0")/.."
# .env holds the password: written with mode 0600 (umask 077; sed -i keeps the mode), never world-readable
fresh_env=0
[ -f .env ] || { (umask 077 && cp .env.example .env) && sed -i "s/change-me-please/lkg-$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')/" .env && fresh_env=1; }
if [ -n "${LEGALKG_BOLT_PORT:-}" ] && [ -z "${NEO4J_URI:-}" ]; then
  export NEO4J_URI="bolt://127.0.0.1:$LEGALKG_BOLT_PORT"
fi
# export .env's settings that the environment does not set (`legalkg neo4j start` and Docker read them)
while IFS= read -r line || [ -n "$line" ]; do
  key="${line%%=*}"
  [[ "$line" == *=* && "$key" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || continue
  [ -n "${!key+set}" ] || export "$line"
done < .env
# each step's wall time, printed as the last lines (also when a step fails)
steps=()
step() { local name=$1 t0=$SECONDS; shift; "$@"; steps+=("$(printf '%-8s %5d s' "$name" $((SECONDS - t0)))"); }
report() { echo "quickstart step times:"; printf '  %s\n' "${steps[@]}"; echo "  total    $(printf '%5d' "$SECONDS") s"; }
trap report EXIT
step venv python3 -m venv .venv
step install .venv/bin/pip install -q -e .
if docker info >/dev/null 2>&1; then
  step neo4j docker compose up -d --wait
else
  # A new .env's password is new, but the local server's home may be older than this checkout (a
  # new clone, a second checkout): give it this .env's password (`legalkg neo4j reset-password`;
  # a home without a database yet needs nothing).
  [ "$fresh_env" = 0 ] || step password .venv/bin/legalkg neo4j reset-password
  step neo4j .venv/bin/legalkg neo4j start   # "already running" when a rerun finds it up
fi
step ingest .venv/bin/legalkg ingest --codes default "$@"
step stats .venv/bin/legalkg stats
