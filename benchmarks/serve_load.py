"""Load test of ``legalkg serve --http``: throughput, latency, errors and memory under 1, 8 and 32 clients.

Usage: NEO4J_URI=... NEO4J_PASSWORD=... nice -n 10 .venv/bin/python benchmarks/serve_load.py \
    [--seconds 20] [--clients 1,8,32] [--out eval/serve-load/results.json]

The graph behind NEO4J_URI must hold the BGB (with vectors): the requests ask about it. The script
starts ``legalkg serve --http`` on a free port of 127.0.0.1 (traffic goes nowhere else), then:

1. cold rush: as soon as the port answers, 32 clients send their first request at the same moment;
2. for each client count, that many clients loop over a fixed mix (search 40 %, verify 20 %,
   get_unit 20 %, context 20 %) for ``--seconds``, each on its own keep-alive connection;
3. hostile: 8 clients as in 2, while one more client sends a verify of 1 MB of citations
   ("§ 433 BGB, " again and again); the p95 of the others while it runs is compared with the
   8-client phase;
4. SIGTERM with the hostile verify in flight: seconds until the process has exited.

A 503 (tool full, ``Retry-After``) is retried after the time the server names and counted apart;
an error is any other non-200 answer or a failed connection. The server's RSS is read from /proc
after the cold rush and the 1-client phase (warm) and at the end. Loops are bounded in count and time.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from legalkg.paths import portable  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LEGALKG = [sys.executable, "-m", "legalkg.cli"]
QUESTIONS = ["Mein Vermieter gibt die Kaution nicht zurück", "Das gebrauchte Auto hat einen Mangel",
             "Wer erbt, wenn kein Testament da ist?", "Die Heizung ist kaputt, darf ich die Miete mindern?",
             "Ab wann ist man volljährig?", "Kann ich vom Kaufvertrag zurücktreten?"]
TEXTS = ["Nach § 433 Abs. 1 BGB muss der Verkäufer dem Käufer die Sache übergeben.",
         "Der Mieter kann nach § 536 BGB die Miete mindern; § 535 Abs. 1 BGB bleibt unberührt.",
         "Die Erbfolge richtet sich nach § 1922 BGB und § 1924 BGB."]
CITATIONS = ["§ 433 Abs. 1 BGB", "§ 535 BGB", "§ 1922 BGB", "§ 823 Abs. 1 BGB", "§ 551 BGB"]
MIX = ["search", "search", "verify", "get_unit", "context"]
HOSTILE = ("§ 433 BGB, " * 90_910)[:1_000_000]
MAX_REQUESTS_PER_CLIENT = 100_000
#: A 503 is retried after its Retry-After at most this often before it counts as an error.
MAX_RETRIES = 60


def body(tool: str, n: int) -> dict:
    if tool == "search":
        return {"query": QUESTIONS[n % len(QUESTIONS)]}
    if tool == "verify":
        return {"text": TEXTS[n % len(TEXTS)]}
    if tool == "get_unit":
        return {"citation": CITATIONS[n % len(CITATIONS)]}
    return {"query": QUESTIONS[n % len(QUESTIONS)], "budget": 300}


class Client:
    """One keep-alive connection; ``call`` returns (status, seconds), retrying 503 as told."""

    def __init__(self, port: int, timeout: float = 120) -> None:
        self.port, self.timeout = port, timeout
        self.conn: http.client.HTTPConnection | None = None
        self.refused = 0

    def post(self, path: str, payload: dict) -> int:
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        data = json.dumps(payload).encode()
        try:
            self.conn.request("POST", path, data, {"Content-Type": "application/json"})
            resp = self.conn.getresponse()
            resp.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = None
            return -1
        if resp.status == 503:
            self.refused += 1
            time.sleep(float(resp.getheader("Retry-After") or 1))
        return resp.status

    def call(self, tool: str, payload: dict) -> tuple[int, float]:
        clock = time.perf_counter()
        for _ in range(MAX_RETRIES):
            status = self.post(f"/{tool}", payload)
            if status != 503:
                break
        return status, time.perf_counter() - clock


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def run_clients(port: int, n: int, seconds: float, offset: int = 0) -> list[tuple[str, int, float, float]]:
    """(tool, status, seconds, finished at) of every request of ``n`` clients looping ``seconds``."""
    out: list[tuple[str, int, float, float]] = []
    lock = threading.Lock()
    deadline = time.monotonic() + seconds
    start = threading.Barrier(n)

    def loop(c: int) -> None:
        client = Client(port)
        start.wait()
        k = c + offset
        for _ in range(MAX_REQUESTS_PER_CLIENT):
            if time.monotonic() >= deadline:
                break
            tool = MIX[k % len(MIX)]
            status, took = client.call(tool, body(tool, k))
            with lock:
                out.append((tool, status, took, time.monotonic()))
            k += 1

    threads = [threading.Thread(target=loop, args=(c,)) for c in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    return round(1000 * s[min(len(s) - 1, int(q * len(s)))], 1)


def summary(rows: list[tuple[str, int, float, float]], seconds: float) -> dict:
    lat = [r[2] for r in rows if r[1] == 200]
    failed = Counter(f"{r[0]} {r[1]}" for r in rows if r[1] != 200)
    out = {"requests": len(rows), "ok": len(lat), "errors": sum(failed.values()), "failed": dict(failed),
           "throughput_rps": round(len(rows) / seconds, 2), "p50_ms": pct(lat, 0.5), "p95_ms": pct(lat, 0.95),
           "p99_ms": pct(lat, 0.99)}
    for tool in ("search", "verify", "get_unit", "context"):
        t = [r[2] for r in rows if r[0] == tool and r[1] == 200]
        out[f"{tool}_p95_ms"] = pct(t, 0.95)
    return out


def wait_for_port(port: int, proc: subprocess.Popen, limit: float = 600) -> float:
    clock = time.monotonic()
    while time.monotonic() - clock < limit:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return time.monotonic() - clock
        except OSError:
            time.sleep(0.05)
    raise SystemExit("the server did not open its port")


def cold_rush(port: int, n: int) -> dict:
    rows: list[tuple[str, int, float, float]] = []
    barrier = threading.Barrier(n)

    def one(c: int) -> None:
        client = Client(port)
        barrier.wait()
        tool = MIX[c % len(MIX)]
        status, took = client.call(tool, body(tool, c))
        rows.append((tool, status, took, time.monotonic()))

    clock = time.monotonic()
    threads = [threading.Thread(target=one, args=(c,)) for c in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {**summary(rows, time.monotonic() - clock), "seconds": round(time.monotonic() - clock, 2)}


def hostile_phase(port: int, seconds: float) -> dict:
    """8 clients for ``seconds`` while one 1 MB verify runs; the others' requests that finished
    while it ran are summarised."""
    window: dict[str, float] = {}

    def hostile() -> None:
        window["start"] = time.monotonic()
        status, took = Client(port, timeout=600).call("verify", {"text": HOSTILE})
        window["end"] = time.monotonic()
        window["status"], window["seconds"] = status, round(took, 2)

    t = threading.Thread(target=hostile)
    t.start()
    rows = run_clients(port, 8, seconds, offset=7)
    t.join()
    during = [r for r in rows if window["start"] <= r[3] <= window.get("end", float("inf"))]
    return {"hostile_status": window["status"], "hostile_seconds": window["seconds"],
            "others_during": summary(during, max(1e-9, min(window["end"], time.monotonic()) - window["start"]))}


def sigterm_seconds(port: int, proc: subprocess.Popen) -> float:
    t = threading.Thread(target=lambda: Client(port, timeout=60).call("verify", {"text": HOSTILE}), daemon=True)
    t.start()
    time.sleep(1.0)
    clock = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        return float("inf")
    return round(time.monotonic() - clock, 2)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--clients", default="1,8,32")
    ap.add_argument("--no-hostile", action="store_true", help="skip the 1 MB verify phase and the SIGTERM probe")
    ap.add_argument("--out", type=Path, default=ROOT / "eval" / "serve-load" / "results.json")
    args = ap.parse_args()
    port = free_port()
    clock = time.monotonic()
    log = tempfile.NamedTemporaryFile("w+b", prefix="serve-load-", suffix=".log")  # noqa: SIM115 - read at the end
    proc = subprocess.Popen([*LEGALKG, "serve", "--http", "--port", str(port)], env=os.environ.copy(),
                            stdout=subprocess.DEVNULL, stderr=log, cwd=ROOT)
    result: dict = {"command": portable(" ".join(["benchmarks/serve_load.py", *sys.argv[1:]])), "seconds": args.seconds,
                    "load_average_start": os.getloadavg()[0]}
    try:
        result["port_open_s"] = round(wait_for_port(port, proc), 1)
        result["cold_rush_32"] = cold_rush(port, 32)
        result["rss_mb_after_rush"] = round(rss_mb(proc.pid), 1)
        phases = {}
        for n in (int(c) for c in args.clients.split(",")):
            rows = run_clients(port, n, args.seconds)
            phases[str(n)] = summary(rows, args.seconds)
            if n == 1:
                result["rss_mb_warm"] = round(rss_mb(proc.pid), 1)
            print(f"{n} clients: {phases[str(n)]}", flush=True)
        result["phases"] = phases
        if not args.no_hostile:
            result["hostile"] = hostile_phase(port, args.seconds)
        result["rss_mb_end"] = round(rss_mb(proc.pid), 1)
        if not args.no_hostile:
            result["sigterm_exit_s"] = sigterm_seconds(port, proc)
    finally:
        if proc.poll() is None:
            proc.kill()
        result["elapsed_s"] = round(time.monotonic() - clock, 1)
        log.seek(0)
        lines = log.read().decode(errors="replace").splitlines()
        result["server_log_lines"] = len(lines)
        result["server_log_errors"] = sorted({ln.strip()[:200] for ln in lines if "Error" in ln or "error" in ln})[:10]
        result["load_average_end"] = os.getloadavg()[0]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
