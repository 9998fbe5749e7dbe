import numpy as np
import pytest

from legalkg.errors import UserError
from legalkg.predict import Config, load_model, modelfile, save_model, train

from .conftest import UNITS


def test_same_data_same_ranking(lay_set):
    a = train(lay_set, UNITS).predict(["Die Kaution wird nicht zurückgezahlt"], k=5)
    b = train(lay_set, UNITS).predict(["Die Kaution wird nicht zurückgezahlt"], k=5)
    assert a == b
    assert len(a[0]) == 5


@pytest.mark.parametrize("query, expected", [
    ("Mein Vermieter behält die Kaution", "BGB/§551"),
    ("Die Ware hat einen Mangel, Nacherfüllung?", "BGB/§437"),
    ("Pflichtteil trotz Testament", "BGB/§2303"),
])
def test_words_of_a_labels_training_questions_rank_it_first(lay_set, query, expected):
    model = train(lay_set, UNITS)
    assert model.predict([query], k=3)[0][0][0] == expected


def test_each_component_alone(lay_set):
    model = train(lay_set, UNITS)
    q = ["Vermieter Kaution"]
    for comp in ("nb", "knn", "bridge"):
        top = model.predict(q, k=1, weights={comp: 1.0})[0]
        assert top[0][0] == "BGB/§551", comp
    pop = model.predict(q, k=1, weights={"pop": 1.0})[0]
    assert pop[0][0] in {"BGB/§551", "BGB/§437"}  # three questions each cite them
    shares = model.explain(q, k=1)[0][0][2]
    assert set(shares) <= {"nb", "knn", "bridge", "pop"} and shares["nb"] > 0


def test_bridge_reaches_units_no_training_case_cites(lay_set):
    model = train(lay_set, UNITS)
    q = ["Der Vermieter will die Wohnung zurück"]
    bridged = [uid for uid, _ in model.predict(q, k=10, weights={"bridge": 1.0})[0]]
    learned = [uid for uid, _ in model.predict(q, k=10, weights={"nb": 1.0, "knn": 1.0})[0]]
    assert "BGB/§573" in bridged  # shares "Vermieter" with the texts the Kaution questions cite
    assert "BGB/§573" not in learned


def test_without_units_the_bridge_is_off(lay_set):
    model = train(lay_set)
    assert not model.has_bridge
    assert model.predict(["Kaution"], k=1)[0][0][0] == "BGB/§551"


def test_deeper_levels(tmp_path):
    from legalkg.predict import load_examples

    from .conftest import write_jsonl

    recs = [{"id": "a", "question": "Pflichtteil Enterbung", "gold": ["§ 2303 Abs. 1 BGB"]},
            {"id": "b", "question": "Kaution Vermieter", "gold": ["BGB § 551"]}]
    model = train(load_examples([write_jsonl(tmp_path / "d.jsonl", recs)]))
    assert model.predict(["Enterbung"], k=1, level="Absatz")[0][0][0] == "BGB/§2303/Abs1"
    assert model.predict(["Enterbung"], k=1, level="Paragraph")[0][0][0] == "BGB/§2303"
    assert model.predict(["Kaution"], k=3, level="Satz") == [[]]
    with pytest.raises(UserError, match="not predicted"):
        model.predict(["x"], level="Gesetz")


def test_model_file_round_trip(lay_set, tmp_path):
    model = train(lay_set, UNITS, Config(neighbours=3))
    path = save_model(model, tmp_path / "out" / "m.npz")
    assert [p.name for p in path.parent.iterdir()] == ["m.npz"]  # no temp file left behind
    loaded = load_model(path).attach_units(UNITS)
    queries = ["Kaution zurück", "defekte Ware", "Testament"]
    assert [[u for u, _ in r] for r in loaded.predict(queries, k=5)] == \
           [[u for u, _ in r] for r in model.predict(queries, k=5)]
    assert loaded.config == model.config
    assert loaded.task == "lay"
    assert np.allclose(loaded.levels["Paragraph"].popularity, model.levels["Paragraph"].popularity)
    assert loaded.seen(["q1", "elsewhere", "q8"]) == ["q1", "q8"]


def test_model_file_version_and_foreign_files_refused(lay_set, tmp_path, monkeypatch):
    path = save_model(train(lay_set), tmp_path / "m.npz")
    monkeypatch.setattr(modelfile, "FORMAT_VERSION", modelfile.FORMAT_VERSION + 1)
    with pytest.raises(UserError, match="format version 1.*retrain"):
        load_model(path)
    monkeypatch.undo()
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    with pytest.raises(UserError, match="not a legalkg predictor model file"):
        load_model(junk)
    with pytest.raises(UserError, match="model file not found"):
        load_model(tmp_path / "missing.npz")


def test_shipped_models_load_and_know_their_training_cases():
    from legalkg.predict import default_model_path

    for task in ("lay", "case"):
        path = default_model_path(task)
        if not path.exists():
            pytest.skip("shipped model not built")
        model = load_model(path)
        assert model.task == task and model.train_ids
        assert path.stat().st_size <= 20 * 1024 * 1024
    with pytest.raises(UserError, match="no shipped predictor"):
        default_model_path("chat")


def test_a_query_without_known_words_gets_only_the_prior(lay_set):
    model = train(lay_set, UNITS)
    assert model.predict(["Raumschiff Quasar"], k=3, weights={"nb": 1.0, "knn": 1.0, "bridge": 1.0}) == [[]]
    prior = [uid for uid, _ in model.predict(["Raumschiff Quasar"], k=2)[0]]
    assert sorted(prior) == ["BGB/§437", "BGB/§551"]  # the two most cited units


def test_component_weights_switch_parts_off_in_a_trained_model(lay_set):
    from legalkg.predict import parse_component_weights

    assert parse_component_weights("knn=0,pop=0.5") == {"nb": 1.0, "knn": 0.0, "bridge": 0.3, "pop": 0.5}
    for spec, needle in (("svm=1", "COMPONENT one of"), ("nb=-1", ">= 0"),
                         ("nb=0,knn=0,bridge=0,pop=0", "at least one")):
        with pytest.raises(UserError, match=needle):
            parse_component_weights(spec)
    model = train(lay_set, UNITS)
    q = ["Vermieter Kaution"]
    model.set_weights(parse_component_weights("nb=0,knn=0,bridge=0"))
    assert model.predict(q, k=8) == train(lay_set, UNITS).predict(q, k=8, weights={"pop": 0.3})
    assert set(model.explain(q, k=3)[0][0][2]) == {"pop"}
    with pytest.raises(UserError, match="unknown predictor component"):
        model.set_weights({"svm": 1.0})


def test_seen_texts_finds_a_training_text_under_any_id(lay_set):
    model = train(lay_set, UNITS)
    asked = {"new-1": "Vermieter gibt die Kaution nach dem Auszug nicht zurück",  # q1's text
             "new-2": "  VERMIETER gibt die Kaution\nnach dem Auszug nicht zurück ",  # q1, spaced and cased
             "new-3": "Vermieter gibt die Kaution nach dem Umzug nicht zurück",  # one word differs
             "new-4": "Pflichtteil Enterbung Testament Vater"}  # words of q7 and q8, neither's text
    assert model.seen_texts(asked) == ["new-1", "new-2"]
    assert model.seen_texts({}) == []
