// :COVERS_SECTION edges from one strategy's units to the § nodes they map to (issue 8: units with
// edges to the sections they cover). Only where the server holds those § nodes: a study server
// without the statute graph keeps the routing in the units' `sections` list alone.
MATCH (n:StudyUnit {strategy: $strategy})
UNWIND n.sections AS sid
MATCH (p:Paragraph {id: sid})
CREATE (n)-[:COVERS_SECTION]->(p)
RETURN count(*) AS n
