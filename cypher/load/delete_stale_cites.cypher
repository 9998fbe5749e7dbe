// Remove CITES edges from reloaded laws' units that their current text no longer makes.
UNWIND $laws AS l
MATCH (n:Unit {law: l.law})-[e]->()
WHERE type(e) STARTS WITH 'CITES_' AND e.gen <> l.gen
DELETE e
RETURN count(*) AS n
