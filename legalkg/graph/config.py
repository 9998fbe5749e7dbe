"""Connection settings: flags > environment > ``.env`` in the working directory > defaults.

``LEGALKG_ENV_FILE`` names another file to read instead of ``./.env`` (the test run points it at an
empty one, so a user's ``.env`` never reaches the tests)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from dotenv import dotenv_values
from pydantic import BaseModel

DEFAULT_URI = "bolt://127.0.0.1:7687"


_USERINFO = re.compile(r"(?<=://)([^/@\s]*)@")


def masked_uri(uri: str) -> str:
    """``uri`` with any ``user:password@`` replaced by ``***@``: a URI is printed in errors and
    status lines, and a password written into NEO4J_URI must not be printed with it."""
    return _USERINFO.sub("***@", uri)


class Neo4jConfig(BaseModel):
    uri: str = DEFAULT_URI
    user: str = "neo4j"
    password: str | None = None
    database: str = "neo4j"

    @property
    def auth(self) -> tuple[str, str] | None:
        """No password means a server with auth disabled (``legalkg neo4j start --no-auth``)."""
        return (self.user, self.password) if self.password else None


def _dotenv(path: Path) -> dict[str, str]:
    if not path.is_file():
        return {}
    return {k: v for k, v in dotenv_values(path).items() if v is not None}


def env_file() -> Path:
    """The settings file read after the environment: ``$LEGALKG_ENV_FILE``, else ``./.env``."""
    named = os.environ.get("LEGALKG_ENV_FILE")
    return Path(named).expanduser() if named else Path.cwd() / ".env"


def load_config(
    uri: str | None = None,
    user: str | None = None,
    password: str | None = None,
    database: str | None = None,
    env: dict[str, str] | None = None,
    dotenv_path: Path | None = None,
) -> Neo4jConfig:
    """Resolve settings; the environment wins over ``.env`` so CI and shells can override a file."""
    merged: dict[str, str] = _dotenv(dotenv_path or env_file())
    merged.update(env if env is not None else os.environ)
    return Neo4jConfig(
        uri=uri or merged.get("NEO4J_URI") or DEFAULT_URI,
        user=user or merged.get("NEO4J_USER") or merged.get("NEO4J_USERNAME") or "neo4j",
        password=password if password is not None else (merged.get("NEO4J_PASSWORD") or None),
        database=database or merged.get("NEO4J_DATABASE") or "neo4j",
    )
