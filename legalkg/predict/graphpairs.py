"""Training pairs from the statutes themselves, for the ranker beyond the laws its cases cite (pure).

Why: every lay training question cites BGB, so a ranker trained on them alone learns that a § of any
other law is never the answer, and the graph's BM25 and vector candidates would never win. The laws
say in their own words what each § is about, in two forms that need no annotator:

* **headings**: a § title ("Dauer des Urlaubs") is a short question about that § (``BUrlG/§3``);
* **citations**: a Satz that cites another § ("... die Frist nach § 622 ...") with its citations
  masked out is a text whose answer is the cited § (the Satz's own § is not a label).

Each law gives at most ``PER_LAW`` pairs of each kind, drawn with a fixed seed, so the 57 laws
other than BGB outweigh it together and no large law drowns the small ones. A pair's group is its
gold §, so a grouped split never puts the same § on both sides. The pairs train the ranker only
(``ranker.fit_stacked(extra=...)``), never the predictor, whose labels stay the cases' citations.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping

from ..cite import LawRegistry, extract, mask
from .examples import Example, TrainingSet
from .labels import paragraph_of
from .text import tokens

#: Pairs of each kind per law (``headings``, ``citations``).
PER_LAW = 40
#: A heading with fewer stems than this says too little to be a question ("Inkrafttreten" is one).
MIN_STEMS = 2
#: A first line longer than this is text, not a title (a § without a title starts with its Absatz).
MAX_WORDS = 15
#: Satz texts tried per law for ``citations`` (the grammar costs about a millisecond each).
TRIED = 400
SOURCE = "graph-pairs"
_SPACE = re.compile(r"\s+")


def headings(units: Mapping[str, str], rng: random.Random) -> list[Example]:
    """Per law up to ``PER_LAW`` (§ title -> §) pairs whose title has ``MIN_STEMS`` stems."""
    by_law: dict[str, list[Example]] = {}
    for uid in sorted(u for u in units if u.count("/") == 1):
        title, _, rest = units[uid].partition("\n")
        if not rest or title.startswith("(") or len(title.split()) > MAX_WORDS or len(set(tokens(title))) < MIN_STEMS:
            continue
        ex = Example(f"heading:{uid}", title, (uid,), (), uid)
        by_law.setdefault(uid.split("/", 1)[0], []).append(ex)
    return [e for law in sorted(by_law) for e in sample(by_law[law], rng)]


def citations(units: Mapping[str, str], registry: LawRegistry, rng: random.Random) -> list[Example]:
    """Per law up to ``PER_LAW`` (Satz with its citations masked -> the §§ it cites) pairs; only
    cited §§ in ``units`` and other than the Satz's own count."""
    by_law: dict[str, list[str]] = {}
    for uid in sorted(units):
        if uid.count("/") > 1 and "§" in units[uid] and "/S" in uid:
            by_law.setdefault(uid.split("/", 1)[0], []).append(uid)
    out: list[Example] = []
    for law in sorted(by_law):
        tried = sample(by_law[law], rng, TRIED)
        found: list[Example] = []
        for uid in tried:
            own = paragraph_of(uid)
            text = units[uid]
            gold = sorted({p for m in extract(text, default_law=law, registry=registry)
                           if m.node_id and (p := paragraph_of(m.node_id)) and p != own and p in units})
            query = _SPACE.sub(" ", mask(text, "", registry)).strip()
            if gold and len(set(tokens(query))) >= MIN_STEMS:
                found.append(Example(f"citation:{uid}", query, tuple(gold), (), gold[0]))
            if len(found) >= PER_LAW:
                break
        out.extend(found)
    return out


def sample(items: list, rng: random.Random, n: int = PER_LAW) -> list:
    """``n`` of ``items`` drawn without replacement (all where fewer), in their order."""
    if len(items) <= n:
        return list(items)
    keep = set(rng.sample(range(len(items)), n))
    return [x for i, x in enumerate(items) if i in keep]


def pairs(units: Mapping[str, str], registry: LawRegistry | None = None, seed: int = 0) -> TrainingSet:
    """Both kinds of pairs of the laws in ``units`` (id -> text, § texts with their title first)."""
    rng = random.Random(seed)
    reg = registry or LawRegistry.default()
    examples = headings(units, rng) + citations(units, reg, rng)
    return TrainingSet("lay", examples, [SOURCE])
