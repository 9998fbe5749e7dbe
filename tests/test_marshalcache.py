"""marshalcache: plain data comes back as kept, and a damaged, cut or missing file reads as None
(pure, no server)."""

from __future__ import annotations

from legalkg import marshalcache

DATA = ({("bürgerlichen", "gesetzbuchs"): "BGB", ("sgb", "v"): "SGB V"}, {("bgb",)}, {"bgb": 1}, frozenset({"BGB"}),
        ["§ 573", 3, None])


def test_data_comes_back_as_kept(tmp_path):
    path = tmp_path / "sub" / "x.bin"
    marshalcache.write(path, DATA)
    assert marshalcache.read(path) == DATA
    assert [p.name for p in path.parent.iterdir()] == ["x.bin"]  # no temporary file left


def test_a_damaged_cut_or_missing_file_reads_as_none(tmp_path):
    path = tmp_path / "x.bin"
    assert marshalcache.read(path) is None
    marshalcache.write(path, DATA)
    whole = path.read_bytes()
    flipped = [whole[:i] + bytes([whole[i] ^ 4]) + whole[i + 1:] for i in (0, 5, 13, 33, len(whole) - 1)]
    for broken in (whole[:-1], whole[:15], b"", whole + b"x", *flipped):
        path.write_bytes(broken)
        assert marshalcache.read(path) is None


def test_an_unwritable_place_is_skipped(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    marshalcache.write(blocker / "x.bin", DATA)  # its folder cannot be made: no error
    assert marshalcache.read(blocker / "x.bin") is None
