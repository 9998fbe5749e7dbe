// Every § text of the graph, for the ranker's candidates over all laws (legalkg.predict.corpus).
// Repealed §§ are left out, as the predictor's training texts leave them out; $laws null means all.
MATCH (u:Paragraph)
WHERE ($laws IS NULL OR u.law IN $laws) AND NOT coalesce(u.repealed, false) AND u.text IS NOT NULL
RETURN u.id AS id, u.title AS title, u.text AS text
