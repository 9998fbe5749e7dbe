"""Jar signatures off (pure: jars built here with zipfile, shaped like eclipse-collections-11.1.0.jar,
whose signature files are META-INF/ECLIPSE_.SF and META-INF/ECLIPSE_.RSA)."""

from __future__ import annotations

import zipfile
from pathlib import Path

from legalkg.server import jars

MANIFEST = b"Manifest-Version: 1.0\r\n\r\nName: org/eclipse/collections/api/RichIterable.class\r\nSHA-256-Digest: x\r\n"


def _jar(path: Path, signed: bool) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("META-INF/MANIFEST.MF", MANIFEST)
        if signed:
            z.writestr("META-INF/ECLIPSE_.SF", b"Signature-Version: 1.0\r\n")
            z.writestr("META-INF/ECLIPSE_.RSA", b"\x30\x82 not a real signature")
        z.writestr(zipfile.ZipInfo("org/eclipse/collections/api/RichIterable.class"), b"\xca\xfe\xba\xbe" * 50,
                   compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("META-INF/services/java.sql.Driver", b"stored\n", compress_type=zipfile.ZIP_STORED)
    return path


def test_signature_files_go_and_everything_else_stays(tmp_path):
    jar = _jar(tmp_path / "eclipse-collections-api-11.1.0.jar", signed=True)
    assert jars.is_signed(jar)
    assert jars.unsign(jar) is True
    assert not jars.is_signed(jar)
    with zipfile.ZipFile(jar) as z:
        assert z.namelist() == ["META-INF/MANIFEST.MF", "org/eclipse/collections/api/RichIterable.class",
                                "META-INF/services/java.sql.Driver"]
        assert z.read("org/eclipse/collections/api/RichIterable.class") == b"\xca\xfe\xba\xbe" * 50
        assert z.read("META-INF/MANIFEST.MF") == MANIFEST
        kinds = {i.filename: i.compress_type for i in z.infolist()}
        assert kinds["org/eclipse/collections/api/RichIterable.class"] == zipfile.ZIP_DEFLATED
        assert kinds["META-INF/services/java.sql.Driver"] == zipfile.ZIP_STORED
        assert z.testzip() is None
    assert [p.name for p in tmp_path.iterdir()] == [jar.name]  # no temporary file left


def test_unsigned_jars_are_not_rewritten(tmp_path):
    plain = _jar(tmp_path / "neo4j-kernel-5.26.30.jar", signed=False)
    signed = _jar(tmp_path / "eclipse-collections-11.1.0.jar", signed=True)
    before = plain.stat().st_mtime_ns, plain.read_bytes()
    assert jars.unsign_all(tmp_path) == [signed.name]
    assert (plain.stat().st_mtime_ns, plain.read_bytes()) == before
    assert jars.unsign_all(tmp_path) == []  # idempotent
