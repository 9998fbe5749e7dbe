"""Citation tuple -> the most specific existing node id.

Why candidates instead of one id: a citation is written coarser or differently than the tree.
"§ 437 Nr. 1 BGB" leaves the Satz implicit (the node is ``BGB/§437/S1/Nr1``), "§ 112e Abs. 1"
may name a § without numbered Absätze, "Nr. 2a" may be written for Nr. 2 Buchst. a, and a cited
unit may be finer than the tree (Halbsatz, or a repealed Absatz). We try the exact id, then the
usual rewrites, then ever coarser prefixes, and return the first id that exists.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterator

from ..model import Citation

_MAX_IMPLICIT_SATZ = 12
_NR_SUFFIX = re.compile(r"(\d+)([a-z])")


def para_variants(law: str, para: str) -> list[str]:
    """Id prefixes for a para: 'Art229§5' may be stored flat or as 'Art229/§5'."""
    out = [f"{law}/{para}"]
    if "§" in para and para.startswith("Art"):
        art, _, sect = para.partition("§")
        out.append(f"{law}/{art}/§{sect}")
    return out


def _tails(c: Citation) -> list[list[str]]:
    """Segment lists below the para, most specific first, with the usual rewrites."""
    segs: list[tuple[str, str | None]] = [("Abs", c.absatz), ("S", c.satz), ("Nr", c.nummer),
                                          ("Bst", c.buchstabe), ("DBst", c.doppelbuchstabe)]
    present = [(p, v) for p, v in segs if v]
    out: list[list[str]] = []
    seen: set[tuple[str, ...]] = set()

    def add(parts: list[str]) -> None:
        key = tuple(parts)
        if key not in seen:
            seen.add(key)
            out.append(parts)

    for depth in range(len(present), 0, -1):
        kept = present[:depth]
        base = [f"{p}{v}" for p, v in kept]
        add(base)
        names = [p for p, _ in kept]
        # Nr without Satz: the list hangs below a Satz (S1 usually)
        if "Nr" in names and "S" not in names:
            i = names.index("Nr")
            for k in range(1, _MAX_IMPLICIT_SATZ + 1):
                add(base[:i] + [f"S{k}"] + base[i:])
        # "Nr. 2a" written for "Nr. 2 Buchst. a"
        for idx, (p, v) in enumerate(kept):
            m = _NR_SUFFIX.fullmatch(v) if p == "Nr" else None
            if m and "Bst" not in names:
                alt = base[:idx] + [f"Nr{m.group(1)}", f"Bst{m.group(2)}"] + base[idx + 1:]
                add(alt)
                if "S" not in names:
                    for k in range(1, 4):
                        add(alt[:idx] + [f"S{k}"] + alt[idx:])
        # "Abs. 1" written for a § without numbered Absätze
        if "Abs" in names and names[0] == "Abs" and len(kept) > 1:
            add(base[1:])
    return out


def candidate_ids(c: Citation) -> Iterator[str]:
    """Every id the citation may denote, most specific first, ending with the para and the law."""
    if not c.para:
        yield c.law
        return
    heads = para_variants(c.law, c.para)
    for tail in _tails(c):
        for h in heads:
            yield "/".join([h, *tail])
    yield from heads


def resolve_under(heads: list[str], c: Citation, known_ids: Container[str]) -> str | None:
    """Like ``resolve_citation`` but below given para ids (relative references know their §)."""
    for tail in _tails(c):
        for h in heads:
            cand = "/".join([h, *tail])
            if cand in known_ids:
                return cand
    for h in heads:
        if h in known_ids:
            return h
    return None


def resolve_citation(c: Citation, known_ids: Container[str]) -> str | None:
    """Most specific existing node for ``c`` (never above the Paragraph), or None."""
    if not c.para:
        return None
    for cand in candidate_ids(c):
        if cand in known_ids:
            return cand
    return None
