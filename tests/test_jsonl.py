"""``legalkg.jsonl.records`` on hostile files: a record nested 200,000 deep and a gzip holding one
line of more than ``MAX_LINE_CHARS`` are one ``UserError`` line each, not a traceback or a read of
the whole line (issue 44)."""

from __future__ import annotations

import gzip

import pytest

from legalkg.errors import UserError
from legalkg.jsonl import MAX_LINE_CHARS, records


def read_all(path):
    return list(records(path, "dataset", "give an existing file"))


def test_a_record_nested_too_deep_is_one_line(tmp_path):
    path = tmp_path / "deep.jsonl"
    path.write_text('{"id": "a"}\n' + "[" * 200_000 + "]" * 200_000 + "\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"deep.jsonl:2: JSON nested too deep") as err:
        read_all(path)
    assert "\n" not in str(err.value)


def test_a_gzip_line_over_the_limit_is_refused_at_the_limit(tmp_path):
    path = tmp_path / "bomb.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write('{"id": "a"}\n{"text": "' + "x" * (MAX_LINE_CHARS + 10) + '"}\n')
    assert path.stat().st_size < 100_000  # a small file that unpacks to a huge line
    with pytest.raises(UserError, match=rf"bomb.jsonl.gz:2: a line over {MAX_LINE_CHARS:,} characters"):
        read_all(path)


def test_ordinary_lines_are_read(tmp_path):
    path = tmp_path / "ok.jsonl"
    path.write_text('{"id": "a"}\n\n{"id": "b"}\n', encoding="utf-8")
    assert read_all(path) == [(1, {"id": "a"}), (3, {"id": "b"})]
