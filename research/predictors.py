"""The shipped predictor models' recipe and fingerprint: which ``legalkg train`` command builds each
file in ``legalkg/data/``, on which shared files, and a digest of what a model file holds.

Why a fingerprint and not the file's hash: the ``.npz`` is a zip whose bytes carry timestamps, and its
header records the training files as given (a relative path on one machine, an absolute one on
another). The fingerprint hashes every array (its name, dtype, shape and values; floats rounded to 6
decimals, so a last-bit difference of a summation order does not count) and the header with each
source reduced to its file name and every number read as a float. Two models with the same
fingerprint rank the same way.

``tests/predict/test_shipped_models.py`` retrains both tasks on a fixed subset (the first records of
each file) and compares with ``tests/predict/fingerprints.json``; ``benchmarks/predictor_rebuild.py``
retrains them in full and compares with the shipped files.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import re
import zipfile
from pathlib import Path

import numpy as np

from legalkg.predict import TASK_FORMS

#: recipe files committed in the checkout's ``eval/`` folder, not in the shared data (the lay questions
#: beyond BGB, eval/lay-beyond/README.md, and the training questions beyond BGB, eval/lay-beyond-train/ and
#: eval/lay-beyond-more/)
IN_CHECKOUT: frozenset[str] = frozenset({"lay-beyond/dev.jsonl", "lay-beyond-train/train.jsonl",
                                         "lay-beyond-more/train.jsonl"})


def recipe_file(name: str, eval_dir: Path) -> Path:
    """Where a recipe's training file lies: the checkout's ``eval/`` for ``IN_CHECKOUT``, else the
    shared data's eval folder ``eval_dir``."""
    return Path(__file__).resolve().parents[1] / "eval" / name if name in IN_CHECKOUT else eval_dir / name


#: task -> further ``legalkg train`` arguments of its shipped model (eval/word-forms/README.md chose them)
OPTIONS: dict[str, tuple[str, ...]] = {t: ("--forms", ",".join(f)) if f else () for t, f in TASK_FORMS.items()}
#: the documented commands (docs/retrieval.md, "Shipped models"): task -> (files under the shared data's
#: eval folder or, for ``IN_CHECKOUT``, the checkout's; shipped file name); every command adds
#: ``--seed 0`` and the 58 default codes
RECIPES: dict[str, tuple[tuple[str, ...], str]] = {
    "lay": (("gerlayqa/dev.jsonl", "gerlayqa/train.jsonl", "lay-beyond/dev.jsonl", "lay-beyond-train/train.jsonl",
             "lay-beyond-more/train.jsonl"), "predictor-lay.npz"),
    "case": (("ler_bgh/bgh_documents.jsonl", "ler_courts/dev.jsonl.gz"), "predictor-case.npz"),
}


def train_args(task: str, data: list[Path], out: Path, laws: str = "default") -> list[str]:
    """The ``legalkg train`` arguments of a recipe (``--laws default`` is the shipped one)."""
    return ["train", "--task", task, *[a for p in data for a in ("--data", str(p))], "--out", str(out),
            "--seed", "0", "--laws", laws, *OPTIONS.get(task, ())]


def _header(raw: bytes) -> dict:
    """The header with each training file's name only, and every number as a float (a setting written
    as ``60`` by one version and ``60.0`` by another is the same setting)."""
    header = json.loads(raw.decode("utf-8"), parse_int=float)
    meta = header.get("meta", {})
    meta["sources"] = [Path(s).name for s in meta.get("sources", [])]
    return header


def array_digest(arr: np.ndarray) -> str:
    """sha256 of an array's dtype, shape and values (floats rounded to 6 decimals)."""
    values = np.round(arr.astype(np.float64), 6) if arr.dtype.kind == "f" else arr
    h = hashlib.sha256(f"{arr.dtype.str}{arr.shape}".encode())
    h.update(np.ascontiguousarray(values).tobytes())
    return h.hexdigest()[:16]


#: A number in LightGBM's model text; ``tree_sizes`` holds the byte sizes of the trees' text.
NUMBER = re.compile(r"-?\d+\.\d+(?:[eE][-+]?\d+)?")
TREE_SIZES = re.compile(r"^tree_sizes=.*$", re.M)


def booster_digest(arr: np.ndarray) -> str:
    """sha256 of a ranker's LightGBM model text with every decimal number to 6 significant digits
    (thresholds and leaf values: the same tolerance as ``array_digest``'s floats) and without the
    trees' byte sizes, which follow from the numbers' printed lengths."""
    text = TREE_SIZES.sub("", arr.tobytes().decode("utf-8"))
    text = NUMBER.sub(lambda m: f"{float(m.group(0)):.6g}", text)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def fingerprint(path: Path) -> dict[str, str]:
    """Array name -> digest for every array of a model file (a predictor's or a ranker's); ``header``
    digests the normalised header, ``booster`` the ranker's trees (``booster_digest``)."""
    out: dict[str, str] = {}
    with zipfile.ZipFile(path) as zf:
        for name in sorted(zf.namelist()):
            arr = np.load(io.BytesIO(zf.read(name)), allow_pickle=False)
            key = name.removesuffix(".npy")
            if key == "header":
                text = json.dumps(_header(arr.tobytes()), sort_keys=True, ensure_ascii=False)
                out[key] = hashlib.sha256(text.encode()).hexdigest()[:16]
            elif key == "booster":
                out[key] = booster_digest(arr)
            else:
                out[key] = array_digest(arr)
    return out


def differences(a: dict[str, str], b: dict[str, str]) -> list[str]:
    """Names whose digests differ or that only one side has, sorted."""
    return sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))


def head_lines(source: Path, target: Path, n: int) -> Path:
    """Copy the first ``n`` records of a JSONL file (``.gz`` read) to ``target`` (plain JSONL)."""
    opener = gzip.open if source.suffix == ".gz" else open
    lines = []
    with opener(source, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                lines.append(line if line.endswith("\n") else line + "\n")
            if len(lines) == n:
                break
    target.write_text("".join(lines), encoding="utf-8")
    return target


#: The reduced recipe that tests/predict/test_shipped_models.py retrains: task -> (records taken from the
#: head of each training file, laws). The first records of each file and only the laws they cite most
#: (lay: the BGB, and BUrlG and KSchG for the questions beyond it; case: BGB, ZPO, GG) instead of the 58
#: codes, whose parse would be most of the time.
SUBSETS: dict[str, tuple[int, str]] = {"lay": (150, "bgb,burlg,kschg"), "case": (30, "bgb,zpo,gg")}
#: The subset models' fingerprints (``<task>`` the predictor, ``ranker-<task>`` its ranker), written by
#: ``benchmarks/predictor_fingerprints.py`` (never by a test).
FINGERPRINTS = Path(__file__).resolve().parents[1] / "tests" / "predict" / "fingerprints.json"


def scratch_name(name: str) -> str:
    """The subset copy's file name: the file's own, with its folder for ``IN_CHECKOUT`` files (the
    lay questions beyond BGB are a ``dev.jsonl`` too)."""
    return name.replace("/", "-") if name in IN_CHECKOUT else Path(name).name.removesuffix(".gz")


def subset_args(task: str, eval_dir: Path, scratch: Path) -> list[str]:
    """The ``legalkg train`` arguments of ``task``'s subset recipe, its ranker included (the shipped
    rankers' command, docs/retrieval.md); its data files are cut into ``scratch``, the models are
    written to ``scratch/predictor-<task>.npz`` and ``scratch/ranker-<task>.npz``."""
    files, _ = RECIPES[task]
    n, laws = SUBSETS[task]
    data = [head_lines(recipe_file(f, eval_dir), scratch / scratch_name(f), n) for f in files]
    return [*train_args(task, data, scratch / f"predictor-{task}.npz", laws),
            "--ranker-out", str(scratch / f"ranker-{task}.npz")]


def subset_fingerprints(task: str, scratch: Path) -> dict[str, dict[str, str]]:
    """The fingerprints of the models ``subset_args`` wrote into ``scratch``, by ``FINGERPRINTS`` key."""
    return {task: fingerprint(scratch / f"predictor-{task}.npz"),
            f"ranker-{task}": fingerprint(scratch / f"ranker-{task}.npz")}
