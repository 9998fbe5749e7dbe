"""Case-law prior counts from court citation spans."""

from legalkg import paths
from legalkg.rank.caselaw import count_span_citations, load_ler_spans


def test_counts_each_paragraph_once_per_span():
    got = count_span_citations(["§§ 826 , 823 Abs. 2 BGB", "§ 242 BGB", "§ 242 Abs. 1 BGB , § 242 BGB",
                                "§ 349 Abs. 2 StPO"])
    assert got["BGB/§823"] == 1 and got["BGB/§826"] == 1
    assert got["BGB/§242"] == 2
    assert got["StPO/§349"] == 1


def test_ler_bgh_is_mostly_procedure_and_criminal_law():
    counts = count_span_citations(load_ler_spans(paths.eval_dir() / "ler_bgh" / "bgh_documents.jsonl"))
    bgb = sum(v for k, v in counts.items() if k.startswith("BGB/"))
    other = sum(v for k, v in counts.items() if k.startswith(("StGB/", "StPO/", "ZPO/")))
    assert other > 5 * bgb > 0
    assert counts["BGB/§242"] >= 3
