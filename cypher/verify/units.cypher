// verify: which of the candidate ids exist (every id a text's citations may denote, most specific
// first, with their ancestors up to the §) and which of the cited laws are in the graph, each with
// whether its load finished (ingest sets Gesetz.hash last). One round trip for a whole text, read only.
CALL {
  UNWIND $ids AS id
  MATCH (n:Unit {id: id})
  RETURN collect({id: n.id, citation: n.citation, text: n.text, level: n.level, title: n.title,
                  repealed: coalesce(n.repealed, false)}) AS units
}
CALL {
  UNWIND $laws AS law
  MATCH (g:Gesetz {id: law})
  RETURN collect({id: g.id, loaded: g.hash IS NOT NULL}) AS laws
}
RETURN units, laws
