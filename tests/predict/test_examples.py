import gzip
import json

import pytest

from legalkg.errors import UserError
from legalkg.model import Citation
from legalkg.predict import load_examples, resolve_labels
from legalkg.predict.examples import label_ids, record_task

from .conftest import write_jsonl


def test_lay_examples_and_labels(lay_set):
    assert lay_set.task == "lay"
    assert len(lay_set.examples) == 8
    q2 = lay_set.examples[1]
    assert q2.labels == ("BGB/§551", "BGB/§548")
    assert q2.group == "q2"


def test_labels_go_deeper_where_the_gold_is_deeper():
    known = {"ZPO/§574", "ZPO/§574/Abs2", "ZPO/§574/Abs2/S1", "ZPO/§574/Abs2/S1/Nr2", "BGB/§551"}
    labels, missing = label_ids([Citation("ZPO", "§574", "2", None, "2"), Citation("BGB", "§551"),
                                 Citation("StGB", "§1")], known)
    assert labels == ["ZPO/§574", "ZPO/§574/Abs2", "ZPO/§574/Abs2/S1", "ZPO/§574/Abs2/S1/Nr2", "BGB/§551"]
    assert missing == 1


def _ler(text: str, spans: list[str], **extra) -> dict:
    norms = []
    for s in spans:
        start = text.index(s)
        norms.append({"start": start, "end": start + len(s), "text": s})
    return {"id": extra.pop("id", "c1"), "text": text, "norms": norms, **extra}


def test_case_examples_mask_the_cited_spans(tmp_path):
    text = ("Die Revision des Angeklagten wird nach § 349 Abs. 2 StPO verworfen . "
            "Der Kläger verlangt Räumung nach § 546 BGB .")
    path = tmp_path / "ler.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write(json.dumps(_ler(text, ["§ 349 Abs. 2 StPO", "§ 546 BGB"], court="BGH")) + "\n")
    data = load_examples([path])
    assert data.task == "case"
    (ex,) = data.examples
    assert "349" not in ex.text and "StPO" not in ex.text and "§" not in ex.text
    assert "Revision" in ex.text
    assert set(ex.labels) == {"StPO/§349", "StPO/§349/Abs2", "BGB/§546"}
    assert ex.court == "BGH"


def test_chunked_courts_group_neighbouring_chunks(tmp_path):
    recs = [_ler(f"Text {i} nach § 1 BGB .", ["§ 1 BGB"], id=f"k{i}", court="BFH", segmentation="chunk40")
            for i in range(7)]
    data = load_examples([write_jsonl(tmp_path / "c.jsonl", recs)])
    groups = [e.group for e in data.examples]
    assert groups[0] == groups[4] != groups[5]


def test_task_override_and_mixed_forms(tmp_path, lay_file):
    with pytest.raises(UserError, match="lay record in case data"):
        load_examples([lay_file], task="case")
    case = write_jsonl(tmp_path / "c.jsonl", [_ler("nach § 1 BGB .", ["§ 1 BGB"])])
    with pytest.raises(UserError, match="case record in lay data"):
        load_examples([lay_file, case])
    assert record_task({"question": "x"}) == "lay"
    assert record_task({"text": "x", "norms": []}) == "case"
    assert record_task({"text": "x"}) is None


@pytest.mark.parametrize("content, message", [
    (None, "training file not found"),
    ("{not json\n", "not valid JSON"),
    ("", "no records"),
    ('{"id": 1, "body": "x"}\n', "neither a lay record"),
    ('{"id": 1, "question": "x", "gold": ["kein Zitat"]}\n', "has gold that resolves"),
    ('[1, 2]\n', "must be a JSON object"),
])
def test_bad_training_files(tmp_path, content, message):
    path = tmp_path / "bad.jsonl"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(UserError, match=message):
        load_examples([path])


def test_resolve_labels_against_known_units(lay_set):
    resolved = resolve_labels(lay_set, {"BGB/§551", "BGB/§437"})
    assert {lab for e in resolved.examples for lab in e.labels} == {"BGB/§551", "BGB/§437"}
    assert len(resolved.examples) == 6  # the Pflichtteil questions lost their only label
    with pytest.raises(UserError, match="names a unit of the loaded laws"):
        resolve_labels(lay_set, {"ZPO/§1"})


def test_a_gz_file_that_is_not_gzip(tmp_path):
    path = tmp_path / "bad.jsonl.gz"
    path.write_text('{"id": 1}\n', encoding="utf-8")
    with pytest.raises(UserError, match="not gzip data"):
        load_examples([path])
