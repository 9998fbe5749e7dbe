"""The shipped static encoder's recipe: its header states the command docs/embeddings.md gives, and that
command, on a reduced configuration, still trains the committed reference within the tolerance.

Why a tolerance and not a fingerprint: the tokenizer trainer gives another vocabulary on each run
(``research/encoder_rebuild.py``). The full rebuild (a quarter of an hour) is
``benchmarks/encoder_rebuild.py``; the reference file is written by its ``--subset --write-reference``,
never by this test.
"""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from legalkg import codes, paths
from legalkg.cli import main
from legalkg.embed.static import DEFAULT_FILE, load_model
from legalkg.encoder.finetune import TrainConfig
from research.encoder_rebuild import (
    DOC,
    RECIPE,
    REFERENCE,
    REPO,
    SUBSET_TOLERANCE,
    compare,
    documented_options,
    failures,
    meta_differences,
    subset_args,
    subset_texts,
)


def test_the_recipe_is_the_documented_command():
    documented = documented_options(DOC.read_text("utf-8"))
    recipe = dict(zip(RECIPE[::2], RECIPE[1::2], strict=True))
    assert documented.keys() == recipe.keys()
    for option, value in recipe.items():
        assert documented[option].endswith(value), option  # --train-data: a path ending in the file


def test_the_shipped_header_states_the_documented_recipe():
    """The shipped file was trained for 14 minutes, which gave 163 steps; the documented command fixes
    those steps and leaves every other option at the default the header records."""
    meta = load_model(DEFAULT_FILE).meta
    recipe = dict(zip(RECIPE[::2], RECIPE[1::2], strict=True))
    assert meta["stage"] == recipe["--stage"]
    assert meta["steps"] == int(recipe["--steps"])
    assert meta["config"]["seed"] == int(recipe["--seed"])
    assert meta["train_data"] == [recipe["--train-data"].rsplit("/", 1)[-1]]
    assert meta["laws"] == [c.slug for c in codes.default_codes()]  # --laws default
    assert (meta["vocab"], meta["dim"]) == (32000, 256)  # --vocab and --dim left at their defaults
    defaults = TrainConfig()
    for field in ("batch", "lr", "temperature", "max_tokens", "threads"):
        assert meta["config"][field] == getattr(defaults, field), field


@pytest.mark.skipif(not (paths.eval_dir() / "gerlayqa" / "train.jsonl").exists(), reason="shared eval data not present")
def test_the_documented_command_rebuilds_the_reference_within_the_tolerance(tmp_path):
    from legalkg.encoder.corpus import read_corpus

    out = tmp_path / "subset.npz"
    result = CliRunner().invoke(main, subset_args(paths.eval_dir(), out))
    assert result.exit_code == 0, result.output
    reference, rebuilt = load_model(REFERENCE), load_model(out)
    assert not meta_differences(reference.meta, rebuilt.meta)
    measured = compare(reference, rebuilt, *subset_texts(read_corpus(["burlg"])))
    assert not failures(measured, SUBSET_TOLERANCE), measured


def test_the_comparison_sees_a_scrambled_table_and_passes_the_same_file():
    """Pure on the committed reference: against itself every measure is 1; with its rows shuffled (the
    same tokens, another table) the neighbours and scores fall outside the tolerance."""
    from legalkg.embed.static import StaticModel
    from legalkg.encoder.corpus import Corpus

    reference = load_model(REFERENCE)
    corpus = Corpus(texts={"burlg/§ 1": "Jeder Arbeitnehmer hat in jedem Kalenderjahr Anspruch auf bezahlten "
                                        "Erholungsurlaub.",
                           "burlg/§ 3": "Der Urlaub beträgt jährlich mindestens 24 Werktage.",
                           "burlg/§ 7": "Der Urlaub ist zu gewähren, es sei denn, dringende betriebliche Belange "
                                        "stehen entgegen.",
                           "burlg/§ 9": "Erkrankt ein Arbeitnehmer während des Urlaubs, so werden die Tage "
                                        "nicht angerechnet."},
                    titles={"burlg/§ 1": "Urlaubsanspruch", "burlg/§ 3": "Dauer des Urlaubs",
                            "burlg/§ 7": "Zeitpunkt, Übertragbarkeit und Abgeltung des Urlaubs",
                            "burlg/§ 9": "Erkrankung während des Urlaubs"})
    texts = subset_texts(corpus)
    same = compare(reference, reference, *texts)
    assert not failures(same, SUBSET_TOLERANCE)
    assert same["token_jaccard"] == same["row_cosine"] == same["top10_overlap"] == 1.0
    rows = np.random.default_rng(0).permutation(reference.table.shape[0])
    scrambled = StaticModel(reference.tokenizer, reference.table[rows].astype(np.float16), reference.meta, "x")
    got = failures(compare(reference, scrambled, *texts), SUBSET_TOLERANCE)
    assert any(f.startswith("row_cosine") for f in got) and any(f.startswith("score_correlation") for f in got)


def test_the_tolerance_covers_every_recorded_rebuild_and_rejects_shorter_or_random_training():
    """Against the runs benchmarks/encoder_rebuild.py --subset recorded: the bounds were read off them,
    so every run of the same command passes, with a margin, and the runs trained shorter or not at all fail."""
    import json

    record = json.loads((REPO / "docs" / "benchmarks" / "encoder-rebuild-subset.json").read_text("utf-8"))
    assert record["tolerance"] == SUBSET_TOLERANCE
    same = [r["measures"] for r in record["runs"] if r["run"] == "the same command"]
    assert len(same) >= 30
    for measures in same:
        assert not failures(measures, SUBSET_TOLERANCE), measures
    for name, bound in SUBSET_TOLERANCE.items():
        if not name.endswith("_delta"):
            assert min(m[name] for m in same) - bound >= 0.03, name  # not at the edge of the spread
    broken = [r for r in record["runs"] if r["run"] in ("--steps 5", "--steps 10", "--stage random")]
    assert len(broken) == 3 and all(failures(r["measures"], SUBSET_TOLERANCE) for r in broken)


def test_the_header_comparison_ignores_only_the_bounds_and_the_vocabulary_size_reached():
    shipped = {"steps": 163, "config": {"minutes": 14.0, "seed": 0}}
    rebuilt = {"steps": 163, "config": {"minutes": 240.0, "steps": 163, "seed": 0}}
    assert meta_differences(shipped, rebuilt) == []
    assert meta_differences(shipped, {**rebuilt, "steps": 150, "vocab": 761}) == ["steps"]
    assert meta_differences(shipped, {**rebuilt, "config": {"minutes": 240.0, "seed": 1}}) == ["config.seed"]
