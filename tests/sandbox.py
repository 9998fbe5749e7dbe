"""The test run's own user state: HOME, caches, server records and ``.env`` never come from the user.

Why: ``scripts/quickstart.sh`` leaves a server behind that ``legalkg neo4j start`` recorded for
Bolt port 7687 in ``~/.cache/legalkg/servers/``, and a ``.env`` with its password in the checkout.
Tests that read either saw the user's server instead of their own. So before any test module is
imported, the run gets a temporary HOME, XDG cache and legalkg cache, an empty settings file
(``LEGALKG_ENV_FILE``), and none of the connection variables of the shell that started it.

Shared, because they are content-addressed downloads and build outputs and not state: the Neo4j jars
(named by the pom's hash), the JVM start-up caches (named by jar set and JVM) and Maven's local
repository. Fetching them again would cost minutes per run and change no result.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

#: connection and user settings of the calling shell that a test must never inherit
USER_VARIABLES = (
    "NEO4J_URI", "NEO4J_USER", "NEO4J_USERNAME", "NEO4J_PASSWORD", "NEO4J_DATABASE",
    "LEGALKG_NEO4J_HOME", "LEGALKG_BOLT_PORT", "LEGALKG_HTTP_PORT", "LEGALKG_MODEL",
    "LEGALKG_API_TOKEN", "LEGALKG_LLM_BASE_URL", "LEGALKG_LLM_API_KEY", "LEGALKG_LLM_MODEL",
)

#: cache folders that hold only content-addressed downloads and build outputs (shared, see above)
SHARED_BUILD_CACHES = ("neo4j-lib", "neo4j-cds")

MARKER = "LEGALKG_TEST_SANDBOX"
#: the pytest-xdist worker (``PYTEST_XDIST_WORKER``, "" outside one) whose sandbox ``MARKER`` names
OWNER = "LEGALKG_TEST_SANDBOX_OWNER"
#: the user's HOME, legalkg cache and MAVEN_OPTS before the first sandbox replaced them: an xdist
#: worker inherits the controller's sandbox and makes its own from these
REAL = ("LEGALKG_TEST_REAL_HOME", "LEGALKG_TEST_REAL_CACHE", "LEGALKG_TEST_REAL_MAVEN_OPTS")


def isolate_user_state() -> Path:
    """Point this process (and every child it starts) at a fresh sandbox; return its root.

    Idempotent within a process, so a second conftest import changes nothing. Each pytest-xdist
    worker gets a sandbox of its own (its servers, records and caches), not the controller's."""
    owner = os.environ.get("PYTEST_XDIST_WORKER", "")
    if os.environ.get(MARKER) and os.environ.get(OWNER, "") == owner:
        return Path(os.environ[MARKER])
    real_home = Path(os.environ.get(REAL[0]) or Path.home())
    real_cache = Path(os.environ.get(REAL[1]) or os.environ.get("LEGALKG_CACHE") or real_home / ".cache" / "legalkg")
    maven_opts = os.environ.get(REAL[2], os.environ.get("MAVEN_OPTS", ""))
    root = Path(tempfile.mkdtemp(prefix="legalkg-tests-"))
    home, cache = root / "home", root / "cache"
    cache.mkdir(parents=True)
    (home / ".cache").mkdir(parents=True)
    for name in SHARED_BUILD_CACHES:
        (real_cache / name).mkdir(parents=True, exist_ok=True)
        (cache / name).symlink_to(real_cache / name, target_is_directory=True)
    for key in USER_VARIABLES:
        os.environ.pop(key, None)
    maven_repo = f"-Dmaven.repo.local={real_home / '.m2' / 'repository'}"
    os.environ.update({
        MARKER: str(root),
        OWNER: owner,
        REAL[0]: str(real_home), REAL[1]: str(real_cache), REAL[2]: maven_opts,
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "LEGALKG_CACHE": str(cache),
        "LEGALKG_ENV_FILE": str(root / "no-such.env"),
        "MAVEN_OPTS": f"{maven_opts} {maven_repo}".strip(),
    })
    atexit.register(shutil.rmtree, root, True)
    return root
