// Number of nodes (read from the count store, constant time): a bulk import only fills an empty database.
MATCH (n)
RETURN count(n) AS n
