"""``EmbedSettings``: how one run embeds, the options that ``legalkg embed`` and ``legalkg ingest`` share.

Why one model: both commands end in the same embedding step, so the five choices travel as one
value from the command line to ``graph.vectors.embed_graph`` (its ``settings``), and a new choice
is one field here and one option, not a parameter threaded through each command and function.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class EmbedSettings(BaseModel):
    """The embedding choices of one run, by the names of their flags (``--batch-size`` is ``batch_size``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: None: ``$LEGALKG_MODEL``, else the model the graph's vectors were made with, else the default
    #: (``graph.vectors.run_model``).
    model: str | None = None
    reembed: bool = False
    device: str = "auto"
    batch_size: int | None = None
    fresh: bool = False
