"""`legalkg rank-train`: the training command lives in the CLI; the library below it imports no click."""

from __future__ import annotations

import ast
from pathlib import Path

from click.testing import CliRunner

import legalkg.rank
from legalkg.cli import main
from legalkg.cli.rank import command_line


def test_help_names_the_options():
    res = CliRunner().invoke(main, ["rank-train", "--help"])
    assert res.exit_code == 0
    for word in ("--questions", "--out", "--C", "out-of-fold"):
        assert word in res.output


def test_missing_questions_file_is_one_line(tmp_path):
    res = CliRunner().invoke(main, ["rank-train", "--questions", str(tmp_path / "none.jsonl"),
                                    "--out", str(tmp_path / "m.json")])
    assert res.exit_code == 1
    assert res.output.strip().count("\n") == 0 and "questions file" in res.output and "not found" in res.output
    assert not (tmp_path / "m.json").exists()


def test_the_recorded_command_reproduces_the_run():
    assert command_line(None, Path("legalkg/data/rank_model.json"), 1.0) == \
        "legalkg rank-train --out legalkg/data/rank_model.json --C 1.0"
    assert command_line(Path("my qs.jsonl"), Path("m.json"), 0.5) == \
        "legalkg rank-train --questions 'my qs.jsonl' --out m.json --C 0.5"


def test_no_rank_module_imports_click_or_the_cli():
    for path in Path(legalkg.rank.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [("." * node.level) + (node.module or "")]
            else:
                continue
            for name in names:
                assert name.split(".")[0] != "click" and "cli" not in name.split("."), (path.name, name)
