"""`legalkg embed`: embed the graph's pending units (no vector, or one made from an older text)."""

from __future__ import annotations

import functools
from collections.abc import Callable

import click

from ..embed import EmbedSettings
from ..embed.st import DEVICES
from ..graph.connection import session_driver
from ..graph.vectors import VECTOR_LABELS, embed_graph, law_ids, parse_levels
from .options import model_option, neo4j_options, workers_option

#: ``legalkg ingest``'s switch for its embedding step (``embedding`` None when off).
EMBED_SWITCH = click.option("--embed/--no-embed", default=True, show_default=True,
                            help="Embed every level after loading (--no-embed loads structure and citations only).")


def embed_options(switch: bool = False) -> Callable:
    """The options that `legalkg ingest` shares with `legalkg embed` for its embedding step, passed
    to the command as one ``embedding: EmbedSettings`` (None where ``switch`` adds --no-embed and it is given)."""

    def decorate(func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapper(*args, model, reembed, device, batch_size, fresh, embed=True, **kwargs):
            settings = EmbedSettings(model=model, reembed=reembed, device=device, batch_size=batch_size,
                                     fresh=fresh) if embed else None
            return func(*args, embedding=settings, **kwargs)

        for option in reversed((EMBED_SWITCH,) * switch + (
            model_option,
            click.option("--reembed", is_flag=True, help="Replace vectors made with another model (switch models)."),
            click.option("--device", type=click.Choice(DEVICES), default="auto", show_default=True,
                         help="Where st:<model> embedders run ('auto': cuda when torch sees a GPU, else cpu). "
                              "A GPU model runs in one process with a larger batch (docs/embeddings.md)."),
            click.option("--batch-size", type=click.IntRange(1, 4096), default=None,
                         help="Texts per model call [default: the model's; st: 128 on cuda, 32 on cpu]."),
            click.option("--fresh", is_flag=True,
                         help="Ignore the content-hash cache: embed every pending text again (the cache is "
                              "still written)."),
        )):
            wrapper = option(wrapper)
        return wrapper

    return decorate


@click.command("embed")
@neo4j_options
@click.option("--codes", "codes_spec", default="all", show_default=True,
              help="Laws whose units to embed: 'all' (every law in the graph), 'default' (the 58 codes) "
                   "or a list like 'BGB,ZPO'.")
@click.option("--levels", default="all", show_default=True,
              help=f"Levels to embed: 'all' or a list of {', '.join(VECTOR_LABELS)}.")
@embed_options()
@workers_option("Embedding processes, one BLAS thread each")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def embed(cfg, codes_spec, levels, embedding: EmbedSettings, workers, quiet) -> None:
    """Embed the units that have no vector yet, or whose text changed: resumable (a killed run
    keeps what it wrote and its content-hash cache, and the next run embeds only the rest)."""
    labels = parse_levels(levels)
    with session_driver(cfg) as driver:
        laws = law_ids(driver, cfg.database, codes_spec)
        report = embed_graph(driver, cfg.database, embedding, progress=not quiet,
                             labels=labels, laws=laws, workers=workers)
    click.echo(report.summary())
