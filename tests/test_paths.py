"""Where legalkg finds its queries, its Neo4j pom and the shared data; what it says when one is missing.

The installed-wheel side of the same questions is answered by .ci/smoke_wheel.sh (a real wheel in a
fresh venv, run from outside the checkout).
"""

from __future__ import annotations

import socket

import pytest

from legalkg import paths
from legalkg.errors import ConnectionProblem, UserError
from legalkg.graph import cypher
from legalkg.graph.config import Neo4jConfig
from legalkg.graph.connection import open_driver


@pytest.fixture
def no_queries(tmp_path, monkeypatch):
    """An empty query folder, and no query cached from before."""
    monkeypatch.setattr(paths, "cypher_dir", lambda: tmp_path)
    cypher.query.cache_clear()
    cypher.statements.cache_clear()
    yield tmp_path
    cypher.query.cache_clear()
    cypher.statements.cache_clear()


def test_checkout_resources():
    assert paths.checkout() == paths.REPO_ROOT
    assert paths.cypher_dir() == paths.REPO_ROOT / "cypher"
    assert (paths.cypher_dir() / "ping.cypher").is_file()
    assert paths.neo4j_pom() == paths.REPO_ROOT / "neo4j" / "pom.xml"
    assert "<artifactId>neo4j</artifactId>" in paths.neo4j_pom().read_text("utf-8")


def test_missing_query_names_itself(no_queries):
    with pytest.raises(UserError, match=r"query file retrieve/vector\.cypher is missing from the checkout"):
        cypher.query("retrieve/vector")
    with pytest.raises(UserError, match=r"query file schema\.cypher is missing"):
        cypher.statements("schema")


def test_missing_query_in_installed_package(no_queries, monkeypatch):
    monkeypatch.setattr(paths, "checkout", lambda: None)
    with pytest.raises(UserError) as err:
        cypher.query("retrieve/vector")
    assert str(err.value).startswith("query file retrieve/vector.cypher is missing from the installed "
                                     "legalkg package")
    assert "pip install --force-reinstall legalkg" in str(err.value)


def test_missing_ping_is_no_connection_failure(no_queries):
    """The bug this guards: a missing file surfaced as 'cannot reach Neo4j at ...'."""
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(UserError) as err:
        open_driver(Neo4jConfig(uri=f"bolt://127.0.0.1:{port}"))
    assert not isinstance(err.value, ConnectionProblem)
    assert "ping.cypher is missing" in str(err.value)


def test_unreachable_server_still_says_so():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(ConnectionProblem, match=f"cannot reach Neo4j at bolt://127.0.0.1:{port}"):
        open_driver(Neo4jConfig(uri=f"bolt://127.0.0.1:{port}"))


def test_missing_pom_names_itself(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "package_resource", lambda name: tmp_path / name)
    with pytest.raises(UserError, match=r"the Neo4j pom neo4j/pom\.xml is missing"):
        paths.neo4j_pom()


def test_shared_dir_env_wins(tmp_path, monkeypatch):
    monkeypatch.setenv("LEGALKG_SHARED", str(tmp_path))
    assert paths.gii_dir() == tmp_path / "data" / "gii"
    assert paths.eval_dir() == tmp_path / "data" / "eval"
    assert paths.gii_manifest() is None  # no MANIFEST.tsv there
    (tmp_path / "data" / "gii").mkdir(parents=True)
    (tmp_path / "data" / "gii" / "MANIFEST.tsv").write_text("slug\ttitle\n", "utf-8")
    assert paths.gii_manifest() == tmp_path / "data" / "gii" / "MANIFEST.tsv"


def test_shared_dir_beside_the_checkout(monkeypatch):
    monkeypatch.delenv("LEGALKG_SHARED", raising=False)
    assert paths.shared_dir() == paths.REPO_ROOT.parent / "shared"


def test_installed_package_needs_the_variable(monkeypatch):
    monkeypatch.delenv("LEGALKG_SHARED", raising=False)
    monkeypatch.setattr(paths, "checkout", lambda: None)
    with pytest.raises(UserError, match="set LEGALKG_SHARED .* or pass --source"):
        paths.gii_dir()
    assert paths.gii_manifest() is None  # citations resolve without the manifest


def test_check_writable_leaves_nothing_behind(tmp_path):
    # a run that fails after the check (issue 36: a failed eval left an empty --out folder)
    target = tmp_path / "new" / "run"
    paths.check_writable_dir(target, "--out")
    assert not (tmp_path / "new").exists()
    paths.check_writable_file(tmp_path / "other" / "m.npz", "--out")
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "kept").mkdir()
    paths.check_writable_dir(tmp_path / "kept", "--out")
    assert (tmp_path / "kept").is_dir()


def test_a_failed_eval_leaves_no_out_folder(tmp_path):
    from click.testing import CliRunner

    from legalkg.cli import main

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"content": 5}\n', encoding="utf-8")
    out = CliRunner().invoke(main, ["eval", "--dataset", str(bad), "--out", str(tmp_path / "runs" / "one"),
                                    "--uri", "bolt://127.0.0.1:1"])
    assert out.exit_code == 1 and "'content' must be" in out.output
    assert not (tmp_path / "runs").exists()


def test_a_listener_that_is_no_bolt_server_fails_in_seconds():
    import threading
    import time

    with socket.socket() as sock:  # accepts connections and never answers, like a stuck service
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        port = sock.getsockname()[1]
        held: list[socket.socket] = []
        stop = threading.Event()

        def accept() -> None:
            sock.settimeout(0.2)
            while not stop.is_set():
                try:
                    held.append(sock.accept()[0])
                except OSError:
                    continue

        thread = threading.Thread(target=accept, daemon=True)
        thread.start()
        clock = time.monotonic()
        try:
            with pytest.raises(ConnectionProblem, match=f"cannot reach Neo4j at bolt://127.0.0.1:{port}"):
                open_driver(Neo4jConfig(uri=f"bolt://127.0.0.1:{port}"))
        finally:
            stop.set()
            thread.join()
            for c in held:
                c.close()
    assert time.monotonic() - clock < 30  # was 65 s: the driver's 60 s connection-acquisition default


def test_check_writable_names_the_option(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(UserError, match="choose another --save-weights"):
        paths.check_writable_file(blocker / "w.json", "--save-weights")
    with pytest.raises(UserError, match="is a folder: --out takes a file name"):
        paths.check_writable_file(tmp_path, "--out")
