"""Render the tables of figures in README.md, docs/ and eval/*/README.md from their result files.

    python scripts/figures.py          # rewrite every marked block (research/figures.py)
    python scripts/figures.py --check  # list the pages whose tables differ from their files, and every
                                       # number quoted in prose (<!-- from FILE: FIELD -->) that differs
                                       # from its file's field; exit 1
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from research.figures import REPO, pages, quotes, stale  # noqa: E402


def main() -> int:
    check = "--check" in sys.argv[1:]
    changed = stale()
    for page, text in changed:
        print(f"{'stale' if check else 'rendered'}: {page.relative_to(REPO)}")
        if not check:
            page.write_text(text, encoding="utf-8")
    wrong = [problem for page in pages() for quote in quotes(page) if (problem := quote.problem())]
    for problem in wrong:
        print(f"differs: {problem}")
    return 1 if (check and changed) or wrong else 0


if __name__ == "__main__":
    sys.exit(main())
