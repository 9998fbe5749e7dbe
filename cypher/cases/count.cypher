// Decisions and their edges in the graph (the summary of `legalkg ingest-cases`).
MATCH (d:Decision)
RETURN count(d) AS decisions,
       sum(COUNT { (d)-[r]->(:Unit) WHERE type(r) STARTS WITH 'CITES_' }) AS cites,
       sum(COUNT { (d)-[:CITES_DECISION]->() }) AS decision_links
