"""A --source that holds no law is an error, not "parsed 0 laws" with exit 0 (issue 44)."""

from __future__ import annotations

import subprocess
import sys
import tarfile

import pytest

from legalkg.parse import iter_laws
from legalkg.parse.errors import ParseError


def test_an_empty_folder_is_one_line_and_exit_1(tmp_path):
    out = subprocess.run([sys.executable, "-m", "legalkg.cli", "parse", "--codes", "all", "--source", str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and "holds no .xml file" in out.stderr, out.stderr
    assert out.stderr.strip().count("\n") == 0


def test_an_archive_without_xml_is_refused(tmp_path):
    note = tmp_path / "README.txt"
    note.write_text("no laws here\n")
    archive = tmp_path / "laws.tar.xz"
    with tarfile.open(archive, "w:xz") as tf:
        tf.add(note, arcname="README.txt")
    with pytest.raises(ParseError, match="holds no .xml file"):
        list(iter_laws(archive))
