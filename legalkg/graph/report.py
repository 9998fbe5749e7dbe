"""What an ingest reports, whichever loader ran (the Cypher load or the bulk import)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class LawResult(BaseModel):
    law: str
    status: str  # loaded | unchanged | failed
    nodes: int = 0
    message: str | None = None


class IngestReport(BaseModel):
    laws: list[LawResult] = Field(default_factory=list)
    failures: list[tuple[str, str]] = Field(default_factory=list)
    nodes_written: int = 0
    cites_written: int = 0
    cite_stats: dict = Field(default_factory=dict)
    seconds: float = 0.0
    structure_seconds: float = 0.0
    phases: dict[str, float] = Field(default_factory=dict, description="seconds per step of a bulk import")
    fresh: set[str] = Field(default_factory=set, exclude=True, description="laws created from nothing in this run")

    @property
    def ok(self) -> bool:
        return not self.failures
