"""`legalkg verify`: every statute citation of a text checked against the graph, as a table or JSON lines."""

from __future__ import annotations

import json
import shutil
import sys

import click

from ..errors import UserError
from ..graph.connection import session_driver
from ..plural import counted
from ..verify import Verifier, VerifyInputError, VerifyReport, chain_lines, read_source
from .options import neo4j_options


def _excerpt(text: str | None, width: int) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def render(report: VerifyReport) -> str:
    width = max(30, shutil.get_terminal_size((140, 20)).columns - 100)
    lines = [f"{'status':<16} {'cited':<30} {'unit':<28} {'support':>7}  text"]
    for r in report.records:
        unit = r.id or (f"(nearest {r.nearest})" if r.nearest else " | ".join(r.readings))
        support = "" if r.support is None else f"{r.support:.3f}" + ("" if r.supported else "?")
        lines.append(f"{r.status.value:<16} {_excerpt(r.cited, 30):<30} {_excerpt(unit, 28):<28} {support:>7}  "
                     f"{_excerpt(r.text, width)}")
    counts = ", ".join(f"{n} {s}" for s, n in report.counts().items() if n)
    lines.append(counted(len(report.records), "citation") + (f": {counts}" if counts else "")
                 + f"; support < {report.threshold} is marked ?")
    return "\n".join(lines)




@click.command("verify")
@neo4j_options
@click.argument("source", metavar="[TEXT | - | FILE]", default="-")
@click.option("--default-law", default=None, help="Law id for citations that name no law ('§ 5'), e.g. BGB.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per citation chain and line (docs/verify.md).")
@click.option("--no-support", is_flag=True, help="Leave the support score out (status only).")
@click.option("--no-vectors", is_flag=True, help="Support score from the lexical part only (no embedding model).")
@click.option("--definitions", is_flag=True,
              help="Also name the legal definition that applies to each defined term a citing sentence uses.")
def verify(cfg, source, default_law, as_json, no_support, no_vectors, definitions) -> None:
    """Check every statute citation in TEXT, stdin ('-', the default) or FILE against the graph.

    Exit 0 when every citation is ok, 1 when any is broken (repealed, no_such_unit,
    law_not_in_graph, law_not_loaded, ambiguous, unparsed), 2 for server or usage errors.
    """
    try:
        text = read_source(source)
        with session_driver(cfg) as driver:
            report = Verifier(driver, cfg.database, vectors=not no_vectors).verify(
                text, default_law, support=not no_support, definitions=definitions)
    except UserError as err:
        if err.exit_code == 2:
            raise
        raise VerifyInputError(str(err)) from None
    if as_json:
        for line in chain_lines(report.rows(), len(text)):
            click.echo(json.dumps(line, ensure_ascii=False, separators=(",", ":")))
        for q in report.quotes:
            click.echo(q.model_dump_json())
        for d in report.definitions:
            click.echo(d.model_dump_json())
    else:
        click.echo(render(report))
        for q in report.quotes:
            click.echo(quote_line(q))
        for d in report.definitions:
            click.echo(f"{'definition':<16} {d.cited:<28} „{d.written}“ defined in {d.citation or d.defined_in}")
    sys.exit(report.exit_code)


def quote_line(q) -> str:
    """One table line per checked quotation: status, unit, and what differs or where it is."""
    extra = ("; ".join(q.differing) if q.status == "quote_differs"
             else (f"found in {q.neighbour}" if q.neighbour else ""))
    return f"{q.status:<16} {q.unit_id or '-':<28} „{q.quote[:60]}“ {extra}".rstrip()
