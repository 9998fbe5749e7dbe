// Unit ids with their repealed flag, of laws other than $skip (for resolving citations against
// laws already in the graph; the ids of the laws loaded in this run come from their parse).
MATCH (n:Unit)
WHERE NOT n.law IN $skip
RETURN n.id AS id, coalesce(n.repealed, false) AS repealed
