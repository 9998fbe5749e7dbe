"""The numbers the structure-driven legal KG paper reports in its text (sect. 4), for side-by-side tables.

Why only these: the paper's Table 1 itself is not in the text we have
(``structure-driven-legal-kg.txt`` in the shared papers folder); these are the values its prose quotes. They are
measured on 12,037 BGH cases from Open Legal Data (Tatbestand as query, k = 5, ToER micro-averaged),
a case set we do not have, so they are a reference, never a target our runs are compared to as equal.
Level names follow legalkg ("Chunk" = the paper's Naive-100w).
"""

from __future__ import annotations

import pandas as pd

#: ToER@5 by (chunking level, evaluation depth), unexpanded (paper sect. 4, "Results & Discussion").
TABLE1_TOER: dict[tuple[str, str], float] = {
    ("Nummer", "Code"): 14.23, ("Nummer", "§"): 3.25,
    ("Satz", "Absatz"): 2.28, ("Satz", "Satz"): 1.53, ("Satz", "Nummer"): 2.79,
    ("Chunk", "Code"): 4.19, ("Chunk", "§"): 1.10, ("Chunk", "Nummer"): 0.81,
    ("Paragraph", "Code"): 3.06, ("Paragraph", "§"): 0.85,
    ("Absatz", "Code"): 7.78, ("Absatz", "§"): 1.93,
}

#: Fig. 3a: ToER@5 at Absatz depth by (level, expansion), without the context's word cost.
FIG3A_TOER_ABSATZ: dict[tuple[str, str], float] = {
    ("Buchstabe", "none"): 2.05, ("Nummer", "none"): 2.27, ("Satz", "none"): 2.28, ("Absatz", "none"): 1.36,
    ("Paragraph", "none"): 0.92,
    ("Buchstabe", "citation"): 2.17, ("Nummer", "citation"): 2.40, ("Satz", "citation"): 2.40,
    ("Buchstabe", "parent"): 2.05, ("Nummer", "parent"): 2.27, ("Satz", "parent"): 2.28,
    ("Paragraph", "parent"): 0.92, ("Absatz", "parent"): 2.13,
    ("Absatz", "hybrid"): 2.18, ("Nummer", "hybrid"): 2.40, ("Satz", "hybrid"): 2.40,
}

#: Fig. 3b: ToER^m at Absatz depth (only one value is quoted) and the words behind it.
FIG3B_TOER_M_ABSATZ: dict[tuple[str, str], float] = {("Absatz", "parent"): 0.36}
WORDS: dict[str, float] = {"W_Absatz": 70.6, "W_m_Absatz_parent": 415.0}

CASES = "12,037 BGH cases (Open Legal Data, Tatbestand as query), k = 5"


def table1_frame() -> pd.DataFrame:
    """Long frame (level, depth, toer) of the quoted Table 1 values."""
    return pd.DataFrame([{"level": lv, "depth": d, "toer": v} for (lv, d), v in TABLE1_TOER.items()])
