import pytest
from click.testing import CliRunner

from legalkg import paths
from legalkg.cli import main
from legalkg.predict import load_model

from .conftest import LAY, write_jsonl


@pytest.mark.parametrize("content, message", [
    (None, "training file not found"),
    ("{oops\n", "not valid JSON"),
    ("\n\n", "no records"),
    ('{"id": "x", "answer": "y"}\n', "neither a lay record"),
    ('{"id": "x", "question": "Kaution?", "gold": ["irgendwas"]}\n', "has gold that resolves"),
    ('{"id": "x", "text": "nach § 1 BGB", "norms": [{"start": 5, "end": 99}]}\n', "outside the text"),
])
def test_bad_training_file_gives_one_line(tmp_path, content, message):
    path = tmp_path / "bad.jsonl"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    result = CliRunner().invoke(main, ["train", "--data", str(path), "--out", str(tmp_path / "m.npz")])
    assert result.exit_code != 0
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
    assert "Traceback" not in result.output
    assert not (tmp_path / "m.npz").exists()


def test_wrong_task_for_the_data(tmp_path):
    path = write_jsonl(tmp_path / "lay.jsonl", LAY)
    result = CliRunner().invoke(main, ["train", "--task", "case", "--data", str(path),
                                       "--out", str(tmp_path / "m.npz")])
    assert result.exit_code != 0 and "lay record in case data" in result.output


@pytest.mark.skipif(not (paths.gii_dir() / "bgb.xml").exists(), reason="shared statute data not present")
def test_train_writes_a_model(tmp_path):
    data = write_jsonl(tmp_path / "lay.jsonl", LAY)
    out = tmp_path / "m.npz"
    result = CliRunner().invoke(main, ["train", "--data", str(data), "--out", str(out), "--laws", "bgb", "--seed", "3",
                                       "--forms", "lemma,split"])
    assert result.exit_code == 0, result.output
    assert "lay model: 8 examples" in result.output and "bridge on" in result.output
    model = load_model(out)
    assert model.meta["seed"] == 3 and model.config.forms == ("lemma", "split")
    assert model.predict(["Vermieter behält die Kaution"], k=1)[0][0][0] == "BGB/§551"


def test_an_unwritable_out_is_one_line_before_any_training(tmp_path):
    data = write_jsonl(tmp_path / "lay.jsonl", LAY)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    result = CliRunner().invoke(main, ["train", "--data", str(data), "--out", str(blocker / "m.npz")])
    assert result.exit_code != 0
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot write to") and "--out" in lines[0]
    assert "Traceback" not in result.output


def test_an_unknown_word_form_is_one_line(tmp_path):
    data = write_jsonl(tmp_path / "lay.jsonl", LAY)
    result = CliRunner().invoke(main, ["train", "--data", str(data), "--out", str(tmp_path / "m.npz"),
                                       "--forms", "lemma,stem"])
    lines = result.output.strip().splitlines()
    assert result.exit_code != 0 and len(lines) == 1 and "unknown word form stem" in lines[0]
    assert "Traceback" not in result.output and not (tmp_path / "m.npz").exists()


@pytest.mark.skipif(not (paths.gii_dir() / "bgb.xml").exists(), reason="shared statute data not present")
def test_without_forms_the_task_recipe_is_trained_and_none_means_stems(tmp_path):
    """No --forms: the task's shipped recipe (TASK_FORMS), the one the eval's CV folds train too;
    --forms none: stems only."""
    from legalkg.predict import TASK_FORMS, load_model as load

    data = write_jsonl(tmp_path / "lay.jsonl", LAY)
    for flag, expected in (([], TASK_FORMS["lay"]), (["--forms", "none"], ())):
        out = tmp_path / f"m{len(flag)}.npz"
        result = CliRunner().invoke(main, ["train", "--data", str(data), "--out", str(out), "--laws", "bgb", *flag])
        assert result.exit_code == 0, result.output
        assert load(out).config.forms == expected
