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
    cocited: dict[str, int] = Field(default_factory=dict, description="CO_CITED edges in the graph per task")
    cocited_seconds: float = 0.0
    enabling: dict[str, int] = Field(default_factory=dict, description=(
        "AUTHORIZED_BY: laws with a preamble, edges, unresolved references (load.py / bulk.py)"))
    enabling_seconds: float = Field(0.0, description="reading the preambles and writing their edges")
    definitions: int = Field(0, description="DEFINES edges (legal definitions) of the loaded laws")
    definitions_seconds: float = Field(0.0, description="reading the definitions and writing their Term nodes")
    broken_references: int = Field(0, description="BrokenReference nodes (graph.broken) of the loaded laws")
    cocited_rows_seconds: float = Field(0.0, description="of cocited_seconds: making the rows (the predictors)")
    fresh: set[str] = Field(default_factory=set, exclude=True, description="laws created from nothing in this run")

    @property
    def ok(self) -> bool:
        return not self.failures

    def summary_lines(self) -> list[str]:
        """What ``legalkg ingest`` prints on stdout: the laws, and the citations where they were scanned."""
        loaded = sum(1 for r in self.laws if r.status == "loaded")
        unchanged = sum(1 for r in self.laws if r.status == "unchanged")
        lines = [f"laws: {loaded} loaded, {unchanged} unchanged, {len(self.failures)} failed; "
                 f"{self.nodes_written:,} nodes and {self.cites_written:,} citation edges written "
                 f"in {self.seconds:.1f} s"]
        if self.cite_stats:
            cs = self.cite_stats
            lines.append(f"citations: {cs['edges']:,} edges {cs['by_kind']}; unresolved {cs['unresolved']}")
        if self.enabling.get("preambles"):
            en = self.enabling
            lines.append(f"enabling provisions: {en['edges']:,} AUTHORIZED_BY edges from {en['laws']:,} of "
                         f"{en['preambles']:,} laws with a preamble, {en['unresolved']:,} unresolved "
                         f"({en.get('unresolved_edges', 0):,} of them edges to laws outside the graph), "
                         f"in {self.enabling_seconds:.1f} s")
        if self.definitions:
            lines.append(f"definitions: {self.definitions:,} DEFINES edges in {self.definitions_seconds:.1f} s")
        if self.broken_references:
            lines.append(f"broken references: {self.broken_references:,} BrokenReference nodes (citations of a missing "
                         "or repealed unit; `legalkg serve --http` lists them at /references/broken)")
        if self.cocited:
            per_task = ", ".join(f"{n:,} {task}" for task, n in self.cocited.items())
            lines.append(f"co-citations: {per_task} CO_CITED edges of the shipped predictors' training cases "
                         f"in {self.cocited_seconds:.1f} s ({self.cocited_rows_seconds:.1f} s reading the predictors)")
        return lines

    def failure_lines(self) -> list[str]:
        """One ``error:`` line per failed law, then the count (empty when every law loaded). The count
        says what did load: "the others were loaded" was printed for an unknown ``--codes`` alone,
        where nothing was."""
        if not self.failures:
            return []
        loaded = sum(1 for r in self.laws if r.status == "loaded")
        unchanged = sum(1 for r in self.laws if r.status == "unchanged")
        done = [f"{n} {what}" for n, what in ((loaded, "loaded"), (unchanged, "unchanged")) if n]
        return [f"error: {message}" for _name, message in self.failures] + [
            f"error: {len(self.failures)} of {len(self.laws)} laws failed; "
            + (", ".join(done) if done else "none was loaded")]
