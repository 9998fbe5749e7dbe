"""Which Java runs Neo4j (server, launcher and admin tool), and the bookkeeping of its start-up caches.

Why a choice at all: every bulk load starts two cold JVMs (the admin tool's import, then the
server), and on 2 cores their class loading and JIT compilation are a large part of the load.
JDK 25 can map an AOT cache (JEP 483/514/515: classes loaded and linked, and method profiles)
recorded once by a training run, which made the import and the whole load clearly faster than
JDK 17 with its class-data archive (docs/benchmarks/ingest.md). So when nothing is pinned, a JDK 25
found in the usual install folders is preferred over the ``java`` on PATH. Neo4j 5.26 names Java 17
and 21 as its supported runtimes; the test suite runs on the JVM chosen here (CI: JDK 25). Pin
another one with ``LEGALKG_JAVA`` (a java binary or a JDK folder) or ``JAVA_HOME``.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import time
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel

from ..errors import UserError

#: majors whose AOT cache is used and that are picked without being pinned (tested: 25)
AOT_MAJORS = (25,)
#: where JDKs are installed (Debian/Ubuntu packages, Temurin tarballs and images)
JDK_FOLDERS = (Path("/usr/lib/jvm"), Path("/opt/java"))


class Java(BaseModel, frozen=True):
    """One java binary and what legalkg does with it."""

    path: str
    major: int

    @property
    def aot(self) -> bool:
        """True: start-up work is cached in a JEP 483 AOT cache; False: a class-data archive."""
        return self.major in AOT_MAJORS

    @property
    def flags(self) -> list[str]:
        """Options every Neo4j JVM gets on this Java: JDK 24+ warns (on stderr, into neo4j.log)
        about Neo4j's use of ``sun.misc.Unsafe`` and JNA's native calls; both are still allowed."""
        if self.major >= 24:
            return ["--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"]
        return []

    def use_cache(self, archive: Path) -> list[str]:
        return [f"-XX:AOTCache={archive}"] if self.aot else [f"-XX:SharedArchiveFile={archive}"]

    def record_cache(self, archive: Path) -> list[str]:
        """Options of a training run that writes ``archive`` when its JVM exits."""
        return [f"-XX:AOTCacheOutput={archive}"] if self.aot else [f"-XX:ArchiveClassesAtExit={archive}"]

    def require_cache(self, archive: Path) -> list[str]:
        """Options under which a JVM refuses to start unless ``archive`` maps (the check after a recording)."""
        return ["-XX:AOTMode=on", *self.use_cache(archive)] if self.aot else [*self.use_cache(archive), "-Xshare:on"]

    def describe(self) -> str:
        """One line for `legalkg neo4j start`: which Java, and which start-up cache it maps."""
        cache = "AOT cache" if self.aot else "class-data archive"
        return f"{self.path} (Java {self.major}, {cache}; pin another with LEGALKG_JAVA)"

    def maps(self, archive: Path, classpath: str) -> bool:
        """True when a JVM with ``classpath`` starts while required to map ``archive`` (the check a
        recording passes before it is kept: a truncated cache would crash every JVM that maps it)."""
        try:
            proc = subprocess.run([self.path, *self.flags, *self.require_cache(archive), "-cp", classpath,
                                   "-version"], capture_output=True, text=True)
        except OSError:
            return False
        return proc.returncode == 0

    def keep(self, recorded: Path, archive: Path, classpath: str) -> bool:
        """After a training run: move ``recorded`` to ``archive`` when it :meth:`maps`, else mark
        ``archive`` failed (:func:`give_up_recording`; the same jars and JVM would record the same
        unusable cache again). True when the cache is in place."""
        if recorded.exists() and self.maps(recorded, classpath):
            recorded.replace(archive)
            return True
        give_up_recording(archive, "recorded, but no JVM starts on it" if recorded.exists()
                          else "the training run wrote no cache")
        return False

    @property
    def suffix(self) -> str:
        return ".aot" if self.aot else ".jsa"

    @property
    def fingerprint(self) -> str:
        """Identifies the JVM build: a cache recorded by another JVM is refused by the JVM anyway,
        but a new name keeps the old file from being tried on every start."""
        real = Path(self.path).resolve()
        st = real.stat()
        return hashlib.sha256(f"{real}:{st.st_size}:{st.st_mtime_ns}".encode()).hexdigest()[:10]


#: A training folder this old belongs to a recording that was killed (a recording takes a minute).
STALE_TRAINING_S = 3600


def failed_marker(archive: Path) -> Path:
    """The file that says recording ``archive`` failed for this jar set and JVM (both are in its name)."""
    return archive.with_name(archive.name + ".failed")


def wants_recording(archive: Path) -> bool:
    """True unless ``archive`` exists or recording it failed before: a recording costs 15-60 s
    and fails the same way again for the same jars and JVM. Deleting the ``.failed`` file (or a
    new JVM, which has another name) allows the next try."""
    return not archive.exists() and not failed_marker(archive).exists()


def give_up_recording(archive: Path, reason: str) -> None:
    """Record that ``archive`` could not be recorded (best effort: the cache only saves time)."""
    try:
        archive.parent.mkdir(parents=True, exist_ok=True)
        failed_marker(archive).write_text(reason + "\n", "utf-8")
    except OSError:
        pass


def cache_state(archive: Path) -> str:
    """What ``legalkg neo4j status`` says about one start-up cache."""
    if archive.exists():
        return f"recorded ({archive.stat().st_size / 1e6:,.0f} MB, {archive})"
    marker = failed_marker(archive)
    if marker.exists():
        reason = marker.read_text("utf-8", errors="replace").strip() or "no reason kept"
        return f"not used: recording failed ({reason}); delete {marker} to try again"
    return "not recorded yet (the next use records it once)"


def sweep_training(folder: Path, now: float | None = None) -> list[str]:
    """Remove the ``train-*`` folders of recordings that were killed (older than
    :data:`STALE_TRAINING_S`); a recording in progress elsewhere is younger and stays."""
    now = time.time() if now is None else now
    removed = []
    try:
        entries = list(folder.glob("train-*"))
    except OSError:
        return removed
    for entry in entries:
        try:
            if entry.is_dir() and now - entry.stat().st_mtime > STALE_TRAINING_S:
                shutil.rmtree(entry, ignore_errors=True)
                removed.append(entry.name)
        except OSError:
            continue
    return removed


def _binary(value: str) -> Path | None:
    """A java binary given as itself or as its JDK folder."""
    p = Path(value).expanduser()
    for candidate in (p, p / "bin" / "java"):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def _release_major(java: Path) -> int | None:
    """The major version from the JDK's ``release`` file (no JVM start)."""
    try:
        text = (java.resolve().parent.parent / "release").read_text("utf-8", errors="replace")
    except OSError:
        return None
    m = re.search(r'^JAVA_VERSION="(\d+)(?:\.(\d+))?', text, re.M)
    if not m:
        return None
    first = int(m.group(1))
    return int(m.group(2) or 0) if first == 1 else first  # "1.8.0" is Java 8


@lru_cache(maxsize=16)
def major_version(java: str) -> int:
    """The Java major version of a binary: its ``release`` file, else ``java -version``."""
    found = _release_major(Path(java))
    if found is not None:
        return found
    try:
        out = subprocess.run([java, "-XshowSettings:properties", "-version"], capture_output=True,
                             text=True, timeout=60).stderr
    except (OSError, subprocess.TimeoutExpired):
        return 0
    m = re.search(r"java\.specification\.version = (?:1\.)?(\d+)", out)
    return int(m.group(1)) if m else 0


def installed() -> list[Path]:
    """The java binaries in :data:`JDK_FOLDERS` (one per JDK folder; links to the same binary once)."""
    seen: dict[Path, Path] = {}
    for folder in JDK_FOLDERS:
        try:
            entries = sorted(folder.iterdir())
        except OSError:
            continue
        for entry in entries:
            java = _binary(str(entry))
            if java is not None:
                seen.setdefault(java.resolve(), java)
    return list(seen.values())


def find(env: dict[str, str] | None = None) -> Java:
    """The Java legalkg runs Neo4j with: ``LEGALKG_JAVA``, else ``JAVA_HOME``, else the newest
    installed JDK of :data:`AOT_MAJORS`, else ``java`` on PATH."""
    env = os.environ if env is None else env
    pinned = env.get("LEGALKG_JAVA")
    if pinned:
        java = _binary(pinned)
        if java is None:
            raise UserError(f"LEGALKG_JAVA={pinned} is neither a java binary nor a JDK folder: point it at "
                            "one (e.g. /usr/lib/jvm/temurin-25-jdk-amd64) or unset it")
        return Java(path=str(java), major=major_version(str(java)))
    home = env.get("JAVA_HOME")
    if home and (java := _binary(str(Path(home) / "bin" / "java"))) is not None:
        return Java(path=str(java), major=major_version(str(java)))
    best: Java | None = None
    for java in installed():
        major = major_version(str(java))
        if major in AOT_MAJORS and (best is None or major > best.major):
            best = Java(path=str(java), major=major)
    if best is not None:
        return best
    path = shutil.which("java", path=env.get("PATH"))
    if not path:
        raise UserError("Java 17+ is needed to run Neo4j without Docker: install OpenJDK 17 "
                        "(apt install openjdk-17-jre-headless), point LEGALKG_JAVA at a JDK, "
                        "or use `docker compose up -d`")
    return Java(path=path, major=major_version(path))
