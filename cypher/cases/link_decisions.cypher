// CITES_DECISION edges of one batch of citing decisions, written anew: each entry of cites_files is
// 'COURT|FILEKEY' (COURT empty when the citation names none); a decision in the graph with that
// file key (and, where named, a court whose name starts with it: 'OLG' for 'OLG München') is cited.
UNWIND $ids AS id
MATCH (d:Decision {id: id})
CALL (d) {
  MATCH (d)-[old:CITES_DECISION]->()
  DELETE old
}
WITH d
UNWIND d.cites_files AS cited
WITH d, split(cited, '|') AS p
MATCH (t:Decision {file_key: p[1]})
WHERE t <> d AND (p[0] = '' OR t.court STARTS WITH p[0])
MERGE (d)-[e:CITES_DECISION]->(t)
RETURN count(DISTINCT e) AS n
