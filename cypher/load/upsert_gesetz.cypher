// Create/update Gesetz nodes under the Root and mark them unfinished (hash = null) until loaded.
MERGE (root:Root {id: 'ROOT'})
  ON CREATE SET root.name = 'Bundesrecht', root.source = 'gesetze-im-internet.de'
WITH root
UNWIND $laws AS l
MERGE (g:Gesetz {id: l.law})
SET g += l.props, g.hash = null, g.gen = l.gen
MERGE (root)-[e:CONTAINS_GESETZ]->(g)
SET e.gen = l.gen
RETURN count(*) AS n
