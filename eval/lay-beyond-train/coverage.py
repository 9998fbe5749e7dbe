"""How far the training questions' gold reaches: questions written per part and kept in train.jsonl,
the distinct gold §§ of train.jsonl, and the share of the dev set's gold citations among them, now
and as of a git revision (default the commit before parts g to m). Run from the repo root:
.venv/bin/python eval/lay-beyond-train/coverage.py > eval/lay-beyond-train/coverage.json"""

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEV = HERE.parent / "lay-beyond" / "dev.jsonl"
BEFORE = "3fcecc9~1"


def rows(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def covered(train: list[dict], dev: list[dict]) -> float:
    gold = {g for r in train for g in r["gold"]}
    cites = [g for r in dev for g in r["gold"]]
    return round(sum(g in gold for g in cites) / len(cites), 3)


def main(before: str = BEFORE) -> dict:
    train, dev = rows((HERE / "train.jsonl").read_text("utf-8")), rows(DEV.read_text("utf-8"))
    old = rows(subprocess.run(["git", "show", f"{before}:eval/lay-beyond-train/train.jsonl"], check=True,
                              capture_output=True, text=True, cwd=HERE).stdout)
    parts = {p.stem.split("-")[1]: len(rows(p.read_text("utf-8"))) for p in sorted(HERE.glob("train-*.jsonl"))}
    kept = {p: sum(r["id"].split("-")[1] == p for r in train) for p in parts}
    new = [p for p in parts if p >= "g"]
    return {"before": before, "questions_before": len(old), "questions": len(train),
            "written": parts, "kept": kept, "written_g_to_m": sum(parts[p] for p in new),
            "kept_g_to_m": sum(kept[p] for p in new), "gold_sections": len({g for r in train for g in r["gold"]}),
            "gold_sections_before": len({g for r in old for g in r["gold"]}),
            "dev_gold_covered": covered(train, dev), "dev_gold_covered_before": covered(old, dev)}


if __name__ == "__main__":
    json.dump(main(*sys.argv[1:]), sys.stdout, indent=1)
    print()
