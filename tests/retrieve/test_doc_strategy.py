"""docs/architecture.md's worked example of a new retrieval strategy, run as the doc writes it.

The example's code is read from the doc, installed as the doc says (its file as a module of
``legalkg.retrieve``, its mode in ``Mode``, its line in ``STRATEGIES``) and searched through the one
``Retriever`` on a live KSchG graph, so the doc cannot drift from the strategy contract.
"""

from __future__ import annotations

import re
import sys
import types
from contextlib import contextmanager
from pathlib import Path

import pytest

from legalkg.retrieve import Retriever, SearchRequest, engine
from legalkg.vocab import Mode, RetrievalLevel

DOC = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"
SECTION = "## A new retrieval strategy"


def example() -> tuple[str, str, str, str, str]:
    """(file path, module code, mode name, mode value, class name) as the doc's section gives them."""
    text = DOC.read_text("utf-8")
    section = text[text.index(SECTION):]
    section = section[:section.index("\n## ", len(SECTION))]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 2, "the section shows the strategy's file, then its line in STRATEGIES"
    path = re.match(r"# (legalkg/retrieve/\w+\.py)\n", blocks[0])[1]
    name, value = re.search(r'`Mode\.(\w+) = "(\w+)"`', section).groups()
    line = re.search(r"Mode\.(\w+): (\w+),", blocks[1])
    assert line[1] == name, "the STRATEGIES line names the mode the prose adds"
    return path, blocks[0], name, value, line[2]


@contextmanager
def added_mode(name: str, value: str):
    """``Mode`` with one more member, as the doc's line in ``legalkg/vocab.py`` would make it; removed after."""
    member = str.__new__(Mode, value)
    member._name_, member._value_ = name, value
    member.__objclass__ = Mode
    Mode._member_map_[name] = member
    Mode._value2member_map_[value] = member
    Mode._member_names_.append(name)
    type.__setattr__(Mode, name, member)
    try:
        yield member
    finally:
        type.__delattr__(Mode, name)
        Mode._member_names_.remove(name)
        del Mode._value2member_map_[value], Mode._member_map_[name]


def test_the_example_is_one_file_of_retrieve_and_one_line():
    path, code, name, value, cls = example()
    assert path.startswith("legalkg/retrieve/") and not (DOC.parents[1] / path).exists()
    assert f"class {cls}:" in code and name not in Mode.__members__
    compile(code, path, "exec")


@pytest.fixture(scope="module")
def kschg(load_graph, driver, neo4j_cfg):
    load_graph("KSchG", model=None)
    return driver


@pytest.fixture
def installed(monkeypatch):
    """The example installed as the doc says: its module, its mode, its STRATEGIES line."""
    path, code, name, value, cls = example()
    module = types.ModuleType("legalkg.retrieve." + Path(path).stem)
    module.__package__ = "legalkg.retrieve"
    monkeypatch.setitem(sys.modules, module.__name__, module)
    exec(compile(code, path, "exec"), module.__dict__)
    with added_mode(name, value) as mode:
        monkeypatch.setitem(engine.STRATEGIES, mode, getattr(module, cls))
        yield mode
    assert value not in {m.value for m in Mode}, "the example's mode is gone again"


#: The wording is § 1 KSchG's (a dismissal without urgent operational needs is socially unjustified),
#: and the question names § 4 KSchG (the three weeks to sue) itself.
QUESTION = ("Meine Kündigung ist sozial ungerechtfertigt, weil keine dringenden betrieblichen Erfordernisse "
            "bestehen: wie lange habe ich nach § 4 KSchG Zeit?")
NAMED = "KSchG/§4"


def test_the_example_mode_puts_the_named_section_first(kschg, neo4j_cfg, installed):
    retriever = Retriever(kschg, neo4j_cfg.database)
    request = SearchRequest(query=QUESTION, level="Paragraph", k=10, mode=installed.value, expand="none")
    ours = retriever.search(request)
    plain = retriever.search(request.model_copy(update={"mode": Mode.FULLTEXT}))
    plain_ids = [h.id for h in plain.seeds]
    assert NAMED in plain_ids[1:], plain_ids  # full-text alone does not rank it first
    assert [h.id for h in ours.seeds] == [NAMED] + [i for i in plain_ids if i != NAMED]
    assert [h.rank for h in ours.seeds] == list(range(1, len(plain_ids) + 1))
    assert ours.mode is installed and ours.model is None
    # the batch-first path: one call answers many queries, as `legalkg eval` asks
    batch = retriever.seeds({"a": QUESTION, "b": "Anzeigepflicht bei Massenentlassungen"}, RetrievalLevel.PARAGRAPH,
                            10, installed)
    assert [h.id for h in batch["a"]] == [h.id for h in ours.seeds]
    assert batch["b"] == retriever.seeds({"b": "Anzeigepflicht bei Massenentlassungen"}, RetrievalLevel.PARAGRAPH,
                                         10, Mode.FULLTEXT)["b"]
