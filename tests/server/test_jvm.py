"""Which java runs Neo4j: the order of the choices, version reading and the options per version.

Pure: fake JDK folders (an executable `bin/java` and a `release` file, as every JDK ships them);
no JVM is started (a `release` file answers the version).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.errors import UserError
from legalkg.server import caches, jvm


def _jdk(root: Path, name: str, version: str) -> Path:
    home = root / name
    (home / "bin").mkdir(parents=True)
    java = home / "bin" / "java"
    java.write_text("#!/bin/sh\nexit 0\n")
    java.chmod(0o755)
    (home / "release").write_text(f'IMPLEMENTOR="test"\nJAVA_VERSION="{version}"\n')
    return java


@pytest.fixture
def jdks(tmp_path, monkeypatch):
    folder = tmp_path / "jvm"
    j17 = _jdk(folder, "java-17-openjdk-amd64", "17.0.15")
    j25 = _jdk(folder, "temurin-25-jdk-amd64", "25.0.3")
    monkeypatch.setattr(jvm, "JDK_FOLDERS", (folder, tmp_path / "missing"))
    jvm.major_version.cache_clear()
    return {"17": j17, "25": j25, "root": tmp_path}


def test_release_file_gives_the_major_version(tmp_path):
    assert jvm.major_version(str(_jdk(tmp_path, "a", "25.0.3"))) == 25
    assert jvm.major_version(str(_jdk(tmp_path, "b", "17.0.15"))) == 17
    assert jvm.major_version(str(_jdk(tmp_path, "c", "1.8.0_392"))) == 8
    assert jvm.major_version(str(_jdk(tmp_path, "d", "21"))) == 21


def test_an_installed_jdk_25_beats_java_on_path(jdks):
    path_bin = jdks["root"] / "pathbin"
    path_bin.mkdir()
    (path_bin / "java").symlink_to(jdks["17"])
    chosen = jvm.find({"PATH": str(path_bin)})
    assert chosen.path == str(jdks["25"]) and chosen.major == 25 and chosen.aot


def test_java_home_and_legalkg_java_pin_the_choice(jdks):
    home17 = str(jdks["17"].parent.parent)
    assert jvm.find({"JAVA_HOME": home17, "PATH": ""}).major == 17
    # LEGALKG_JAVA wins over JAVA_HOME, as a binary or as a JDK folder
    assert jvm.find({"JAVA_HOME": home17, "LEGALKG_JAVA": str(jdks["25"])}).major == 25
    assert jvm.find({"LEGALKG_JAVA": home17}).path == str(jdks["17"])


def test_without_jdk_25_the_path_java_is_used(jdks, monkeypatch):
    monkeypatch.setattr(jvm, "JDK_FOLDERS", (jdks["17"].parent.parent.parent,))
    jdks["25"].unlink()
    path_bin = jdks["root"] / "pathbin"
    path_bin.mkdir()
    (path_bin / "java").symlink_to(jdks["17"])
    chosen = jvm.find({"PATH": str(path_bin)})
    assert chosen.path == str(path_bin / "java") and chosen.major == 17 and not chosen.aot


def test_a_wrong_pin_or_no_java_is_one_clear_line(jdks, monkeypatch):
    with pytest.raises(UserError, match="LEGALKG_JAVA=/nowhere is neither a java binary nor a JDK folder"):
        jvm.find({"LEGALKG_JAVA": "/nowhere"})
    monkeypatch.setattr(jvm, "JDK_FOLDERS", ())
    with pytest.raises(UserError, match="Java 17\\+ is needed") as err:
        jvm.find({"PATH": str(jdks["root"] / "empty")})
    assert "\n" not in str(err.value)


def test_options_follow_the_version(tmp_path):
    archive = tmp_path / "x.aot"
    new = jvm.Java(path="/j25/bin/java", major=25)
    old = jvm.Java(path="/j17/bin/java", major=17)
    assert new.flags == ["--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"]
    assert old.flags == []
    assert new.use_cache(archive) == [f"-XX:AOTCache={archive}"]
    assert new.record_cache(archive) == [f"-XX:AOTCacheOutput={archive}"]
    assert new.require_cache(archive) == ["-XX:AOTMode=on", f"-XX:AOTCache={archive}"]
    assert old.use_cache(archive) == [f"-XX:SharedArchiveFile={archive}"]
    assert old.record_cache(archive) == [f"-XX:ArchiveClassesAtExit={archive}"]
    assert old.require_cache(archive) == [f"-XX:SharedArchiveFile={archive}", "-Xshare:on"]
    assert (new.suffix, old.suffix) == (".aot", ".jsa")


def test_a_failed_recording_is_not_tried_again(tmp_path):
    archive = tmp_path / "lib-abc-admin.aot"
    assert jvm.wants_recording(archive)
    jvm.give_up_recording(archive, "recorded, but no JVM starts on it")
    assert not jvm.wants_recording(archive)
    assert jvm.failed_marker(archive).read_text("utf-8").strip() == "recorded, but no JVM starts on it"
    jvm.failed_marker(archive).unlink()  # what the docs tell a user to do for another try
    assert jvm.wants_recording(archive)
    archive.write_bytes(b"cache")
    assert not jvm.wants_recording(archive)


def test_only_stale_training_folders_are_swept(tmp_path):
    now = 1_000_000_000.0
    old = now - jvm.STALE_TRAINING_S - 10
    for name in ("train-x1", "train-admin-y2", "train-fresh", "keep-old"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "admin.aot").write_bytes(b"partial")
    (tmp_path / "train-file").write_text("not a folder")
    for name in ("train-x1", "train-admin-y2", "keep-old", "train-file"):
        os.utime(tmp_path / name, (old, old))
    os.utime(tmp_path / "train-fresh", (now - 30, now - 30))
    removed = jvm.sweep_training(tmp_path, now=now)
    assert sorted(removed) == ["train-admin-y2", "train-x1"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep-old", "train-file", "train-fresh"]
    assert jvm.sweep_training(tmp_path / "missing", now=now) == []


def test_status_names_each_start_up_cache_and_how_to_retry_a_failed_one(tmp_path, monkeypatch):
    """`legalkg neo4j status` on a stopped server: recorded, failed (with its reason and the file to
    delete) or not yet; no jars are fetched and no JVM is started for it."""
    java = _jdk(tmp_path, "temurin-25", "25.0.3")
    monkeypatch.setattr(jvm, "find", lambda env=None: jvm.Java(path=str(java), major=25))
    monkeypatch.setenv("LEGALKG_CACHE", str(tmp_path / "cache"))
    home, lib = tmp_path / "home", tmp_path / "lib-abc"
    (home / "conf").mkdir(parents=True)
    (home / "conf" / "neo4j.conf").write_text(f"server.directories.lib={lib}\n")
    jvm.give_up_recording(caches.admin_archive(lib), "the import wrote no cache")
    args = ["neo4j", "status", "--home", str(home), "--bolt-port", "1"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 3 and "not running" in res.output
    assert "start-up cache of the server: not recorded yet" in res.output
    assert (f"start-up cache of the admin tool (bulk import): not used: recording failed (the import "
            f"wrote no cache); delete {jvm.failed_marker(caches.admin_archive(lib))} to try again") in res.output
    caches.class_archive(lib).write_bytes(b"x" * 2_000_000)
    assert "start-up cache of the server: recorded (2 MB," in CliRunner().invoke(main, args).output
    (home / "conf" / "neo4j.conf").unlink()  # never started: nothing to say about caches
    assert "start-up cache" not in CliRunner().invoke(main, args).output
