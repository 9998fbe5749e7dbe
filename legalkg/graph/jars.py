"""Jar signatures off: the JVM caches no class of a signed jar and verifies the jar at every start.

Why: Neo4j 5.26 depends on two signed jars (eclipse-collections and its API, about 12 MB), whose
classes are used by the admin tool and the server from their first second. A class-data or AOT
cache skips every class of a signed jar, and each JVM start checks the signature files again.
In the 58-code loads of ``benchmarks/ingest_load.py`` after the change, the restart after the
import took 4.1-4.5 s and the import 13.5-13.6 s, against 5.7-6.9 s and 14.4-15.0 s in the runs
before it (docs/benchmarks/ingest.md, "eighth session").
The jars come from Maven Central, whose checksums Maven verified on download; the signature
adds no check that legalkg relies on, and the class files are untouched.
"""

from __future__ import annotations

import os
import re
import zipfile
from pathlib import Path

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
