"""The server-side steps of a bulk import that need no server: which home is local, the marker,
the importer's command line and the admin tool's cache recording (pure: fake homes and JDKs)."""

from __future__ import annotations

import json
import os

from legalkg.server import caches, jvm, offline_import
from legalkg.server.offline_import import ADMIN_TOOL


def _java(tmp_path, major: int, monkeypatch) -> str:
    java = tmp_path / "jdk" / "bin" / "java"
    java.parent.mkdir(parents=True)
    java.write_text("#!/bin/sh\nexit 0\n")
    java.chmod(0o755)
    monkeypatch.setattr(jvm, "find", lambda env=None: jvm.Java(path=str(java), major=major))
    return str(java)


def test_managed_home_matches_the_bolt_port_of_its_conf(tmp_path):
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "neo4j.conf").write_text("server.bolt.listen_address=127.0.0.1:7699\n")
    assert offline_import.managed_home("bolt://127.0.0.1:7699", tmp_path) == tmp_path
    assert offline_import.managed_home("neo4j://localhost:7699", tmp_path) == tmp_path
    assert offline_import.managed_home("bolt://127.0.0.1:7687", tmp_path) is None
    assert offline_import.managed_home("bolt://db.example.org:7699", tmp_path) is None
    assert offline_import.managed_home("bolt://127.0.0.1:7699", tmp_path / "missing") is None


def test_heap_sizes_of_neo4j_conf_become_jvm_sizes():
    assert offline_import.jvm_size("1g") == "1g"
    assert offline_import.jvm_size("512m") == "512m"
    assert offline_import.jvm_size("2GiB") == "2g"
    assert offline_import.jvm_size("1024") == "1024"
    assert offline_import.jvm_size(None) is None
    assert offline_import.jvm_size("lots") is None


def test_the_import_command_runs_the_admin_tool_with_the_servers_class_path_and_heap(tmp_path, monkeypatch):
    java = _java(tmp_path, 17, monkeypatch)
    home, lib = tmp_path / "home", tmp_path / "lib-abc"
    (home / "conf").mkdir(parents=True)
    (home / "conf" / "neo4j.conf").write_text(
        f"server.directories.lib={lib}\nserver.memory.heap.max_size=2GiB\n")
    files = ["--array-delimiter=U+001F", "--nodes=Gesetz=/x/nodes-Gesetz.csv"]
    assert offline_import.import_command(home, files) == [
        java, "-cp", f"{home / 'conf'}/*:{lib}/*", "-Dfile.encoding=UTF-8", "-Xmx2g", ADMIN_TOOL,
        "database", "import", "full", "neo4j", "--overwrite-destination=true", *files]
    recorded = offline_import.import_command(home, files, "other", record=tmp_path / "admin.jsa")
    assert f"-XX:ArchiveClassesAtExit={tmp_path / 'admin.jsa'}" in recorded and "other" in recorded


def test_the_marker_keeps_the_command_line_of_a_server_left_down(tmp_path):
    """An interrupted import left the server down: the next run takes the command from the marker."""
    home = tmp_path / "home"
    (home / "conf").mkdir(parents=True)
    (home / "conf" / "neo4j.conf").write_text(
        "server.bolt.listen_address=127.0.0.1:7699\nserver.http.listen_address=127.0.0.1:7498\n")
    assert not offline_import.import_pending(home) and not offline_import.import_pending(None)
    assert offline_import.begin(home, 3) is None  # no server runs, no earlier marker
    assert offline_import.import_pending(home)
    marker = offline_import.marker_path(home)
    marker.write_text(json.dumps({"laws": 3, "command": ["/usr/bin/java", "-cp", "x"]}))
    assert offline_import.begin(home, 4) == ["/usr/bin/java", "-cp", "x"]
    assert json.loads(marker.read_text())["laws"] == 4
    offline_import.finish(home)
    assert not offline_import.import_pending(home)


def test_an_admin_cache_that_failed_to_record_is_not_recorded_again(tmp_path, monkeypatch):
    """A recording that produced no usable cache marks it failed; the next import records nothing
    (it would pay the training time again) and a killed recording's old folder is swept."""
    _java(tmp_path, 25, monkeypatch)
    archive = tmp_path / "cache" / "lib-fp-admin.aot"
    monkeypatch.setattr(caches, "admin_archive", lambda lib: archive)
    archive.parent.mkdir()
    killed = archive.parent / "train-admin-killed"
    killed.mkdir()
    os.utime(killed, (0, 0))
    recording = offline_import.admin_recording(tmp_path / "lib")
    assert recording is not None and recording.parent.name.startswith("train-admin-")
    assert not killed.exists()
    offline_import.keep_admin_recording(tmp_path / "home", tmp_path / "lib", recording)  # the JVM wrote no cache
    assert not recording.parent.exists() and not archive.exists()
    assert "wrote no cache" in jvm.failed_marker(archive).read_text("utf-8")
    assert offline_import.admin_recording(tmp_path / "lib") is None


def test_no_admin_cache_is_recorded_without_aot(tmp_path, monkeypatch):
    _java(tmp_path, 17, monkeypatch)
    monkeypatch.setattr(caches, "admin_archive", lambda lib: tmp_path / "cache" / "admin.jsa")
    assert offline_import.admin_recording(tmp_path / "lib") is None
