"""Laws named as people name them (issue 45): ``--codes BKatV,FeV`` and "§ 1 BKatV" reach the laws
whose jurabk is "BKatV 2013" and "FeV 2010"; short titles in words reach their law. Checked on the
real files of the all-laws archive."""

from __future__ import annotations

from click.testing import CliRunner

from legalkg import codes, lawnames, paths
from legalkg.cite import LawRegistry, extract
from legalkg.cli import main
from legalkg.parse import iter_laws, parse_bytes
from legalkg.parse.sources import default_source
from tests.archive import archive_members


def test_year_less_jurabk_is_an_alias_of_the_one_law_that_drops_to_it():
    aliases = lawnames.year_aliases()
    assert aliases["BKatV"] == "BKatV 2013" and aliases["FeV"] == "FeV 2010"
    # "AEG" is the jurabk of another law (Allgemeines Eisenbahngesetz is "AEG"): "AEG 1994" keeps its year
    assert "AEG" not in aliases


def test_names_table_is_the_archive_header():
    files = archive_members("bkatv_2013", "fev_2010")
    by_slug = {row.slug: row for row in lawnames.table()}
    for slug, data in files.items():
        law = parse_bytes(data, f"{slug}.xml", slug=slug)
        assert by_slug[slug].jurabk == law.jurabk and by_slug[slug].title == law.title
    assert by_slug["bkatv_2013"].kurzue == "Bußgeldkatalog-Verordnung"  # <kurzue> of bkatv_2013.xml


def test_codes_reach_the_files_of_the_archive():
    slugs = codes.resolve_codes("BKatV,FeV")
    assert slugs == ["bkatv_2013", "fev_2010"]
    assert default_source(slugs) == paths.gii_all_archive()  # not among the 58 codes' files
    got = dict(iter_laws(paths.gii_all_archive(), slugs))
    assert [got[s].jurabk for s in slugs] == ["BKatV 2013", "FeV 2010"]


def test_cli_parse_finds_bkatv_without_a_source():
    archive_members("bkatv_2013")  # skip without the archive
    result = CliRunner().invoke(main, ["parse", "--codes", "BKatV", "--json"])
    assert result.exit_code == 0, result.output
    assert '"BKatV 2013"' in result.stdout


def test_citation_by_year_less_abbreviation_and_by_short_title():
    reg = LawRegistry.default()
    law = parse_bytes(archive_members("bkatv_2013")["bkatv_2013"], "bkatv_2013.xml", slug="bkatv_2013")
    (m,) = extract("§ 1 BKatV", registry=reg)
    assert m.law_key == law.key and m.node_id == f"{law.key}/§1"
    assert f"{law.key}/§1" in law.by_id()
    # short titles (<kurzue>) in the genitive, as preambles write them
    assert reg.key_for("Bundes-Immissionsschutzgesetzes") == "BImSchG"
    assert reg.key_for("Bußgeldkatalog-Verordnung") == law.key
    assert reg.key_for("Straßenverkehrsgesetzes") == "StVG"
