"""Any sentence-transformers model, by hub name or local folder: ``st:<model or path>``.

This is how a user switches to a stronger model (multilingual-e5-large, bge-m3, ...). It needs the
``[st]`` extra (sentence-transformers + torch, several GB), so everything here imports it lazily:
the core install never touches torch.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import UserError
from .backends import package_version
from .base import Embedder

E5_QUERY_PROMPT = "query: "
E5_PASSAGE_PROMPT = "passage: "
ST_MISSING = "sentence-transformers is not installed: pip install 'legalkg[st]'"


#: ``--device`` choices; ``auto`` is :func:`detect_device`.
DEVICES = ("auto", "cuda", "cpu")
#: Texts per model call by device when the caller names none. A GPU runs a batch in about the
#: time of one text until its memory or compute is full, so it gets large batches (128: the
#: attention scores of a 16-head model at 512 tokens, fp32, one layer at a time, stay near
#: 2 GB); on a CPU a batch costs in proportion to its padded tokens, and 32 keeps the padding of
#: length-sorted batches small.
DEVICE_BATCH = {"cuda": 128, "mps": 64, "cpu": 32}


def detect_device() -> str:
    """``cuda`` if torch sees a GPU, else ``mps`` (Apple), else ``cpu``."""
    import torch

    if torch.cuda.is_available():
        return "cuda"
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return "mps"
    return "cpu"


def resolve_device(device: str | None) -> str:
    """The torch device of ``--device``: None/``auto`` detects; ``cuda`` without a GPU that torch
    sees is one line, not a CUDA error at the first batch."""
    choice = (device or "auto").strip().lower()
    if choice == "auto":
        return detect_device()
    if choice == "cuda":
        import torch

        if not torch.cuda.is_available():
            raise UserError("--device cuda: torch sees no GPU (torch.cuda.is_available() is false); "
                            "use --device cpu or auto, or install a CUDA build of torch")
        return "cuda"
    if choice in ("cpu", "mps"):
        return choice
    raise UserError(f"unknown device {device!r}: choose one of {', '.join(DEVICES)}")


def wants_e5_prompts(model: str) -> bool:
    """e5 models were trained with ``query: ``/``passage: `` prefixes; guess that from the name."""
    return "e5" in Path(model.rstrip("/\\")).name.lower()


class SentenceTransformerEmbedder(Embedder):
    """A sentence-transformers model loaded from the hub cache or a local folder.

    ``e5_prompts``: None guesses from the name (contains ``e5``); True/False forces it. With
    prompts, queries get ``query: `` and documents ``passage: ``; without, the model is symmetric.
    ``device``: None or ``auto`` picks cuda / mps / cpu; ``batch_size``: None takes
    ``DEVICE_BATCH`` of the device. ``threads``: torch's CPU threads (one per embedding worker
    process, so worker processes do not oversubscribe the cores).
    """

    default_batch_size = DEVICE_BATCH["cpu"]
    sort_by_length = True  # a batch is padded to its longest text

    def __init__(
        self,
        model: str,
        *,
        e5_prompts: bool | None = None,
        device: str | None = None,
        batch_size: int | None = None,
        threads: int | None = None,
    ) -> None:
        model = model.strip()
        if not model:
            raise UserError("empty sentence-transformers model: use st:<model name or local folder>")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as err:
            raise UserError(ST_MISSING) from err

        local = Path(model).expanduser()
        is_folder = local.is_dir()
        if not is_folder and model.startswith((".", "/", "~")):
            raise UserError(f"model folder not found: {model} (give an existing sentence-transformers folder)")
        source = str(local.resolve()) if is_folder else model
        self.device = resolve_device(device)
        if threads:
            import torch

            torch.set_num_threads(int(threads))
        try:
            self._model = SentenceTransformer(source, device=self.device)
        except Exception as err:  # hub offline, bad folder, ...: one clear line for the CLI
            raise UserError(
                f"could not load sentence-transformers model {model!r}: {type(err).__name__}: "
                f"{str(err).splitlines()[0] if str(err) else ''} -- without network, download it once "
                "elsewhere, model.save(folder), and use st:<folder>"
            ) from err

        self.model_id = source
        self.name = f"st:{source}"
        self.e5_prompts = wants_e5_prompts(model) if e5_prompts is None else bool(e5_prompts)
        self.symmetric = not self.e5_prompts
        self.default_batch_size = int(batch_size or DEVICE_BATCH.get(self.device, DEVICE_BATCH["cpu"]))
        self._dim = int(_dimension(self._model))
        prompts = " prompts=e5" if self.e5_prompts else ""
        self.version = (
            f"sentence-transformers=={package_version('sentence-transformers')} "
            f"model={source}{prompts}"
        )

    @property
    def dim(self) -> int:
        return self._dim

    def _encode(self, texts: list[str], *, is_query: bool) -> np.ndarray:
        prompt = None
        if self.e5_prompts:
            prompt = E5_QUERY_PROMPT if is_query else E5_PASSAGE_PROMPT
        return self._model.encode(
            texts,
            prompt=prompt,
            batch_size=len(texts),
            show_progress_bar=False,
            convert_to_numpy=True,
            normalize_embeddings=True,
        )


def _dimension(model) -> int:
    """Embedding size; the method name changed across sentence-transformers releases."""
    for attr in ("get_embedding_dimension", "get_sentence_embedding_dimension"):
        fn = getattr(model, attr, None)
        if fn is not None:
            dim = fn()
            if dim:
                return int(dim)
    return int(model.encode(["x"], convert_to_numpy=True).shape[1])
