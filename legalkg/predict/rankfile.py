"""The ranker's model file (``.npz``): the LightGBM trees as text, the co-citation table, a header.

Why beside the predictor's file and not in it: the ranker is trained on the predictor's out-of-fold
outputs and can be retrained or left out without touching the predictor; and the co-citation counts
travel with the ranker that was trained on them (``cocite.py`` says why they are not graph edges).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np

from ..errors import UserError
from ..paths import portable_tree
from ..taskfile import shipped_file
from .cocite import CoCitation
from .corpus import Corpus
from .modelfile import fix_for, get_csr, pack_strings, put_csr, read_arrays, unpack_strings, write_arrays
from .predictor import Predictor
from .ranker import FORMAT, FORMAT_VERSION, Ranker, uses_graph
from .rankfeatures import FEATURES
from .trees import Trees

FIX = "rebuild it with `legalkg train --ranker-out`"


def default_ranker_path(task: str) -> Path:
    """The shipped ranker file of ``task``; one line where the package lacks it (``taskfile.shipped_file``)."""
    return shipped_file(f"ranker-{task}.npz")


def shipped_ranker(task: str, pred: Predictor, units: Mapping[str, str],
                   corpus: Callable[[], tuple[Mapping[str, str], Corpus]] | None = None) -> Ranker | None:
    """The shipped ranker of ``task`` for the shipped predictor ``pred``, fed the same unit texts;
    None where the bridge has no texts (its features would be missing). A missing or unreadable
    shipped file is one line that says how to get it back (``taskfile.shipped_file``).
    ``corpus``: gives every § text of the graph and its corpus, called only for a ranker of the
    graph's features (``ranker.uses_graph``)."""
    path = default_ranker_path(task)
    if pred.statutes is None or not units:
        return None
    ranker = load(path)
    if corpus is not None and uses_graph(ranker.features):
        all_units, built = corpus()
        return ranker.attach_units(all_units, pred.statutes.ids, built)
    return ranker.attach_units(units, pred.statutes.ids)


def save(ranker: Ranker, path: str | Path) -> Path:
    """Write ``ranker`` atomically (``modelfile.write_arrays``)."""
    path = Path(path)
    header = {"format": FORMAT, "version": FORMAT_VERSION, "task": ranker.task, "features": list(ranker.features),
              "meta": portable_tree(ranker.meta), "cocite": ranker.cocite is not None}
    arrays = {"header": np.frombuffer(json.dumps(header).encode("utf-8"), dtype=np.uint8),
              "booster": np.frombuffer(ranker.trees.text.encode("utf-8"), dtype=np.uint8)}
    if ranker.cocite is not None:
        arrays["cocite.ids"] = pack_strings(ranker.cocite.ids)
        arrays["cocite.units"] = ranker.cocite.units.astype(np.float32)
        arrays["cocite.n"] = np.array([ranker.cocite.n_cases], dtype=np.int64)
        put_csr(arrays, "cocite.pairs", ranker.cocite.pairs)
    if ranker.degrees:
        ids = sorted(ranker.degrees)
        arrays["degrees.ids"] = pack_strings(ids)
        arrays["degrees.values"] = np.array([ranker.degrees[u] for u in ids], dtype=np.int32).reshape(-1, 2)
    if ranker.outline:
        ids = sorted(ranker.outline)
        arrays["outline.ids"] = pack_strings(ids)
        arrays["outline.titles"] = pack_strings([ranker.outline[u] for u in ids])
    if ranker.cites:
        arrays["cites.src"] = pack_strings([a for a, _ in ranker.cites])
        arrays["cites.dst"] = pack_strings([b for _, b in ranker.cites])
    return write_arrays(path, arrays)


def load(path: str | Path) -> Ranker:
    """Read a ranker file; one ``UserError`` line for a missing, foreign or outdated file (a user's
    file is rebuilt, a shipped one restored: ``modelfile.fix_for``)."""
    path = Path(path)
    fix = fix_for(path, FIX)
    with read_arrays(path, FORMAT, "ranker file", fix) as (z, header):
        features = header.get("features")
        known = isinstance(features, list) and set(features) <= set(FEATURES)
        if header.get("version") != FORMAT_VERSION or not known:
            raise UserError(f"{path} was written for other ranker features (version {header.get('version')}); {fix}")
        try:
            trees = Trees.from_text(z["booster"].tobytes().decode("utf-8"))
            table = None
            if header.get("cocite"):
                table = CoCitation(unpack_strings(z["cocite.ids"]), get_csr(z, "cocite.pairs"),
                                   z["cocite.units"].astype(np.float64), int(z["cocite.n"][0]))
            degrees = {}
            if "degrees.ids" in z:
                degrees = {u: (int(a), int(b)) for u, (a, b) in zip(unpack_strings(z["degrees.ids"]),
                                                                      z["degrees.values"])}
            outline, cites = {}, []
            if "outline.ids" in z:
                outline = dict(zip(unpack_strings(z["outline.ids"]), unpack_strings(z["outline.titles"])))
            if "cites.src" in z:
                cites = list(zip(unpack_strings(z["cites.src"]), unpack_strings(z["cites.dst"])))
        except (KeyError, ValueError, IndexError) as err:
            raise UserError(f"{path} is damaged ({err}); {fix}") from None
    return Ranker(header["task"], trees, table, header.get("meta", {}), degrees=degrees, features=tuple(features),
                  outline=outline, cites=cites)
