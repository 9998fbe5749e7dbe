"""Open a driver and turn every connection failure into one line that names the URI and the fix."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import neo4j
from neo4j import Driver, GraphDatabase, exceptions as nx

from ..errors import ConnectionProblem
from .config import Neo4jConfig, masked_uri
from .cypher import query

START_HINT = "start it with `docker compose up -d` or `legalkg neo4j start`"


RATE_LIMIT = "AuthenticationRateLimit"


def _causes(err: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    while err is not None and id(err) not in seen:
        seen.add(id(err))
        yield err
        err = err.__cause__ or err.__context__


def _rate_limited(err: Exception) -> bool:
    """Neo4j's answer after repeated wrong passwords (``Neo.ClientError.Security.AuthenticationRateLimit``);
    the driver may wrap it, so the code is looked for in the error and its causes."""
    return any(RATE_LIMIT in (getattr(e, "code", None) or "") or RATE_LIMIT in str(e) for e in _causes(err))


def _problem(cfg: Neo4jConfig, err: Exception) -> ConnectionProblem:
    problem = _describe(cfg.model_copy(update={"uri": masked_uri(cfg.uri)}), err)
    secret = cfg.uri.split("://", 1)[-1].split("@", 1)[0] if "@" in cfg.uri else ""
    return ConnectionProblem(str(problem).replace(secret, "***")) if secret else problem


def _describe(cfg: Neo4jConfig, err: Exception) -> ConnectionProblem:
    if _rate_limited(err):
        return ConnectionProblem(
            f"Neo4j at {cfg.uri} refuses user '{cfg.user}' for now after too many wrong passwords: "
            "wait a few seconds and try again, and check NEO4J_USER / NEO4J_PASSWORD (environment or .env)"
        )
    if isinstance(err, nx.AuthError):
        return ConnectionProblem(
            f"Neo4j at {cfg.uri} refused the credentials of user '{cfg.user}': "
            "set NEO4J_USER / NEO4J_PASSWORD (environment or .env) to the server's credentials, or give "
            "a server of `legalkg neo4j start` this password with `legalkg neo4j reset-password`"
        )
    if isinstance(err, (nx.ConfigurationError, ValueError)):
        return ConnectionProblem(
            f"invalid Neo4j address {cfg.uri!r} ({err}): set NEO4J_URI like bolt://127.0.0.1:7687"
        )
    if isinstance(err, nx.ClientError) and "database" in str(err).lower():
        return ConnectionProblem(
            f"Neo4j at {cfg.uri} has no database '{cfg.database}': set NEO4J_DATABASE to an existing one"
        )
    return ConnectionProblem(f"cannot reach Neo4j at {cfg.uri}: {START_HINT}")


_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


#: Seconds the driver retries a transaction that failed for a transient reason (Neo4j gone, a
#: leader switch) before the error reaches the caller: a stopped server is one line within about
#: this long, not 30 s of retry warnings.
RETRY_S = 10.0
#: Seconds to get a connection from the pool, a new one's handshake included: a listener that
#: accepts and never answers (no Bolt server) fails after this, not after the driver's 60 s.
ACQUIRE_S = 10.0


def open_driver(cfg: Neo4jConfig, verify: bool = True, retry_time: float = RETRY_S) -> Driver:
    """A verified driver; raises ConnectionProblem (exit 2) instead of a driver traceback.

    ``verify=False`` skips the round trip: for a bulk import that starts the server itself.
    """
    ping = query("ping")  # read before connecting: a missing file is no connection failure
    scheme = cfg.uri.split("://", 1)[0] if "://" in cfg.uri else ""
    if scheme not in _SCHEMES:
        raise ConnectionProblem(f"invalid Neo4j address {masked_uri(cfg.uri)!r}: set NEO4J_URI like "
                                "bolt://127.0.0.1:7687 (schemes: " + ", ".join(_SCHEMES) + ")")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            driver = GraphDatabase.driver(cfg.uri, auth=cfg.auth, connection_timeout=5.0,
                                          connection_acquisition_timeout=ACQUIRE_S,
                                          max_transaction_retry_time=retry_time,
                                          notifications_min_severity="OFF")
    except Exception as err:  # bad URI scheme etc.
        raise _problem(cfg, err) from None
    if not verify:
        return driver
    try:
        driver.verify_connectivity()
        driver.execute_query(ping, database_=cfg.database)
    except (nx.Neo4jError, nx.DriverError, OSError, ValueError) as err:
        driver.close()
        raise _problem(cfg, err) from None
    return driver


@contextmanager
def session_driver(cfg: Neo4jConfig, verify: bool = True, retry_time: float = RETRY_S) -> Iterator[Driver]:
    driver = open_driver(cfg, verify, retry_time)
    try:
        yield driver
    except (nx.ServiceUnavailable, nx.SessionExpired) as err:
        raise _problem(cfg, err) from None
    finally:
        driver.close()


def server_info(driver: Driver, database: str) -> dict[str, str]:
    rec = driver.execute_query(query("server_components"), database_=database).records[0]
    return {"name": rec["name"], "version": rec["version"], "edition": rec["edition"],
            "driver": neo4j.__version__}
