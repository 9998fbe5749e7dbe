"""Stemmed word tokens: the one analyser the classifier, the neighbours and the bridge share.

Questions and statutes go through the same function, so a lay word and a statute word
meet only when they stem alike; the bridge (``bridge.py``) covers the rest.
"""

from __future__ import annotations

import re
from functools import lru_cache

import Stemmer

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


@lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    return Stemmer.Stemmer("german")


def tokens(text: str) -> list[str]:
    """Lower-cased, stopword-free Snowball stems of the letter words (numbers dropped: a masked
    citation leaves its digits behind in some texts, and they would name the answer)."""
    words = [w for w in _WORD.findall(text.lower()) if len(w) > 1 and w not in STOPWORDS]
    return _stemmer().stemWords(words)
