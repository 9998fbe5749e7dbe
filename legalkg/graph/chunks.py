"""The naive baseline of the paper: consecutive 100-word windows over a law's text, ignoring structure.

Each chunk records the units it overlaps (the Sätze, or a § without Sätze such as an Anlage), so its
retrieved "citations" can be decoded like any structural hit. Pure code, no I/O.
"""

from __future__ import annotations

from pydantic import BaseModel

from ..model import Law, Level

CHUNK_WORDS = 100


class Chunk(BaseModel):
    id: str
    law: str
    order: int
    text: str
    words: int
    covers: list[str]


def atoms(law: Law) -> list[tuple[str, list[str]]]:
    """(unit id, words) of the smallest sentence-level units in document order.

    A Satz is an atom (its text includes any list it introduces); a § or Absatz without Sätze is
    an atom itself. Nummer/Buchstabe are inside their Satz, so they are never atoms.
    """
    has_satz: set[str] = {u.parent_id for u in law.units if u.level == Level.SATZ}
    absatz_parents: set[str] = {u.parent_id for u in law.units if u.level == Level.ABSATZ}
    out: list[tuple[str, list[str]]] = []
    for u in law.units:
        if u.level == Level.SATZ:
            out.append((u.id, u.text.split()))
        elif u.level == Level.ABSATZ and u.id not in has_satz:
            out.append((u.id, u.text.split()))
        elif (u.level == Level.PARAGRAPH and u.id not in has_satz and u.id not in absatz_parents
              and u.text):
            out.append((u.id, u.text.split()))
    return out


def naive_chunks(law: Law, size: int = CHUNK_WORDS) -> list[Chunk]:
    words: list[str] = []
    owner: list[int] = []
    ids: list[str] = []
    for idx, (uid, toks) in enumerate(atoms(law)):
        ids.append(uid)
        words.extend(toks)
        owner.extend([idx] * len(toks))
    chunks: list[Chunk] = []
    for n, start in enumerate(range(0, len(words), size)):
        end = min(start + size, len(words))
        covered = sorted(set(owner[start:end]))
        chunks.append(Chunk(id=f"{law.key}#w{size}-{n + 1}", law=law.key, order=n + 1,
                            text=" ".join(words[start:end]), words=end - start,
                            covers=[ids[i] for i in covered]))
    return chunks
