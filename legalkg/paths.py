"""Where things live outside the repository: the shared data folder and the user cache."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


def shared_dir() -> Path:
    """``$LEGALKG_SHARED`` or ``../shared`` beside the repository (the layout CI uses)."""
    env = os.environ.get("LEGALKG_SHARED")
    return Path(env) if env else REPO_ROOT.parent / "shared"


def data_dir() -> Path:
    return shared_dir() / "data"


def gii_dir() -> Path:
    """Default ``--source``: the raw XML of the 58 default codes."""
    return data_dir() / "gii"


def gii_all_archive() -> Path:
    return data_dir() / "gii-all.tar.xz"


def eval_dir() -> Path:
    return data_dir() / "eval"


def cache_dir() -> Path:
    """``$LEGALKG_CACHE`` or ``~/.cache/legalkg``: jars, downloads, embedding cache. Never the repo."""
    env = os.environ.get("LEGALKG_CACHE")
    path = Path(env) if env else Path.home() / ".cache" / "legalkg"
    path.mkdir(parents=True, exist_ok=True)
    return path


def cypher_dir() -> Path:
    return REPO_ROOT / "cypher"
