"""Bad input: ParseError naming the file; the CLI reports it, goes on, and exits non-zero."""

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from legalkg import paths
from legalkg.cli import main
from legalkg.errors import UserError
from legalkg.parse import DuplicateLaw, ParseError, iter_laws, parse_bytes, parse_file


@pytest.fixture(scope="module")
def burlg_bytes() -> bytes:
    return (paths.gii_dir() / "burlg.xml").read_bytes()


def test_parse_error_is_user_error():
    assert issubclass(ParseError, UserError)


@pytest.mark.parametrize("data,needle", [
    (b"", "empty file"),
    (b"   \n", "empty file"),
    (b"%PDF-1.4 not xml", "not XML"),
    (b"<dokumente><norm><metadaten>", "invalid XML"),
    (b"<html><body/></html>", "not a gesetze-im-internet file"),
    (b"<dokumente/>", "no <norm>"),
])
def test_bad_bytes_raise_parse_error(data, needle):
    with pytest.raises(ParseError) as err:
        parse_bytes(data, "broken.xml")
    assert "broken.xml" in str(err.value) and needle in str(err.value)


def test_truncated_real_file(burlg_bytes):
    with pytest.raises(ParseError, match=r"cut\.xml: invalid XML .*truncated"):
        parse_bytes(burlg_bytes[: len(burlg_bytes) // 2], "cut.xml")


def test_canonicalized_file_without_doctype_parses_the_same(burlg_bytes):
    raw = parse_bytes(burlg_bytes, "burlg.xml")
    start = burlg_bytes.index(b"<dokumente")
    canon = parse_bytes(b'<?xml version="1.0" encoding="UTF-8"?>\n' + burlg_bytes[start:], "burlg.xml")
    assert b"<!DOCTYPE" in burlg_bytes[:start]
    assert [u.model_dump() for u in canon.units] == [u.model_dump() for u in raw.units]
    assert raw.key == "BUrlG" and raw.slug == "burlg"
    assert raw.by_id()["BUrlG/§1/S1"].text == "Jeder Arbeitnehmer hat in jedem Kalenderjahr Anspruch auf bezahlten Erholungsurlaub."


def test_missing_file():
    with pytest.raises(ParseError, match="nope.xml: cannot read"):
        parse_file(Path("/nonexistent/nope.xml"))


def test_iter_laws_unknown_code_continues():
    out = list(iter_laws(paths.gii_dir(), ["burlg", "xyz", "kschg"]))
    assert [s for s, _ in out] == ["burlg", "xyz", "kschg"]
    assert isinstance(out[1][1], ParseError)
    assert str(out[1][1]) == f"unknown code 'xyz' (not in {paths.gii_dir()})"
    assert out[0][1].key == "BUrlG" and out[2][1].key == "KSchG"


def test_cli_reports_bad_files_and_parses_the_rest(tmp_path, burlg_bytes):
    (tmp_path / "burlg.xml").write_bytes(burlg_bytes)
    (tmp_path / "empty.xml").write_bytes(b"")
    (tmp_path / "cut.xml").write_bytes(burlg_bytes[:500])
    result = CliRunner().invoke(main, ["parse", "--codes", "all", "--source", str(tmp_path), "--stats"])
    assert result.exit_code == 1
    err_lines = [ln for ln in result.stderr.splitlines() if ln.startswith("error:")]
    assert len(err_lines) == 2
    assert any("empty.xml: empty file" in ln for ln in err_lines)
    assert any("cut.xml: invalid XML" in ln for ln in err_lines)
    assert "parsed 1 law," in result.stderr and "2 failed" in result.stderr
    assert "BUrlG" in result.stdout and "Satz" in result.stdout
    assert "Traceback" not in result.output


def test_cli_stats_ok_exit_zero():
    result = CliRunner().invoke(main, ["parse", "--codes", "BUrlG,KSchG", "--json"])
    assert result.exit_code == 0, result.output
    assert '"BUrlG"' in result.stdout and '"KSchG"' in result.stdout


def test_cli_unknown_code_fails():
    result = CliRunner().invoke(main, ["parse", "--codes", "BGBX", "--stats"])
    assert result.exit_code == 1
    assert "unknown code 'bgbx'" in result.stderr


def test_archive_source_reads_members(tmp_path, burlg_bytes):
    import io
    import tarfile
    arc = tmp_path / "mini.tar.xz"
    with tarfile.open(arc, "w:xz") as tf:
        info = tarfile.TarInfo("burlg.xml")
        info.size = len(burlg_bytes)
        tf.addfile(info, io.BytesIO(burlg_bytes))
    out = list(iter_laws(arc, ["burlg", "gg"]))
    assert out[0][0] == "burlg" and out[0][1].key == "BUrlG"
    assert isinstance(out[1][1], ParseError) and "unknown code 'gg'" in str(out[1][1])


def test_workers_give_the_same_laws():
    one = dict(iter_laws(paths.gii_dir(), ["burlg", "kschg", "nope"], workers=1))
    two = dict(iter_laws(paths.gii_dir(), ["burlg", "kschg", "nope"], workers=2))
    assert isinstance(two["nope"], ParseError)
    for slug in ("burlg", "kschg"):
        assert [u.model_dump() for u in two[slug].units] == [u.model_dump() for u in one[slug].units]
        assert two[slug].model_dump() == one[slug].model_dump()


def test_stats_from_workers_equal_stats_of_the_parsed_laws():
    from legalkg.parse import corpus_stats, iter_law_stats
    slugs = ["burlg", "kschg", "nope"]
    laws = [law for _, law in iter_laws(paths.gii_dir(), slugs) if not isinstance(law, ParseError)]
    expected = corpus_stats(laws)
    for workers in (1, 2):
        got = dict(iter_law_stats(paths.gii_dir(), slugs, workers=workers))
        assert isinstance(got["nope"], ParseError) and "unknown code 'nope'" in str(got["nope"])
        assert got["burlg"].units == len(laws[0].units)
        assert corpus_stats(v for v in got.values() if not isinstance(v, ParseError)) == expected
    # hand-checked in burlg.xml: <enbez> § 1 ... § 16 and § 15a
    assert expected.per_law["BUrlG"]["Paragraph"] == 17


@pytest.fixture
def two_files_one_law(tmp_path, burlg_bytes) -> Path:
    (tmp_path / "burlg.xml").write_bytes(burlg_bytes)
    (tmp_path / "burlg-kopie.xml").write_bytes(burlg_bytes)
    return tmp_path


@pytest.mark.parametrize("workers", [1, 2])
def test_two_files_of_one_law_key_are_refused(two_files_one_law, workers):
    with pytest.raises(DuplicateLaw) as err:
        list(iter_laws(two_files_one_law, None, workers=workers))
    line = str(err.value)
    assert "burlg.xml" in line and "burlg-kopie.xml" in line and "'BUrlG'" in line and "\n" not in line


def test_parse_cli_names_both_files_in_one_line(two_files_one_law):
    res = CliRunner().invoke(main, ["parse", "--codes", "all", "--source", str(two_files_one_law)])
    assert res.exit_code == 1
    assert res.output.count("\n") == 1, res.output
    assert "burlg-kopie.xml and burlg.xml" in res.output and "Traceback" not in res.output
    assert "parsed 2 laws" not in res.output


def _with_entities(burlg_bytes: bytes) -> bytes:
    """BUrlG with an internal DTD (an external and a nested entity) and references in a § text."""
    doctype = (b'<!DOCTYPE dokumente [<!ENTITY xxe SYSTEM "file:///etc/passwd">'
               b'<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>')
    body = burlg_bytes[burlg_bytes.index(b"<dokumente"):]
    marker = b"Jeder Arbeitnehmer"
    assert marker in body
    return b'<?xml version="1.0" encoding="UTF-8" ?>' + doctype + body.replace(marker, b"&xxe;&lol2; " + marker, 1)


def test_entities_are_dropped_with_one_warning(burlg_bytes, caplog):
    plain = parse_bytes(burlg_bytes, "burlg.xml")
    assert not [r for r in caplog.records if r.levelname == "WARNING"]
    law = parse_bytes(_with_entities(burlg_bytes), "xxe.xml")
    assert [u.text for u in law.units] == [u.text for u in plain.units]
    assert not any("root:" in u.text or "lol" in u.text for u in law.units)
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1 and "\n" not in warnings[0]
    assert "xxe.xml" in warnings[0] and "&lol2;, &xxe;" in warnings[0]


def test_parse_cli_prints_the_entity_warning(burlg_bytes, tmp_path):
    path = tmp_path / "burlg.xml"
    path.write_bytes(_with_entities(burlg_bytes))
    res = subprocess.run([sys.executable, "-m", "legalkg.cli", "parse", "--source", str(path), "--codes", "all"],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    lines = [ln for ln in res.stderr.splitlines() if "entity" in ln]
    assert len(lines) == 1 and lines[0].startswith("warning: ") and "burlg.xml" in lines[0]


def test_a_folder_named_xml_and_a_looping_link_are_failures_not_tracebacks(tmp_path, burlg_bytes):
    (tmp_path / "burlg.xml").write_bytes(burlg_bytes)
    (tmp_path / "x.xml").mkdir()
    (tmp_path / "loop.xml").symlink_to(tmp_path / "loop.xml")
    result = CliRunner().invoke(main, ["parse", "--codes", "all", "--source", str(tmp_path)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    err_lines = sorted(ln for ln in result.stderr.splitlines() if ln.startswith("error:"))
    assert err_lines == [f"error: {tmp_path / 'loop.xml'}: not a file (a folder, or a broken or looping link)",
                         f"error: {tmp_path / 'x.xml'}: not a file (a folder, or a broken or looping link)"]
    assert "parsed 1 law," in result.stderr
    named = list(iter_laws(tmp_path, ["loop", "x", "burlg"]))
    assert [type(v).__name__ for _, v in named] == ["ParseError", "ParseError", "Law"]
