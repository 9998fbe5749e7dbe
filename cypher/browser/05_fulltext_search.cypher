// German full-text search over Sätze (Lucene syntax; the german analyzer stems lightly).
:param q => 'Mieter AND Sicherheit';
CALL db.index.fulltext.queryNodes('fulltext_Satz', $q, {limit: 10}) YIELD node, score
RETURN node.citation AS citation, score, node.text AS text;
