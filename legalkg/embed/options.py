"""The shared ``--model`` click option, so every command names and documents models the same way."""

from __future__ import annotations

import click

from .registry import CHOICES, DEFAULT_MODEL, MODEL_ENV


def model_option(func):
    """``--model NAME`` (None when absent: ``get_embedder(None)`` then reads $LEGALKG_MODEL / the default)."""
    return click.option(
        "--model",
        "model",
        default=None,
        metavar="NAME",
        help=f"embedding model: {CHOICES} (default: ${MODEL_ENV}, else {DEFAULT_MODEL})",
    )(func)
