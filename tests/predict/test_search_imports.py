"""What a search loads: the shipped lay predictor and ranker rank a question without importing
scikit-learn, LightGBM or pandas (each cost a cold `legalkg search` seconds, eval/cli-startup/),
and the bridge's § rows come back from their cache as they were built (pure, no server). What
`legalkg cite` and `legalkg verify` load, checked the same way."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

from legalkg.predict import rowcache
from legalkg.predict.features import Vectoriser

#: what a question without a § sign does not need either: the citation grammar and the law registry
#: (loaded for a query that cites), the parser and its lxml, the embedding run's worker pool
LIGHT = ("legalkg.cite.court", "legalkg.cite.registry", "legalkg.parse", "lxml", "multiprocessing",
         "legalkg.embed.parallel")

SCRIPT = f"LIGHT = {LIGHT!r}\n" + """
import json, sys
from legalkg.cli import import_driver_without_pandas
import_driver_without_pandas()  # as `legalkg search` imports the driver (legalkg/cli/__init__.py)
import legalkg.cli.search, legalkg.retrieve.engine
from legalkg.predict import default_model_path, load_model
from legalkg.predict.rankfile import shipped_ranker
units = {"BGB/§551": "Begrenzung und Anlage von Mietsicherheiten\\nHat der Mieter dem Vermieter eine Sicherheit",
         "BGB/§548": "Verjährung der Ersatzansprüche und des Wegnahmerechts\\nDie Ersatzansprüche des Vermieters"}
pred = load_model(default_model_path("lay")).attach_units(units)
ranked = shipped_ranker("lay", pred, units).rank(pred, ["Mein Vermieter gibt die Kaution nicht zurück"], 5)
heavy = sorted(m for m in ("sklearn", "lightgbm", "pandas", "scipy.stats", *LIGHT) if m in sys.modules)
from legalkg.predict import lawrouter
print(json.dumps({"ranked": ranked[0], "heavy": heavy, "router": lawrouter.shipped.cache_info().currsize}))
"""


def test_a_search_ranks_without_scikit_learn_lightgbm_or_pandas(tmp_path):
    env = {**os.environ, "LEGALKG_CACHE": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, check=True)
    got = json.loads(out.stdout)
    assert got["heavy"] == []
    assert got["router"] == 0  # the learned law router loads for --law auto (or a ranker that uses it), not here
    assert len(got["ranked"]) == 5 and all(uid.count("/") == 1 for uid, _ in got["ranked"])  # § ids


def test_cached_rows_equal_fresh_ones_and_a_changed_text_is_not_read_from_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LEGALKG_CACHE", str(tmp_path))
    vec = Vectoriser.fit(["Mietsicherheit Vermieter Mieter", "Ersatzansprüche Vermieter"], min_df=1)
    texts = ["Der Vermieter hat die Mietsicherheit anzulegen", "Ersatzansprüche des Vermieters verjähren"]
    first = rowcache.rows(vec, texts)
    files = list((tmp_path / "statute-rows").glob("*.npz"))
    assert len(files) == 1
    again = rowcache.rows(vec, texts)
    assert np.array_equal(again.toarray(), vec.transform(texts).toarray()) and np.array_equal(
        again.toarray(), first.toarray())
    changed = rowcache.rows(vec, [texts[0], "Der Mieter"])
    assert changed[1].nnz == 1 and len(list((tmp_path / "statute-rows").glob("*.npz"))) == 2
    files[0].write_bytes(b"damaged")
    assert np.array_equal(rowcache.rows(vec, texts).toarray(), first.toarray())


#: what `legalkg cite` must not load: the models' numerics, the driver, the parser (only for
#: --check-source) and its lxml, worker pool and downloader
NOT_FOR_CITE = ("numpy", "scipy", "sklearn", "lightgbm", "pandas", "neo4j", "lxml", "legalkg.parse.sources",
                "multiprocessing", "urllib.request", "legalkg.predict", "legalkg.embed")

CITE = f"NOT = {NOT_FOR_CITE!r}\n" + """
import json, sys
sys.argv = ["legalkg", "cite", "§ 573 Abs. 2 BGB"]
from legalkg.cli import main
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(m for m in NOT if m in sys.modules)))
"""

#: what a cold `legalkg verify` imports for the command and the static encoder's pooling of a paragraph
VERIFY = """
import json, sys
from legalkg.cli import import_driver_without_pandas
import_driver_without_pandas()
import legalkg.cli.verify
from legalkg.embed.static import load_model
load_model().encode(["Nach § 573 Abs. 2 BGB liegt ein berechtigtes Interesse des Vermieters vor."])
print(json.dumps(sorted(m for m in ("scipy", "sklearn", "lightgbm", "pandas", "lxml") if m in sys.modules)))
"""


def test_cite_loads_neither_numerics_nor_driver_nor_parser(tmp_path):
    env = {**os.environ, "LEGALKG_CACHE": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", CITE], capture_output=True, text=True, env=env, check=True)
    lines = out.stdout.splitlines()
    assert '"id":"BGB/§573/Abs2"' in lines[0]
    assert json.loads(lines[-1]) == []


def test_verify_loads_no_scipy_scikit_learn_lightgbm_pandas_or_lxml(tmp_path):
    env = {**os.environ, "LEGALKG_CACHE": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", VERIFY], capture_output=True, text=True, env=env, check=True)
    assert json.loads(out.stdout) == []


def test_row_digest_keys_each_text_and_its_boundaries():
    # "Der Mieter" + "zahlt", "Der" + " Mieterzahlt" and "Der Mieterzahlt" are the same characters in
    # three cuts: the digest must see where each text ends; no text is not one empty text
    vec = Vectoriser.fit(["Der Mieter zahlt die Miete", "Der Vermieter"], min_df=1)
    keys = {rowcache.digest(vec, t) for t in (["Der Mieter", "zahlt"], ["Der", " Mieterzahlt"],
                                               ["Der Mieterzahlt"], [""], [])}
    assert len(keys) == 5
