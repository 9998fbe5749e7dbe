"""A fake or broken all-laws archive given as ``--source`` (issue 44, point 14): one line naming the
file and what to give instead, exit 1, no traceback. It was five lines (one per method tarfile
tried) for a renamed text file, and a truncated archive added one "unknown code" line per law."""

from __future__ import annotations

import subprocess
import sys

import pytest

from legalkg.paths import gii_all_archive

CLI = [sys.executable, "-m", "legalkg.cli"]


def run_parse(source, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, "parse", "--source", str(source), *extra], capture_output=True, text=True,
                          timeout=300)


@pytest.mark.parametrize("content", [b"hello, I am a text file\n", b""], ids=["text-renamed", "empty"])
def test_a_file_that_is_no_archive_is_one_line(tmp_path, content):
    fake = tmp_path / "gii-all.tar.xz"
    fake.write_bytes(content)
    out = run_parse(fake)
    assert out.returncode == 1 and out.stdout == "", out.stderr
    assert out.stderr.splitlines() == [f"error: {fake}: not a tar archive (.tar.xz, .tar.gz or .tar): give the "
                                       "all-laws archive of gesetze-im-internet.de or the gii folder as --source"]


@pytest.mark.parametrize(("size", "codes"), [(3_000, "default"), (2_000_000, "all")], ids=["head", "cut-midway"])
def test_a_truncated_archive_is_one_line(tmp_path, size, codes):
    archive = gii_all_archive()
    if not archive.is_file():
        pytest.skip(f"no all-laws archive at {archive}")
    cut = tmp_path / "gii-all.tar.xz"
    with archive.open("rb") as fh:
        cut.write_bytes(fh.read(size))
    out = run_parse(cut, "--codes", codes)
    assert out.returncode == 1, out.stderr[-500:]
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr, out.stderr[-800:]
    assert out.stderr.startswith(f"error: {cut}: damaged or truncated archive (") and out.stderr.rstrip().endswith(
        "download it again or give the gii folder as --source")


def test_an_empty_folder_with_the_default_codes_is_one_line(tmp_path):
    """It was one "unknown code" line for each of the 58 codes, then "parsed 0 laws"."""
    out = run_parse(tmp_path)
    assert out.returncode == 1 and out.stderr.splitlines() == [
        f"error: {tmp_path} holds no .xml file: give the gii folder of the laws (or the all-laws .tar.xz) as --source"]
