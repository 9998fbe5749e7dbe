"""Precision and recall of the three statute facts of issue 45, from the hand-judged samples.

Reads samples/*.jsonl (what build.py extracted, seeded), judged/*.jsonl (one verdict per sampled
record, in the same order, made by reading the statute text; enabling_head.jsonl: the verdicts of what
the checkout's code gives for the sampled ordinances, recheck.json; broken_census.jsonl: every row of
the filtered broken-reference report), counts.json and ingest-delta.json; writes scores.json and the
tables of README.md between its markers. Pure, no Neo4j:

    .venv/bin/python eval/facts/score.py          # write scores.json and the README table
    .venv/bin/python eval/facts/score.py --check  # exit 1 if either differs from the judged files

The held-out sample (samples-4/, judged-4/, drawn by ``build.py --seed 4547 --size 60`` after the
extractors were fixed on the earlier samples' verdicts) is the honest measurement of the current code;
samples-3/ and samples-2/ were held out for the code before the fixes made on them; the first sample
(samples/, judged/) is the development data of the first fixes, its figures in-sample.

Intervals: Wilson 95 % for one verdict per record (definitions, broken references); for the enabling
edges, which come in clusters of one ordinance, a percentile bootstrap over the 100 ordinances (10,000
resamples, seed 45).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCORES = HERE / "scores.json"
README = HERE / "README.md"
BEGIN, END = "<!-- facts-scores -->", "<!-- /facts-scores -->"
Z = 1.959963984540054
RESAMPLES = 10_000
SEED = 45
#: the goals of issue 45
GOALS = {"enabling_precision": 0.95, "enabling_recall": 0.90, "definitions_precision": 0.90, "broken_real": 0.90}


#: the held-out sample of the current extractors: its folders and seed (judged/drawn.json: the commit whose
#: code drew it)
HELD_OUT = {"samples": "samples-5", "judged": "judged-5", "seed": 4548}
#: the earlier held-out samples, newest first: each held out for the code that drew it, the development data
#: of the fixes after it
EARLIER = [{"samples": "samples-4", "judged": "judged-4", "seed": 4547},
           {"samples": "samples-3", "judged": "judged-3", "seed": 4546},
           {"samples": "samples-2", "judged": "judged-2", "seed": 4545}]
#: the held-out samples drawn with the current definitions reader (unchanged since samples-3 was drawn)
DEFINITIONS_POOLED = ("judged-3", "judged-4", "judged-5")


def read(folder: str, name: str) -> list[dict]:
    return [json.loads(line) for line in (HERE / folder / f"{name}.jsonl").read_text("utf-8").splitlines() if line]


def _broken_census() -> dict:
    """Every row `legalkg references --broken` lists over the 58 codes at the current code (judged-5/
    broken_census.jsonl: each row once, all judged before)."""
    rows = read("judged-5", "broken_census")
    return {"rows": len(rows), "real": share(sum(r["real"] for r in rows), len(rows)),
            "by_kind": dict(sorted(Counter(r["kind"] for r in rows).items()))}


def _pooled_definitions() -> tuple[int, int]:
    verdicts = [j["ok"] for name in DEFINITIONS_POOLED for j in read(name, "definitions")]
    return sum(verdicts), len(verdicts)


def held_out(spec: dict) -> dict:
    """The three measures on a held-out sample, with the goals they meet."""
    smp, jdg = spec["samples"], spec["judged"]
    drawn = json.loads((HERE / jdg / "drawn.json").read_text("utf-8"))
    e = enabling(read(smp, "enabling"), read(jdg, "enabling"))
    d = definitions(read(smp, "definitions"), read(jdg, "definitions"))
    b = broken(read(smp, "broken"), read(jdg, "broken"))
    met = {"enabling_precision": e["edge_precision"]["value"] >= GOALS["enabling_precision"],
           "enabling_recall": e["recall"]["value"] >= GOALS["enabling_recall"],
           "definitions_precision": d["precision"]["value"] >= GOALS["definitions_precision"],
           "broken_real": b["real"]["value"] >= GOALS["broken_real"]}
    return {"seed": spec["seed"], "commit": drawn["commit"], "samples": f"eval/facts/{smp}",
            "judged": f"eval/facts/{jdg}", "goal_met": met, "enabling": e, "definitions": d, "broken": b}


def wilson(k: int, n: int) -> list[float]:
    if n == 0:
        return [0.0, 1.0]
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def ratio_bootstrap(pairs: list[tuple[int, int]]) -> list[float]:
    """95 % percentile interval of sum(k)/sum(n) over records resampled with replacement."""
    rng = random.Random(SEED)
    stats = []
    for _ in range(RESAMPLES):
        draw = [pairs[rng.randrange(len(pairs))] for _ in pairs]
        n = sum(b for _, b in draw)
        stats.append(sum(a for a, _ in draw) / n if n else 0.0)
    stats.sort()
    return [round(stats[int(0.025 * RESAMPLES)], 4), round(stats[int(0.975 * RESAMPLES) - 1], 4)]


def share(k: int, n: int) -> dict:
    return {"k": k, "n": n, "value": round(k / n, 4) if n else None, "ci95": wilson(k, n)}


def check_aligned(samples: list[dict], judged: list[dict], keys: tuple[str, ...], name: str) -> None:
    if len(samples) != len(judged):
        raise SystemExit(f"{name}: {len(judged)} verdicts for {len(samples)} sampled records; judge every record")
    for i, (s, j) in enumerate(zip(samples, judged)):
        if any(s[k] != j[k] for k in keys):
            raise SystemExit(f"{name}: verdict {i} is for {[j[k] for k in keys]}, the sample holds "
                             f"{[s[k] for k in keys]}; keep the sample's order")


def enabling(samples: list[dict], judged: list[dict], edges_as_sampled: bool = True) -> dict:
    """Scores of one set of verdicts; ``edges_as_sampled``: the verdicts are for the sampled edges
    themselves (False for judged/enabling_head.jsonl, what the checkout's code now gives for them)."""
    check_aligned(samples, judged, ("law",), "enabling")
    for s, j in zip(samples, judged):
        if edges_as_sampled and ([e["target"] for e in s["edges"]] != [e["target"] for e in j["edges"]] or
                                 [u["citation"] for u in s["unresolved"]] != [u["citation"] for u in j["unresolved"]]):
            raise SystemExit(f"enabling: the verdicts of {j['law']} do not match its sampled edges")
    edge_pairs = [(sum(e["ok"] for e in j["edges"]), len(j["edges"])) for j in judged]
    unres_pairs = [(sum(u["ok"] for u in j["unresolved"]), len(j["unresolved"])) for j in judged]
    recall_pairs = [(j["found"], j["named"]) for j in judged]
    per_ordinance = [j["found"] / j["named"] for j in judged if j["named"]]
    ek, en = map(sum, zip(*edge_pairs))
    uk, un = map(sum, zip(*unres_pairs))
    fk, fn = map(sum, zip(*recall_pairs))
    with_named = [j for j in judged if j["named"]]
    return {
        "ordinances": len(judged),
        "ordinances_naming_a_provision": len(with_named),
        "ordinances_all_right": sum(1 for j in with_named if j["found"] == j["named"]
                                    and all(e["ok"] for e in j["edges"]) and all(u["ok"] for u in j["unresolved"])),
        "edge_precision": {"k": ek, "n": en, "value": round(ek / en, 4), "ci95": ratio_bootstrap(edge_pairs),
                           "wilson_ci95_unclustered": wilson(ek, en)},
        "unresolved_precision": {"k": uk, "n": un, "value": round(uk / un, 4), "ci95": ratio_bootstrap(unres_pairs)},
        "recall": {"k": fk, "n": fn, "value": round(fk / fn, 4), "ci95": ratio_bootstrap(recall_pairs)},
        "recall_per_ordinance": {"n": len(per_ordinance), "value": round(sum(per_ordinance) / len(per_ordinance), 4),
                                 "ci95": ratio_bootstrap([(round(r * 10_000), 10_000) for r in per_ordinance])},
    }


def definitions(samples: list[dict], judged: list[dict]) -> dict:
    check_aligned(samples, judged, ("law", "unit", "term", "pattern"), "definitions")
    by = {p: share(sum(j["ok"] for j in judged if j["pattern"] == p), sum(1 for j in judged if j["pattern"] == p))
          for p in sorted({j["pattern"] for j in judged})}
    return {"precision": share(sum(j["ok"] for j in judged), len(judged)), "by_pattern": by}


def broken(samples: list[dict], judged: list[dict]) -> dict:
    check_aligned(samples, judged, ("source", "target", "status"), "broken")
    return {"real": share(sum(j["real"] for j in judged), len(judged)),
            "by_kind": dict(sorted(Counter(j["kind"] for j in judged).items()))}


def broken_census(samples: list[dict], judged: list[dict], census: list[dict]) -> dict:
    """Every row of ``legalkg references --broken`` after the gap filters tuned on the sample (census);
    and how many of the sample's real references it still lists."""
    listed = {(r["source"], r["target"], r["reference"]) for r in census}
    real = [s for s, j in zip(samples, judged) if j["real"]]
    return {"rows": len(census), "real": share(sum(r["real"] for r in census), len(census)),
            "by_kind": dict(sorted(Counter(r["kind"] for r in census).items())),
            "verdicts_from_the_sample": sum(1 for r in census if r["judged"] == "sample"),
            "judged_after_the_filters": sum(1 for r in census if r["judged"] == "after"),
            "sample_real_still_listed": share(sum(1 for s in real if (s["source"], s["target"], s["reference"])
                                                  in listed), len(real))}


def compute() -> dict:
    e = enabling(read("samples", "enabling"), read("judged", "enabling"))
    e["at_head"] = enabling(read("samples", "enabling"), read("judged", "enabling_head"), edges_as_sampled=False)
    recheck = json.loads((HERE / "judged" / "recheck.json").read_text("utf-8"))
    e["at_head"]["commit"] = recheck["commit"]
    d = definitions(read("samples", "definitions"), read("judged", "definitions"))
    b = broken(read("samples", "broken"), read("judged", "broken"))
    still = recheck["definitions_still_read"]
    kept = [j for j, k in zip(read("judged", "definitions"), still) if k]
    d["at_head"] = {"commit": recheck["commit"], "still_read": share(sum(still), len(still)),
                    "precision": share(sum(j["ok"] for j in kept), len(kept)),
                    "right_ones_no_longer_read": sum(1 for j, k in zip(read("judged", "definitions"), still)
                                                     if j["ok"] and not k)}
    b["after_filters"] = broken_census(read("samples", "broken"), read("judged", "broken"),
                                       read("judged", "broken_census"))
    met = {"enabling_precision": e["edge_precision"]["value"] >= GOALS["enabling_precision"],
           "enabling_recall": e["recall"]["value"] >= GOALS["enabling_recall"],
           "enabling_precision_at_head": e["at_head"]["edge_precision"]["value"] >= GOALS["enabling_precision"],
           "enabling_recall_at_head": e["at_head"]["recall"]["value"] >= GOALS["enabling_recall"],
           "definitions_precision_at_head": d["at_head"]["precision"]["value"] >= GOALS["definitions_precision"],
           "definitions_precision": d["precision"]["value"] >= GOALS["definitions_precision"],
           "broken_real": b["real"]["value"] >= GOALS["broken_real"],
           "broken_real_after_filters": b["after_filters"]["real"]["value"] >= GOALS["broken_real"]}
    return {"judge": "eval/facts/README.md#judgement", "goals": GOALS, "held_out": held_out(HELD_OUT),
            "held_out_earlier": [held_out(spec) for spec in EARLIER],
            "broken_census": _broken_census(),
            "definitions_pooled": {"samples": list(DEFINITIONS_POOLED),
                                   "precision": share(*_pooled_definitions())},
            "in_sample": "the fields below: the first sample, the development data of the fixes",
            "goal_met": met, "enabling": e, "definitions": d, "broken": b}


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def ci(r: dict) -> str:
    return f"[{pct(r['ci95'][0])}, {pct(r['ci95'][1])}]"


def _census_line(c: dict) -> str:
    kinds = ", ".join(f"{k} {v}" for k, v in c["by_kind"].items())
    return (f"The broken-reference report over the 58 codes at the current code lists {c['rows']} rows (each "
            f"citing unit, target and words once), all judged (judged-5/broken_census.jsonl; verdicts: {kinds}): "
            f"{pct(c['real']['value'])} real ({c['real']['k']} / {c['real']['n']}, every row: no sampling "
            "interval; goal ≥ 90 %: "
            f"{'met' if c['real']['value'] >= GOALS['broken_real'] else 'not met'}); the held-out samples above draw "
            "from the rows of the report before each row was listed once.")


def held_out_table(h: dict, label: str = "held-out sample", note: str = "") -> str:
    e, d, b, met = h["enabling"], h["definitions"], h["broken"], h["goal_met"]
    yes = {True: "met", False: "not met"}
    rows = [f"| measure ({label}) | value | 95 % CI | k / n | goal |", "|---|---|---|---|---|"]
    for name, r, goal in (("enabling edges: precision", e["edge_precision"], "enabling_precision"),
                           ("enabling units: recall", e["recall"], "enabling_recall"),
                           ("definitions: precision", d["precision"], "definitions_precision"),
                           ("broken references: real", b["real"], "broken_real")):
        rows.append(f"| {name} | {pct(r['value'])} | {ci(r)} | {r['k']} / {r['n']} "
                    f"| ≥ {round(100 * GOALS[goal])} %: {yes[met[goal]]} |")
    w = e["edge_precision"]["wilson_ci95_unclustered"]
    rows.append(f"| enabling edges: precision, Wilson interval over edges (no clusters) | "
                f"{pct(e['edge_precision']['value'])} | [{pct(w[0])}, {pct(w[1])}] | "
                f"{e['edge_precision']['k']} / {e['edge_precision']['n']} | none |")
    r = e["recall_per_ordinance"]
    rows.append(f"| enabling units: recall, mean over ordinances | {pct(r['value'])} | {ci(r)} "
                f"| {r['n']} ordinances | none |")
    r = e["unresolved_precision"]
    rows.append(f"| unresolved enabling records: right | {pct(r['value'])} | {ci(r)} | {r['k']} / {r['n']} | none |")
    for p, r in d["by_pattern"].items():
        rows.append(f"| definitions, pattern `{p}` | {pct(r['value'])} | {ci(r)} | {r['k']} / {r['n']} | none |")
    kinds = ", ".join(f"{k} {v}" for k, v in b["by_kind"].items())
    return (f"{label[0].upper() + label[1:]} (seed {h['seed']}, drawn at {h['commit']}; {h['samples']}, "
            f"{h['judged']}): {e['ordinances']} ordinances ({e['ordinances_naming_a_provision']} name a "
            f"provision, {e['ordinances_all_right']} of them entirely right), {d['precision']['n']} definitions, "
            f"{b['real']['n']} broken references (verdicts: {kinds}).{note} Result file: eval/facts/scores.json.\n\n"
            + "\n".join(rows))


def table(s: dict) -> str:
    pooled = s["definitions_pooled"]["precision"]
    return (counts_table() + "\n\n" + held_out_table(s["held_out"])
            + f"\n\nThe definitions reader did not change between the draws of {', '.join(DEFINITIONS_POOLED)}: "
            f"pooled, its precision is {pct(pooled['value'])} {ci(pooled)} ({pooled['k']} / {pooled['n']}, goal "
            f"≥ 90 %: {'met' if pooled['value'] >= GOALS['definitions_precision'] else 'not met'}). "
            + _census_line(s["broken_census"])
            + "".join("\n\n" + held_out_table(h, "earlier held-out sample",
                                                f" It was held out for the code of {h['commit']}; its verdicts are "
                                                f"development data of the fixes in {after['commit']}.")
                      for h, after in zip(s["held_out_earlier"], [s["held_out"], *s["held_out_earlier"]]))
            + "\n\nIn-sample: the first sample (seed 45), the development data of the fixes, as judged and "
            "read again by the code at the commit named.\n\n" + in_sample_table(s))


def in_sample_table(s: dict) -> str:
    e, d, b, met = s["enabling"], s["definitions"], s["broken"], s["goal_met"]
    a, h = e["at_head"], d["at_head"]
    yes = {True: "met", False: "not met"}
    rows = [
        "| measure | value | 95 % CI | k / n | goal |",
        "|---|---|---|---|---|",
        f"| enabling edges: precision | {pct(e['edge_precision']['value'])} | {ci(e['edge_precision'])} "
        f"| {e['edge_precision']['k']} / {e['edge_precision']['n']} | ≥ 95 %: {yes[met['enabling_precision']]} |",
        f"| enabling units: recall | {pct(e['recall']['value'])} | {ci(e['recall'])} "
        f"| {e['recall']['k']} / {e['recall']['n']} | ≥ 90 %: {yes[met['enabling_recall']]} |",
        f"| enabling units: recall, mean over ordinances | {pct(e['recall_per_ordinance']['value'])} "
        f"| {ci(e['recall_per_ordinance'])} | {e['recall_per_ordinance']['n']} ordinances | none |",
        f"| enabling edges at {a['commit']}: precision | {pct(a['edge_precision']['value'])} "
        f"| {ci(a['edge_precision'])} | {a['edge_precision']['k']} / {a['edge_precision']['n']} "
        f"| ≥ 95 %: {yes[met['enabling_precision_at_head']]} |",
        f"| enabling units at {a['commit']}: recall | {pct(a['recall']['value'])} "
        f"| {ci(a['recall'])} | {a['recall']['k']} / {a['recall']['n']} "
        f"| ≥ 90 %: {yes[met['enabling_recall_at_head']]} |",
        f"| unresolved enabling records: right | {pct(e['unresolved_precision']['value'])} "
        f"| {ci(e['unresolved_precision'])} | {e['unresolved_precision']['k']} / {e['unresolved_precision']['n']} "
        "| none |",
        f"| definitions: precision | {pct(d['precision']['value'])} | {ci(d['precision'])} "
        f"| {d['precision']['k']} / {d['precision']['n']} | ≥ 90 %: {yes[met['definitions_precision']]} |",
    ]
    rows.append(f"| definitions still read at {h['commit']}: precision | {pct(h['precision']['value'])} "
                f"| {ci(h['precision'])} | {h['precision']['k']} / {h['precision']['n']} "
                f"| ≥ 90 %: {yes[met['definitions_precision_at_head']]} |")
    for p, r in d["by_pattern"].items():
        rows.append(f"| definitions, pattern `{p}` | {pct(r['value'])} | {ci(r)} | {r['k']} / {r['n']} | none |")
    rows.append(f"| broken references: real | {pct(b['real']['value'])} | {ci(b['real'])} "
                f"| {b['real']['k']} / {b['real']['n']} | ≥ 90 %: {yes[met['broken_real']]} |")
    c = b["after_filters"]
    rows.append(f"| broken references after the gap filters: real (all rows) | {pct(c['real']['value'])} "
                f"| {ci(c['real'])} | {c['real']['k']} / {c['real']['n']} "
                f"| ≥ 90 %: {yes[met['broken_real_after_filters']]} |")
    rows.append(f"| real references of the sample still listed after the filters | "
                f"{pct(c['sample_real_still_listed']['value'])} | {ci(c['sample_real_still_listed'])} "
                f"| {c['sample_real_still_listed']['k']} / {c['sample_real_still_listed']['n']} | none |")
    kinds = ", ".join(f"{k} {v}" for k, v in b["by_kind"].items())
    return (f"Sample: {e['ordinances']} ordinances ({e['ordinances_naming_a_provision']} name a provision, "
            f"{e['ordinances_all_right']} of them entirely right), 100 definitions, 100 broken references "
            f"(verdicts: {kinds}); {h['still_read']['k']} of the sampled definitions are still read at "
            f"{h['commit']} ({h['right_ones_no_longer_read']} right ones among those no longer read); "
            f"after the gap filters {c['rows']} rows, all judged ("
            f"{c['verdicts_from_the_sample']} by the sample's verdicts, {c['judged_after_the_filters']} after; "
            f"verdicts: {', '.join(f'{k} {v}' for k, v in c['by_kind'].items())}). "
            "Result file: eval/facts/scores.json.\n\n" + "\n".join(rows))


def counts_table() -> str:
    name = "counts-" + HELD_OUT["samples"].rsplit("-", 1)[1] + ".json"  # the build that drew the held-out sample
    c = json.loads((HERE / name).read_text("utf-8"))
    commit = json.loads((HERE / HELD_OUT["judged"] / "drawn.json").read_text("utf-8"))["commit"]
    a, d, b, sec = c["all_laws"], c["default_codes"], c["broken_58"], c["seconds"]
    unres = lambda u: ", ".join(f"{k} {v:,}" for k, v in sorted(u.items())) or "none"  # noqa: E731
    rows = [f"| count (eval/facts/{name}, code of {commit}) | all laws | 58 default codes |", "|---|---|---|",
            f"| laws | {a['laws']:,} | {d['laws']:,} |",
            f"| files named `*v.xml` / of them with an Eingangsformel | {a['files_named_v']:,} / "
            f"{a['v_with_preamble']:,} | {d['files_named_v']:,} / {d['v_with_preamble']:,} |",
            f"| laws with an Eingangsformel / linked by ≥ 1 `AUTHORIZED_BY` edge (goal ≥ 1,300) "
            f"| {a['with_preamble']:,} / {a['linked_laws']:,} | {d['with_preamble']:,} / {d['linked_laws']:,} |",
            f"| `AUTHORIZED_BY` edges | {a['authorized_by_edges']:,} | {d['authorized_by_edges']:,} |",
            f"| unresolved enabling references | {unres(a['unresolved'])} | {unres(d['unresolved'])} |",
            f"| definitions (`DEFINES`) / `Term` nodes | {a['definitions']:,} / {a['terms']:,} "
            f"| {d['definitions']:,} / {d['terms']:,} |",
            f"| broken references (rows, a chain's members on one repealed § counted apart) | not run | {b['rows']:,} "
            f"({unres(b['by_status'])}) |",
            f"| left out as likely parser gaps | not run "
            f"| {unres(b['left_out_as_parser_gaps'])} |"]
    delta = json.loads((HERE / "ingest-delta.json").read_text("utf-8"))
    lines = []
    for name, label in (("default_codes", "58 default codes"), ("all_laws", "all laws")):
        r = delta[name]
        c = r["cpu_seconds"]
        lines.append(f"{label}: parse {c['parse']} s, citations {c['citations']} s, preambles {c['enabling']} s, "
                     f"definitions {c['definitions']} s: the facts add {pct(r['facts_over_parse_and_citations'])} "
                     "to parse and citations")
    return ("\n".join(rows) + f"\n\nSeconds (build.py, one run): parsing all laws {sec['parse_all_laws']} s, "
            f"reading their preambles {sec['enabling_all_laws']} s. CPU seconds of the ingest's compute, no Neo4j "
            f"writes (eval/facts/ingest-delta.json, ingest_delta.py, one run each): " + "; ".join(lines)
            + ". " + whole_ingest_line() + "\n\n" + bulk_ingest_text())


def whole_ingest_line() -> str:
    """The whole ingest of the 58 codes with and without the facts step (ingest-whole.json)."""
    w = json.loads((HERE / "ingest-whole.json").read_text("utf-8"))
    runs = "; ".join(f"{'with' if r['facts'] else 'without'} the facts {r['seconds']} s"
                     + (f" (the facts step {r['facts_step_s']} s)" if r["facts"] else "") for r in w["runs"])
    return (f"The whole ingest of the {w['laws']} default codes, Cypher loader, fresh local Neo4j, in one run at "
            f"{w['commit']} (eval/facts/ingest-whole.json, ingest_whole.py, runs in order): {runs}. Medians: "
            f"{w['median_with_facts_s']} s with, {w['median_without_facts_s']} s without the facts, "
            f"{w['facts_add_s']} s ({pct(w['facts_add_share'])}) more; the facts step's own median "
            f"{w['facts_step_median_s']} s. On this shared host the runs vary by more than the facts step. The "
            "bulk import of the 58 codes (the quickstart's, the issue's 15 s goal) and of all laws (the 10 % goal): "
            "below, from ingest-bulk.json.")


def bulk_ingest_text() -> str:
    """What the facts add to one whole ingest by bulk import, measured inside it (ingest-bulk.json)."""
    b = json.loads((HERE / "ingest-bulk.json").read_text("utf-8"))
    t = b["first_try"]
    out = ["What the facts add to the bulk import (the ingest-time goals; eval/facts/ingest-bulk.json, "
           "ingest_bulk.py): one whole `legalkg ingest` by bulk import (a fresh local server's plan: CSV, "
           "neo4j-admin import, restart, indexes) per code set on a fresh throwaway Neo4j, with the facts, and inside "
           "it the CPU seconds of the three facts steps of each law's CSV (preambles, definitions, broken "
           "references; timed in the "
           "extraction workers), the CPU seconds of the whole ingest (its processes, neo4j-admin, the restarted "
           "server) and the share of the graph's nodes and relationships the facts add (`Term`, `CitedLaw`, "
           "`BrokenReference`, `DEFINES`, `AUTHORIZED_BY`, `HAS_BROKEN_REFERENCE`), which bounds their part of "
           "the import and index work. Growth estimate: the "
           "facts' CPU over the rest plus their share of the rows. Two ingests of the 58 codes, with and without "
           f"the facts, were tried first and dropped: on this 2-core host shared with other sessions' jobs they took "
           f"{t['with_facts_s']} s with and {t['without_facts_s']} s without the facts; CPU seconds move much "
           "less with the load.", ""]
    goals = {"default": ("58 default codes", "≤ 15 s", "facts_wall_estimate_s"), "all": ("all laws", "≤ 10 %", None)}
    for name, r in b["sets"].items():
        label, goal, _ = goals[name]
        counts = ", ".join(f"{v:,} `{k}`" for k, v in r["fact_counts"].items())
        wall = (f", about {r['facts_wall_estimate_s']} s of this loaded run's wall time" if name == "default" else "")
        out.append(f"- {label} ({r['laws']:,} laws, code of {r['commit']}, load average {r['load1']} at the end): "
                   f"{r['wall_s']} s wall time under that load; CPU seconds {r['python_cpu_s']} in the ingest's "
                   f"processes and {r['server_cpu_s']} in the server; the facts {r['facts_cpu_s']} CPU seconds "
                   f"({pct(r['facts_cpu_share'])}) and {r['facts_rows']:,} of {r['rows']:,} rows ({counts}): "
                   f"growth estimate {pct(r['growth_estimate'])}{wall} (goal {goal}: "
                   f"{'met' if _goal_met(name, r) else 'not met'}, by this estimate, not a with/without difference).")
    return "\n".join(out)


def _goal_met(name: str, r: dict) -> bool:
    return r["facts_wall_estimate_s"] <= 15 if name == "default" else r["growth_estimate"] <= 0.10


def render_readme(text: str, s: dict) -> str:
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[:start] + "\n" + table(s) + "\n" + text[end:]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    scores = compute()
    text = json.dumps(scores, indent=1, ensure_ascii=False) + "\n"
    readme = README.read_text("utf-8")
    page = render_readme(readme, scores)
    if args.check:
        stale = [p.name for p, new, old in ((SCORES, text, SCORES.read_text("utf-8") if SCORES.exists() else ""),
                                           (README, page, readme)) if new != old]
        for name in stale:
            print(f"stale: eval/facts/{name}; run .venv/bin/python eval/facts/score.py", file=sys.stderr)
        return 1 if stale else 0
    SCORES.write_text(text, "utf-8")
    README.write_text(page, "utf-8")
    print(table(scores))
    return 0


if __name__ == "__main__":
    sys.exit(main())
