"""Render the tables of figures in README.md, docs/ and eval/*/README.md from their result files.

    python scripts/figures.py          # rewrite every marked block (research/figures.py)
    python scripts/figures.py --check  # list the pages whose tables differ from their files; exit 1
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from research.figures import REPO, stale  # noqa: E402


def main() -> int:
    check = "--check" in sys.argv[1:]
    changed = stale()
    for page, text in changed:
        print(f"{'stale' if check else 'rendered'}: {page.relative_to(REPO)}")
        if not check:
            page.write_text(text, encoding="utf-8")
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
