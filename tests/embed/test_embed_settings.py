"""``EmbedSettings``: the embedding choices `legalkg embed` and `legalkg ingest` share reach
``embed_graph`` by name, and the shared options fold into one value (pure: no server)."""

from __future__ import annotations

import inspect

import click
import pytest
from click.testing import CliRunner

from legalkg.cli.embed import embed_options
from legalkg.embed import EmbedSettings
from legalkg.graph.vectors import embed_graph


def test_embed_graph_takes_the_settings_as_one_value():
    params = inspect.signature(embed_graph).parameters
    assert params["settings"].default == EmbedSettings()
    assert not set(EmbedSettings.model_fields) & set(params)  # no choice threaded beside it


def test_unknown_settings_are_refused():
    with pytest.raises(ValueError):
        EmbedSettings(modell="static")


def probe(switch: bool) -> click.Command:
    @click.command()
    @embed_options(switch=switch)
    def cmd(embedding):
        click.echo(repr(embedding))

    return cmd


def test_the_shared_options_become_one_settings_value():
    out = CliRunner().invoke(probe(False), ["--model", "static", "--reembed", "--device", "cpu",
                                            "--batch-size", "7", "--fresh"])
    assert out.exit_code == 0, out.output
    assert out.output.strip() == repr(EmbedSettings(model="static", reembed=True, device="cpu", batch_size=7,
                                                    fresh=True))


def test_no_embed_gives_no_settings_and_the_defaults_are_the_models():
    assert CliRunner().invoke(probe(True), ["--no-embed"]).output.strip() == "None"
    assert CliRunner().invoke(probe(True), []).output.strip() == repr(EmbedSettings())
    assert "--no-embed" not in CliRunner().invoke(probe(False), ["--help"]).output
