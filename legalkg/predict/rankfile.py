"""The ranker's model file (``.npz``): the LightGBM trees as text, the co-citation table, a header.

Why beside the predictor's file and not in it: the ranker is trained on the predictor's out-of-fold
outputs and can be retrained or left out without touching the predictor; and the co-citation counts
travel with the ranker that was trained on them (``cocite.py`` says why they are not graph edges).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import lightgbm as lgb
import numpy as np

from ..errors import UserError
from ..taskfile import shipped_path
from .cocite import CoCitation
from .modelfile import get_csr, pack_strings, put_csr, read_arrays, unpack_strings, write_arrays
from .predictor import Predictor
from .ranker import FORMAT, FORMAT_VERSION, Ranker
from .rankfeatures import FEATURES

FIX = "rebuild it with `legalkg train --ranker-out`"


def default_ranker_path(task: str) -> Path:
    return shipped_path(f"ranker-{task}.npz")


def shipped_ranker(task: str, pred: Predictor, units: Mapping[str, str]) -> Ranker | None:
    """The shipped ranker of ``task`` for the shipped predictor ``pred``, fed the same unit texts;
    None where none is shipped or the bridge has no texts (its features would be missing)."""
    path = default_ranker_path(task)
    if not path.exists() or pred.statutes is None or not units:
        return None
    return load(path).attach_units(units, pred.statutes.ids)


def save(ranker: Ranker, path: str | Path) -> Path:
    """Write ``ranker`` atomically (``modelfile.write_arrays``)."""
    path = Path(path)
    header = {"format": FORMAT, "version": FORMAT_VERSION, "task": ranker.task, "features": list(ranker.features),
              "meta": ranker.meta, "cocite": ranker.cocite is not None}
    arrays = {"header": np.frombuffer(json.dumps(header).encode("utf-8"), dtype=np.uint8),
              "booster": np.frombuffer(ranker.booster.model_to_string().encode("utf-8"), dtype=np.uint8)}
    if ranker.cocite is not None:
        arrays["cocite.ids"] = pack_strings(ranker.cocite.ids)
        arrays["cocite.units"] = ranker.cocite.units.astype(np.float32)
        arrays["cocite.n"] = np.array([ranker.cocite.n_cases], dtype=np.int64)
        put_csr(arrays, "cocite.pairs", ranker.cocite.pairs)
    if ranker.degrees:
        ids = sorted(ranker.degrees)
        arrays["degrees.ids"] = pack_strings(ids)
        arrays["degrees.values"] = np.array([ranker.degrees[u] for u in ids], dtype=np.int32).reshape(-1, 2)
    return write_arrays(path, arrays)


def load(path: str | Path) -> Ranker:
    """Read a ranker file; one ``UserError`` line for a missing, foreign or outdated file."""
    path = Path(path)
    with read_arrays(path, FORMAT, "ranker file", FIX) as (z, header):
        features = header.get("features")
        known = isinstance(features, list) and set(features) <= set(FEATURES)
        if header.get("version") != FORMAT_VERSION or not known:
            raise UserError(f"{path} was written for other ranker features (version {header.get('version')}); {FIX}")
        try:
            booster = lgb.Booster(model_str=z["booster"].tobytes().decode("utf-8"))
            table = None
            if header.get("cocite"):
                table = CoCitation(unpack_strings(z["cocite.ids"]), get_csr(z, "cocite.pairs"),
                                   z["cocite.units"].astype(np.float64), int(z["cocite.n"][0]))
            degrees = {}
            if "degrees.ids" in z:
                degrees = {u: (int(a), int(b)) for u, (a, b) in zip(unpack_strings(z["degrees.ids"]),
                                                                      z["degrees.values"])}
        except (KeyError, lgb.basic.LightGBMError) as err:
            raise UserError(f"{path} is damaged ({err}); {FIX}") from None
    return Ranker(header["task"], booster, table, header.get("meta", {}), degrees=degrees, features=tuple(features))
