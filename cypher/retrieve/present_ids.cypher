// Which of the given unit ids the graph holds (the learned mode drops predicted units of laws
// that were not ingested before fusing; their texts are read later, for the top k only).
UNWIND $ids AS id
MATCH (n:Unit {id: id})
RETURN n.id AS id
