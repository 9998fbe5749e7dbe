"""A synthetic Open Legal Data dump built from real decision sentences, loaded with `legalkg ingest-cases`
(issue 46, scale): decisions/s, edges/s, peak memory of the loader and of the server, the graph's size.

Usage: .venv/bin/python benchmarks/cases_scale.py --uri bolt://127.0.0.1:PORT --home NEO4J_HOME
       --n 25000 [--sentences 51] [--workers 2] [--seed 46] --out docs/benchmarks/cases-scale-25k.json

The synthetic decisions: each is ``--sentences`` sentences (51: the LER BGH decisions' mean) drawn at
random from all sentences of the shared LER decisions (BGH and the six courts' dev half), so the
citation grammar reads real citation strings in their real density, in paragraphs of four sentences
under a "Tatbestand" and an "Entscheidungsgründe" heading (Legal HTML, as the dump has it). Each cites
one earlier synthetic decision by court and file number ("BGH, Urteil vom ... – 3 ZR 17/09"), so the
CITES_DECISION step has work too. Courts are those of the sentences' decisions; dates 2000-2024.

Memory and CPU: the loader's process tree (the command and its workers, RSS summed; CPU seconds as
last seen before each process ended) and the server's JVM are sampled every 0.5 s, so a run on a shared
machine still says what the load costs (``cpu_ms_per_decision``). The graph starts without decisions (they are removed first);
the store's files are measured as they are at the end (not checkpointed).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from legalkg import jsonl, paths  # noqa: E402
from legalkg.cases.decisions import COURTS  # noqa: E402
from legalkg.graph.config import load_config  # noqa: E402
from legalkg.graph.connection import open_driver  # noqa: E402
from legalkg.graph.cypher import query  # noqa: E402

FILES = ("ler_bgh/bgh_documents.jsonl", "ler_courts/dev.jsonl.gz")
NAMES = {abbr: name for name, abbr in COURTS.items()}
REGISTERS = {"BGH": "ZR", "BAG": "AZR", "BFH": "R", "BSG": "KR", "BVerfG": "BvR", "BVerwG": "C", "BPatG": "W (pat)"}
TYPES = ("Urteil", "Beschluss")


def sentences() -> list[tuple[str, str]]:
    """(court, sentence) of every line of the shared LER decisions."""
    out = []
    for name in FILES:
        for _, rec in jsonl.records(paths.eval_dir() / name, "decision file", ""):
            out.extend((rec["court"], line) for line in rec["text"].split("\n") if line.strip())
    return out


def synthetic(n: int, per: int, seed: int, pool: list[tuple[str, str]]):
    """``n`` decisions in Open Legal Data's case form."""
    rng = random.Random(seed)
    made: list[tuple[str, str, str]] = []
    for i in range(n):
        court = pool[rng.randrange(len(pool))][0]
        picked = [pool[rng.randrange(len(pool))][1] for _ in range(per)]
        day = f"{rng.randint(2000, 2024)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        file_number = f"{i // 99_999 + 1} {REGISTERS[court]} {i % 99_999 + 1}/{day[2:4]}"  # the grammar's 5 digits
        if made:
            c, f, d = made[rng.randrange(len(made))]
            y, m, dd = d.split("-")
            picked.insert(per // 2, f"Vgl. {c}, Urteil vom {int(dd)}.{int(m)}.{y} – {f} .")
        half = len(picked) // 3
        paras = ["<h2>Tatbestand</h2>"] + [f"<p>{' '.join(picked[j:j + 4])}</p>" for j in range(0, half, 4)]
        paras += ["<h2>Entscheidungsgründe</h2>"] + [f"<p>{' '.join(picked[j:j + 4])}</p>"
                                                     for j in range(half, len(picked), 4)]
        made.append((court, file_number, day))
        yield {"id": 900000 + i, "slug": f"synthetic-{i}", "court": {"name": NAMES[court]},
               "file_number": file_number, "date": day, "type": TYPES[i % 2], "ecli": None,
               "content": "".join(paras)}


def write_dump(path: Path, n: int, per: int, seed: int) -> dict:
    pool = sentences()
    chars = 0
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=3) as fh:
        for rec in synthetic(n, per, seed, pool):
            chars += len(rec["content"])
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    return {"decisions": n, "sentences_each": per, "sentence_pool": len(pool), "html_chars": chars,
            "gz_bytes": path.stat().st_size}


class Peak(threading.Thread):
    """Peak RSS (MiB) of a process tree and of a second process, sampled every ``every`` seconds."""

    def __init__(self, root: int, server: psutil.Process | None, every: float = 0.5) -> None:
        super().__init__(daemon=True)
        self.root, self.server, self.every = psutil.Process(root), server, every
        self.loader = self.jvm = 0.0
        #: CPU seconds (user + system) of each process of the tree, as last seen
        self.cpu: dict[int, float] = {}
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            try:
                procs = [self.root, *self.root.children(recursive=True)]
                self.loader = max(self.loader, sum(p.memory_info().rss for p in procs) / 2**20)
                for p in procs:
                    t = p.cpu_times()
                    self.cpu[p.pid] = t.user + t.system
                if self.server is not None:
                    self.jvm = max(self.jvm, self.server.memory_info().rss / 2**20)
            except psutil.Error:
                pass
            self.done.wait(self.every)


def server_process(port: int) -> psutil.Process | None:
    for conn in psutil.net_connections("tcp"):
        if conn.status == psutil.CONN_LISTEN and conn.laddr.port == port and conn.pid:
            return psutil.Process(conn.pid)
    return None


def folder_mib(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 2**20


def cpu_per_decision(loader: float, jvm: float, decisions: int) -> dict:
    """CPU milliseconds per decision of the loader tree, the JVM and both: on a shared machine the
    wall time says how busy the machine was, the CPU time what the load itself costs."""
    per = {"loader_tree": 1000 * loader / max(decisions, 1), "server_jvm": 1000 * jvm / max(decisions, 1)}
    return {**{k: round(v, 2) for k, v in per.items()}, "total": round(sum(per.values()), 2)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--uri", required=True)
    ap.add_argument("--home", type=Path, required=True, help="the server's home (for the store size)")
    ap.add_argument("--n", type=int, default=25_000)
    ap.add_argument("--sentences", type=int, default=51)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=46)
    ap.add_argument("--dump", type=Path, default=None, help="where the synthetic dump goes (default: $TMPDIR)")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    dump = args.dump or Path(subprocess.check_output(["mktemp", "-d"], text=True).strip()) / "synthetic.jsonl.gz"
    t0 = time.perf_counter()
    made = write_dump(dump, args.n, args.sentences, args.seed)
    made["generate_seconds"] = round(time.perf_counter() - t0, 1)
    driver = open_driver(load_config(uri=args.uri))
    with driver.session(database="neo4j") as session:
        session.run(query("cases/delete_all")).consume()
    store = args.home / "data" / "databases" / "neo4j"
    before = folder_mib(store)
    server = server_process(int(args.uri.rsplit(":", 1)[1]))
    legalkg = str(Path(sys.executable).with_name("legalkg"))
    jvm_cpu = sum(server.cpu_times()[:2]) if server else 0.0
    t0 = time.perf_counter()
    proc = subprocess.Popen([legalkg, "ingest-cases", "--uri", args.uri, "--workers", str(args.workers), "--quiet",
                             str(dump)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = Peak(proc.pid, server)
    peak.start()
    out, err = proc.communicate()
    seconds = time.perf_counter() - t0
    peak.done.set()
    peak.join()
    jvm_cpu = sum(server.cpu_times()[:2]) - jvm_cpu if server else 0.0
    counts = driver.execute_query(query("cases/count"), database_="neo4j").records[0].data()
    result = {
        "dump": made, "workers": args.workers, "exit": proc.returncode, "output": out.strip().splitlines(),
        "stderr_tail": err.strip().splitlines()[-3:], "seconds": round(seconds, 1),
        "decisions_per_s": round(counts["decisions"] / seconds, 1),
        "edges_per_s": round((counts["cites"] + counts["decision_links"]) / seconds, 1), "graph": counts,
        "peak_rss_mib": {"loader_tree": round(peak.loader), "server_jvm": round(peak.jvm)},
        "cpu_seconds": {"loader_tree": round(sum(peak.cpu.values()), 1), "server_jvm": round(jvm_cpu, 1)},
        "cpu_ms_per_decision": cpu_per_decision(sum(peak.cpu.values()), jvm_cpu, counts["decisions"]),
        "store_mib": {"before": round(before), "after": round(folder_mib(store))},
        "cpus": psutil.cpu_count(), "load_avg_at_end": [round(x, 2) for x in psutil.getloadavg()],
    }
    args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(json.dumps(result, indent=1, ensure_ascii=False))
    dump.unlink()


if __name__ == "__main__":
    main()
