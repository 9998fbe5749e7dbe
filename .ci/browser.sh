#!/usr/bin/env bash
# The browser that tests/web drives: Debian's chromium, installed with apt-get when it is missing, then
# launched once headless through Playwright (the venv's, no browser download), so that a browser that
# cannot start fails here with its reason instead of as a test. Exits non-zero, saying why, when it cannot.
# Environment: LEGALKG_CHROMIUM (default: chromium on PATH, else /usr/bin/chromium); PYTHON (default .venv/bin/python).
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-.venv/bin/python}"
fail() { echo "browser: FAILED: $*" >&2; exit 1; }
echo "== browser for tests/web (Debian chromium, driven by Playwright)"
BROWSER="${LEGALKG_CHROMIUM:-$(command -v chromium || echo /usr/bin/chromium)}"
if [ ! -x "$BROWSER" ]; then
  echo "== chromium is missing: apt-get install -y chromium"
  command -v apt-get >/dev/null || fail "no chromium at $BROWSER and no apt-get: install Debian's chromium package or set LEGALKG_CHROMIUM"
  [ "$(id -u)" -eq 0 ] || fail "no chromium at $BROWSER, and apt-get needs root: run 'sudo apt-get install -y chromium'"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
    || fail "apt-get could not install chromium (no network to the Debian mirror?): the browser tests need it"
  BROWSER="$(command -v chromium || echo /usr/bin/chromium)"
  [ -x "$BROWSER" ] || fail "apt-get installed chromium but $BROWSER is not there"
fi
"$BROWSER" --version || fail "$BROWSER does not run"
"$PY" - "$BROWSER" <<'PYEOF' || fail "Playwright cannot start $BROWSER headless (see above)"
import sys
from playwright.sync_api import sync_playwright
with sync_playwright() as pw:
    b = pw.chromium.launch(executable_path=sys.argv[1], headless=True)
    page = b.new_page()
    page.set_content("<p>ok</p>")
    assert page.inner_text("p") == "ok"
    b.close()
print("browser: Playwright drives", sys.argv[1])
PYEOF
