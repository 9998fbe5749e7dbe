"""Paired tests of each strategy against the reference, Holm-corrected: hand-made numbers (no server)."""

import numpy as np
import pytest
from scipy.stats import wilcoxon

from research.chunking.significance import compare_to_reference

# per-question latencies (ms) of three strategies on the same 12 questions
SECTION = [10.0, 12.0, 11.0, 13.0, 10.5, 12.5, 11.5, 10.0, 12.0, 11.0, 13.0, 12.0]
SLOWER = [s + 5.0 for s in SECTION]  # every question 5 ms slower
NOISY = [s + d for s, d in zip(SECTION, [0.3, -0.2, 0.1, -0.4, 0.2, -0.1, 0.0, 0.4, -0.3, 0.1, -0.2, 0.1])]


def test_a_uniform_shift_is_significant_and_a_wobble_is_not():
    got = compare_to_reference({"section": SECTION, "slower": SLOWER, "noisy": NOISY}, "section",
                               n_resamples=2000)
    assert list(got) == ["slower", "noisy"]
    slow, noisy = got["slower"], got["noisy"]
    assert slow.diff == pytest.approx(5.0)
    assert slow.ci_low == pytest.approx(5.0) and slow.ci_high == pytest.approx(5.0)
    # all 12 signs agree: only the all-plus and all-minus flips are as extreme, 2 / 4096 of them
    assert slow.p < 0.01 and slow.p_holm < 0.05
    assert noisy.diff == pytest.approx(np.mean(np.array(NOISY) - np.array(SECTION)))
    assert noisy.p > 0.5 and noisy.p_holm >= noisy.p


def test_holm_multiplies_the_smallest_p_by_the_number_of_comparisons():
    got = compare_to_reference({"section": SECTION, "slower": SLOWER, "noisy": NOISY}, "section",
                               n_resamples=2000)
    ps = sorted([(c.p, c.p_holm) for c in got.values()])
    assert ps[0][1] == pytest.approx(min(1.0, 2 * ps[0][0]))
    assert ps[1][1] == pytest.approx(min(1.0, max(ps[1][0], 2 * ps[0][0])))


def test_wilcoxon_matches_scipy_and_identical_inputs_give_one():
    got = compare_to_reference({"section": SECTION, "noisy": NOISY, "same": list(SECTION)}, "section",
                               method="wilcoxon")
    d = np.array(NOISY) - np.array(SECTION)
    expected = wilcoxon(d[d != 0]).pvalue
    assert got["noisy"].p == pytest.approx(expected)
    assert got["same"].p == 1.0 and got["same"].diff == 0.0
    assert got["noisy"].p_holm == pytest.approx(min(1.0, 2 * expected))


def test_reference_missing_or_alone_and_bad_input():
    assert compare_to_reference({"a": [1.0, 2.0]}, "section") == {}
    assert compare_to_reference({"section": [1.0, 2.0]}, "section") == {}
    with pytest.raises(ValueError, match="same questions"):
        compare_to_reference({"section": [1.0, 2.0], "b": [1.0]}, "section")
    with pytest.raises(ValueError, match="unknown test"):
        compare_to_reference({"section": [1.0], "b": [2.0]}, "section", method="t")
