"""``eval --out`` on a full file system, and any command whose output fills the disk: one line,
nothing half-written (issue 44). The full disk is a real one: a 64 KiB tmpfs, which holds the
run's tables but not its figures (mounting needs root, as in CI's container; elsewhere a skip)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from legalkg.errors import UserError
from tests.eval.test_notebook import _write_run


@pytest.fixture
def full_disk(tmp_path) -> Path:
    mount = tmp_path / "small"
    mount.mkdir()
    try:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)], check=True,
                       capture_output=True, timeout=30)
    except (OSError, subprocess.CalledProcessError) as err:
        pytest.skip(f"cannot mount a small tmpfs here (needs root): {err}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=False, timeout=30)


def test_eval_out_on_a_full_disk_is_one_line_and_writes_nothing(full_disk):
    with pytest.raises(UserError, match=r"No space left on device.*nothing was written") as err:
        _write_run(full_disk / "run", "ler")
    assert "\n" not in str(err.value)
    assert os.listdir(full_disk) == [], "a half-written or staging folder was left behind"


def test_an_earlier_runs_folder_stays_as_it_was(full_disk):
    folder = full_disk / "run"
    folder.mkdir()
    (folder / "README.md").write_text("what this run is\n")
    with pytest.raises(UserError, match="nothing was written"):
        _write_run(folder, "ler")
    assert os.listdir(full_disk) == ["run"] and os.listdir(folder) == ["README.md"]


def test_the_whole_folder_is_written_where_there_is_room(tmp_path):
    _write_run(tmp_path / "run", "ler")
    assert {p.name for p in (tmp_path / "run").iterdir()} >= {"results.csv", "results.md", "run.json"}
    assert os.listdir(tmp_path) == ["run"]


@pytest.mark.parametrize("args", [["cite", "Nach § 433 Abs. 1 BGB und § 574 ZPO."],
                                  ["cite", "--help"]], ids=["cite", "help"])
def test_output_to_a_full_device_is_one_line(args):
    with open("/dev/full", "w") as full:
        out = subprocess.run([sys.executable, "-m", "legalkg.cli", *args], stdout=full, stderr=subprocess.PIPE,
                             text=True, timeout=120)
    assert out.returncode == 2, out.stderr[-500:]
    assert out.stderr.strip() == ("error: cannot write the output (No space left on device): free some space "
                                  "or write it elsewhere"), out.stderr[-800:]
