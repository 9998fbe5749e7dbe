"""`legalkg rank-train`: fit the learned BGB § ranker of `legalkg search --mode ranked` and write its model."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from ..rank.features import Components
from ..rank.train import DEFAULT_C, default_questions, train


def command_line(questions: Path | None, out: Path, C: float) -> str:
    """The run as one reproducible command line, recorded in the model file."""
    parts = ["legalkg", "rank-train"]
    if questions is not None:
        parts += ["--questions", str(questions)]
    parts += ["--out", str(out), "--C", repr(C)]
    return shlex.join(parts)


@click.command("rank-train")
@click.option("--questions", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="JSONL of {id, question, gold}; default: the GerLayQA dev set of the shared data.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Model JSON to write (the shipped one is legalkg/data/rank_model.json).")
@click.option("--C", "C", type=float, default=DEFAULT_C, show_default=True,
              help="Inverse L2 strength of the logistic regression.")
def rank_train(questions: Path | None, out: Path, C: float) -> None:
    """Train the ranker's fusion model; its 5-fold out-of-fold metrics are stored beside the weights."""
    model = train(questions or default_questions(), Components(), C, command=command_line(questions, out, C))
    out.write_text(model.model_dump_json(indent=1) + "\n", encoding="utf-8")
    click.echo(f"wrote {out}: out-of-fold {model.cv}")
