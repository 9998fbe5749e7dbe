"""The shipped fusion weights' recorded commands still run: each entry of ``legalkg/data/fusion-weights.json``
names the ``legalkg eval --tune-weights`` command that chose it, and ``benchmarks/fusion_rebuild.py``
reruns it against the 58-code graph (15-30 minutes a task) and compares the weights. Here: that command,
as the benchmark rewrites it, is one the current ``legalkg eval`` accepts, seeded and nested.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import click
import pytest

from legalkg import paths
from legalkg.cli import main
from legalkg.retrieve import weights

REPO = Path(__file__).resolve().parents[2]


def benchmark():
    spec = importlib.util.spec_from_file_location("fusion_rebuild", REPO / "benchmarks" / "fusion_rebuild.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ENTRIES = weights.read(weights.default_path())


@pytest.mark.skipif(not (paths.eval_dir() / "gerlayqa" / "train.jsonl").exists(), reason="shared eval data not present")
@pytest.mark.parametrize("task", sorted(ENTRIES))
def test_the_recorded_command_is_a_seeded_nested_tuning_that_legalkg_eval_accepts(task, tmp_path):
    args = benchmark().rebuild_args(ENTRIES[task]["command"], tmp_path)
    assert args[args.index("--out") + 1] == str(tmp_path / "run")
    assert args[args.index("--save-weights") + 1] == str(tmp_path / "fusion-weights.json")
    assert {"--tune-weights", "--cv", "--seed"} <= set(args)
    assert args[args.index("--seed") + 1] == "0"
    with click.Context(main) as ctx:
        command = main.get_command(ctx, "eval")
    command.make_context("eval", args[1:])  # raises on an option the CLI no longer has


def test_the_rewrite_refuses_another_command(tmp_path):
    with pytest.raises(SystemExit, match="not a legalkg eval command"):
        benchmark().rebuild_args("legalkg train --task lay --out x.npz", tmp_path)
