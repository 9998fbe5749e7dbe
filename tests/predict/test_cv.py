import pytest

from legalkg.predict import grouped_folds, out_of_fold, train


def test_grouped_folds_keep_groups_apart():
    groups = ["a", "a", "b", "c", "c", "d", "e", "f"]
    folds = grouped_folds(groups, 3, seed=1)
    assert grouped_folds(groups, 3, seed=1)[0][1].tolist() == folds[0][1].tolist()
    seen = []
    for tr, te in folds:
        assert not {groups[i] for i in tr} & {groups[i] for i in te}
        seen.extend(te.tolist())
    assert sorted(seen) == list(range(len(groups)))
    with pytest.raises(ValueError):
        grouped_folds(["a", "a"], 5)


def test_out_of_fold_never_scores_a_case_with_its_own_model(lay_set):
    trained_on: list[set[str]] = []

    def fit(data):
        trained_on.append({e.id for e in data.examples})
        return train(data)

    def score(model, test):
        ids = trained_on[-1]
        assert not ids & {e.id for e in test}
        return [model.predict([e.text], k=3)[0] for e in test]

    results = out_of_fold(lay_set, fit, score, n_folds=4, seed=0)
    assert len(results) == len(lay_set.examples) and all(r is not None for r in results)
    assert len(trained_on) == 4
