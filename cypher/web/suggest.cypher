// "Did you mean" for an id that is not in the graph: which of $ids (the id's own ancestors) exist,
// the laws (key, title) and the §§ of $law (to compare numbers with the one asked for).
RETURN COLLECT { UNWIND $ids AS i MATCH (u:Unit {id: i}) RETURN u.id } + COLLECT { UNWIND $ids AS i MATCH (u:Gliederung {id: i}) RETURN u.id }
       + COLLECT { UNWIND $ids AS i MATCH (u:Gesetz {id: i}) RETURN u.id } AS present,
       COLLECT { MATCH (g:Gesetz) RETURN {id: g.id, title: g.title} } AS laws,
       COLLECT { MATCH (p:Unit {law: $law}) WHERE p:Paragraph WITH p ORDER BY p.order RETURN {id: p.id, citation: p.citation, title: p.title} } AS paras
