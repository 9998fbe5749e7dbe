"""Where gii XML comes from: a folder, a single file, a ``.tar.xz`` archive, or a download (I/O).

Archives are read member by member with :mod:`tarfile` (nothing is unpacked to disk). Downloads
(``https://www.gesetze-im-internet.de/<slug>/xml.zip``) are cached under
``paths.cache_dir()/downloads`` and only happen for a ``--source download``; tests never use them.
"""

from __future__ import annotations

import io
import tarfile
import urllib.request
import zipfile
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path

from .. import paths
from ..gcpolicy import worker_init
from ..model import Law, Level
from ..procs import process_pool
from .errors import ParseError
from .law import fast_unit, parse_bytes
from .stats import LawStats, law_stats

GII_URL = "https://www.gesetze-im-internet.de/{slug}/xml.zip"
DOWNLOAD = "download"


def parse_file(path: str | Path) -> Law:
    """Parse one gii XML file (raw with DOCTYPE or canonicalized without)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as err:
        raise ParseError(f"{p}: cannot read ({err.strerror or err})") from None
    return parse_bytes(data, str(p), slug=p.stem)


def _read(f: Path) -> bytes | ParseError:
    """The bytes of ``f``, or a one-line error: a folder named ``x.xml``, a looping or broken
    link and an unreadable file are failures of that item, not a traceback of the whole run."""
    if not f.is_file():  # False (no error) for a folder, a broken link and a link loop
        return ParseError(f"{f}: not a file (a folder, or a broken or looping link)")
    try:
        return f.read_bytes()
    except OSError as err:
        return ParseError(f"{f}: cannot read ({err.strerror or err})")


def _folder_items(folder: Path, codes: list[str] | None) -> Iterator[tuple[str, bytes | ParseError]]:
    files = sorted(folder.glob("*.xml"))
    if not files:  # "parsed 0 laws", exit 0, passed for a success; or one "unknown code" line per code
        raise ParseError(f"{folder} holds no .xml file: give the gii folder of the laws (or the "
                         "all-laws .tar.xz) as --source")
    if codes is None:
        for f in files:
            yield f.stem, _read(f)
        return
    for slug in codes:
        f = folder / f"{slug}.xml"
        if f.exists() or f.is_symlink():
            yield slug, _read(f)
        else:
            yield slug, ParseError(f"unknown code '{slug}' (not in {folder})")


def _archive_items(archive: Path, codes: list[str] | None) -> Iterator[tuple[str, bytes | ParseError]]:
    wanted = None if codes is None else set(codes)
    found: set[str] = set()
    try:
        tf = tarfile.open(archive, "r:*")
    except tarfile.TarError:  # its message lists every method tried, one line each
        raise ParseError(f"{archive}: not a tar archive (.tar.xz, .tar.gz or .tar): give the all-laws archive "
                         "of gesetze-im-internet.de or the gii folder as --source") from None
    except OSError as err:
        raise ParseError(f"{archive}: cannot open archive ({err.strerror or err})") from None
    with tf:
        try:
            for member in tf:
                if not member.isfile() or not member.name.endswith(".xml"):
                    continue
                slug = Path(member.name).stem
                if wanted is not None and slug not in wanted:
                    continue
                fh = tf.extractfile(member)
                if fh is None:
                    continue
                found.add(slug)
                yield slug, fh.read()
                if wanted is not None and found >= wanted:
                    break
        except (tarfile.TarError, EOFError, OSError) as err:
            # the whole source is bad: one line, not one "unknown code" line per law never reached
            detail = " ".join(str(err).split())
            raise ParseError(f"{archive}: damaged or truncated archive ({detail}): download it again or give "
                             "the gii folder as --source") from None
    if wanted is None and not found:
        raise ParseError(f"{archive} holds no .xml file: give the all-laws archive or the gii folder as --source")
    if wanted is not None:
        for slug in codes or []:
            if slug not in found:
                yield slug, ParseError(f"unknown code '{slug}' (not in {archive})")


def download(slug: str) -> bytes:
    """The official XML of one law, from the cache or gesetze-im-internet.de (needs internet)."""
    cache = paths.cache_dir() / "downloads" / f"{slug}.zip"
    if not cache.is_file():
        cache.parent.mkdir(parents=True, exist_ok=True)
        try:
            with urllib.request.urlopen(GII_URL.format(slug=slug), timeout=60) as resp:
                data = resp.read()
        except OSError as err:
            raise ParseError(f"download of '{slug}' failed ({err}); check the slug and your "
                             "internet connection") from None
        tmp = cache.with_suffix(".part")
        tmp.write_bytes(data)
        tmp.replace(cache)
    try:
        with zipfile.ZipFile(io.BytesIO(cache.read_bytes())) as zf:
            names = [n for n in zf.namelist() if n.endswith(".xml")]
            if not names:
                raise ParseError(f"download of '{slug}': the zip holds no XML file")
            return zf.read(names[0])
    except zipfile.BadZipFile:
        cache.unlink(missing_ok=True)
        raise ParseError(f"download of '{slug}': not a zip file (unknown slug?)") from None


def _download_items(codes: list[str] | None) -> Iterator[tuple[str, bytes | ParseError]]:
    if not codes:
        raise ParseError("--source download needs --codes (a list of slugs or 'default')")
    for slug in codes:
        try:
            yield slug, download(slug)
        except ParseError as err:
            yield slug, err


def default_source(codes: list[str] | None) -> Path:
    """The shared data for ``codes``: the folder of the 58 default codes when it holds every one of
    them, else the all-laws archive (every law of gii, ``--codes all`` or a law such as the BKatV)
    where there is one."""
    folder, archive = paths.gii_dir(), paths.gii_all_archive()
    if codes is None:
        return archive
    if all((folder / f"{slug}.xml").exists() for slug in codes) or not archive.is_file():
        return folder
    return archive


def raw_items(source: str | Path | None, codes: list[str] | None
              ) -> Iterator[tuple[str, bytes | ParseError]]:
    """(slug, bytes or error) for each selected law of ``source``, without parsing."""
    if source is None:
        source = default_source(codes)
    if str(source) == DOWNLOAD:
        yield from _download_items(codes)
        return
    src = Path(source)
    if src.is_dir():
        yield from _folder_items(src, codes)
    elif src.is_file() and (src.name.endswith((".tar.xz", ".txz", ".tar", ".tar.gz", ".tgz"))):
        yield from _archive_items(src, codes)
    elif src.is_file():
        yield src.stem, _read(src)
    else:
        raise ParseError(f"source '{src}' not found: give a folder of gii XML files, one XML file, "
                         "a .tar.xz archive or 'download'")


def _parse_item(item: tuple[str, bytes]) -> tuple[str, Law | ParseError]:
    slug, data = item
    try:
        return slug, parse_bytes(data, f"{slug}.xml", slug=slug)
    except ParseError as err:
        return slug, err
    except Exception as err:  # noqa: BLE001 -- a parser bug must not stop the other files
        return slug, ParseError(f"{slug}.xml: internal parser error {type(err).__name__}: {err}")


_UNIT_KEYS = ("id", "level", "parent_id", "order", "text", "title", "label", "kind", "repealed",
              "footnotes")
_LAW_KEYS = ("key", "jurabk", "amtabk", "title", "stand", "builddate", "doknr", "slug", "preamble")
_LEVELS = {lv.value: lv for lv in Level}


def pack_law(law: Law) -> tuple:
    """Plain tuples for the trip from a worker process: pickling pydantic models costs as much as
    parsing (BGB: 2 s each way), plain tuples a fraction of that."""
    d = law.__dict__
    return (tuple(d[k] for k in _LAW_KEYS),
            [(u.id, u.level.value, u.parent_id, u.order, u.text, u.title, u.label, u.kind,
              u.repealed, u.footnotes) for u in law.units])


def unpack_law(packed: tuple) -> Law:
    head, rows = packed
    units = []
    for row in rows:
        values = dict(zip(_UNIT_KEYS, row))
        values["level"] = _LEVELS[values["level"]]
        units.append(fast_unit(values))
    return Law.model_construct(**dict(zip(_LAW_KEYS, head)), units=units)


def _parse_packed(item: tuple[str, bytes]) -> tuple[str, tuple | ParseError]:
    slug, result = _parse_item(item)
    return slug, result if isinstance(result, ParseError) else pack_law(result)


def _unpacked(item: tuple[str, tuple | ParseError]) -> tuple[str, Law | ParseError]:
    slug, result = item
    return slug, result if isinstance(result, ParseError) else unpack_law(result)


def _stats_item(item: tuple[str, bytes]) -> tuple[str, LawStats | ParseError]:
    slug, result = _parse_item(item)
    return slug, result if isinstance(result, ParseError) else law_stats(result)


def _mapped(items: Iterator[tuple[str, bytes | ParseError]], work: Callable, workers: int,
            serial: Callable | None = None, finish: Callable = lambda r: r) -> Iterator[tuple]:
    """``work((slug, bytes))`` for every readable item, in source order; read errors pass through.

    ``workers`` > 1 runs ``work`` in a process pool with a bounded window of laws in flight and
    ``finish`` turns its plain result back into objects; one process runs ``serial`` (default
    ``work``) directly."""
    if workers <= 1:
        run = serial or work
        for slug, data in items:
            yield (slug, data) if isinstance(data, ParseError) else run((slug, data))
        return
    with process_pool(workers, worker_init) as pool:
        pending: deque = deque()
        for slug, data in items:
            pending.append((slug, data) if isinstance(data, ParseError)
                           else pool.submit(work, (slug, data)))
            while len(pending) > 4 * workers:
                head = pending.popleft()
                yield head if isinstance(head, tuple) else finish(head.result())
        for head in pending:
            yield head if isinstance(head, tuple) else finish(head.result())


class DuplicateLaw(ParseError):
    """Two source files parse to one law key: loading both would write one law twice (a constraint
    error halfway through a Cypher load, a failed bulk import) and counting both double-counts it."""


def unique_keys(results: Iterator[tuple[str, object]], source: str | Path | None
                ) -> Iterator[tuple[str, object]]:
    """``results`` unchanged, raising ``DuplicateLaw`` (one line naming both files) at the second
    file of a law key. A loader consumes every parse before it writes, so this stops it first."""
    where = f" in {source}" if source is not None else ""
    seen: dict[str, str] = {}
    for slug, result in results:
        key = getattr(result, "key", None)
        if key is not None:
            if key in seen:
                raise DuplicateLaw(f"{seen[key]}.xml and {slug}.xml{where} both hold the law '{key}': "
                                   "remove one of them (or choose one with --codes); nothing was written")
            seen[key] = slug
        yield slug, result


def iter_laws(source: str | Path | None = None, codes: list[str] | None = None, workers: int = 1
              ) -> Iterator[tuple[str, Law | ParseError]]:
    """Parse the selected laws: yields ``(slug, Law)`` or ``(slug, ParseError)``; never stops early,
    except at a second file of one law key (``DuplicateLaw``, raised).

    ``source`` None -> the shared ``gii`` folder, or the all-laws archive when ``codes`` is None.
    ``workers`` > 1 parses in a process pool (results in source order).
    """
    yield from unique_keys(_mapped(raw_items(source, codes), _parse_packed, workers, serial=_parse_item,
                                   finish=_unpacked), source)


def iter_law_stats(source: str | Path | None = None, codes: list[str] | None = None, workers: int = 1
                   ) -> Iterator[tuple[str, LawStats | ParseError]]:
    """Like :func:`iter_laws`, but yields each law's statistics (``legalkg parse --stats``).

    With ``workers`` > 1 the statistics are computed in the parser processes, so only a few
    counters travel back: on the all-laws archive the main process otherwise spends more time
    receiving and rebuilding a million units than the workers spend parsing them.
    """
    yield from unique_keys(_mapped(raw_items(source, codes), _stats_item, workers), source)
