"""How far the training questions' gold reaches with and without this set: questions written per part
and kept in train.jsonl, the distinct gold §§ of ../lay-beyond-train/train.jsonl alone and with this
set's train.jsonl, and the share of the dev set's gold citations among them. Run from the repo root:
.venv/bin/python eval/lay-beyond-more/coverage.py > eval/lay-beyond-more/coverage.json"""

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
TRAIN = HERE.parent / "lay-beyond-train" / "train.jsonl"
DEV = HERE.parent / "lay-beyond" / "dev.jsonl"


def rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def covered(train: list[dict], dev: list[dict]) -> float:
    gold = {g for r in train for g in r["gold"]}
    cites = [g for r in dev for g in r["gold"]]
    return round(sum(g in gold for g in cites) / len(cites), 3)


def main() -> dict:
    base, more, dev = rows(TRAIN), rows(HERE / "train.jsonl"), rows(DEV)
    parts = {p.stem.split("-")[1]: len(rows(p)) for p in sorted(HERE.glob("train-*.jsonl"))}
    kept = {p: sum(r["id"].split("-")[1] == p for r in more) for p in parts}
    return {"written_per_part": parts, "kept_per_part": kept, "written": sum(parts.values()), "kept": len(more),
            "questions_without": len(base), "questions_with": len(base) + len(more),
            "gold_sections_without": len({g for r in base for g in r["gold"]}),
            "gold_sections_with": len({g for r in base + more for g in r["gold"]}),
            "dev_gold_covered_without": covered(base, dev), "dev_gold_covered_with": covered(base + more, dev)}


if __name__ == "__main__":
    print(json.dumps(main(), indent=1))
