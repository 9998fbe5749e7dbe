"""Which home serves which local Bolt port (``legalkg.server.homes``) and how the bulk import's home
is found from it (``offline_import.managed_home``): files only, no server."""

from __future__ import annotations

from pathlib import Path

import pytest

from legalkg.server.homes import forget_home, record_home, record_path, recorded_home
from legalkg.server.offline_import import managed_home


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LEGALKG_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("LEGALKG_NEO4J_HOME", str(tmp_path / "default-home"))  # has no conf
    return tmp_path


def _home(root: Path, name: str, port: int) -> Path:
    home = root / name
    (home / "conf").mkdir(parents=True)
    (home / "conf" / "neo4j.conf").write_text(f"server.bolt.listen_address=127.0.0.1:{port}\n", "utf-8")
    return home


def test_a_recorded_home_is_found_by_its_port(cache):
    home = _home(cache, "all-laws", 7691)
    assert managed_home("bolt://127.0.0.1:7691") is None  # nothing recorded, the default home has no conf
    record_home(7691, home)
    assert recorded_home(7691) == home.resolve()
    assert managed_home("bolt://127.0.0.1:7691") == home.resolve()
    assert managed_home("neo4j://localhost:7691") == home.resolve()
    assert managed_home("bolt://10.0.0.5:7691") is None  # not a local server
    assert managed_home("neo4j+s://127.0.0.1:7691") is None


def test_a_stale_record_is_ignored(cache):
    moved = _home(cache, "moved", 7700)  # the home's server now listens on another port
    record_home(7691, moved)
    assert managed_home("bolt://127.0.0.1:7691") is None
    gone = cache / "deleted-home"
    record_home(7692, gone)
    assert managed_home("bolt://127.0.0.1:7692") is None


def test_the_given_home_comes_before_the_record(cache):
    given = _home(cache, "given", 7691)
    recorded = _home(cache, "recorded", 7691)
    record_home(7691, recorded)
    assert managed_home("bolt://127.0.0.1:7691", given) == given
    record_home(7691, given)  # a later start of another home on the same port replaces the record
    assert recorded_home(7691) == given.resolve()
    assert sorted(p.name for p in record_path(7691).parent.iterdir()) == ["bolt-7691"]  # no temp files left


def test_stop_forgets_the_home_and_nothing_else(cache):
    one, two = _home(cache, "one", 7691), _home(cache, "two", 7692)
    record_home(7691, one)
    record_home(7692, two)
    record_home(7693, one)
    forget_home(one)
    assert recorded_home(7691) is None and recorded_home(7693) is None
    assert managed_home("bolt://127.0.0.1:7692") == two.resolve()
    forget_home(cache / "never-recorded")  # no records of it: nothing happens
    assert recorded_home(7692) == two.resolve()
