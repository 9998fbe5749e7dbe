"""`legalkg stats`: what the graph holds, beside the structure-driven KG paper's figures."""

from __future__ import annotations

import json

import click

from ..graph.connection import session_driver
from ..graph.inspect import label_counts, relationship_counts
from ..vocab import RetrievalLevel
from .options import neo4j_options

#: Table 1 / section 3.1 of the structure-driven legal KG paper (58 codes).
PAPER = {"nodes": 168_000, "edges": 240_000, "cites": 22_253}


@click.command("stats")
@neo4j_options
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def stats(cfg, as_json: bool) -> None:
    """Node counts per label and relationship counts per type, with the paper's totals."""
    with session_driver(cfg) as driver:
        labels = label_counts(driver, cfg.database)
        rels = relationship_counts(driver, cfg.database)
    structural = {k: v for k, v in labels.items() if k not in ("Unit", "EmbeddingModel")}
    nodes = sum(v for k, v in structural.items() if k != RetrievalLevel.CHUNK)
    # the paper's edges are the statute's own; CO_CITED (learned from cases) is listed, not counted
    edges = sum(v for k, v in rels.items() if k.startswith(("CONTAINS_", "CITES_")))
    cites = sum(v for k, v in rels.items() if k.startswith("CITES_"))
    if as_json:
        click.echo(json.dumps({"labels": labels, "relationships": rels,
                               "totals": {"nodes": nodes, "edges": edges, "cites": cites},
                               "paper": PAPER}, indent=2))
        return
    click.echo(f"{'label':<18}{'nodes':>12}")
    for k, v in labels.items():
        click.echo(f"{k:<18}{v:>12,}")
    click.echo(f"\n{'relationship':<24}{'count':>12}")
    for k, v in rels.items():
        click.echo(f"{k:<24}{v:>12,}")
    click.echo(f"\n{'total':<24}{'legalkg':>12}{'paper':>12}")
    click.echo(f"{'nodes (hierarchy)':<24}{nodes:>12,}{PAPER['nodes']:>12,}")
    click.echo(f"{'edges (contains+cites)':<24}{edges:>12,}{PAPER['edges']:>12,}")
    click.echo(f"{'cites edges':<24}{cites:>12,}{PAPER['cites']:>12,}")
