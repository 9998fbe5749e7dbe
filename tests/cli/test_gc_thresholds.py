"""One-shot commands run under ``gcpolicy``'s collector thresholds, and the process's own come back
after the call (pure, no server): a cold search spent about 0.2 s of CPU in collections that found
nothing (eval/cli-startup/); ``serve`` keeps CPython's defaults."""

from __future__ import annotations

import gc

from click.testing import CliRunner

from legalkg import gcpolicy
from legalkg.cli import RELAXED_GC, cite as cite_command, main


def test_cite_runs_under_the_relaxed_thresholds_and_leaves_the_callers(monkeypatch):
    seen = []
    real = cite_command.cite.callback

    def spy(*args, **kwargs):
        seen.append(gc.get_threshold())
        return real(*args, **kwargs)

    monkeypatch.setattr(cite_command.cite, "callback", spy)
    before = gc.get_threshold()
    result = CliRunner().invoke(main, ["cite", "§ 573 Abs. 2 BGB"])
    assert result.exit_code == 0 and '"id":"BGB/§573/Abs2"' in result.output
    assert seen == [gcpolicy.THRESHOLDS] != [before]
    assert gc.get_threshold() == before


def test_the_long_running_commands_keep_the_defaults():
    assert {"serve", "neo4j", "ingest", "embed", "train", "eval"}.isdisjoint(RELAXED_GC)
    assert {"cite", "search", "verify"} <= RELAXED_GC
