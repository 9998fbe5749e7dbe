// § 433 BGB with its whole subtree (Absätze, Sätze, Nummern, Buchstaben). Paste into Neo4j Browser.
:param id => 'BGB/§433';
MATCH path = (p:Paragraph {id: $id})-[:CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..5]->(u)
RETURN path;
