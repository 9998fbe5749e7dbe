"""Stemmed word tokens: the one analyser the classifier, the neighbours and the bridge share.

Questions and statutes go through the same function, so a lay word and a statute word
meet only when they stem alike; the bridge (``bridge.py``) covers the rest.

Optional German word forms (``FORMS``) add tokens beside the stems, for the query side of a model
(``Config.forms``): ``lemma``, each word's lemma from ``simplemma``'s dictionary (read from a
mapped copy, ``lexicon.py``), marked ``=``
(gibt -> =geben, which no stemmer finds); ``split``, the stems of a compound's two parts, found
with the same dictionary (Mietkaution -> miet, kaution; Kündigungsfrist -> kundig, frist). Which of
them a shipped model uses is what eval/word-forms/ measured, not a guess.
"""

from __future__ import annotations

import re
from functools import lru_cache

import Stemmer

from . import lexicon

#: German function words; they carry no statute signal and dominate long questions.
STOPWORDS: frozenset[str] = frozenset("""
aber alle allem allen aller alles als also am an ander andere anderem anderen anderer anderes
anderm andern anderr anders auch auf aus bei bin bis bist da damit dann das dass daß dasselbe dazu
dein deine deinem deinen deiner deines dem demselben den denn denselben der derer derselbe
derselben des desselben dessen dich die dies diese dieselbe dieselben diesem diesen dieser dieses
dir doch dort du durch ein eine einem einen einer eines einig einige einigem einigen einiger
einiges einmal er es etwas euch euer eure eurem euren eurer eures für gegen gewesen hab habe haben
hat hatte hatten hier hin hinter ich ihm ihn ihnen ihr ihre ihrem ihren ihrer ihres im in indem
ins ist jede jedem jeden jeder jedes jene jenem jenen jener jenes jetzt kann kein keine keinem
keinen keiner keines können könnte machen man manche manchem manchen mancher manches mein meine
meinem meinen meiner meines mich mir mit muss musste nach nicht nichts noch nun nur ob oder ohne
sehr sein seine seinem seinen seiner seines selbst sich sie sind so solche solchem solchen
solcher solches soll sollte sondern sonst um und uns unser unsere unserem unseren unserer unseres
unter viel vom von vor wann war waren warst was weg weil weiter welche welchem welchen welcher
welches wenn werde werden wie wieder will wir wird wirst wo wollen wollte würde würden zu zum zur
zwar zwischen
""".split())

_WORD = re.compile(r"[a-zäöüß]+")
FORMS: tuple[str, ...] = ("lemma", "split")
#: A compound is split only if it has at least this many letters, each part at least ``MIN_PART``.
MIN_COMPOUND = 8
MIN_PART = 3
#: Linking elements (Fugen) that may end a compound's first part: Kündigung-s-frist, Straße-n-bahn.
LINKERS = ("s", "es", "n", "en", "er")


@lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    return Stemmer.Stemmer("german")


def _known(word: str) -> bool:
    return lexicon.is_known(word)


@lru_cache(maxsize=200_000)
def split_compound(word: str) -> tuple[str, ...]:
    """The two parts of a lower-case compound whose parts both are dictionary words (the longest
    known last part wins; the first part may end in a linker or lack a final e), else ()."""
    if len(word) < MIN_COMPOUND:
        return ()
    for i in range(MIN_PART, len(word) - MIN_PART + 1):
        head, tail = word[:i], word[i:]
        if not _known(tail):
            continue
        for cand in (head, head + "e", *(head[: -len(x)] for x in LINKERS if head.endswith(x))):
            if len(cand) >= MIN_PART and _known(cand):
                return cand, tail
    return ()


@lru_cache(maxsize=200_000)
def lemma(word: str) -> str:
    return lexicon.lemmatize(word).lower()


def tokens(text: str, forms: tuple[str, ...] = ()) -> list[str]:
    """Lower-cased, stopword-free Snowball stems of the letter words (numbers dropped: a masked
    citation leaves its digits behind in some texts, and they would name the answer), plus the
    word forms named in ``forms`` (module docstring)."""
    words = [w for w in _WORD.findall(text.lower()) if len(w) > 1 and w not in STOPWORDS]
    out = _stemmer().stemWords(words)
    if "lemma" in forms:
        out += ["=" + lemma(w) for w in words]
    if "split" in forms:
        out += _stemmer().stemWords([part for w in words for part in split_compound(w)])
    return out
