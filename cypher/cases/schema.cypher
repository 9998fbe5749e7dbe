// Decision nodes (`legalkg ingest-cases`): one per court decision, found again by id on a re-ingest.
// Idempotent (IF NOT EXISTS). file_key finds a decision cited by its file number (CITES_DECISION);
// court and date serve the backlinks (counts per court, most recent first).
CREATE CONSTRAINT decision_id IF NOT EXISTS FOR (n:Decision) REQUIRE n.id IS UNIQUE;
CREATE INDEX decision_file_key IF NOT EXISTS FOR (n:Decision) ON (n.file_key);
CREATE INDEX decision_court IF NOT EXISTS FOR (n:Decision) ON (n.court);
CREATE INDEX decision_date IF NOT EXISTS FOR (n:Decision) ON (n.date);
