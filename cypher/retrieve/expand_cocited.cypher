// Co-cited expansion: the §§ that the predictor's training cases cite most often together with each
// seed's § (legalkg.predict.cocite). The pairs come from the model, in order, strongest first
// (retrieve/expand.py: cocited_pairs); the graph gives each unit's text, and drops a § it lacks.
UNWIND $pairs AS pair
MATCH (t:Unit {id: pair.id})
RETURN pair.seed AS seed, t.id AS id, t.citation AS citation, t.text AS text, t.words AS words,
       t.title AS title, 'cocited' AS via
