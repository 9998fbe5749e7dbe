import pytest

from legalkg.model import Citation
from research.oracle import oracle_recall, para_hits_at_k


def test_the_oracle_takes_the_paras_with_most_gold_and_counts_each_citation_once():
    gold = [Citation("BGB", "§573", "1"), Citation("BGB", "§573", "2"), Citation("BGB", "§573", "1"),
            Citation("BGB", "§551"), Citation("ZPO", "§574", "2", None, "2"), Citation("BGB")]
    assert para_hits_at_k(gold, 1) == 2  # § 573 Abs. 1 and Abs. 2 (the repeated one counts once)
    assert para_hits_at_k(gold, 2) == 3 and para_hits_at_k(gold, 5) == 4  # no unit hits a bare law
    recall, hits, n = oracle_recall([gold, [Citation("BGB", "§1")]], 1)
    assert (hits, n) == (3, 6) and recall == pytest.approx(0.5)
