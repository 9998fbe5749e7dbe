"""Wait for vector indexes to come ONLINE after a bulk write, for as long as they make progress.

Why not one ``db.awaitIndexes(timeout)``: a vector index built after its vectors were written
(``vectors.BULK_REBUILD``) populates in time that grows with the vectors, from seconds for one code
to many minutes for the Sätze of all 6,821 laws on two cores. Any fixed timeout is either too short
for all laws or far too long to notice a stuck index. So the wait lasts while the population
percentages still move, and gives up, with one line, only when nothing moved for ``stall_s``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from neo4j import Driver
from pydantic import BaseModel

from ..errors import UserError
from .cypher import query


class IndexState(BaseModel):
    """One vector index as ``SHOW INDEXES`` reports it."""

    name: str
    state: str
    percent: float = 0.0


def waiting_verdict(states: Sequence[IndexState], stalled_s: float, stall_s: float) -> str | None:
    """``None`` when every index is ONLINE, ``"wait"`` while one still populates, else the error line.

    ``stalled_s``: seconds since any population percentage last changed.
    """
    failed = [s.name for s in states if s.state == "FAILED"]
    if failed:
        return (f"vector index {', '.join(failed)} FAILED to populate (see the server's debug.log); "
                f"run `legalkg embed` again to rebuild it")
    if all(s.state == "ONLINE" for s in states):
        return None
    if stalled_s > stall_s:
        busy = ", ".join(f"{s.name} {s.percent:.0f} %" for s in states if s.state != "ONLINE")
        return (f"vector index population made no progress for {stall_s:.0f} s ({busy}); check the "
                f"server's memory and debug.log, then run `legalkg embed` again")
    return "wait"


def read_states(driver: Driver, db: str) -> list[IndexState]:
    """The vector indexes' states, read once (the query of `legalkg doctor`, its VECTOR rows)."""
    recs = driver.execute_query(query("doctor_indexes"), database_=db).records
    return [IndexState(name=r["name"], state=r["state"], percent=float(r["populationPercent"] or 0.0))
            for r in recs if r["type"] == "VECTOR"]


def await_vector_indexes(driver: Driver, db: str, stall_s: float = 600.0, poll_s: float = 2.0,
                         clock: Callable[[], float] = time.monotonic) -> float:
    """Block until every vector index is ONLINE; the seconds waited. ``UserError`` on FAILED or a stall."""
    started = last_move = clock()
    last: tuple[tuple[str, str, float], ...] | None = None
    while True:
        states = read_states(driver, db)
        seen = tuple((s.name, s.state, s.percent) for s in states)
        now = clock()
        if seen != last:
            last, last_move = seen, now
        verdict = waiting_verdict(states, now - last_move, stall_s)
        if verdict is None:
            return now - started
        if verdict != "wait":
            raise UserError(verdict)
        time.sleep(poll_s)
