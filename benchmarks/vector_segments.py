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
import tempfile, time, sys, json
import numpy as np
from pathlib import Path

from legalkg.server.conf import ServerSettings
from legalkg.server.process import free_port, stop
from legalkg.server.startup import start
from legalkg.graph.config import Neo4jConfig
from legalkg.graph.connection import open_driver
extra = json.loads(sys.argv[1])
N = int(sys.argv[2])
home = Path(tempfile.mkdtemp(prefix="legalkg-seg-"))
st = ServerSettings(home=home, bolt_port=free_port(), http_port=free_port(), auth=False, heap="1g", pagecache="512m", extra=extra)
print(start(st, timeout=300).splitlines()[0])
def segs():
    out = {}
    for d in (home / "data/databases/neo4j/schema/index/vector-2.0").glob("*"):
        out[d.name] = sum(1 for f in d.rglob("*.si"))
    return out
try:
    cfg = Neo4jConfig(uri=st.bolt_uri); d = open_driver(cfg); db = cfg.database
    rng = np.random.default_rng(0)
    def write(tag, n, index_first):
        for start in range(0, n, 2000):
            rows = [{"id": f"{tag}{i}", "vec": (v / np.linalg.norm(v)).tolist()} for i, v in
                    ((i, rng.standard_normal(512).astype(np.float32)) for i in range(start, min(n, start + 2000)))]
            d.execute_query(f"UNWIND $rows AS r CREATE (n:{tag} {{id: r.id}}) WITH n, r CALL db.create.setNodeVectorProperty(n, 'embedding', r.vec) RETURN count(*)", {"rows": rows}, database_=db)
    # A: index first, incremental writes
    d.execute_query("CREATE VECTOR INDEX a FOR (n:A) ON n.embedding OPTIONS {indexConfig: {`vector.dimensions`: 512, `vector.similarity_function`: 'cosine'}}", database_=db)
    t = time.perf_counter(); write("A", N, True); ta = time.perf_counter() - t
    # B: vectors first, index after
    t = time.perf_counter(); write("B", N, False)
    d.execute_query("CREATE VECTOR INDEX b FOR (n:B) ON n.embedding OPTIONS {indexConfig: {`vector.dimensions`: 512, `vector.similarity_function`: 'cosine'}}", database_=db)
    d.execute_query("CALL db.awaitIndexes(600)", database_=db); tb = time.perf_counter() - t
    time.sleep(3)
    print("write+index A (incremental) %.1fs, B (populate) %.1fs" % (ta, tb), "segments by index dir:", segs())
    q = [(lambda v: (v / np.linalg.norm(v)).tolist())(rng.standard_normal(512).astype(np.float32)) for _ in range(60)]
    for idx in ("a", "b"):
        ts = []
        with d.session(database=db) as s:
            for v in q:
                t = time.perf_counter(); list(s.run(f"CALL db.index.vector.queryNodes('{idx}', 50, $v) YIELD node, score RETURN node.id, score", v=v)); ts.append(time.perf_counter() - t)
        print(idx, "p50 %.2f ms" % (1000 * float(np.median(ts[10:]))))
finally:
    stop(st)
