"""README's example questions as the shipped engine answers them: the questions, each with the § a
lawyer points to first (checked in the statute text), and what one default search returns.

Why a module: ``benchmarks/readme_examples.py`` writes the answers of a graph into a result file,
``research/figures.py`` renders the docs' table from that file, and the slow test
``tests/retrieve/test_readme_examples.py`` asks the live engine again on a graph of the same laws, so
the docs show what the engine answers, and nobody chooses the answers.

The gold, read in the shared gii XML:

- § 551 BGB "Begrenzung und Anlage von Mietsicherheiten": the deposit (Kaution) and its investment.
- § 3 BUrlG "Dauer des Urlaubs": "(1) Der Urlaub beträgt jährlich mindestens 24 Werktage."
- § 242 StGB "Diebstahl": "Wer eine fremde bewegliche Sache einem anderen in der Absicht wegnimmt ..."
- § 4 StVG "Fahreignungs-Bewertungssystem": points for traffic offences; at 8 points the licence goes.
"""

from __future__ import annotations

from legalkg.cite import extract
from legalkg.retrieve import Retriever
from legalkg.vocab import Mode, RetrievalLevel

#: (question, gold citation): the README's deposit question and issue 42's three beyond BGB
EXAMPLES: tuple[tuple[str, str], ...] = (
    ("Mein Vermieter gibt die Kaution nach dem Auszug nicht zurück", "§ 551 BGB"),
    ("Wie viele Tage Urlaub stehen mir als Arbeitnehmer gesetzlich mindestens zu?", "§ 3 BUrlG"),
    ("Was für eine Strafe droht für einen Ladendiebstahl?", "§ 242 StGB"),
    ("Wie viele Punkte in Flensburg darf man haben, bevor einem die Fahrerlaubnis entzogen wird?", "§ 4 StVG"),
)
#: hits asked per question; the table shows the first ``SHOWN``
K = 10
SHOWN = 5


def gold_id(citation: str) -> str:
    """The unit id of a gold citation ("§ 3 BUrlG" -> "BUrlG/§3")."""
    return next(iter(extract(citation))).node_id


def answer(retriever: Retriever) -> list[dict]:
    """Per example: the question, its gold, the top ``K`` citations of the default search at § level
    and the gold's rank among them (None when it is not in the top ``K``)."""
    rows = []
    for question, gold in EXAMPLES:
        hits = retriever.search(question, level=RetrievalLevel.PARAGRAPH, k=K, mode=Mode.LEARNED).seeds
        ids = [h.id for h in hits]
        want = gold_id(gold)
        rows.append({"question": question, "gold": gold, "top": [h.citation for h in hits],
                     "gold_rank": ids.index(want) + 1 if want in ids else None})
    return rows


def table(rows: list[dict], before: dict | None = None) -> str:
    """The docs' table of ``rows`` (``answer``'s form), with the gold's rank of ``before`` (another
    version's rows, ``{"name", "rows"}``) in a column of its own."""
    then = {r["question"]: r for r in before["rows"]} if before else {}
    head = f"| question | gold | rank of the gold in the top {K} |"
    head += f" rank before ({before['name']}) |" if before else ""
    lines = [head + f" top {SHOWN} |", "|---|---|---|" + ("---|" if before else "") + "---|"]
    for r in rows:
        cells = [r["question"], r["gold"], rank(r)]
        if before:
            cells.append(rank(then[r["question"]]))
        lines.append("| " + " | ".join(cells + [", ".join(r["top"][:SHOWN])]) + " |")
    return "\n".join(lines)


def rank(row: dict) -> str:
    """The gold's rank as the table shows it ("—" beyond the top ``K``)."""
    return str(row["gold_rank"]) if row["gold_rank"] else "—"
