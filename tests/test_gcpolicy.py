"""The collector thresholds of the bulk paths are set for a load and given back afterwards."""

from __future__ import annotations

import gc
import subprocess
import sys

import pytest

from legalkg import gcpolicy


def test_relaxed_sets_the_thresholds_and_restores_them():
    before = gc.get_threshold()
    assert before != gcpolicy.THRESHOLDS
    with gcpolicy.relaxed():
        assert gc.get_threshold() == gcpolicy.THRESHOLDS
    assert gc.get_threshold() == before


def test_relaxed_restores_after_an_error():
    before = gc.get_threshold()
    with pytest.raises(RuntimeError):
        with gcpolicy.relaxed():
            raise RuntimeError("boom")
    assert gc.get_threshold() == before


def test_worker_init_freezes_the_start_state():
    """Run in a fresh interpreter: the freeze must not leak into this test process."""
    code = ("import gc; from legalkg import gcpolicy; gcpolicy.worker_init(); "
            "print(gc.get_threshold(), gc.get_freeze_count() > 1000)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == f"{gcpolicy.THRESHOLDS} True"
