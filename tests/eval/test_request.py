"""``EvalRequest``: `legalkg eval`'s options validated once, and the command that repeats a run (no server)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.cli.eval import eval_cmd
from legalkg.errors import UserError
from legalkg.eval.request import EvalRequest
from legalkg.vocab import Expansion, FoldRanker, GoldCount, Mode, RetrievalLevel


def _parse(command: str) -> EvalRequest:
    """The request a recorded command line makes, read back through the CLI's own option parser."""
    seen: dict = {}
    argv = shlex.split(command)
    assert argv[:2] == ["legalkg", "eval"]
    ctx = eval_cmd.make_context("eval", argv[2:] + ["--quiet"])
    seen.update({k: v for k, v in ctx.params.items() if k not in ("cfg", "quiet", "force") and v is not None})
    return EvalRequest(**seen)


@pytest.mark.parametrize("options", [
    {},
    {"dataset": "gerlayqa", "level": "§,naive", "expand": "all", "mode": "ranked,vector", "k": 7, "limit": 20},
    {"mode": "learned", "cv": 5, "train_extra": (Path("a.jsonl"), Path("b c.jsonl")), "tune_weights": True,
     "save_weights": Path("w.json"), "gold_laws": "BGB,ZPO", "permutations": 500, "bootstrap": 50, "seed": 3},
    {"mode": "learned", "cv": 3, "fold_ranker": "none", "predictor_weights": "nb=0,knn=0,bridge=0"},
    {"mode": "learned", "predictor": Path("m.npz"), "weights": "fulltext=0", "predictor_weights": "knn=0",
     "gold_count": "Named", "out": Path("eval/x")},
])
def test_the_recorded_command_reproduces_the_request(options):
    request = EvalRequest(**options)
    again = _parse(request.command_line())
    assert again == request
    assert again.command_line() == request.command_line()


def test_values_are_read_through_the_vocabulary():
    r = EvalRequest(level="§,naive", expand="Hybrid", mode="ranked", gold_count="DEDUP", weights="vector=0")
    assert r.level == (RetrievalLevel.PARAGRAPH, RetrievalLevel.CHUNK) and r.expand == (Expansion.HYBRID,)
    assert r.mode == (Mode.LEARNED,) and r.gold_count is GoldCount.DEDUP
    assert r.weights == "predictor=1,cited=1,fulltext=0.5,vector=0"  # the full label, as --weights reads it
    assert len(r.cells()) == 1 + 1
    assert r.fold_ranker is FoldRanker.SHIPPED  # CV measures the shipped engine unless told otherwise
    assert EvalRequest(cv=5, fold_ranker="None").fold_ranker is FoldRanker.NONE


@pytest.mark.parametrize("options, needle", [
    ({"train_extra": (Path("x.jsonl"),)}, "--train-extra needs --cv N"),
    ({"tune_weights": True}, "--tune-weights needs --cv N"),
    ({"cv": 5, "save_weights": Path("w.json")}, "--save-weights needs --tune-weights"),
    ({"cv": 5, "tune_weights": True, "predictor_weights": "knn=0"}, "choose one"),
    ({"k": 0}, "-k must be between 1 and 1000"),
    ({"cv": 1}, "invalid --cv"),
    ({"gold_count": "truncated"}, "unknown gold count 'truncated'"),
    ({"cv": 5, "fold_ranker": "always"}, "unknown fold ranker 'always'"),
    ({"fold_ranker": "none"}, "--fold-ranker none needs --cv N"),
    ({"cv": 5, "predictor_weights": "nb=0"}, "add --fold-ranker none"),
    ({"mode": "bm25"}, "unknown mode 'bm25'"),
    ({"weights": "bm25=1"}, "bad run weight"),
])
def test_bad_requests_are_one_line(options, needle):
    with pytest.raises(UserError) as err:
        EvalRequest(**options)
    assert needle in str(err.value) and "\n" not in str(err.value)


def test_the_flag_rules_are_checked_before_any_connection(monkeypatch):
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:9")
    monkeypatch.setenv("NEO4J_PASSWORD", "x")
    res = CliRunner().invoke(main, ["eval", "--tune-weights"])
    assert res.exit_code == 1 and "--tune-weights needs --cv N" in res.output
