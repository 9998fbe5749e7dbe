// CITES_<target level> edges of one batch, from a decision to the deepest unit a citation names:
// text = the citation as first written, count = how often the decision cites that unit. The
// decisions' old edges were removed (replace.cypher) or never existed, so CREATE.
UNWIND $rows AS r
WITH r.source AS sid, r.target AS tid, r.text AS text, r.count AS times
MATCH (d:Decision {id: sid})
MATCH (t:__TARGET__ {id: tid})
CREATE (d)-[:CITES___TARGET_TYPE__ {text: text, count: times}]->(t)
RETURN count(*) AS n
