// Chunking study (docs/chunking-study.md): lookups of a strategy's :StudyUnit nodes.
CREATE INDEX study_unit_strategy IF NOT EXISTS FOR (n:StudyUnit) ON (n.strategy);
