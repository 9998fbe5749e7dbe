// How many units a strategy has in the graph (0 = not built).
MATCH (n:StudyUnit {strategy: $strategy}) RETURN count(n) AS n
