// The § texts of the given laws, for the statute predictor's bridge (lay words -> statute words).
// Repealed §§ are left out, as the predictor's own training texts leave them out.
MATCH (u:Paragraph)
WHERE u.law IN $laws AND NOT coalesce(u.repealed, false) AND u.text IS NOT NULL
RETURN u.id AS id, u.title AS title, u.text AS text
