#!/usr/bin/env bash
# Check docker-compose.yml with Compose itself (`docker-compose config`: interpolation, schema, ports,
# healthcheck). No Docker engine is needed and no image is pulled. Compose is installed from Debian's
# docker-compose package when missing; when that cannot be done the check fails and says why, so a
# machine without apt never passes it silently.
set -euo pipefail
cd "$(dirname "$0")/.."
if command -v docker-compose >/dev/null; then
  compose=(docker-compose)
elif docker compose version >/dev/null 2>&1; then
  compose=(docker compose)
else
  command -v apt-get >/dev/null || { echo "compose check FAILED: no docker-compose and no apt-get to install it (install Debian's docker-compose package)" >&2; exit 1; }
  sudo=(); [ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
  log="$(mktemp)"
  if ! { "${sudo[@]}" apt-get install -y -q docker-compose || { "${sudo[@]}" apt-get update -q && "${sudo[@]}" apt-get install -y -q docker-compose; }; } >"$log" 2>&1; then
    echo "compose check FAILED: apt-get could not install docker-compose; its last lines:" >&2
    tail -n 5 "$log" >&2
    rm -f "$log"
    exit 1
  fi
  rm -f "$log"
  compose=(docker-compose)
fi
echo "compose $("${compose[@]}" version --short)"
# an empty env file: a .env that scripts/quickstart.sh wrote must not decide the check
noenv="$(mktemp)"
trap 'rm -f "$noenv"' EXIT
# NEO4J_PASSWORD is required by the file (`:?`): Compose must refuse it when unset ...
if env -u NEO4J_PASSWORD "${compose[@]}" --env-file "$noenv" config -q >/dev/null 2>&1; then
  echo "compose check FAILED: docker-compose.yml accepted a missing NEO4J_PASSWORD" >&2
  exit 1
fi
# ... and accept it when set; the resolved file is printed for the log.
resolved="$(NEO4J_PASSWORD=compose-check "${compose[@]}" --env-file "$noenv" config)"
echo "$resolved"
# the ports are published on 127.0.0.1 unless LEGALKG_BIND_ADDRESS says otherwise
for port in 7474 7687; do
  grep -q "127.0.0.1:$port:$port" <<<"$resolved" || { echo "compose check FAILED: port $port is not bound to 127.0.0.1" >&2; exit 1; }
done
moved="$(LEGALKG_BIND_ADDRESS=0.0.0.0 NEO4J_PASSWORD=compose-check "${compose[@]}" --env-file "$noenv" config)"
if ! grep -q "0.0.0.0:7687:7687" <<<"$moved"; then
  echo "compose check FAILED: LEGALKG_BIND_ADDRESS does not move the published ports" >&2
  exit 1
fi
# the entrypoint guard against the example password is in the resolved file (tests/test_compose.py runs it)
grep -q "change-me-please)" <<<"$resolved" || { echo "compose check FAILED: no password guard in the entrypoint" >&2; exit 1; }
echo "compose check passed"
