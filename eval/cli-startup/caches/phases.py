"""Where a cold `legalkg search` spends its CPU: the imports up to the command, the rest, and inside
the rest the two content digests of the § texts and the Neo4j reads (wall), old tree against new.

Each run is a new process of ``python -P`` over a source tree (``PYTHONPATH``), old and new in turn;
the numbers are ``time.process_time`` (CPU of the process) except ``neo4j_read_wall_s`` (wall time
inside ``GraphFacts.read``: the server's work and the wait for it, not this process's CPU).

    set -a; . ./.env; set +a
    .venv/bin/python eval/cli-startup/caches/phases.py --old OLD_TREE --new NEW_TREE --runs 5 \
        --out eval/cli-startup/caches/phases.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

QUERY = "Mein Vermieter gibt die Kaution nicht zurück"

PROBE = """
import json, sys, time
c0 = time.process_time()
sys.argv = ["legalkg", "search", QUERY]
import legalkg.cli as cli
from legalkg.predict import corpus, rowcache
from legalkg.retrieve import graphfacts
spent = {"rowcache_digest_cpu_s": 0.0, "corpus_digest_cpu_s": 0.0, "neo4j_read_wall_s": 0.0}
def timed(owner, name, field, clock):
    real = getattr(owner, name)
    def wrapper(*args, **kwargs):
        t = clock()
        try:
            return real(*args, **kwargs)
        finally:
            spent[field] += clock() - t
    setattr(owner, name, wrapper)
timed(rowcache, "digest", "rowcache_digest_cpu_s", time.process_time)
timed(corpus, "digest", "corpus_digest_cpu_s", time.process_time)
timed(graphfacts.GraphFacts, "read", "neo4j_read_wall_s", time.perf_counter)
real_get = cli._Group.get_command
marks = {}
def get_command(self, ctx, name):
    out = real_get(self, ctx, name)
    marks["imports"] = time.process_time()
    return out
cli._Group.get_command = get_command
try:
    cli.main()
except SystemExit:
    pass
end = time.process_time()
spent.update(imports_cpu_s=marks["imports"] - c0, rest_cpu_s=end - marks["imports"], total_cpu_s=end - c0)
print(json.dumps(spent), file=sys.stderr)
"""


def once(tree: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, "-P", "-c", f"QUERY = {QUERY!r}\n{PROBE}"], env=env, check=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return json.loads(out.stderr.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", type=Path, required=True)
    ap.add_argument("--new", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    report: dict = {"command": f"python eval/cli-startup/caches/phases.py --old OLD --new NEW --runs {args.runs}",
                    "query": QUERY, "load_before": os.getloadavg()[0]}
    runs: dict[str, list[dict]] = {"old": [], "new": []}
    for i in range(args.runs + 1):
        for which in ("old", "new"):
            got = once(getattr(args, which))
            if i:  # run 0 is the warm-up
                runs[which].append(got)
    report["load_after"] = os.getloadavg()[0]
    for which, rs in runs.items():
        report[which] = {field: round(statistics.median(r[field] for r in rs), 3) for field in rs[0]}
    report["runs"] = runs
    args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: report[k] for k in ("old", "new", "load_before", "load_after")}))


if __name__ == "__main__":
    main()
