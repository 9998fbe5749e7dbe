"""Query citations: a § the question names is a candidate with a strong score."""

import numpy as np

from legalkg.rank.citations import cited_paragraphs
from legalkg.rank.features import FEATURES, Components, QueryVectors, build_features
from legalkg.rank.model import RankModel

LEXICAL = Components(dense=False, windows=False, absatz=False, graph_prior=False, hops=False,
                     caselaw=False, popularity=False, length=False)


def test_bare_paragraph_in_bgb_question_means_bgb():
    assert cited_paragraphs("Darf mein Vermieter nach § 573 kündigen?") == {"BGB/§573": 1}


def test_other_law_and_unknown_ids_are_dropped():
    got = cited_paragraphs("Gilt Art. 3 GG oder § 573 BGB oder § 9999 BGB?",
                           known_ids={"BGB/§573"})
    assert got == {"BGB/§573": 1}


def test_question_without_citation_skips_the_grammar():
    assert cited_paragraphs("Mein Vermieter will die Wohnung für seine Tochter.") == {}


def test_question_citing_573_puts_573_first(small_res):
    q = ("Mein Vermieter hat mir die Wohnung gekündigt, weil er sie für seine Tochter braucht. "
         "Ist das nach § 573 zulässig, und wie lange ist die Frist? Muss ich Miete weiterzahlen?")
    cand = build_features(q, small_res, QueryVectors(None, None), LEXICAL)
    cited_col = FEATURES.index("cited")
    ids = [small_res.para_ids[r] for r in cand.rows]
    assert "BGB/§573" in ids
    assert cand.X[ids.index("BGB/§573"), cited_col] == 1.0
    # a fusion model that weights the citation strongly ranks the cited § first
    n = len(FEATURES)
    coef = [0.0] * n
    coef[FEATURES.index("bm25")] = 1.0
    coef[cited_col] = 5.0
    model = RankModel(features=list(FEATURES), mean=[0.0] * n, scale=[1.0] * n, coef=coef)
    order = np.argsort(-model.score(cand.X), kind="stable")
    assert ids[order[0]] == "BGB/§573"
    # without the citation, BM25 alone prefers another tenancy §
    bm25_order = np.argsort(-cand.X[:, FEATURES.index("bm25")], kind="stable")
    assert ids[bm25_order[0]] != "BGB/§573"
