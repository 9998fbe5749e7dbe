// Every unit id with its repealed flag (for resolving citations against laws already in the graph).
MATCH (n:Unit)
RETURN n.id AS id, coalesce(n.repealed, false) AS repealed
