"""§ recall per topic of the baseline runs: where each engine finds the lay questions' §§ and where not.

Usage: .venv/bin/python eval/lay-beyond/by_topic.py

Reads dev.jsonl (each question's topic) and baseline-<mode>/case_scores.csv.gz (``legalkg eval
--out``), writes baseline-by-topic.md: per topic and mode the micro recall at § depth (gold §§ found
in the top k over all gold §§ of the topic) and the questions with at least one gold § found.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
MODES = ("learned", "fulltext", "vector")


def topics() -> dict[str, str]:
    lines = (HERE / "dev.jsonl").read_text(encoding="utf-8").splitlines()
    return {r["id"]: r["topic"] for r in map(json.loads, lines)}


def per_topic(scores: pd.DataFrame, topic_of: dict[str, str]) -> pd.DataFrame:
    """topic -> questions, gold, found (§ depth, the case scores' hits_2), recall, questions hit."""
    df = scores.assign(topic=scores["case_id"].map(topic_of))
    rows = [df, df.assign(topic="all")]
    g = pd.concat(rows).groupby("topic", sort=False)
    return pd.DataFrame({"questions": g.size(), "gold": g["n_gold"].sum(), "found": g["hits_2"].sum(),
                         "hit": g["hits_2"].apply(lambda s: int((s > 0).sum()))})


def main() -> None:
    topic_of = topics()
    lines = ["# § recall per topic of the baseline runs (`--level Paragraph -k 10`)", "",
             "Written by by_topic.py from dev.jsonl and baseline-<mode>/case_scores.csv.gz. Recall = gold §§ "
             "in the top 10 / gold §§ (micro); hit = questions with a gold § in the top 10.", "",
             "| topic | questions | " + " | ".join(f"{m} recall | {m} hit" for m in MODES) + " |",
             "|---|---|" + "---|---|" * len(MODES)]
    tables = {m: per_topic(pd.read_csv(HERE / f"baseline-{m}" / "case_scores.csv.gz"), topic_of) for m in MODES}
    for topic in tables[MODES[0]].index:
        cells = [f"{t.at[topic, 'found'] / t.at[topic, 'gold']:.3f} | {t.at[topic, 'hit']}"
                 for t in (tables[m] for m in MODES)]
        lines.append(f"| {topic} | {tables[MODES[0]].at[topic, 'questions']} | " + " | ".join(cells) + " |")
    (HERE / "baseline-by-topic.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
