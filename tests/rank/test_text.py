"""Long-question splitting and the BM25 tokenizer."""

from legalkg.rank.text import split_question, title_line, tokenize


def test_title_line_is_kept_as_its_own_first_window():
    q = ("Eigenbedarfskündigung nach 12 Jahren\nMein Vermieter hat mir gekündigt. Er sagt, "
         "seine Tochter brauche die Wohnung. Muss ich ausziehen?")
    windows = split_question(q, window_chars=1000)
    assert title_line(q) == "Eigenbedarfskündigung nach 12 Jahren"
    assert windows[0] == "Eigenbedarfskündigung nach 12 Jahren"
    assert windows[1].startswith("Mein Vermieter hat mir gekündigt.")
    assert len(windows) == 2


def test_no_title_without_line_break():
    assert title_line("Mein Vermieter hat mir gekündigt. Darf er das?") is None


def test_windows_respect_the_limit_and_keep_every_sentence():
    sentences = [f"Satz Nummer {i} handelt von der Kaution und der Wohnung." for i in range(20)]
    q = " ".join(sentences)
    windows = split_question(q, window_chars=120)
    assert len(windows) > 5
    assert all(len(w) <= 120 for w in windows)
    assert " ".join(windows) == q


def test_tokenize_stems_and_drops_stopwords():
    toks = tokenize("Der Vermieter kündigte die Wohnung")
    assert "der" not in toks and "die" not in toks
    assert toks == ["vermiet", "kundigt", "wohnung"]
