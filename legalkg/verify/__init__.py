"""Check the statute citations of a text against the graph: ``legalkg verify``.

Public API::

    from legalkg.verify import Verifier, verify_text, Status
    report = Verifier(driver, "neo4j").verify("Nach § 574 Abs. 5 ZPO ...")   # reuse for many texts
    report.records      # list[CitationRecord]: span, offsets, status, id, citation, text, support
    report.exit_code    # 0 every citation ok, 1 any broken
    rec.status          # Status.OK | REPEALED | NO_SUCH_UNIT | LAW_NOT_IN_GRAPH | AMBIGUOUS | UNPARSED

Rooms: ``status`` (pure: grammar reading + existing units -> status), ``records`` (pure: the
records), ``text`` (pure: citing sentence, masking, unread § signs), ``support`` (pure: the
score), ``compact`` (pure: the chain lines of ``--json``), ``inputs`` (argument / stdin / file,
one-line refusals), ``verifier`` (the two lookups).
"""

from .compact import SCHEMA, chain_lines, expand, tool_answer, with_records
from .inputs import MAX_CHARS, VerifyInputError, check_text, read_source
from .records import CitationRecord
from .status import BROKEN, Status
from .support import SUPPORT_THRESHOLD, VECTOR_WEIGHT
from .verifier import Verifier, VerifyReport, verify_text

__all__ = ["BROKEN", "MAX_CHARS", "SCHEMA", "SUPPORT_THRESHOLD", "VECTOR_WEIGHT", "CitationRecord", "Status",
           "Verifier", "VerifyInputError", "VerifyReport", "chain_lines", "check_text", "expand", "read_source",
           "tool_answer", "verify_text", "with_records"]
