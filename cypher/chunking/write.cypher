// Store one batch of a strategy's units: __LABEL__ = Study_<strategy> from the closed strategy list.
// `sections` = the covered § ids (routing metadata); `vec` may be null (lexical-only units).
UNWIND $rows AS r
CREATE (n:StudyUnit:__LABEL__ {id: r.id, strategy: $strategy, sections: r.sections, level: r.level,
                               text: r.text})
WITH n, r WHERE r.vec IS NOT NULL
CALL db.create.setNodeVectorProperty(n, 'embedding', r.vec)
RETURN count(*) AS n
