"""Extra training data for the learned mode's CV (legalkg.eval.folds.check_extra): no server."""

from __future__ import annotations

import pytest

from legalkg.errors import UserError
from legalkg.eval.folds import check_extra, text_key
from legalkg.predict import Example, TrainingSet

CASES = [("dev-1", "Mein Vermieter gibt die Kaution nicht zurück.", ()),
         ("dev-2", "Darf mein Arbeitgeber mir fristlos kündigen?", ())]


def _extra(*rows: tuple[str, str]) -> TrainingSet:
    return TrainingSet("lay", [Example(cid, text, ("BGB/§551",), (), cid) for cid, text in rows], ["train.jsonl"])


def test_text_key_ignores_spacing_and_case():
    assert text_key("  Mein  Vermieter\n gibt ") == text_key("mein vermieter gibt")


def test_an_extra_set_apart_from_the_cases_passes():
    check_extra(_extra(("train-1", "Mein Vermieter gibt die Kaution erst nach einem Jahr zurück.")), CASES)


@pytest.mark.parametrize(("row", "named"), [
    (("dev-2", "eine ganz andere Frage"), "'dev-2'"),
    (("train-9", "mein vermieter gibt  die Kaution nicht zurück."), "evaluated case 'dev-1'"),
])
def test_a_shared_case_id_or_question_is_a_leak(row, named):
    with pytest.raises(UserError, match=named) as err:
        check_extra(_extra(("train-1", "unverdächtig"), row), CASES)
    assert "\n" not in str(err.value) and "train.jsonl" in str(err.value)
