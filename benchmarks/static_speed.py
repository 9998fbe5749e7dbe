"""Static encoder throughput on the Satz texts of the 58 default codes, in one process.

Texts: every non-empty Satz text of the 58 codes, parsed with ``legalkg.parse`` from the shared gii
folder (77,259 texts, repeats kept: the encoder meets them as ingest does, before dedupe).
Both paths start from a fresh model (empty word memory) each repeat, the runs alternate, in one
process, batches of ``StaticEmbedder.default_batch_size``:

- ``encode``: ``StaticModel.encode(batch)``, the token sums (``token_ids`` then ``pool``);
- ``embedder``: ``StaticEmbedder.embed_documents(batch)``, what ``legalkg embed``'s workers call
  (the sums, the unknown-token fallback, L2 normalisation and the contract's checks).

Writes ``--out``/results.json (texts/s per repeat, CPU seconds, the machine's load).

    .venv/bin/python benchmarks/static_speed.py --repeats 3 --out eval/static-speed
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

import numpy as np

from legalkg import codes
from legalkg.embed.static import DEFAULT_FILE, StaticEmbedder, StaticModel, load_model
from legalkg.parse import iter_laws


def satz_texts() -> list[str]:
    out = []
    for _, law in iter_laws(codes=[c.slug for c in codes.default_codes()]):
        if not isinstance(law, Exception):
            out += [u.text for u in law.units if u.level.value == "Satz" and u.text.strip()]
    return out


def run(path: str, texts: list[str], size: int) -> tuple[np.ndarray, float, float]:
    shipped = load_model(DEFAULT_FILE)
    model = StaticModel(shipped.tokenizer, shipped.table, shipped.meta, shipped.digest)
    if path == "encode":
        encode = model.encode
    else:
        embedder = StaticEmbedder()
        embedder.model = model
        encode = embedder.embed_documents
    cpu, wall = time.process_time(), time.perf_counter()
    out = np.concatenate([encode(texts[i:i + size]) for i in range(0, len(texts), size)])
    return out, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", type=Path, default=Path("eval/static-speed"))
    args = ap.parse_args()
    texts = satz_texts()
    size = StaticEmbedder.default_batch_size
    runs: dict[str, list[dict]] = {"encode": [], "embedder": []}
    for _ in range(args.repeats):
        for path in runs:
            _, wall, cpu = run(path, texts, size)
            runs[path].append({"wall_s": round(wall, 3), "cpu_s": round(cpu, 3),
                               "texts_per_s": round(len(texts) / wall), "texts_per_cpu_s": round(len(texts) / cpu),
                               "load_1min": os.getloadavg()[0]})
    summary = {path: {"median_texts_per_s": float(np.median([r["texts_per_s"] for r in rs])),
                      "median_texts_per_cpu_s": float(np.median([r["texts_per_cpu_s"] for r in rs]))}
               for path, rs in runs.items()}
    report = {"command": "python benchmarks/static_speed.py " + f"--repeats {args.repeats} --out {args.out}",
              "texts": len(texts), "batch_size": size, "processes": 1, "cpus": os.cpu_count(),
              "python": platform.python_version(), "summary": summary, "runs": runs}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: report[k] for k in ("texts", "summary")}, indent=1))


if __name__ == "__main__":
    main()
