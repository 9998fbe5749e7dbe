"""`legalkg train`: learn the statute predictor from cited units and write its model file."""

from __future__ import annotations

import click

from .. import codes
from ..errors import UserError
from ..predict import TASKS, Config
from ..predict.build import build_model
from ..predict.text import FORMS
from ..vocab import RankerFeatures


@click.command("train")
@click.option("--task", type=click.Choice(TASKS), default=None,
              help="lay (questions: {id, question, gold}) or case (LER form: text + norms); detected when left out.")
@click.option("--data", "data", multiple=True, required=True, type=click.Path(dir_okay=False),
              help="Training JSONL (.gz allowed); repeat for several files (e.g. dev and train).")
@click.option("--out", required=True, type=click.Path(dir_okay=False), help="Model file to write (.npz).")
@click.option("--seed", default=0, show_default=True, type=int,
              help="Recorded in the model; the CV benchmark's fold seed.")
@click.option("--laws", default="default", show_default=True,
              help="Laws whose units are labels and bridge targets: default (58 codes) or slugs such as bgb,zpo.")
@click.option("--ranker-out", type=click.Path(dir_okay=False), default=None,
              help="Also train the learned ranker (LambdaRank over the predictor's candidates, on out-of-fold "
                   "predictions of DATA) and write it here (.npz; legalkg/data/ranker-TASK.npz is the shipped one).")
@click.option("--forms", default=None,
              help="German word forms beside the stems in the query words, comma-separated: lemma, split, or "
                   "none for stems only. Default: the task's shipped recipe (lay lemma,split; case none; "
                   "eval/word-forms/README.md).")
@click.option("--ranker-features", type=click.Choice([f.value for f in RankerFeatures]),
              default=RankerFeatures.DEFAULT.value, show_default=True,
              help="The ranker's features: default (the task's shipped design: graph for lay, predictor for case), "
                   "graph (candidates from every § of the laws, trained with the statutes' own pairs), router (graph "
                   "plus the learned law router's laws and scores; eval/ranker/router-candidates/), passage (router "
                   "plus each §'s best Absatz, citation degrees, Gliederung match and citation neighbours; "
                   "eval/ranker/passage-candidates/), compounds (router with the graph BM25 over the compound "
                   "parts of the query words no § text uses; eval/ranker/compound-bm25/), confidence (router with "
                   "the entropy of the predictor's neighbour votes; eval/ranker/confidence/) or predictor "
                   "(the predictor's candidates only); eval/ranker/graph-candidates/README.md.")
def train(task, data, out, seed, laws, ranker_out, forms, ranker_features) -> None:
    """Train the statute predictor on DATA and write it to OUT."""
    chosen = tuple(f.strip() for f in (forms or "").split(",") if f.strip() and f.strip() != "none")
    unknown = sorted(set(chosen) - set(FORMS))
    if unknown:
        raise UserError(f"--forms: unknown word form {', '.join(unknown)}; choose from {', '.join(FORMS)}")
    slugs = codes.resolve_codes(laws)
    if slugs is None:
        raise UserError("--laws all is not supported by train: the labels come from the parsed gii files; "
                        "use default or a list of slugs such as bgb,zpo")
    report = build_model(list(data), out, task=task, seed=seed, slugs=slugs, ranker_out=ranker_out,
                         config=None if forms is None else Config(forms=chosen), ranker_features=ranker_features)
    labels = ", ".join(f"{n} {name}" for name, n in report.n_labels.items())
    click.echo(f"{report.task} model: {report.n_examples} examples, labels {labels}; "
               f"{report.unresolved} gold citations outside the loaded laws; "
               f"bridge {'on' if report.bridge else 'off'}; {report.size_bytes / 1e6:.1f} MB -> {report.path}"
               + (f"; ranker -> {report.ranker}" if report.ranker else ""))
