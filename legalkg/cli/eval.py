"""`legalkg eval`: score a dataset's gold citations against retrieval over the graph (ToER by depth)."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from tqdm import tqdm

from .. import paths
from ..errors import UserError
from ..eval import datasets, grid, outdir, report, results, runner
from ..eval.request import DEFAULT_DATASET, DEFAULT_LEVEL, DEFAULT_MODE, DEFAULT_PERMUTATIONS, EvalRequest
from ..graph.connection import session_driver
from ..graph.inspect import label_counts, relationship_counts
from ..plural import counted
from ..retrieve import weights as shipped_weights
from ..retrieve.learned import weights_label
from ..vocab import (
    DEFAULT_EXPANSION,
    DEFAULT_K,
    Expansion,
    FoldRanker,
    GoldCount,
    Mode,
    RankerFeatures,
    RetrievalLevel,
    names,
)
from .options import neo4j_options

_DEPTH_HEAD = f"{'depth':<10} {'recall micro [95% CI]':<24} {'recall macro [95% CI]':<24} {'ToER':>8} {'ToER^m':>8}"


def _ci(v: float, lo: float, hi: float) -> str:
    return f"{v:.3f} [{lo:.3f}, {hi:.3f}]"


def render_cell(sub, k: int) -> str:
    """The depth table of one configuration: recall micro + macro with CI, ToER, ToER^m."""
    first = sub.iloc[0]
    lines = [f"level {first['level']}, expansion {first['expansion']}, mode {first['mode']}, k {k}: "
             f"W {first['W']:.1f} words/unit, W^m {first['W_m']:.1f}"
             + (" (auto: the words this run delivered per hit)" if first["level"] == "auto" else ""),
             _DEPTH_HEAD]
    for _, r in sub.iterrows():
        lines.append(f"{r['depth']:<10} {_ci(r['recall_micro'], r['ci_low'], r['ci_high']):<24} "
                     f"{_ci(r['recall_macro'], r['macro_ci_low'], r['macro_ci_high']):<24} "
                     f"{r['toer']:>8.2f} {r['toer_m']:>8.2f}")
    if first["n_ir_queries"]:
        hit = f"  hit@{k} {first['hit_at_k']:.3f}" if "hit_at_k" in sub.columns else ""
        lines.append(f"§ relevance: Recall@{k} {first['recall_at_k']:.3f}{hit}  nDCG@{k} {first['ndcg_at_k']:.3f} "
                     f"({int(first['n_ir_queries'])} queries)")
    return "\n".join(lines)


def render_courts(summary) -> str:
    """One line per court beside the total: cases, gold, raw recall / ToER / ToER^m per depth, W_d."""
    depths = [c.removeprefix("recall ") for c in summary.columns if c.startswith("recall ")]
    head = f"{'court':<8} {'cases':>5} {'gold':>5}" + "".join(
        f" {'R ' + d:>9} {'ToER ' + d:>11} {'ToER^m ' + d:>13}" for d in depths) + f" {'W_d':>7}"
    lines = [f"by court (raw micro recall, ToER, ToER^m at {', '.join(depths)} depth; W_d words per hit):", head]
    for _, r in summary.iterrows():
        lines.append(f"{r['court']:<8} {int(r['n_cases']):>5} {int(r['n_gold']):>5}" + "".join(
            f" {r['recall ' + d]:>9.3f} {r['ToER ' + d]:>11.2f} {r['ToER^m ' + d]:>13.2f}" for d in depths)
            + f" {r['W_d']:>7.1f}")
    return "\n".join(lines)


def render_paired(paired) -> str:
    if paired.empty:
        return "paired test: needs the baseline (--level Chunk, expansion none) and another cell in the run"
    lines = ["paired test, best cell (highest ToER^m at §) vs naive baseline Chunk/none "
             "(sign-flip permutation, Holm-adjusted):",
             f"{'mode':<9} {'best':<18} {'statistic':<9} {'depth':<10} {'best':>8} {'base':>8} "
             f"{'diff [95% CI]':<28} {'p':>7} {'p Holm':>7}"]
    for _, r in paired.iterrows():
        lines.append(f"{r['mode']:<9} {r['best_level'] + '/' + r['best_expansion']:<18} {r['statistic']:<9} "
                     f"{r['depth']:<10} {r['best']:>8.3f} {r['baseline_value']:>8.3f} "
                     f"{r['diff']:+.3f} [{r['ci_low']:+.3f}, {r['ci_high']:+.3f}]{'':<4} "
                     f"{r['p_value']:>7.4f} {r['p_holm']:>7.4f}")
    return "\n".join(lines)


class _Bar:
    """tqdm on stderr (off when stderr is not a terminal or with --quiet); one bar for all steps."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.bar = tqdm(total=total, unit="q", file=sys.stderr, disable=None if enabled else True,
                        dynamic_ncols=True)

    def __call__(self, what: str, n: int) -> None:
        self.bar.set_description(what, refresh=False)
        self.bar.update(n)

    def close(self) -> None:
        self.bar.close()


def _steps(cells, n_queries: int) -> int:
    """Progress units: one per query per (level, mode) look-up and per embedding."""
    total = n_queries * len({(c.level, c.mode) for c in cells})
    if any(Mode(c.mode).uses_vectors for c in cells):
        total += n_queries
    return total


@click.command("eval")
@neo4j_options
@click.option("--dataset", default=DEFAULT_DATASET, show_default=True,
              help="ler_bgh (the 115 LER BGH decisions), ler_courts, ler_all (both LER sets as one), gerlayqa (dev), "
                   "gerlayqa_all (dev + train), lay_beyond (lay questions beyond BGB, eval/lay-beyond of the "
                   "checkout), "
                   "or a JSONL "
                   "path (.gz allowed): "
                   "{id, question|query|text, gold}, the LER form {id, text, norms} or Open Legal Data cases.")
@click.option("--level", default=DEFAULT_LEVEL.value, show_default=True,
              help=f"Chunking level(s): {names(RetrievalLevel)} (Chunk = naive 100 words; aliases §, naive; "
                   "auto = ranked at § level, each hit the shortest unit inside its § that carries it, scored "
                   "with its own words per hit as W), a comma list, or all (= "
                   f"{', '.join(grid.GRID_LEVELS)}).")
@click.option("--expand", default=DEFAULT_EXPANSION.value, show_default=True,
              help=f"Expansion(s): {names(Expansion)}, a comma list, or all (= {', '.join(grid.GRID_EXPANSIONS)}). "
                   "cocited = each seed's most co-cited § among the predictor's training cases: like the "
                   "learned mode it refuses cases its predictor was trained on unless --cv or --predictor. "
                   "decisions = each seed's § most often cited by the court decisions in the graph that cite "
                   "the seed's (legalkg ingest-cases; score only decisions that are not in the graph). "
                   "Chunks are never expanded.")
@click.option("--mode", default=DEFAULT_MODE.value, show_default=True,
              help=f"Retrieval mode(s): {names(Mode)}, a comma list, or all (= {', '.join(grid.GRID_MODES)}; "
                   "learned = the engine of `legalkg search`, ranked its old name: it refuses cases its "
                   "predictor was trained on unless --cv or --predictor). Default fulltext: the best mode on "
                   "LER BGH at Satz (unexpanded ToER@5 at § depth; docs/evaluation.md section 7, "
                   "eval/kg-table1-ler-bgh/); it needs no vectors.")
@click.option("-k", "k", default=DEFAULT_K, show_default=True, type=int, help="Top-k seeds per query.")
@click.option("--limit", default=None, type=click.IntRange(min=1), help="Only the first N cases.")
@click.option("--out", default=None, type=click.Path(file_okay=False, path_type=Path),
              help="Write results.csv, results.md, figures, paired.csv, case_scores.csv.gz and run.json here. "
                   "A folder holding an earlier run's results is refused unless --force, which removes them "
                   "(tables, figures, run.json; other files stay) once the new run is written.")
@click.option("--force", is_flag=True, help="Replace the earlier run's results in --out.")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of bootstrap and permutation test.")
@click.option("--bootstrap", default=1000, show_default=True, type=click.IntRange(min=10),
              help="Bootstrap resamples for the 95 % CIs.")
@click.option("--permutations", default=DEFAULT_PERMUTATIONS, show_default=True, type=click.IntRange(min=100),
              help="Resamples of the paired sign-flip test.")
@click.option("--gold-count", "gold_count", default=GoldCount.FIXED.value, show_default=True,
              type=click.Choice([g.value for g in GoldCount]),
              help="How gold is counted per depth: fixed (every gold citation at every depth), dedup (distinct "
                   "after truncation to the depth), named (only gold that names the depth's level). "
                   "docs/evaluation.md, 'Counting gold per depth'.")
@click.option("--cv", "cv", default=None, type=click.IntRange(min=2),
              help="Learned mode: cross-validate, N folds grouped by case; each fold's predictor is trained on "
                   "the other folds of DATASET (fold seed --seed).")
@click.option("--fold-ranker", "fold_ranker", default=FoldRanker.SHIPPED.value, show_default=True,
              type=click.Choice([f.value for f in FoldRanker]),
              help="Learned mode with --cv: shipped = each fold's engine orders its predictor's § run with a ranker "
                   "stacked on the fold's training cases (as `legalkg train --ranker-out` builds the shipped one), "
                   "wherever a ranker is shipped for the task: CV measures the shipped engine; none = no ranker "
                   "in the folds (the predictor's own order; faster).")
@click.option("--ranker-features", "ranker_features", default=RankerFeatures.DEFAULT.value, show_default=True,
              type=click.Choice([f.value for f in RankerFeatures]),
              help="Learned mode with --cv and --fold-ranker shipped: the fold rankers' features, as `legalkg train "
                   "--ranker-features` names them (default: the task's shipped design; graph: candidates from every "
                   "§ of the laws; router: graph plus the learned law router; passage: router plus each §'s best "
                   "Absatz, citation degrees, Gliederung match and citation neighbours; compounds: router with the "
                   "graph BM25 over the compound parts of the query words no § text uses; confidence: router with the "
                   "entropy of the predictor's neighbour votes; predictor: the predictor's "
                   "candidates "
                   "only; "
                   "eval/ranker/graph-candidates/README.md).")
@click.option("--predictor", "predictor", default=None, type=click.Path(dir_okay=False, path_type=Path),
              help="Learned mode: this model file (legalkg train) instead of the shipped one of the dataset's task.")
@click.option("--train-extra", "train_extra", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Learned mode with --cv: a training file (lay JSONL or the LER form, as `legalkg train` reads "
                   "them) added to every fold's training set and never scored, e.g. gerlayqa/train.jsonl while "
                   "dev is scored; repeatable. Refused where it shares a case id or question text with DATASET.")
@click.option("--weights", "weights", default=None,
              help="Learned mode: run weights of the fusion, e.g. fulltext=0,vector=0 (runs predictor, cited, "
                   "fulltext, vector; 0 switches a run off; the others keep their defaults 1, 1, 0.5, 0.5).")
@click.option("--predictor-weights", "predictor_weights", default=None,
              help="Learned mode: the statute predictor's component weights, e.g. knn=0 or nb=0,knn=0,bridge=0 "
                   "(components nb, knn, bridge, pop; 0 switches one off, the others keep the model's: 1, 1, 0.3, "
                   "0.3). pop alone is the popularity baseline of the training folds.")
@click.option("--tune-weights", "tune_weights", is_flag=True,
              help="Learned mode with --cv: each fold chooses the full-text and vector weights from {0, 0.25, 0.5} "
                   "by an inner 3-fold CV on its own training cases (nested CV; recall@k at the first level; with "
                   "--fold-ranker shipped each inner engine ranks with a ranker stacked on its inner training cases).")
@click.option("--save-weights", "save_weights", default=None, type=click.Path(dir_okay=False, path_type=Path),
              help="With --tune-weights: also choose the weights by the inner CV over all cases (dataset and "
                   "--train-extra) and write them as the task's entry of this JSON (legalkg/data/"
                   "fusion-weights.json holds the shipped ones, read by `legalkg search`).")
@click.option("--gold-laws", "gold_laws", default=None, metavar="LAWS",
              help="Score only the gold citations of these laws (and, with --cv, train on them only): "
                   "'default' (the 58 codes) or a comma list. Compares a graph with more laws to a smaller "
                   "one on the same gold.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def eval_cmd(cfg, quiet, force, **options) -> None:
    """Recall, ToER and ToER^m by citation depth (Code ... Buchstabe) of DATASET's gold citations.

    `--level all --expand all --mode all` runs the paper's grid (levels x expansions x modes) with the
    naive 100-word chunks as baseline and a paired test of the best cell against it.
    """
    request = EvalRequest(**{name: value for name, value in options.items() if value is not None})
    if request.out is not None:
        if not force and (earlier := outdir.earlier_results(request.out)):
            raise UserError(f"{request.out} holds an earlier run's results ({', '.join(earlier[:3])}"
                            f"{', ...' if len(earlier) > 3 else ''}): add --force to replace them, or choose "
                            "another --out")
        paths.check_writable_dir(request.out, "--out")
    if request.save_weights is not None:
        paths.check_writable_file(request.save_weights, "--save-weights")
    cases = datasets.load_dataset(request.dataset)  # a bad dataset is one line before any connection
    with session_driver(cfg) as driver:
        n = len(cases) if request.limit is None else min(len(cases), request.limit)
        bar = _Bar(_steps(request.cells(), n), enabled=not quiet)
        try:
            run = runner.run_eval(driver, cfg.database, request, progress=bar, cases=cases)
        finally:
            bar.close()
        graph = {"labels": label_counts(driver, cfg.database),
                 "relationships": relationship_counts(driver, cfg.database)} if request.out else {}
    report_run(run, request, graph)


def report_run(run, request: EvalRequest, graph: dict) -> None:
    """Print the run's tables; save the tuned weights and write the folder where asked."""
    k, out, save_weights = request.k, request.out, request.save_weights
    cov = run.coverage
    model = ", ".join(sorted({m["name"] for m in run.models.values()})) or "none (fulltext)"
    click.echo(f"dataset {request.dataset}: {run.n_cases} of {run.n_cases_loaded} cases with gold in the graph; "
               f"{cov.n_covered} of {cov.n_gold} gold citations in its {len(run.law_keys)} laws "
               f"({100 * cov.share:.1f} % coverage); model {model}; {run.timings['total_s']:.1f} s")
    if run.gold_laws is not None:
        n = len(run.gold_laws)
        click.echo(f"gold narrowed to the {n} law{'s' if n != 1 else ''} of --gold-laws {request.gold_laws}")
    if run.fold_weights:
        click.echo("fusion weights of the folds: " + "; ".join(weights_label(w) for w in run.fold_weights))
    if run.fold_rankers:
        click.echo(f"rankers of the folds: {len(run.fold_rankers)}, each stacked on its fold's training cases "
                   "(trained on / scored: " + ", ".join(f"{r['trained_on']}/{r['scored']}" for r in run.fold_rankers)
                   + ")")
    elif run.fold_weights and request.fold_ranker is FoldRanker.NONE:
        click.echo("folds without a ranker (--fold-ranker none)")
    if save_weights is not None and run.tuned_all:
        tuned = run.tuned_all
        path = shipped_weights.save(save_weights, tuned["task"], tuned["weights"], request.command_line(),
                                    tuned["inner_recall"])
        click.echo(f"weights for {tuned['task']} over all cases: {weights_label(tuned['weights'])} "
                   f"(inner CV recall@{tuned['k']} {tuned['inner_recall']:.3f}) -> {path}")
    for cell in run.cells:
        df = run.results
        sub = df[(df["level"] == cell.level) & (df["expansion"] == cell.expansion) & (df["mode"] == cell.mode)]
        click.echo("")
        click.echo(render_cell(sub, k))
        courts = run.by_court
        if not courts.empty:
            mine = courts[(courts["level"] == cell.level) & (courts["expansion"] == cell.expansion)
                          & (courts["mode"] == cell.mode)]
            depths = ("§", "Absatz") if run.max_depth >= 3 else ("§",)
            click.echo(render_courts(report.court_summary(results.with_court(sub, mine), depths)))
    if len(run.cells) > 1:
        click.echo("")
        click.echo(render_paired(run.paired))
    if out:
        meta = outdir.run_metadata(run, command=request.command_line(), argv=sys.argv, graph=graph,
                                   options={**request.model_dump(mode="json"), "fold_weights": run.fold_weights,
                                            "fold_rankers": run.fold_rankers})
        written = outdir.write(run, out, meta)
        click.echo("")
        click.echo(f"wrote {counted(len(written), 'file')} to {out}")
