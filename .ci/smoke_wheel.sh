#!/usr/bin/env bash
# The package as a newcomer installs it: build the wheel from the working tree, install it with its core
# dependencies only (no dev or st extra) into a fresh venv, and run the user's commands from a folder
# outside the checkout: cite, parse, neo4j start (free ports, own home), ingest of the BGB and one small
# law, doctor, search, neo4j stop. The server is stopped however the script ends.
# The wheel is the checkout: it holds every tracked file of the package (models, data, queries, pages),
# and the installed wheel's top 10 for 15 queries (.ci/search_top10.py), in the default mode and with
# --level auto, equal the checkout's on the same graph.
# Environment: LEGALKG_SHARED (default: ../shared beside the checkout), SMOKE_LAW (default burlg),
# PYTHON (default: the checkout's .venv python, else python3; it builds the wheel and the venv),
# CHECKOUT_PYTHON (default: the checkout's .venv python; legalkg must import from the checkout).
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
PY="${PYTHON:-}"
[ -n "$PY" ] || { [ -x "$REPO/.venv/bin/python" ] && PY="$REPO/.venv/bin/python" || PY=python3; }
SHARED="$(cd "${LEGALKG_SHARED:-$REPO/../shared}" && pwd)"
LAW="${SMOKE_LAW:-burlg}"
CHECKOUT_PY="${CHECKOUT_PYTHON:-$REPO/.venv/bin/python}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/legalkg-wheel-XXXXXX")"
export PIP_DISABLE_PIP_VERSION_CHECK=1
export LEGALKG_NEO4J_HOME="$WORK/neo4j"
export NEO4J_PASSWORD="smoke-$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')"
unset NEO4J_URI NEO4J_USER NEO4J_DATABASE LEGALKG_SHARED
LK="$WORK/venv/bin/legalkg"

fail() { echo "smoke: FAILED: $*" >&2; exit 1; }
cleanup() {
  rc=$?
  if [ -x "$LK" ] && [ -d "$LEGALKG_NEO4J_HOME" ]; then
    "$LK" neo4j stop --home "$LEGALKG_NEO4J_HOME" || true
    [ "$rc" -eq 0 ] || { echo "-- server log tail"; tail -n 20 "$LEGALKG_NEO4J_HOME/logs/neo4j.log" 2>/dev/null || true; }
  fi
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== wheel (from the working tree's tracked and new files, not from stale build/ output)"
mkdir -p "$WORK/src" "$WORK/dist" "$WORK/run"
"$PY" - "$REPO" "$WORK/src" <<'EOF'
import shutil, subprocess, sys
from pathlib import Path
repo, dst = Path(sys.argv[1]), Path(sys.argv[2])
out = subprocess.run(["git", "-C", str(repo), "ls-files", "-z", "-co", "--exclude-standard"],
                     capture_output=True, check=True).stdout.decode()
for name in filter(None, out.split("\0")):
    if (repo / name).is_file():  # a file deleted in the working tree is listed but gone
        (dst / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(repo / name, dst / name)
EOF
"$PY" -m pip wheel -q --no-deps -w "$WORK/dist" "$WORK/src"
WHEEL="$(ls "$WORK"/dist/legalkg-*.whl)"
"$PY" - "$WHEEL" "$WORK/src" <<'EOF'
import sys, zipfile
from pathlib import Path
wheel, src = sys.argv[1], Path(sys.argv[2])
names = set(zipfile.ZipFile(wheel).namelist())
want = {f"legalkg/{p.relative_to(src).as_posix()}" for p in (src / "cypher").rglob("*.cypher")}
want |= {"legalkg/neo4j/pom.xml"}
# every tracked file of the package: its modules, legalkg/data (models, weights, tables), the pages' files
want |= {p.relative_to(src).as_posix() for p in (src / "legalkg").rglob("*") if p.is_file()}
missing = sorted(want - names)
if missing:
    sys.exit(f"smoke: FAILED: the wheel lacks {len(missing)} files, e.g. {missing[:5]}")
# the product only: research/, benchmarks/, tests/ and eval/ stay in the checkout (setup.py ships legalkg*)
extra = sorted({n.split("/")[0] for n in names} - {"legalkg"} - {n.split("/")[0] for n in names if ".dist-info/" in n})
if extra:
    sys.exit(f"smoke: FAILED: the wheel holds more than the legalkg package: {extra}")
print(f"{Path(wheel).name}: {len(names)} files, every query, the pom and every file of the package, nothing else")
EOF

echo "== fresh venv, core dependencies only"
"$PY" -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install -q "$WHEEL"
cd "$WORK/run"   # outside the checkout: nothing can come from the repository's folders
"$LK" --version

echo "== cite (no shared data needed)"
out="$("$LK" cite "§ 574 Abs. 2 Nr. 2 ZPO i. V. m. Art. 3 Abs. 1 GG")"
echo "$out"
grep -q "ZPO" <<<"$out" || fail "cite did not name ZPO"

echo "== parse without LEGALKG_SHARED: one line that names the variable"
if err="$("$LK" parse --codes "$LAW" --stats 2>&1)"; then fail "parse without shared data succeeded"; fi
echo "$err"
[ "$(wc -l <<<"$err")" -eq 1 ] && grep -q "LEGALKG_SHARED" <<<"$err" || fail "expected one line naming LEGALKG_SHARED"
export LEGALKG_SHARED="$SHARED"

echo "== parse"
"$LK" parse --codes "$LAW" --stats
"$LK" parse --source "$SHARED/data/gii/$LAW.xml" --stats >/dev/null

echo "== neo4j start on free ports"
read -r BOLT HTTP < <("$WORK/venv/bin/python" -c '
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks: s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in socks))')
"$LK" neo4j start --home "$LEGALKG_NEO4J_HOME" --bolt-port "$BOLT" --http-port "$HTTP" --heap 512m --pagecache 128m
export NEO4J_URI="bolt://127.0.0.1:$BOLT"

echo "== ingest the BGB and one small law ($LAW), with embeddings"
"$LK" ingest --codes "bgb,$LAW" --quiet
"$LK" doctor

echo "== search"
out="$("$LK" search "Wie viele Tage Urlaub stehen mir im Jahr zu?" --mode vector --level Paragraph --law BUrlG -k 3)"
echo "$out"
grep -q "BUrlG" <<<"$out" || fail "search found no BUrlG unit"
"$LK" search "Urlaub" --mode fulltext --level Absatz -k 3 >/dev/null

echo "== the wheel's top 10 = the checkout's: 10 lay questions and 5 decision windows, default mode and --level auto"
"$CHECKOUT_PY" -c 'import legalkg, sys; from pathlib import Path; sys.exit(Path(legalkg.__file__).resolve().parent != Path(sys.argv[1]).resolve() / "legalkg")' "$REPO" \
  || fail "$CHECKOUT_PY does not import legalkg from the checkout $REPO (set CHECKOUT_PYTHON)"
"$WORK/venv/bin/python" "$REPO/.ci/search_top10.py" "$REPO/.ci/smoke_questions.txt" >"$WORK/wheel.json"
"$CHECKOUT_PY" "$REPO/.ci/search_top10.py" "$REPO/.ci/smoke_questions.txt" >"$WORK/checkout.json"
Q1="$(head -n 1 "$REPO/.ci/smoke_questions.txt")"
"$LK" search "$Q1" --json -k 10 >"$WORK/cli-default.json"
"$LK" search "$Q1" --json -k 10 --level auto >"$WORK/cli-auto.json"
"$WORK/venv/bin/python" - "$WORK" <<'EOF'
import json, sys
from pathlib import Path
work = Path(sys.argv[1])
wheel, checkout = (json.loads((work / f).read_text("utf-8")) for f in ("wheel.json", "checkout.json"))
if not Path(wheel["package"]).resolve().is_relative_to(work.resolve()):
    sys.exit(f"smoke: FAILED: the wheel's run imported legalkg from {wheel['package']}, not the fresh venv")
same = [q for q in wheel["top10"] if wheel["top10"][q] == checkout["top10"].get(q)]
for q in sorted(set(wheel["top10"]) | set(checkout["top10"])):
    if q not in same:
        print(f"  {q}: wheel {wheel['top10'].get(q)}\n  {' ' * len(q)}  checkout {checkout['top10'].get(q)}")
queries = {q.split()[0] for q in checkout["top10"]}
print(f"top 10 equal for {len(same)} of {len(checkout['top10'])} (query, mode) pairs, {len(queries)} queries")
if len(same) != len(checkout["top10"]) or len(queries) != 15 or not all(wheel["top10"].values()):
    sys.exit("smoke: FAILED: the installed wheel ranks otherwise than the checkout")
for mode in ("default", "auto"):  # the console script answers as the one-process runs do
    cli = [h["id"] for h in json.loads((work / f"cli-{mode}.json").read_text("utf-8"))["seeds"]]
    if cli != wheel["top10"][f"lay-1 {mode}"]:
        sys.exit(f"smoke: FAILED: `legalkg search` ({mode}) gave {cli}, search_top10.py {wheel['top10'][f'lay-1 {mode}']}")
EOF

echo "== a missing query file names itself (not 'cannot reach Neo4j')"
PING="$("$WORK/venv/bin/python" -c 'from legalkg import paths; print(paths.cypher_dir() / "ping.cypher")')"
mv "$PING" "$PING.away"
if err="$("$LK" doctor 2>&1)"; then fail "doctor without ping.cypher succeeded"; fi
mv "$PING.away" "$PING"
echo "$err"
grep -q "ping.cypher is missing from the installed legalkg package" <<<"$err" || fail "wrong message for a missing query"

echo "== a missing model file names itself (no search without the ranker)"
RANKER="$("$WORK/venv/bin/python" -c 'from legalkg.taskfile import shipped_path; print(shipped_path("ranker-lay.npz"))')"
mv "$RANKER" "$RANKER.away"
if err="$("$LK" search "$Q1" 2>&1)"; then fail "search without ranker-lay.npz succeeded"; fi
mv "$RANKER.away" "$RANKER"
echo "$err"
[ "$(wc -l <<<"$err")" -eq 1 ] && grep -q "legalkg/data/ranker-lay.npz is missing from the installed legalkg package.*reinstall it" <<<"$err" \
  || fail "wrong message for a missing ranker"

echo "== neo4j stop"
"$LK" neo4j stop --home "$LEGALKG_NEO4J_HOME"
echo "smoke: the wheel works outside the checkout ($SECONDS s)"
