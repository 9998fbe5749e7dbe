import numpy as np
import pytest

from legalkg.eval.stats import bootstrap_ci, friedman, holm, paired_test


def _cases(n=300, seed=1):
    rng = np.random.default_rng(seed)
    n_gold = rng.integers(1, 6, size=n)
    hits = rng.binomial(n_gold, 0.4)
    return hits, n_gold


def test_micro_ci_contains_point_and_point_is_total_ratio():
    hits, n_gold = _cases()
    ci = bootstrap_ci(hits, n_gold, n_resamples=500, seed=3)
    assert ci.point == pytest.approx(hits.sum() / n_gold.sum())
    assert ci.low < ci.point < ci.high
    assert ci.high - ci.low < 0.15


def test_bootstrap_is_deterministic_with_a_seed_and_changes_with_another():
    hits, n_gold = _cases()
    a = bootstrap_ci(hits, n_gold, n_resamples=200, seed=7)
    b = bootstrap_ci(hits, n_gold, n_resamples=200, seed=7)
    c = bootstrap_ci(hits, n_gold, n_resamples=200, seed=8)
    assert (a.low, a.high) == (b.low, b.high)
    assert (a.low, a.high) != (c.low, c.high)


def test_bootstrap_per_depth_columns_and_macro_mean():
    hits, n_gold = _cases()
    cols = np.stack([hits, hits // 2], axis=1)
    ci = bootstrap_ci(cols, n_gold, n_resamples=300)
    assert ci.point.shape == (2,)
    assert np.all(ci.low <= ci.point) and np.all(ci.point <= ci.high)
    per_case = hits / n_gold
    macro = bootstrap_ci(per_case, n_resamples=300)
    assert macro.point == pytest.approx(per_case.mean())
    assert macro.low < macro.point < macro.high


def test_constant_scores_give_a_zero_width_interval():
    ci = bootstrap_ci(np.ones(50), np.ones(50), n_resamples=100)
    assert ci.low == ci.high == ci.point == 1.0


def test_paired_test_small_p_for_clearly_different_configs():
    hits, n_gold = _cases(n=200)
    better = np.minimum(hits + 1, n_gold)
    res = paired_test(better, hits, n_gold, n_resamples=2000, seed=0)
    assert res.diff > 0
    assert res.p_value < 0.001
    assert res.ci_low > 0


def test_paired_test_p_is_one_for_identical_configs():
    hits, n_gold = _cases(n=200)
    res = paired_test(hits, hits.copy(), n_gold, n_resamples=500)
    assert res.diff == 0.0
    assert res.p_value == 1.0


def test_paired_test_large_p_for_noise_only_differences():
    rng = np.random.default_rng(5)
    a = rng.integers(0, 2, size=300)
    b = rng.permutation(a)  # same distribution, no systematic difference
    res = paired_test(a, b, n_resamples=2000)
    assert res.p_value > 0.05


def test_paired_test_rejects_mismatched_cases():
    with pytest.raises(ValueError):
        paired_test(np.ones(3), np.ones(4))


def test_holm_adjusts_by_rank_and_stays_monotone():
    adj = holm([0.01, 0.04, 0.03, 0.5])
    # sorted: 0.01*4=0.04, 0.03*3=0.09, 0.04*2=0.08 -> max-accumulated 0.09, 0.5*1=0.5
    assert adj.tolist() == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert holm([0.6, 0.7]).tolist() == pytest.approx([1.0, 1.0])


def test_friedman_detects_a_shifted_configuration_and_checks_shape():
    rng = np.random.default_rng(0)
    base = rng.random((40, 1))
    scores = np.hstack([base, base + 0.1, base + 0.2]) + rng.normal(0, 0.01, (40, 3))
    res = friedman(scores)
    assert res.p_value < 1e-6 and res.n_configs == 3
    with pytest.raises(ValueError):
        friedman(scores[:, :2])


def test_per_column_denominators_equal_one_call_per_column():
    rng = np.random.default_rng(5)
    hits = rng.integers(0, 3, size=(40, 3)).astype(float)
    den = hits + rng.integers(0, 3, size=(40, 3))
    both = bootstrap_ci(hits, den, n_resamples=200, seed=2)
    for j in range(3):
        one = bootstrap_ci(hits[:, j], den[:, j], n_resamples=200, seed=2)
        assert both.point[j] == pytest.approx(one.point)
        assert both.low[j] == pytest.approx(one.low) and both.high[j] == pytest.approx(one.high)
    with pytest.raises(ValueError):
        bootstrap_ci(hits, den[:, :2], n_resamples=10)


def test_paired_test_per_column_denominators_and_an_empty_column():
    rng = np.random.default_rng(6)
    a = rng.integers(0, 2, size=(30, 2)).astype(float)
    b = np.zeros((30, 2))
    den = np.column_stack([np.full(30, 2.0), np.zeros(30)])
    a[:, 1] = b[:, 1] = 0.0
    res = paired_test(a, b, den, n_resamples=300, seed=1)
    assert res.diff[0] == pytest.approx(a[:, 0].sum() / 60.0)
    assert res.p_value[0] < 0.05
    assert np.isnan(res.diff[1]) and np.isnan(res.p_value[1])
