"""``python -m research.chunking`` on bad input: one line, exit 1, before any server is reached (no server).

In process (``research.chunking.__main__.main`` with its argv), so the study's imports are paid once."""

from __future__ import annotations

import sys

import pytest

from research.chunking.__main__ import main


def study_cli(monkeypatch, capsys, *args: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["python -m research.chunking", *args])
    with pytest.raises(SystemExit) as exited:
        main()
    return exited.value.code, capsys.readouterr().err


def test_cli_bad_inputs(tmp_path, monkeypatch, capsys):
    code, err = study_cli(monkeypatch, capsys, "--questions", str(tmp_path / "nope.jsonl"), "--out", str(tmp_path / "o"))
    assert code == 1 and "questions file not found" in err
    q = tmp_path / "q.jsonl"
    q.write_text('{"id": "a", "question": "x", "gold": ["BGB § 1"]}\n', "utf-8")
    code, err = study_cli(monkeypatch, capsys, "--questions", str(q), "--out", str(tmp_path / "o"), "--strategies", "bogus")
    assert code == 1 and "unknown strategy 'bogus'" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
