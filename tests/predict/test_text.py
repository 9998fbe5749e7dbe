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
