"""`legalkg search`: top-k units at one level, expanded one hop, as a table or JSON."""

from __future__ import annotations

import json
import shutil

import click

from ..graph.connection import session_driver
from ..retrieve import Retriever, SearchRequest, SearchResult
from ..textin import text_argument
from ..vocab import (
    AUTO_MODE,
    DEFAULT_EXPANSION,
    DEFAULT_K,
    DEFAULT_LEVEL,
    DEFAULT_MODE,
    Expansion,
    Mode,
    RetrievalLevel,
    names,
)
from .options import neo4j_options


def _excerpt(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def render(res: SearchResult, explain: bool = False) -> str:
    width = max(40, shutil.get_terminal_size((120, 20)).columns - 60)
    lines = [f"{'#':>3}  {'citation':<32} {'score':>7}  {'via':<9} text"]
    for h in res.seeds:
        score = f"{h.score:.4f}" if h.score is not None else ""
        lines.append(f"{h.rank:>3}  {(h.citation or h.id)[:32]:<32} {score:>7}  {h.via:<9} "
                     f"{_excerpt(h.title + ': ' + h.text if h.title and h.via == Mode.LEARNED else h.text, width)}")
        if explain and h.components:
            parts = sorted(h.components.items(), key=lambda kv: -abs(kv[1]))
            lines.append(f"{'':>5}why: " + ", ".join(f"{name} {value:+.3f}" for name, value in parts))
        if explain and h.ranker:
            lines.append(f"{'':>5}ranker: " + ", ".join(f"{name} {value:+.3f}" for name, value in h.ranker.items()))
        if explain and h.found:
            lines.append(f"{'':>5}found by: " + ", ".join(h.found))
    for h in res.expanded:
        via = f"{h.via}"
        lines.append(f"{'':>3}  {('↳ ' + (h.citation or h.id))[:32]:<32} {'':>7}  {via:<9} {_excerpt(h.text, width)}")
    lines.append(f"level {res.level}, mode {res.mode}, expand {res.expand}, k {res.k}"
                 + (f", model {res.model}" if res.model else "") + (f", law {res.law}" if res.law else ""))
    return "\n".join(lines)


@click.command("search")
@neo4j_options
@click.argument("query")
@click.option("--level", default=DEFAULT_LEVEL.value, show_default=True,
              help=f"Unit level: {names(RetrievalLevel)} (aliases: §, naive; auto = for each § hit the shortest "
                   "unit inside it that carries it, docs/retrieval.md).")
@click.option("--expand", default=DEFAULT_EXPANSION.value, show_default=True,
              help=f"One-hop expansion: {names(Expansion)} (hybrid = parent + citation; cocited = each hit's "
                   "§ most often cited together with its own by the task's training cases; decisions = each hit's "
                   "§ most often cited by the court decisions in the graph that cite its own).")
@click.option("--mode", default=DEFAULT_MODE.value, show_default=True,
              help=f"Retrieval: {names(Mode)} or {AUTO_MODE} (fusion = reciprocal rank fusion of vector and "
                   "fulltext; learned = the statute predictor, fulltext, vector and the query's own citations "
                   "fused, docs/retrieval.md; ranked = its old name; auto = learned from § to Nummer, vector "
                   "below and for chunks).")
@click.option("--task", default=None, type=click.Choice(["lay", "case"]),
              help="The learned mode's predictor: lay (a question in everyday words) or case (decision text). "
                   "Default: case for text of 480 words or more, lay otherwise.")
@click.option("-k", "k", default=DEFAULT_K, show_default=True, type=int,
              help="Number of seed hits (expansion adds more rows).")
@click.option("--law", default=None, help="Only units of this law (its id, e.g. BGB or 'SGB V'), or auto: the law "
                                         "the law router ranks first for the query (docs/retrieval.md).")
@click.option("--model", default=None,
              help="Must match the model recorded for the level's index (default: that model).")
@click.option("--explain", is_flag=True,
              help="Show each component's share of a hit's score (learned and fusion modes) and the "
                   "learned ranker's features that moved a ranked hit most (also in --json).")
@click.option("--json", "as_json", is_flag=True, help="JSON output for programs.")
def search(cfg, query, explain, as_json, **options) -> None:
    """Find the statute units that answer QUERY ('-' reads it from stdin)."""
    query = text_argument(query)
    request = SearchRequest(query=query, explain=explain, **options)
    with session_driver(cfg) as driver:
        res = Retriever(driver, cfg.database, model=request.model).search(request)
    if as_json:
        click.echo(json.dumps(res.model_dump(), ensure_ascii=False, indent=1))
    else:
        click.echo(render(res, explain))
