"""Cold start of `legalkg` commands, two installs side by side: whole-process wall and CPU seconds.

Each command runs as a new process (``--runs`` counted after one warm-up run that fills the disk
cache), old and new in turn (A B A B ...), so a drift of the shared machine hits both alike.
Wall and CPU (user + sys of the process and its children, from ``os.wait4``) per run; min,
median and max per command and install, and the ratio new/old of the medians. The search and
verify commands read a running graph (``NEO4J_*`` from the environment); nothing is written.

    NEO4J_PASSWORD=... .venv/bin/python benchmarks/cli_startup.py \
        --old OLD_VENV/bin/legalkg --new .venv/bin/legalkg --runs 5 --out eval/cli-startup
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import time
from pathlib import Path

PARAGRAPH = ("Nach § 573 Abs. 2 Nr. 1 BGB liegt ein berechtigtes Interesse des Vermieters vor, wenn der Mieter "
             "seine Pflichten schuldhaft nicht unerheblich verletzt hat. Die Kaution ist nach § 551 Abs. 3 BGB "
             "getrennt vom Vermögen des Vermieters anzulegen. Der Anspruch verjährt gemäß § 195 BGB in drei "
             "Jahren.")
COMMANDS = {
    "help": ["--help"],
    "cite": ["cite", "§ 573 Abs. 2 BGB"],
    "verify": ["verify", PARAGRAPH],
    "search": ["search", "Mein Vermieter gibt die Kaution nicht zurück"],
}


def once(argv: list[str]) -> dict:
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
    return {"wall_s": round(wall, 3), "cpu_s": round(usage.ru_utime + usage.ru_stime, 3),
            "rc": os.waitstatus_to_exitcode(status), "maxrss_kb": usage.ru_maxrss, "stderr": err[-300:]}


def spread(values: list[float]) -> dict:
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--commands", default=",".join(COMMANDS))
    ap.add_argument("--out", type=Path, default=Path("eval/cli-startup"))
    args = ap.parse_args()
    report: dict = {"command": f"python benchmarks/cli_startup.py --old OLD --new NEW --runs {args.runs}",
                    "cpus": os.cpu_count(), "load_before": os.getloadavg()[0], "commands": {}}
    for name in args.commands.split(","):
        runs: dict[str, list[dict]] = {"old": [], "new": []}
        load = os.getloadavg()[0]  # per command: a shared machine's load moves during a run
        for i in range(args.runs + 1):
            for which in ("old", "new"):
                got = once([getattr(args, which), *COMMANDS[name]])
                if i:  # run 0 is the warm-up
                    runs[which].append(got)
        row = {which: {"wall_s": spread([r["wall_s"] for r in rs]), "cpu_s": spread([r["cpu_s"] for r in rs]),
                       "rc": sorted({r["rc"] for r in rs}), "maxrss_kb": max(r["maxrss_kb"] for r in rs)}
               for which, rs in runs.items()}
        row["new_over_old_median_wall"] = round(row["new"]["wall_s"]["median"] / row["old"]["wall_s"]["median"], 3)
        row["new_over_old_median_cpu"] = round(row["new"]["cpu_s"]["median"] / row["old"]["cpu_s"]["median"], 3)
        row["argv"] = COMMANDS[name]
        row["load_before"], row["load_after"] = load, os.getloadavg()[0]
        row["runs"] = runs
        report["commands"][name] = row
        print(name, json.dumps({k: row[k] for k in ("old", "new", "new_over_old_median_wall")}), flush=True)
    report["load_after"] = os.getloadavg()[0]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
