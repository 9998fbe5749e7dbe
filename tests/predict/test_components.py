import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.naive_bayes import ComplementNB

from legalkg.predict.bridge import fit_associations, scores as bridge_scores
from legalkg.predict.classifier import NaiveBayes, fit_counts
from legalkg.predict.features import Vectoriser
from legalkg.predict.neighbours import Neighbours
from legalkg.predict.sparse import label_matrix, top_dense, top_per_row


def test_vectoriser_rows_are_unit_length_and_unknown_words_drop():
    vec = Vectoriser.fit(["Kaution Vermieter", "Kaution Mangel", "Mangel Ware"], min_df=1)
    x = vec.transform(["Kaution Kaution Vermieter", "Raumschiff"])
    assert np.isclose(sp.linalg.norm(x[0]), 1.0)
    assert x[1].nnz == 0
    again = Vectoriser(vec.vocabulary, vec.idf).transform(["Kaution Kaution Vermieter"])
    assert np.allclose(again.toarray(), x[0].toarray())


def test_nb_weights_match_sklearn():
    rng = np.random.default_rng(0)
    x = sp.csr_matrix(rng.random((12, 7)) * (rng.random((12, 7)) > 0.5))
    y_single = np.array([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2])
    y = label_matrix([[str(v)] for v in y_single], {"0": 0, "1": 1, "2": 2})
    ours = NaiveBayes(fit_counts(x, y, 0.5), 0.5)
    ref = ComplementNB(alpha=0.5, norm=False).fit(x, y_single)
    assert np.allclose(ours.w, ref.feature_log_prob_, atol=1e-5)
    assert np.allclose(ours.scores(x), x @ ref.feature_log_prob_.T, atol=1e-4)


def test_multi_label_rows_count_once_per_label():
    x = sp.csr_matrix(np.array([[1.0, 0.0], [0.0, 2.0]]))
    y = label_matrix([["a", "b"], ["b"]], {"a": 0, "b": 1})
    counts = fit_counts(x, y).toarray()
    assert np.allclose(counts, [[1, 0], [1, 2]])


def test_neighbours_score_labels_of_similar_cases():
    vec = Vectoriser.fit(["Kaution Vermieter", "Mangel Ware", "Testament Erbe"], min_df=1)
    y = label_matrix([["551"], ["437"], ["2303"]], {"551": 0, "437": 1, "2303": 2})
    knn = Neighbours(vec.transform(["Kaution Vermieter", "Mangel Ware", "Testament Erbe"]), k=1)
    s = knn.scores(vec.transform(["Kaution zurück"]), y)
    assert s.argmax() == 0 and s[0, 1] == 0 and s[0, 2] == 0


def test_bridge_translates_a_lay_word_to_statute_words():
    lay = Vectoriser.fit(["Kaution Vermieter", "Kaution Auszug", "Ware defekt"], min_df=1)
    statute = Vectoriser.fit(["Sicherheitsleistung Mietsicherheit", "Nacherfüllung Mangel", "Geburt"], min_df=1)
    units = statute.transform(["Sicherheitsleistung Mietsicherheit", "Nacherfüllung Mangel", "Geburt"])
    y = label_matrix([["551"], ["551"], ["437"]], {"551": 0, "437": 1})
    assoc = fit_associations(lay.transform(["Kaution Vermieter", "Kaution Auszug", "Ware defekt"]), y,
                             units[:2], top=5)
    s = bridge_scores(lay.transform(["Kaution"]), assoc, units.T.tocsr())
    assert s.argmax() == 0
    assert s[0, 2] == 0  # no training case reaches the Geburt text


def test_top_helpers_are_ordered_and_break_ties_by_column():
    scores = np.array([[0.1, 0.5, 0.5, 0.2]])
    assert top_dense(scores, 3).tolist() == [[1, 2, 3]]
    m = top_per_row(sp.csr_matrix(scores), 2)
    assert sorted(m.indices.tolist()) == [1, 2]


def test_counts_and_row_norms_are_scikit_learns_to_the_bit():
    """The search's own counting and normalising equal ``CountVectorizer`` and ``normalize``, which the
    shipped models were built with (legalkg/predict/features.py says why they are not imported)."""
    from functools import partial

    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.preprocessing import normalize

    from legalkg.predict.sparse import normalise_rows
    from legalkg.predict.text import tokens

    texts = ["Der Vermieter gibt die Kaution nicht zurück, die Kaution!", "", "Kündigungsfrist der Mietkaution",
             "Raumschiff 42"]
    vec = Vectoriser.fit(texts[:3], min_df=1, forms=("lemma", "split"))
    ref = CountVectorizer(analyzer=partial(tokens, forms=vec.forms), vocabulary=vec.index).transform(texts)
    ours = vec.counts(texts)
    assert (ours != ref).nnz == 0 and np.array_equal(ours.indices, ref.indices) and ours.dtype == ref.dtype
    rng = np.random.default_rng(3)
    for dtype in (np.float32, np.float64):
        for rows in (200, 3, 1):  # many rows, and a query's few (summed one row at a time)
            m = sp.random(rows, 300, density=0.3, random_state=4, dtype=dtype).tocsr()
            m.data = (m.data * rng.exponential(3, m.nnz) - 0.3).astype(dtype)
            for norm in ("l1", "l2"):
                assert np.array_equal(normalise_rows(m.copy(), norm).data, normalize(m.copy(), norm=norm).data)


@pytest.mark.parametrize("task", ["lay", "case"])
def test_nb_scores_per_query_word_equal_the_dense_table_on_the_shipped_model(task):
    """The per-word weights of a query give the scores of the whole table (``classifier.weights``)."""
    from legalkg import paths
    from legalkg.predict import load_model
    from legalkg.predict.classifier import weights

    pred = load_model(paths.REPO_ROOT / "legalkg" / "data" / f"predictor-{task}.npz")
    lm = pred.levels["Paragraph"]
    table = np.ascontiguousarray(weights(lm.counts, pred.config.alpha).T)
    x = pred.queries.transform(["Mein Vermieter gibt die Kaution nicht zurück",
                                "Der Arbeitgeber hat mir fristlos gekündigt, obwohl ich krank war"])
    for i in range(2):
        assert np.array_equal(NaiveBayes(lm.counts, pred.config.alpha).scores(x[i]),
                              np.asarray(x[i] @ table, dtype=np.float32))
    assert np.array_equal(NaiveBayes(lm.counts, pred.config.alpha).w, table.T)
