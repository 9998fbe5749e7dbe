// legalkg graph schema. Idempotent (IF NOT EXISTS): `legalkg ingest` runs it before loading.
// One uniqueness constraint on id per node label (each also gives a range index for lookups).
CREATE CONSTRAINT root_id IF NOT EXISTS FOR (n:Root) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT gesetz_id IF NOT EXISTS FOR (n:Gesetz) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT gliederung_id IF NOT EXISTS FOR (n:Gliederung) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT paragraph_id IF NOT EXISTS FOR (n:Paragraph) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT absatz_id IF NOT EXISTS FOR (n:Absatz) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT satz_id IF NOT EXISTS FOR (n:Satz) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT nummer_id IF NOT EXISTS FOR (n:Nummer) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT buchstabe_id IF NOT EXISTS FOR (n:Buchstabe) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT doppelbuchstabe_id IF NOT EXISTS FOR (n:Doppelbuchstabe) REQUIRE n.id IS UNIQUE;
// :Unit is the shared label of all text units (Paragraph ... Doppelbuchstabe).
CREATE CONSTRAINT unit_id IF NOT EXISTS FOR (n:Unit) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT chunk_id IF NOT EXISTS FOR (n:Chunk) REQUIRE n.id IS UNIQUE;
// Legal definitions: one Term per (term, scope), looked up by its lower-case key (`legalkg define`).
CREATE CONSTRAINT term_id IF NOT EXISTS FOR (n:Term) REQUIRE n.id IS UNIQUE;
CREATE INDEX term_key IF NOT EXISTS FOR (n:Term) ON (n.key);
CREATE INDEX term_law IF NOT EXISTS FOR (n:Term) ON (n.law);
// A law outside the graph that an ordinance's Eingangsformel names: the end of an unresolved AUTHORIZED_BY
// edge (one node per ordinance and law, `law` = the ordinance).
CREATE CONSTRAINT cited_law_id IF NOT EXISTS FOR (n:CitedLaw) REQUIRE n.id IS UNIQUE;
CREATE INDEX cited_law_law IF NOT EXISTS FOR (n:CitedLaw) ON (n.law);
// A statute citation that points to a missing or repealed unit (graph.broken; `law` = the citing law),
// linked from its citing unit by HAS_BROKEN_REFERENCE.
CREATE CONSTRAINT broken_reference_id IF NOT EXISTS FOR (n:BrokenReference) REQUIRE n.id IS UNIQUE;
CREATE INDEX broken_reference_law IF NOT EXISTS FOR (n:BrokenReference) ON (n.law);
CREATE CONSTRAINT embedding_model_index IF NOT EXISTS FOR (n:EmbeddingModel) REQUIRE n.index IS UNIQUE;
// Per-law lookups (reload of a changed law, deletion of vanished units, --law filters).
CREATE INDEX unit_law IF NOT EXISTS FOR (n:Unit) ON (n.law);
CREATE INDEX gliederung_law IF NOT EXISTS FOR (n:Gliederung) ON (n.law);
CREATE INDEX chunk_law IF NOT EXISTS FOR (n:Chunk) ON (n.law);
// German full-text search, one index per level so a lexical top-k at a level needs no
// post-filtering (light stemmer: "Kautionen" finds "Kaution"). Eventually consistent: updates are
// applied in the background, which makes loading much faster; ingest waits for the refresh at the end.
CREATE FULLTEXT INDEX fulltext_Paragraph IF NOT EXISTS FOR (n:Paragraph) ON EACH [n.text, n.title]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'german', `fulltext.eventually_consistent`: true}};
CREATE FULLTEXT INDEX fulltext_Absatz IF NOT EXISTS FOR (n:Absatz) ON EACH [n.text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'german', `fulltext.eventually_consistent`: true}};
CREATE FULLTEXT INDEX fulltext_Satz IF NOT EXISTS FOR (n:Satz) ON EACH [n.text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'german', `fulltext.eventually_consistent`: true}};
CREATE FULLTEXT INDEX fulltext_Nummer IF NOT EXISTS FOR (n:Nummer) ON EACH [n.text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'german', `fulltext.eventually_consistent`: true}};
CREATE FULLTEXT INDEX fulltext_Buchstabe IF NOT EXISTS FOR (n:Buchstabe) ON EACH [n.text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'german', `fulltext.eventually_consistent`: true}};
CREATE FULLTEXT INDEX fulltext_Doppelbuchstabe IF NOT EXISTS FOR (n:Doppelbuchstabe) ON EACH [n.text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'german', `fulltext.eventually_consistent`: true}};
CREATE FULLTEXT INDEX fulltext_Chunk IF NOT EXISTS FOR (n:Chunk) ON EACH [n.text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'german', `fulltext.eventually_consistent`: true}};
