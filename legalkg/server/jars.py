"""The Neo4j jars: resolved by Maven from the pom once into the cache, with their signatures removed.

Why Maven: the server and Browser jars come from Maven Central, so no Docker and no tarball are
needed; ``<cache>/neo4j-lib/<pom hash>/`` is filled once and the second start downloads nothing.

Why unsigned: Neo4j 5.26 depends on two signed jars (eclipse-collections and its API), whose
classes the admin tool and the server use from their first second. A class-data or AOT cache skips
every class of a signed jar, and each JVM start checks the signature files again
(docs/benchmarks/ingest.md). Maven verified the downloads' checksums; the signature adds no check
that legalkg relies on, and the class files are untouched.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

from ..errors import UserError
from ..paths import cache_dir, neo4j_pom

#: part of the jar folder's name: a folder filled before the jars lost their signatures is not reused
JARS_REVISION = b"unsigned-1"

#: the files that make a jar signed (JAR File Specification, "Signed JAR File")
SIGNATURE = re.compile(r"META-INF/[^/]+\.(?:SF|RSA|DSA|EC)", re.IGNORECASE)


def is_signed(jar: Path) -> bool:
    with zipfile.ZipFile(jar) as z:
        return any(SIGNATURE.fullmatch(name) for name in z.namelist())


def unsign(jar: Path) -> bool:
    """Rewrite ``jar`` without its signature files (atomically: a JVM that has the old file open
    keeps reading it). Returns False when the jar was not signed (and leaves it as it is)."""
    with zipfile.ZipFile(jar) as src:
        infos = src.infolist()
        if not any(SIGNATURE.fullmatch(i.filename) for i in infos):
            return False
        tmp = jar.with_name(jar.name + ".unsigned.tmp")
        try:
            with zipfile.ZipFile(tmp, "w") as dst:
                for info in infos:
                    if not SIGNATURE.fullmatch(info.filename):
                        dst.writestr(info, src.read(info), compress_type=info.compress_type)
            os.replace(tmp, jar)
        finally:
            tmp.unlink(missing_ok=True)
    return True


def unsign_all(lib: Path) -> list[str]:
    """Remove the signatures of every signed jar in ``lib``; the names of the jars changed."""
    return [jar.name for jar in sorted(lib.glob("*.jar")) if unsign(jar)]


def jar_dir(pom: Path | None = None) -> Path:
    """The cache folder of the jars that ``pom`` (default :func:`legalkg.paths.neo4j_pom`) names."""
    pom = neo4j_pom() if pom is None else pom
    digest = hashlib.sha256(pom.read_bytes() + JARS_REVISION).hexdigest()[:12]
    return cache_dir() / "neo4j-lib" / digest


def ensure_jars(pom: Path | None = None, quiet: bool = True) -> Path:
    """Resolve the server and Browser jars with Maven into the cache (atomically, once).

    The folder is returned with its links resolved: a JVM's start-up cache holds the class path it
    was recorded with and refuses any other spelling of it, so every JVM names the jars alike, also
    when the cache folder is reached through a link (a second checkout's, or the tests' sandbox)."""
    pom = neo4j_pom() if pom is None else pom
    lib = jar_dir(pom)
    if (lib / ".complete").exists():
        return lib.resolve()
    mvn = shutil.which("mvn")
    if not mvn:
        raise UserError("Maven (mvn) is needed once to fetch the Neo4j jars: install it "
                        "(apt install maven) or use `docker compose up -d`")
    lib.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="lib-", dir=lib.parent))
    cmd = [mvn, "-B", "-f", str(pom), "dependency:copy-dependencies",
           f"-DoutputDirectory={tmp}", "-DincludeScope=runtime"]
    if quiet:
        cmd.insert(1, "-q")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0 or not any(tmp.glob("neo4j-5*.jar")):
        shutil.rmtree(tmp, ignore_errors=True)
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-3:]
        raise UserError("could not fetch the Neo4j jars from Maven Central "
                        f"({' / '.join(tail) or 'no jars'}): check the network or ~/.m2/settings.xml")
    unsign_all(tmp)  # cacheable classes, no signature check per JVM start
    (tmp / ".complete").touch()
    if lib.exists():
        shutil.rmtree(lib)
    tmp.rename(lib)
    return lib.resolve()
