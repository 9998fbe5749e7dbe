"""A driver that can only read: every session, transaction and ``execute_query`` in READ access mode.

Why a wrapper instead of care: the server's tools reach Neo4j through rooms written for the CLI
(the ``Retriever`` reads some facts with ``execute_query``, whose default routing is WRITE). In a
READ session Neo4j itself refuses any write ("Writing in read access mode not allowed"), so the
guarantee holds for every query the tools run, whoever wrote it; tests/serve shows the refusal.
"""

from __future__ import annotations

from typing import Any

from neo4j import READ_ACCESS, Driver, RoutingControl


class ReadOnlySession:
    """A session whose ``execute_write`` is ``execute_read``: a transaction function picks its own
    access mode, so the session's READ default alone would let it write."""

    def __init__(self, session: Any) -> None:
        self._session = session

    def execute_write(self, transaction_function: Any, *args: Any, **kwargs: Any) -> Any:
        return self._session.execute_read(transaction_function, *args, **kwargs)

    def __enter__(self) -> ReadOnlySession:
        self._session.__enter__()
        return self

    def __exit__(self, *exc: Any) -> Any:
        return self._session.__exit__(*exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


class ReadOnlyDriver:
    """The wrapped driver with READ forced on ``session`` and ``execute_query``; the rest delegates."""

    def __init__(self, driver: Driver) -> None:
        self._driver = driver

    def session(self, **config: Any) -> ReadOnlySession:
        config["default_access_mode"] = READ_ACCESS
        return ReadOnlySession(self._driver.session(**config))

    def execute_query(self, query_: Any, parameters_: dict | None = None, routing_: Any = None, *args: Any,
                      **kwargs: Any):
        return self._driver.execute_query(query_, parameters_, RoutingControl.READ, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._driver, name)
