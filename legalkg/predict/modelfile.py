"""The model file: one ``.npz`` of plain arrays (no pickle), versioned, written atomically.

Layout: ``header`` (UTF-8 JSON: format name, version, task, config, meta, levels, bridge laws),
string lists as newline-joined UTF-8 bytes, sparse matrices as their CSR parts. A file of another
format version is refused with one line (retrain with ``legalkg train``): the arrays' meaning may
have changed, and a silent misread would give plausible but wrong rankings.

``write_arrays`` and ``read_arrays`` are the one writer and the one reader of such files, for the
predictor here and the ranker (``rankfile.py``): the atomic write and the checks for a missing,
foreign or unreadable file live once.
"""

from __future__ import annotations

import json
import os
import tempfile
import zipfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from ..errors import UserError
from ..npzmap import mapped
from ..paths import cache_dir, portable_tree, restore_hint
from ..taskfile import shipped_path
from .features import Vectoriser
from .predictor import Config, LevelModel, Predictor

FORMAT = "legalkg-predictor"
FORMAT_VERSION = 1
#: The shipped models, built by the commands in docs/retrieval.md ("Shipped models").
DEFAULT_MODELS: dict[str, str] = {"lay": "predictor-lay.npz", "case": "predictor-case.npz"}


def default_model_path(task: str) -> Path:
    """Where the shipped model of ``task`` ('lay' or 'case') lives in the installed package."""
    if task not in DEFAULT_MODELS:
        raise UserError(f"no shipped predictor for task {task!r}: use one of {', '.join(DEFAULT_MODELS)}")
    return Path(str(resources.files("legalkg.data").joinpath(DEFAULT_MODELS[task])))


def pack_strings(values: list[str]) -> np.ndarray:
    if any("\n" in v for v in values):
        raise ValueError("a stored string contains a newline")
    return np.frombuffer("\n".join(values).encode("utf-8"), dtype=np.uint8)


def unpack_strings(arr: np.ndarray) -> list[str]:
    text = arr.tobytes().decode("utf-8")
    return text.split("\n") if text else []


def put_csr(out: dict[str, np.ndarray], name: str, m: sp.csr_matrix, dtype=np.float32) -> None:
    m = m.tocsr()
    out[f"{name}.data"] = m.data.astype(dtype)
    out[f"{name}.indices"] = m.indices.astype(np.int32)
    out[f"{name}.indptr"] = m.indptr.astype(np.int64)
    out[f"{name}.shape"] = np.array(m.shape, dtype=np.int64)


def get_csr(z, name: str) -> sp.csr_matrix:
    """The stored matrix ``name`` with float32 data: a float32 member stays its (mapped) array, no copy."""
    shape = tuple(int(v) for v in z[f"{name}.shape"])
    data = z[f"{name}.data"].astype(np.float32, copy=False)
    return sp.csr_matrix((data, z[f"{name}.indices"], z[f"{name}.indptr"]), shape=shape)


def save(model: Predictor, path: str | Path) -> Path:
    """Write ``model`` to ``path`` via a temporary file in the same folder and a rename."""
    path = Path(path)
    header = {"format": FORMAT, "version": FORMAT_VERSION, "task": model.task, "config": model.config.as_dict(),
              "meta": portable_tree(model.meta), "levels": list(model.levels), "bridge_laws": model.bridge_laws,
              "bridge": model.assoc is not None and model.statute_vocab is not None}
    arrays: dict[str, np.ndarray] = {"header": np.frombuffer(json.dumps(header).encode("utf-8"), dtype=np.uint8),
                                     "queries.vocab": pack_strings(model.queries.vocabulary),
                                     "queries.idf": model.queries.idf.astype(np.float32),
                                     "train_ids": pack_strings(model.train_ids)}
    # training rows are kept as float16: they only rank neighbours, and halve the file
    put_csr(arrays, "x_train", model.x_train, np.float16)
    for name, lm in model.levels.items():
        arrays[f"{name}.labels"] = pack_strings(lm.labels)
        put_csr(arrays, f"{name}.y", lm.y, np.uint8)
        put_csr(arrays, f"{name}.counts", lm.counts)
    if header["bridge"]:
        assert model.statute_vocab is not None and model.assoc is not None
        arrays["statute.vocab"] = pack_strings(model.statute_vocab.vocabulary)
        arrays["statute.idf"] = model.statute_vocab.idf.astype(np.float32)
        put_csr(arrays, "assoc", model.assoc, np.float16)
    return write_arrays(path, arrays)


def write_arrays(path: Path, arrays: dict[str, np.ndarray]) -> Path:
    """Write a model file via a temporary file in the same folder and a rename (never half a file);
    an unwritable place is one ``UserError`` line."""
    fd, tmp = temp_beside(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            np.savez_compressed(fh, **arrays)
        os.replace(tmp, path)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise UserError(f"cannot write the model file {path} ({err.strerror}): choose another --out") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def fix_for(path: Path, fix: str) -> str:
    """``fix`` (the command that rebuilds a user's model file), or for a file the package ships, how
    to get that one back: a shipped model is restored, not retrained on other data."""
    try:
        shipped = Path(path).resolve().parent == shipped_path(".").resolve()
    except OSError:
        shipped = False
    return restore_hint() if shipped else fix


@contextmanager
def read_arrays(path: Path, fmt: str, kind: str, fix: str) -> Iterator[tuple[Mapping[str, np.ndarray], dict]]:
    """The arrays and the JSON header of a model file of format ``fmt``; one ``UserError`` line for a
    missing, unreadable or foreign file (``kind`` names the file in it, e.g. "ranker file"; ``fix``
    says how to rebuild it; ``fix_for`` turns it into a restore hint for a shipped file). The caller
    checks the version, which only it can read."""
    fix = fix_for(path, fix)
    try:
        z = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise UserError(f"{kind} not found: {path}; {fix}") from None
    except (OSError, ValueError, zipfile.BadZipFile):
        raise UserError(f"{path} is not a legalkg {kind}; {fix}") from None
    with z:
        try:
            header = json.loads(z["header"].tobytes().decode("utf-8"))
        except (KeyError, ValueError):
            raise UserError(f"{path} is not a legalkg {kind}; {fix}") from None
        if not isinstance(header, dict) or header.get("format") != fmt:
            raise UserError(f"{path} is not a legalkg {kind}; {fix}")
        yield mapped(path, z, cache_dir() / "mapped"), header


def temp_beside(path: Path) -> tuple[int, str]:
    """A temporary file in ``path``'s folder (made if missing), so the final rename is atomic;
    an unwritable place is one ``UserError`` line."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as err:
        raise UserError(f"cannot write the model file {path} ({err.strerror}): choose another --out") from None


def load(path: str | Path) -> Predictor:
    """Read a model file; ``UserError`` (one line) for a missing, foreign or other-version file."""
    path = Path(path)
    fix = fix_for(path, "build one with `legalkg train`")
    with read_arrays(path, FORMAT, "predictor model file", fix) as (z, header):
        if header.get("version") != FORMAT_VERSION:
            raise UserError(f"{path} has model format version {header.get('version')}, this legalkg reads "
                            f"version {FORMAT_VERSION}: {fix_for(path, 'retrain it with `legalkg train`')}")
        try:
            levels = {name: LevelModel(unpack_strings(z[f"{name}.labels"]), get_csr(z, f"{name}.y"),
                                       get_csr(z, f"{name}.counts")) for name in header["levels"]}
            statute_vocab = assoc = None
            if header.get("bridge"):
                statute_vocab = Vectoriser(unpack_strings(z["statute.vocab"]), z["statute.idf"])
                assoc = get_csr(z, "assoc")
            cfg = header["config"]
            config = Config(weights=cfg["weights"], alpha=cfg["alpha"], neighbours=cfg["neighbours"],
                            power=cfg["power"], bridge_top=cfg["bridge_top"], rrf_k=cfg["rrf_k"],
                            candidates=cfg["candidates"], min_df=cfg["min_df"],
                            forms=tuple(cfg.get("forms", ())))
            queries = Vectoriser(unpack_strings(z["queries.vocab"]), z["queries.idf"], config.forms)
            return Predictor(header["task"], config, queries, get_csr(z, "x_train"), levels,
                             list(header.get("bridge_laws", [])), statute_vocab, assoc, None, header.get("meta", {}),
                             unpack_strings(z["train_ids"]), cache_sums=True)
        except KeyError as err:
            raise UserError(f"{path} lacks the array {err}: the file is damaged; "
                            f"{fix_for(path, 'retrain it with `legalkg train`')}") from None
