"""`legalkg eval` on an LER-form file with two courts: one line per court beside the total, on screen
and in results.md; and the popularity baseline of the learned mode (`--predictor-weights pop=...`)."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from click.testing import CliRunner

from legalkg.cli import main

#: (court, cited §): five decisions cite § 551 BGB, one § 573, so every training fold's most
#: popular § is § 551 and the popularity baseline at k 1 hits exactly the § 551 cases.
RECORDS = [("BAG", "§ 551 BGB"), ("BAG", "§ 551 BGB"), ("BAG", "§ 573 BGB"),
           ("BFH", "§ 551 BGB"), ("BFH", "§ 551 BGB"), ("BFH", "§ 551 BGB")]
FACTS = ("Die Klägerin war Mieterin einer Wohnung der Beklagten und leistete eine Kaution. Nach dem Auszug "
         "verlangt sie die Rückzahlung der Mietsicherheit, die Vermieterin verweigert sie und kündigt. ")


@pytest.fixture(scope="module")
def graph(load_graph):
    load_graph("BGB", model=None)


def _ler_file(tmp_path):
    path = tmp_path / "two-courts.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        for i, (court, cite) in enumerate(RECORDS):
            text = FACTS + f"Die Revision stützt sich auf {cite}."
            start = text.index(cite)
            fh.write(json.dumps({"id": f"ler-test-{i}", "court": court, "text": text,
                                 "norms": [{"start": start, "end": start + len(cite)}]}, ensure_ascii=False) + "\n")
    return path


def _court_lines(output: str) -> dict[str, list[str]]:
    lines = output.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith("by court"))
    return {ln.split()[0]: ln.split() for ln in lines[at + 2:at + 5]}


@pytest.mark.neo4j
def test_one_line_per_court_beside_the_total(graph, neo4j_env, tmp_path):
    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["eval", "--dataset", str(_ler_file(tmp_path)), "--mode", "fulltext",
                                    "--level", "§", "-k", "5", "--quiet", "--bootstrap", "10", "--out", str(out)])
    assert res.exit_code == 0, res.output
    rows = _court_lines(res.output)
    assert list(rows) == ["all", "BAG", "BFH"]
    assert [rows[c][1:3] for c in rows] == [["6", "6"], ["3", "3"], ["3", "3"]]  # cases, gold
    md = (out / "results.md").read_text(encoding="utf-8")
    assert "## Per court: raw recall, ToER, ToER^m and W_d" in md and "| BAG | 3 | 3 |" in md


@pytest.mark.neo4j
def test_popularity_baseline_of_the_folds_per_court(graph, neo4j_env, tmp_path):
    res = CliRunner().invoke(main, [
        "eval", "--dataset", str(_ler_file(tmp_path)), "--mode", "learned", "--level", "§", "-k", "1",
        "--cv", "2", "--weights", "fulltext=0,vector=0,cited=0", "--predictor-weights", "nb=0,knn=0,bridge=0",
        "--fold-ranker", "none",
        "--quiet", "--bootstrap", "10"])
    assert res.exit_code == 0, res.output
    rows = _court_lines(res.output)
    # recall at § depth: all 5/6, BAG 2/3 (its § 573 case is missed), BFH 3/3
    assert [float(rows[c][3]) for c in ("all", "BAG", "BFH")] == pytest.approx([5 / 6, 2 / 3, 1.0], abs=1e-3)


def test_bad_predictor_weights_are_one_line(monkeypatch):
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:9")
    monkeypatch.setenv("NEO4J_PASSWORD", "x")
    for spec, needle in (("svm=0", "COMPONENT one of nb, knn, bridge, pop"), ("knn=x", "a number >= 0"),
                         ("nb=0,knn=0,bridge=0,pop=0", "keep at least one")):
        res = CliRunner().invoke(main, ["eval", "--mode", "learned", "--predictor-weights", spec])
        assert res.exit_code == 1 and res.output.strip().count("\n") == 0 and needle in res.output, res.output


@pytest.mark.neo4j
def test_level_auto_keeps_the_para_ranking_and_scores_with_its_own_words_per_hit(graph, neo4j_env, tmp_path):
    out = tmp_path / "auto"
    res = CliRunner().invoke(main, [
        "eval", "--dataset", str(_ler_file(tmp_path)), "--mode", "learned", "--level", "§,auto", "-k", "2",
        "--cv", "2", "--quiet", "--bootstrap", "10", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "level auto, expansion none, mode learned" in res.output and "(auto: the words" in res.output
    df = pd.read_csv(out / "results.csv")
    rows = df[(df.court == "all") & (df.depth == "§")].set_index("level")
    # auto hits one unit inside each § hit: the same §§, so the same recall at § depth
    assert rows.loc["auto", "hits"] == rows.loc["Paragraph", "hits"] > 0
    assert rows.loc["auto", "W"] == pytest.approx(rows.loc["auto", "W_d"])
    assert rows.loc["auto", "W_d"] <= rows.loc["Paragraph", "W_d"]  # never longer than the § itself
