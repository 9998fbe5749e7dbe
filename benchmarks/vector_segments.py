"""Vector index layout: segments and kNN latency, incremental writes vs one population pass.

Starts a throwaway Neo4j (free ports, auth off) with the neo4j.conf lines given as JSON, writes N
random unit vectors (512-d) into label A whose index exists first (incremental) and into label B
whose index is created afterwards (population), then counts Lucene segments per index folder and
times 50 kNN queries (k = 50) on each. Compare the default conf with legalkg's:

    # Neo4j's own defaults (null drops legalkg's line from neo4j.conf)
    .venv/bin/python benchmarks/vector_segments.py '{"internal.dbms.index.vector.population_ram_buffer_size": null, "internal.dbms.index.vector.population_merge_factor": null}' 40000
    # legalkg's conf (what `legalkg neo4j start` writes)
    .venv/bin/python benchmarks/vector_segments.py '{}' 40000
"""

import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from legalkg.graph.config import Neo4jConfig
from legalkg.graph.connection import open_driver
from legalkg.server.conf import ServerSettings
from legalkg.server.process import free_port, stop
from legalkg.server.startup import start

DIM = 512
INDEX = ("CREATE VECTOR INDEX {name} FOR (n:{label}) ON n.embedding OPTIONS {{indexConfig: "
         "{{`vector.dimensions`: 512, `vector.similarity_function`: 'cosine'}}}}")
WRITE = ("UNWIND $rows AS r CREATE (n:{label} {{id: r.id}}) WITH n, r "
         "CALL db.create.setNodeVectorProperty(n, 'embedding', r.vec) RETURN count(*)")
KNN = "CALL db.index.vector.queryNodes('{name}', 50, $v) YIELD node, score RETURN node.id, score"


def unit(rng) -> list[float]:
    v = rng.standard_normal(DIM).astype(np.float32)
    return (v / np.linalg.norm(v)).tolist()


def segments(home: Path) -> dict[str, int]:
    """Lucene segments (``*.si`` files) per vector index folder."""
    return {d.name: sum(1 for _ in d.rglob("*.si"))
            for d in (home / "data/databases/neo4j/schema/index/vector-2.0").glob("*")}


def main() -> None:
    extra = json.loads(sys.argv[1])
    n = int(sys.argv[2])
    home = Path(tempfile.mkdtemp(prefix="legalkg-seg-"))
    st = ServerSettings(home=home, bolt_port=free_port(), http_port=free_port(), auth=False, heap="1g",
                        pagecache="512m", extra=extra)
    print(start(st, timeout=300).splitlines()[0])
    try:
        cfg = Neo4jConfig(uri=st.bolt_uri)
        d = open_driver(cfg)
        db = cfg.database
        rng = np.random.default_rng(0)

        def write(label: str) -> None:
            for first in range(0, n, 2000):
                rows = [{"id": f"{label}{i}", "vec": unit(rng)} for i in range(first, min(n, first + 2000))]
                d.execute_query(WRITE.format(label=label), {"rows": rows}, database_=db)

        # A: index first, incremental writes
        d.execute_query(INDEX.format(name="a", label="A"), database_=db)
        t = time.perf_counter()
        write("A")
        ta = time.perf_counter() - t
        # B: vectors first, index after
        t = time.perf_counter()
        write("B")
        d.execute_query(INDEX.format(name="b", label="B"), database_=db)
        d.execute_query("CALL db.awaitIndexes(600)", database_=db)
        tb = time.perf_counter() - t
        time.sleep(3)
        print(f"write+index A (incremental) {ta:.1f}s, B (populate) {tb:.1f}s", "segments by index dir:",
              segments(home))
        queries = [unit(rng) for _ in range(60)]
        for name in ("a", "b"):
            times = []
            with d.session(database=db) as session:
                for v in queries:
                    t = time.perf_counter()
                    list(session.run(KNN.format(name=name), v=v))
                    times.append(time.perf_counter() - t)
            print(name, f"p50 {1000 * float(np.median(times[10:])):.2f} ms")
    finally:
        stop(st)


if __name__ == "__main__":
    main()
