"""Constructed court decisions in Open Legal Data's case form, for the tests of the backlinks (issue 46).

Why constructed: the shared data holds no case dump and no decision citing § 573 BGB. The units each
citation names were checked by hand in the BGB and the ZPO: "§ 573 Abs. 2 Nr. 2 BGB" (Eigenbedarf) is
Nummer 2 of § 573 Abs. 2 Satz 1 (BGB/§573/Abs2/S1/Nr2), "§ 573 Abs. 1 Satz 1 BGB" the first Satz of
Absatz 1, "§ 626 Abs. 2 Satz 1 BGB" the two-week period of the extraordinary notice.
"""

from __future__ import annotations

import json
from pathlib import Path

from legalkg.graph.decisions import CaseReport, CaseSettings, ingest_cases

DECISIONS = [
    {"id": 101, "court": {"name": "Bundesgerichtshof"}, "file_number": "VIII ZR 180/18", "date": "2019-05-22",
     "type": "Urteil", "content": "<p>Die Kündigung wegen Eigenbedarfs nach § 573 Abs. 2 Nr. 2 BGB ist wirksam; "
                                  "§ 573 Abs. 2 Nr. 2 BGB verlangt ernsthafte Nutzungsabsicht.</p>"},
    {"id": 102, "court": {"name": "Bundesgerichtshof"}, "file_number": "VIII ZR 1/20", "date": "2020-06-10",
     "type": "Beschluss", "content": "<p>Ein berechtigtes Interesse im Sinne des § 573 Abs. 1 Satz 1 BGB liegt vor "
                                     "(BGH, Urteil vom 22. Mai 2019 – VIII ZR 180/18).</p>"},
    {"id": 103, "court": {"name": "LG Berlin"}, "file_number": "67 S 12/21", "date": "2021-03-04", "type": "Urteil",
     "content": "<p>Der Eigenbedarf (§ 573 Abs. 2 Nr. 2 BGB) war vorgeschoben; die Kosten folgen aus § 91 Abs. 1 "
                "ZPO.</p>"},
    {"id": 104, "court": {"name": "Bundesgerichtshof"}, "file_number": "VIII ZR 9/22", "date": "2022-01-01",
     "type": "Urteil", "content": "<p>Die Kaution ist nach § 551 Abs. 1 BGB begrenzt.</p>"},
    {"id": 105, "court": {"name": "Bundesarbeitsgericht"}, "file_number": "2 AZR 10/16", "date": "2016-09-22",
     "type": "Urteil", "content": "<p>Die außerordentliche Kündigung nach § 626 Abs. 1 BGB ist wirksam, die Frist "
                                  "des § 626 Abs. 2 Satz 1 BGB gewahrt; die Kosten folgen aus § 91 Abs. 1 ZPO.</p>"},
    {"id": 106, "court": {"name": "Bundesarbeitsgericht"}, "file_number": "2 AZR 5/12", "date": "2012-03-01",
     "type": "Urteil", "content": "<p>Die Kündigung bedarf der Schriftform (§ 623 BGB).</p>"},
]


def load_decisions(driver, db: str, folder: Path) -> CaseReport:
    """Write ``DECISIONS`` to a file in ``folder`` and load it with ``ingest-cases``' library call."""
    path = folder / "cases.jsonl"
    path.write_text("\n".join(json.dumps(d, ensure_ascii=False) for d in DECISIONS) + "\n", "utf-8")
    return ingest_cases(driver, db, [path], CaseSettings(progress=False))


def remove_decisions(driver, db: str) -> None:
    driver.execute_query("MATCH (d:Decision) DETACH DELETE d", database_=db)
