from legalkg.predict.text import tokens


def test_tokens_stem_drop_stopwords_and_numbers():
    out = tokens("Der Vermieter gibt die Kaution nach 12 Monaten nicht zurück")
    assert "der" not in out and "die" not in out and "nicht" not in out
    assert "12" not in out
    assert tokens("Vermieters") == tokens("Vermieter")  # stems meet
    assert "kaution" in out


def test_tokens_of_empty_text():
    assert tokens("") == []
    assert tokens("§ 551 !!") == []


def test_compounds_split_into_two_dictionary_words():
    from legalkg.predict.text import split_compound

    assert split_compound("kündigungsfrist") == ("kündigung", "frist")  # linking s dropped
    assert split_compound("schadensersatzanspruch") == ("schadens", "ersatzanspruch")  # longest known tail
    assert split_compound("mietkaution") == ("miet", "kaution")
    assert split_compound("kaution") == ()  # too short to be a compound
    assert split_compound("xyzqwertzuiop") == ()


def test_word_forms_add_tokens_beside_the_stems():
    from legalkg.predict.text import tokens

    plain = tokens("Der Vermieter gibt die Kündigungsfrist nicht an")
    assert tokens("Der Vermieter gibt die Kündigungsfrist nicht an", ("lemma",)) == plain + [
        "=vermieter", "=geben", "=kündigungsfrist"]
    assert tokens("Der Vermieter gibt die Kündigungsfrist nicht an", ("split",)) == plain + ["kundig", "frist"]


def test_a_model_keeps_its_word_forms_through_its_file(lay_set, tmp_path):
    from legalkg.predict import Config, load_model, save_model, train

    model = train(lay_set, config=Config(forms=("lemma", "split")))
    loaded = load_model(save_model(model, tmp_path / "m.npz"))
    assert loaded.config.forms == ("lemma", "split") and loaded.queries.forms == ("lemma", "split")
    q = ["Mietkaution nicht zurückgegeben"]
    assert loaded.predict(q, k=3) == model.predict(q, k=3)
